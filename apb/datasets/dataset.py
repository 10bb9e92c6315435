"""The `Dataset` model shared by every importer: a parsed domain, its problem files, gold plans and NL descriptions."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from apb.datasets.layouts import PlanPair
from apb.domains.registry import natural_key
from apb.engine import ApbError, Domain, Plan, Problem, Task, domain_to_pddl, parse_problem, read_plan
from apb.engine.input_files import MAX_CONFIG_BYTES, MAX_PDDL_BYTES, read_input

_DOMAIN_REF = re.compile(r"\(\s*:domain\s+([^\s()]+)\s*\)", re.IGNORECASE)
_COMMENT = re.compile(r";[^\n]*")
_DESCRIPTION = re.compile(r"domain_description_seed(\d+)\.json$")
_NUMBER = re.compile(r"(\d+)$")
_LISTED = 12  # how many ids an error message lists before "..."

ProblemKey = int | str | Path
TextFilter = Callable[[str, str], str]  # (PDDL text, file name) -> standard PDDL text


class DatasetError(ApbError):
    """A dataset cannot be loaded or used: names the path, what is wrong and what to do."""

    def __init__(self, message: str, *, path: str | Path | None = None, hint: str | None = None) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.hint = hint
        text = f"{self.path}: {message}" if self.path else message
        super().__init__(f"{text} ({hint})" if hint else text)


class UnknownProblemError(DatasetError):
    """A problem id, index or path that is not in the dataset."""


@dataclass(frozen=True)
class ProblemEntry:
    """One problem: a unique id, its file, its gold plan file (or None) and its split.

    `plan_renames` maps object names of the plan file to the problem's names; `Dataset.gold_plan` applies it
    (AutoPlanBench adapted plans whose adapted problem is missing run on the original problem).
    """

    id: str
    path: Path
    plan_path: Path | None
    split: str
    plan_renames: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def stem(self) -> str:
        """The id without its split prefix: `instance-3` for `orig/instance-3`."""
        return self.id.rsplit("/", 1)[-1]


class Dataset:
    """A domain plus problems, optional gold plans and NL descriptions; build one with `load_dataset`.

    `views` name derived splits: a view is a list of problem ids of other splits (AutoPlanBench's `test` is
    `orig` without the few-shot problem). `split(view)` and `only(view)` work as for a stored split."""

    def __init__(self, name: str, layout: str, root: Path, domain_file: Path, domain: Domain,
                 problems: Sequence[ProblemEntry], descriptions: Mapping[int, dict] | None = None,
                 problem_filter: TextFilter | None = None, views: Mapping[str, Sequence[str]] | None = None) -> None:
        self.name = name
        self.layout = layout  # "autoplanbench" | "pddlgym" | "folder"
        self.root = root
        self.domain_file = domain_file
        self.domain = domain
        self.problems: list[ProblemEntry] = list(problems)
        self.descriptions: dict[int, dict] = dict(descriptions or {})
        self._problem_filter = problem_filter
        self._by_id = {entry.id: entry for entry in self.problems}
        self._numbers: list[int] | None = None
        if len(self._by_id) != len(self.problems):
            raise DatasetError("two problems share an id", path=root)
        self.views: dict[str, list[str]] = {view: list(ids) for view, ids in (views or {}).items()}
        for view, ids in self.views.items():
            if view in {entry.split for entry in self.problems}:
                raise DatasetError(f"view {view!r} has the name of a split", path=root)
            if missing := [i for i in ids if i not in self._by_id]:
                raise DatasetError(f"view {view!r} names unknown problems: {', '.join(missing)}", path=root)
        check_problem_domains(self.problems, domain, domain_file)

    def __len__(self) -> int:
        return len(self.problems)

    def __iter__(self) -> Iterator[ProblemEntry]:
        return iter(self.problems)

    def __repr__(self) -> str:
        return (f"Dataset(name={self.name!r}, layout={self.layout!r}, domain={self.domain.name!r}, "
                f"problems={len(self.problems)}, splits={self.splits})")

    @property
    def splits(self) -> list[str]:
        """Split names in the order their problems come, then the views."""
        return [*dict.fromkeys(entry.split for entry in self.problems), *self.views]

    def split(self, name: str) -> list[ProblemEntry]:
        """The problems of one split or view; DatasetError lists the splits when `name` is not one."""
        if name in self.views:
            return [self._by_id[i] for i in self.views[name]]
        entries = [entry for entry in self.problems if entry.split == name]
        if not entries:
            raise DatasetError(f"dataset {self.name!r} has no split {name!r}", path=self.root,
                               hint=f"its splits: {', '.join(self.splits) or 'none'}")
        return entries

    def only(self, split: str) -> Dataset:
        """The same dataset restricted to one split or view (DatasetError naming the splits when there is no such
        split); the entries of a view are relabelled with its name."""
        entries = self.split(split)
        if split in self.views:
            entries = [replace(entry, split=split) for entry in entries]
        return Dataset(self.name, self.layout, self.root, self.domain_file, self.domain, entries,
                       self.descriptions, self._problem_filter)

    def numbers(self) -> list[int]:
        """The problems' numbers as the CLI shows them: the number each id ends with (p07 and instance-7 are 7) when
        every id has one and they are unique, else positions counted from 1."""
        if self._numbers is None:
            found = [problem_number(entry.stem) for entry in self.problems]
            unique = None not in found and len(set(found)) == len(found)
            self._numbers = [int(n) for n in found] if unique else list(range(1, len(self.problems) + 1))
        return self._numbers

    @property
    def numbered(self) -> bool:
        """True when the problems' numbers come from their ids (not from their positions)."""
        return self.numbers() == [problem_number(entry.stem) for entry in self.problems]

    def entry(self, key: ProblemKey) -> ProblemEntry:
        """The problem with this number (an int or a string of digits: `1` and `"1"` are the same problem, see
        `numbers`), id, id without split prefix (if unique) or file path."""
        if isinstance(key, bool) or (not isinstance(key, int | str | os.PathLike) and not hasattr(key, "__index__")):
            raise UnknownProblemError(f"problem {key!r} is not a problem number, id or path", path=self.root,
                                      hint=self._hint())
        if not isinstance(key, str | os.PathLike) or (isinstance(key, str) and key.strip().isdigit()):
            number = int(key)
            for entry, n in zip(self.problems, self.numbers()):
                if n == number:
                    return entry
            raise self._unknown(key, f"no problem number {number} in {self.name!r}")
        text = str(key)
        if isinstance(key, str) and text in self._by_id:
            return self._by_id[text]
        if isinstance(key, str):
            matches = [entry for entry in self.problems if entry.stem == text]
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise UnknownProblemError(f"problem {text!r} is ambiguous in dataset {self.name!r}", path=self.root,
                                          hint=f"use one of {', '.join(e.id for e in matches)}")
        path = Path(text).expanduser()
        if path.is_file():
            resolved = path.resolve()
            for entry in self.problems:
                if entry.path.resolve() == resolved:
                    return entry
        raise self._unknown(key)

    def listed_ids(self) -> str:
        """The first problem ids, for error messages: 'p01, p02, ..., p12, ...'."""
        ids = [entry.id for entry in self.problems]
        return ", ".join(ids[:_LISTED]) + (", ..." if len(ids) > _LISTED else "")

    def _hint(self) -> str:
        if not self.problems:
            return "the dataset has no problems"
        return f"problem numbers here: {number_ranges(self.numbers())}; ids: {self.listed_ids()}"

    def _unknown(self, key: object, reason: str | None = None) -> UnknownProblemError:
        return UnknownProblemError(reason or f"no problem {key!r} in dataset {self.name!r}", path=self.root,
                                   hint=self._hint())

    def domain_text(self) -> str:
        """The domain's PDDL text in standard PDDL: the file as written, or, where the layout needs a filter
        (PDDLGym's action predicates), the parsed domain written back as PDDL."""
        if self._problem_filter is None:
            return read_text(self.domain_file, "domain")
        return domain_to_pddl(self.domain)

    def problem_text(self, key: ProblemKey) -> str:
        """The problem's PDDL text in standard PDDL (PDDLGym's action facts removed, line numbers kept)."""
        entry = self.entry(key)
        text = read_text(entry.path, "problem")
        return self._problem_filter(text, str(entry.path)) if self._problem_filter else text

    def problem(self, key: ProblemKey) -> Problem:
        """The parsed problem; DatasetError if it names another domain."""
        entry = self.entry(key)
        problem = parse_problem(self.problem_text(entry.id), self.domain, str(entry.path))
        if problem.domain_name != self.domain.name:
            raise _mismatch(entry.path, problem.domain_name, self.domain, self.domain_file)
        return problem

    def task(self, key: ProblemKey) -> Task:
        """The grounded task of a problem (index, id or path)."""
        return Task(self.domain, self.problem(key))

    def gold_plan(self, key: ProblemKey) -> Plan | None:
        """The problem's gold plan in the problem's object names, or None when the dataset has none."""
        entry = self.entry(key)
        if entry.plan_path is None:
            return None
        plan = read_plan(entry.plan_path)
        if not entry.plan_renames:
            return plan
        pair = PlanPair(entry.plan_path, entry.path, entry.split, dict(entry.plan_renames))
        return Plan(pair.plan_steps(plan), plan.source, plan.cost)


def read_text(path: Path, what: str, limit: int = MAX_PDDL_BYTES) -> str:
    """A file's text (`apb.engine.input_files.read_input`'s checks); DatasetError naming the file when it cannot be
    read."""
    return read_input(path, f"{what} file", limit=limit, error=lambda reason: DatasetError(reason, path=path))


def problem_number(stem: str) -> int | None:
    """The number a problem id ends with: p07 -> 7, instance-12 -> 12, None for `small`."""
    match = _NUMBER.search(stem)
    return int(match.group(1)) if match else None


def number_ranges(numbers) -> str:
    """[1, 2, 3, 5, 7, 8] -> '1-3, 5, 7-8'."""
    parts: list[str] = []
    for n in sorted(set(numbers)):
        if parts and n == int(parts[-1].rsplit("-", 1)[-1]) + 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def natural_sorted(paths) -> list[Path]:
    """Paths sorted so that instance-2 comes before instance-10."""
    return sorted(paths, key=natural_key)


def read_descriptions(folder: Path) -> dict[int, dict]:
    """Parsed `domain_description_seed<N>.json` files of a folder, keyed by seed N."""
    descriptions: dict[int, dict] = {}
    for path in natural_sorted(folder.glob("domain_description_seed*.json")):
        match = _DESCRIPTION.search(path.name)
        if not match:
            continue
        try:
            data = json.loads(read_text(path, "description", MAX_CONFIG_BYTES))
        except ValueError as err:
            raise DatasetError(f"invalid JSON: {err}", path=path, hint="fix or remove the file") from None
        if not isinstance(data, dict):
            raise DatasetError("expected a JSON object of NL templates", path=path)
        descriptions[int(match.group(1))] = data
    return descriptions


def strip_comments(text: str) -> str:
    """PDDL text without its `;` comments (line breaks kept)."""
    return _COMMENT.sub("", text)


def check_problem_domains(entries: Sequence[ProblemEntry], domain: Domain, domain_file: Path) -> None:
    """Raises DatasetError when a problem's `(:domain NAME)` is not the dataset's domain (a cheap text scan)."""
    for entry in entries:
        text = strip_comments(read_text(entry.path, "problem"))
        match = _DOMAIN_REF.search(text)
        if match and match.group(1).lower() != domain.name:
            raise _mismatch(entry.path, match.group(1).lower(), domain, domain_file)


def _mismatch(problem: Path, name: str, domain: Domain, domain_file: Path) -> DatasetError:
    return DatasetError(f"this problem is for domain {name!r}, but {domain_file} defines domain {domain.name!r}",
                        path=problem, hint="move the problem to a dataset of its own domain, or fix its "
                        "(:domain ...) line if it was meant for this one")

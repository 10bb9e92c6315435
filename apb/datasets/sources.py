"""The one answer to "which problems does this name or path mean?": `resolve(source, split=None)`.

A source is a bundled domain name (`"blocksworld"`), an AutoPlanBench folder, a PDDLGym library domain
(`"pddlgym:baking"`, a PDDLGym domain file or its problem folder), a plain folder with `domain.pddl`, a domain file
with `problems=` (a problem file, a folder of them or a list), a `(domain_file, problems)` pair, or a `Dataset`.
`split=None` gives the source's test problems where it has a test split (bundled `test`, AutoPlanBench `test` =
`orig` without the few-shot copy, PDDLGym `test`), else all of its problems; `split="all"` gives all of them. A
source with a single set of problems (a plain folder) is its own `test` split.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry, natural_sorted, read_text, strip_comments
from apb.datasets.loading import load_dataset
from apb.domains import registry
from apb.engine import load_domain
from apb.engine.input_files import file_problem
from apb.engine.model import Domain

_DEFINES_DOMAIN = re.compile(r"\(\s*define\s*\(\s*domain\b", re.IGNORECASE)
DEFAULT_SPLIT = "test"
ALL_SPLITS = "all"
_DOMAINS: dict[tuple[str, float], Domain] = {}


def cached_domain(path: Path) -> Domain:
    """Parses a domain file once per process (keyed by path and modification time)."""
    key = (str(path.resolve()), path.stat().st_mtime)
    domain = _DOMAINS.get(key)
    if domain is None:
        domain = _DOMAINS[key] = load_domain(path)
    return domain


def is_bundled(source: Any) -> bool:
    """True for the name of a bundled domain (case-insensitive), which wins over a folder of the same name."""
    return isinstance(source, str) and source.lower() in registry.BUNDLED


def bundled(name: str, split: str = DEFAULT_SPLIT) -> Dataset:
    """A bundled domain's split as a Dataset (ids are file stems: p01 ... p20)."""
    domain_path = registry.domain_file(name)
    files = registry.problem_files(name, split)
    if not files:
        raise DatasetError(f"bundled domain {name!r} has no {split!r} problems", path=registry.domain_dir(name),
                           hint=f"its splits: {', '.join(registry.splits(name))}")
    entries = [ProblemEntry(f.stem, f, plan if (plan := registry.plan_file(f)).is_file() else None, split)
               for f in files]
    return Dataset(name.lower(), "bundled", registry.domain_dir(name), domain_path, cached_domain(domain_path),
                   entries)


def from_files(domain_file: str | os.PathLike, problems: Any) -> Dataset:
    """A Dataset from a domain file and problem files: one path, a folder of *.pddl files, or a list."""
    domain_path = Path(domain_file).expanduser()
    if (reason := file_problem(domain_path, "domain file")) is not None:
        raise DatasetError(reason, path=domain_path, hint="pass domain_file= the path of a PDDL domain")
    if problems is None:
        raise DatasetError("no problems given", path=domain_path,
                           hint="pass problem_file= a PDDL problem file or problems= a folder or list of files")
    if isinstance(problems, str | os.PathLike):
        path = Path(problems).expanduser()
        if path.is_dir():
            files = natural_sorted(p for p in path.glob("*.pddl") if p.resolve() != domain_path.resolve())
            if not files:
                raise DatasetError("the folder has no .pddl problem files", path=path)
        else:
            files = [path]
    else:
        files = [Path(p).expanduser() for p in problems]
    for f in files:
        if (reason := file_problem(f, "problem file")) is not None:
            raise DatasetError(reason, path=f)
    entries = []
    seen: set[str] = set()
    for f in files:
        pid = f.stem if f.stem not in seen else str(f)
        seen.add(pid)
        plan = f.with_suffix(".plan")
        entries.append(ProblemEntry(pid, f, plan if plan.is_file() else None, "files"))
    name = domain_path.parent.name if domain_path.stem == "domain" else domain_path.stem
    return Dataset(name, "files", domain_path.parent, domain_path, cached_domain(domain_path), entries)


def resolve(source: Any, split: str | None = None, *, problems: Any = None) -> Dataset:
    """The problems a source means (see the module docstring); DatasetError / UnknownDomainError name the source
    and what exists."""
    if isinstance(source, tuple) and len(source) == 2 and problems is None:
        return _only(from_files(*source), split)
    if is_bundled(source):
        if problems is not None:
            return from_files(registry.domain_file(source), problems)
        return bundled(source.lower(), split or DEFAULT_SPLIT)
    if problems is not None:
        return _only(from_files(source, problems), split)
    if isinstance(source, str | os.PathLike) and _looks_like_name(source):
        from apb.datasets.pddlgym_library import pddlgym_root

        if pddlgym_root() is None:  # a bare name that is neither bundled nor a PDDLGym domain here
            raise registry.UnknownDomainError(
                f"unknown domain {os.fspath(source)!r}: use a bundled domain ({', '.join(registry.domain_names())}),"
                " the path of a dataset folder, or a domain file with problems")
    if isinstance(source, str | os.PathLike) and (single := _single_file(Path(source).expanduser())) is not None:
        return _only(single, split)
    dataset = source if isinstance(source, Dataset) else load_dataset(source)
    return _only(dataset, split)


def _single_file(path: Path) -> Dataset | None:
    """A `.pddl` file given as a source: a problem file with `domain.pddl` beside it or one folder up is a dataset
    of that one problem; a domain file (other than a folder's `domain.pddl` or a PDDLGym domain) is an error that
    says what to pass. None for everything else (folders, PDDLGym files), which `load_dataset` reads."""
    if not path.is_file() or path.suffix.lower() != ".pddl" or path.name == "domain.pddl" or any(
            (path.parent / f"{path.stem}{suffix}").is_dir() for suffix in ("", "_test")):
        return None
    head = strip_comments(read_text(path, "PDDL"))[:4000]
    if _DEFINES_DOMAIN.search(head):
        raise DatasetError("this is a domain file, and a domain alone has no problems to play", path=path,
                           hint="pass a problem file (with the domain as domain.pddl beside it), a folder holding "
                           "domain.pddl and problems, or domain_file= with problem_file=")
    for folder in (path.parent, path.parent.parent):
        if (folder / "domain.pddl").is_file():
            return from_files(folder / "domain.pddl", [path])
    raise DatasetError("a problem file with no domain.pddl beside it or one folder up", path=path,
                       hint="put the domain next to it as domain.pddl, or pass domain_file= with problem_file=")


def _looks_like_name(source: str | os.PathLike) -> bool:
    text = os.fspath(source)
    return bool(text) and not Path(text).expanduser().exists() and "/" not in text and ":" not in text \
        and not text.endswith(".pddl")


def _only(dataset: Dataset, split: str | None) -> Dataset:
    if split == ALL_SPLITS:
        return dataset
    if split in (None, DEFAULT_SPLIT) and DEFAULT_SPLIT not in dataset.splits and len(dataset.splits) <= 1:
        return dataset  # a folder with one set of problems (`apb generate` output, say) is its own test set
    if split is None:
        return dataset.only(DEFAULT_SPLIT) if DEFAULT_SPLIT in dataset.splits else dataset
    return dataset.only(split)


def source_name(source: Any) -> str:
    """The name a source's episodes and report rows go by: the bundled name, or the folder's / file's name."""
    if isinstance(source, Dataset):
        return source.name
    if is_bundled(source):
        return source.lower()
    text = os.fspath(source).rstrip("/")
    if text.lower().startswith("pddlgym:"):
        return text.split(":", 1)[1]
    path = Path(text)
    return path.parent.name if path.name == "domain.pddl" else path.stem if path.suffix == ".pddl" else path.name


def step_limit(dataset: Dataset) -> int:
    """The default episode step limit of a dataset's problems: twice its longest gold/reference plan, at least
    AutoPlanBench's 24 (`apb.domains.registry.step_limit_for`); 24 when it has no plans."""
    return registry.step_limit_for(registry.plan_steps(e.plan_path) for e in dataset.problems if e.plan_path)


def optimal_length(dataset: Dataset, entry: ProblemEntry, gold_plan: list[str] | None) -> int | None:
    """The length of the problem's gold plan when it is known to be optimal (bundled problems and plans of
    `apb generate` folders say so with `; optimal: yes`). AutoPlanBench's gold plans are said to be optimal but are
    not all (gripper instance-11: 22 steps, BFS finds 18), so theirs count as unknown."""
    if gold_plan is None or entry.plan_path is None:
        return None
    if dataset.layout == "bundled":
        return len(gold_plan) if registry.plan_is_optimal(entry.plan_path) else None
    return len(gold_plan) if registry.plan_says_optimal(entry.plan_path) else None

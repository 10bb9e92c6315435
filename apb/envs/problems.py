"""The problem set an environment draws from: a bundled domain's split, PDDL files, or an imported dataset."""

from __future__ import annotations

import os
import re
from pathlib import Path

from apb.datasets import Dataset, ProblemEntry, load_dataset
from apb.datasets.dataset import DatasetError, UnknownProblemError, natural_sorted
from apb.domains import registry
from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.engine.model import Domain

_NUMBER = re.compile(r"(\d+)$")
_DOMAINS: dict[tuple[str, float], Domain] = {}


def cached_domain(path: Path) -> Domain:
    """Parses a domain file once per process (keyed by path and modification time)."""
    key = (str(path.resolve()), path.stat().st_mtime)
    domain = _DOMAINS.get(key)
    if domain is None:
        domain = _DOMAINS[key] = load_domain(path)
    return domain


def bundled_problems(name: str, split: str = "test") -> Dataset:
    """A bundled domain's split as a Dataset (ids are file stems: p01 ... p20)."""
    domain_path = registry.domain_file(name)
    files = registry.problem_files(name, split)
    if not files:
        raise DatasetError(f"bundled domain {name!r} has no {split!r} problems", path=registry.domain_dir(name),
                           hint="splits: test (p01-p20), example (p00); scaled exists for blocksworld, ferry, "
                                "gripper and visitall")
    entries = [ProblemEntry(f.stem, f, registry.plan_file(f) if registry.plan_file(f).is_file() else None, split)
               for f in files]
    return Dataset(name, "bundled", registry.domain_dir(name), domain_path, cached_domain(domain_path), entries)


def file_problems(domain_file: str | os.PathLike, problems) -> Dataset:
    """A Dataset from a domain file and problem files: one path, a folder of *.pddl files, or a list."""
    domain_path = Path(domain_file).expanduser()
    if not domain_path.is_file():
        raise DatasetError("no such domain file", path=domain_path, hint="pass domain_file= the path of a PDDL domain")
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
        if not f.is_file():
            raise DatasetError("no such problem file", path=f)
    entries = []
    seen: set[str] = set()
    for f in files:
        pid = f.stem if f.stem not in seen else str(f)
        seen.add(pid)
        plan = f.with_suffix(".plan")
        entries.append(ProblemEntry(pid, f, plan if plan.is_file() else None, "files"))
    return Dataset(domain_path.stem, "files", domain_path.parent, domain_path, cached_domain(domain_path), entries)


def dataset_problems(source: str | os.PathLike | Dataset, split: str | None = None) -> Dataset:
    """An imported dataset, or only one of its splits (AutoPlanBench: orig, adapted, few_shot; PDDLGym: train,
    test)."""
    dataset = source if isinstance(source, Dataset) else load_dataset(source)
    return dataset if split is None else dataset.only(split)


def problem_number(entry: ProblemEntry) -> int | None:
    """The number a problem id ends with: p07 -> 7, instance-12 -> 12."""
    match = _NUMBER.search(entry.stem)
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


def select(dataset: Dataset, key) -> ProblemEntry:
    """A problem by number (an int: p07 and instance-7 are 7), id, or file path."""
    if isinstance(key, bool):
        raise UnknownProblemError(f"problem {key!r} is not a problem number, id or path", path=dataset.root)
    if isinstance(key, int) or (hasattr(key, "__index__") and not isinstance(key, str)):
        number = int(key)
        for entry in dataset.problems:
            if problem_number(entry) == number:
                return entry
        numbers = [problem_number(e) for e in dataset.problems]
        if None in numbers:  # ids without numbers: fall back to the position in the list
            return dataset.entry(number)
        raise UnknownProblemError(f"no problem number {number} in {dataset.name!r}", path=dataset.root,
                                  hint=f"problem numbers here: {number_ranges(numbers) or 'none'}")
    if isinstance(key, str | os.PathLike):
        return dataset.entry(os.fspath(key))
    raise ApbError(f"problem must be a number, an id or a path, not {type(key).__name__}")


def optimal_length(dataset: Dataset, entry: ProblemEntry, gold_plan: list[str] | None) -> int | None:
    """The length of the problem's gold plan when it is known to be optimal (bundled problems say so).
    AutoPlanBench's gold plans are said to be optimal but are not all (gripper instance-11: 22 steps, BFS finds 18),
    so theirs count as unknown."""
    if gold_plan is None or entry.plan_path is None or dataset.layout != "bundled":
        return None
    return len(gold_plan) if registry.plan_is_optimal(entry.plan_path) else None

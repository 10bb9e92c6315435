"""Plain dataset folders: `domain.pddl`, problem files (in `problems/` or next to the domain), and optionally
gold plans in `plans/` named `<stem>.plan`, `<stem>.txt` or `<stem>_gold_plan.txt` (apb's bundled layout).
"""

from __future__ import annotations

import re
from pathlib import Path

from apb.datasets.dataset import (
    Dataset,
    DatasetError,
    ProblemEntry,
    natural_sorted,
    read_descriptions,
    read_text,
    strip_comments,
)
from apb.datasets.layouts import plan_stem
from apb.engine import load_domain

PLAN_SUFFIXES = (".plan", ".txt", ".soln")
_DOMAIN_HEADER = re.compile(r"\(\s*define\s*\(\s*domain\b", re.IGNORECASE)


def from_folder(folder: str | Path, *, problem_dir: str | Path | None = None,
                plan_dir: str | Path | None = None) -> Dataset:
    """Loads `folder/domain.pddl` with the problems of `problem_dir` (default `problems/` if present, else the
    folder itself) and the plans of `plan_dir` (default `plans/`); ids are the problem file stems.
    """
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise DatasetError("no such folder", path=folder,
                           hint="pass a folder holding domain.pddl and problem files, or a PDDLGym domain name")
    domain_file = folder / "domain.pddl"
    if not domain_file.is_file():
        raise DatasetError("no domain.pddl in this folder", path=folder, hint=_no_domain_hint(folder))
    problems_folder = folder / problem_dir if problem_dir is not None else (
        folder / "problems" if (folder / "problems").is_dir() else folder)
    if not problems_folder.is_dir():
        raise DatasetError("no such problem folder", path=problems_folder)
    problems = natural_sorted(p for p in problems_folder.glob("*.pddl") if p.name != "domain.pddl")
    if not problems:
        raise DatasetError("no problem files (*.pddl other than domain.pddl)", path=problems_folder,
                           hint="put the problems next to domain.pddl or in a problems/ subfolder")
    plans = _plans(folder / (plan_dir if plan_dir is not None else "plans"), problems, explicit=plan_dir is not None)
    split = "problems" if problems_folder == folder else problems_folder.name
    entries = [ProblemEntry(p.stem, p, plans.get(p.stem), split) for p in problems]
    domain = load_domain(domain_file)
    return Dataset(folder.name, "folder", folder, domain_file, domain, entries, read_descriptions(folder))


def _plans(plan_folder: Path, problems: list[Path], *, explicit: bool) -> dict[str, Path]:
    """Problem stem -> plan file; DatasetError for a plan without a problem or two plans for one problem."""
    if not plan_folder.is_dir():
        if explicit:
            raise DatasetError("no such plan folder", path=plan_folder)
        return {}
    stems = {p.stem for p in problems}
    plans: dict[str, Path] = {}
    for plan in natural_sorted(p for p in plan_folder.iterdir() if p.is_file() and p.suffix in PLAN_SUFFIXES):
        stem = plan_stem(plan.name)
        if stem not in stems:
            raise DatasetError(f"gold plan for a missing problem: there is no problem file {stem}.pddl",
                               path=plan, hint="add the problem, rename the plan after its problem "
                               "(<stem>.plan, <stem>.txt or <stem>_gold_plan.txt), or remove it")
        if stem in plans:
            raise DatasetError(f"two plans for problem {stem}: {plans[stem].name} and {plan.name}", path=plan_folder,
                               hint="keep one gold plan per problem")
        plans[stem] = plan
    return plans


def _no_domain_hint(folder: Path) -> str:
    """What to do when a folder has no domain.pddl: name a domain file found under another name, if any."""
    for path in sorted(folder.glob("*.pddl")):
        try:
            head = read_text(path, "PDDL")[:4000]
        except DatasetError:
            continue
        if _DOMAIN_HEADER.search(strip_comments(head)):
            return f"{path.name} looks like the domain: rename it to domain.pddl"
    return ("a dataset folder holds domain.pddl plus problem files; for PDDLGym's library use "
            "from_pddlgym(name, root=...)")

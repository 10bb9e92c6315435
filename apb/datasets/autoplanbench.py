"""AutoPlanBench dataset folders: `domain.pddl`, `orig_problems/`, `adapted_instances/`, the few-shot instance,
their gold-plan folders and `domain_description_seed*.json`.

Plan pairing is `apb.datasets.layouts.plan_pairs` (with its two orphan rules). One more quirk is resolved here:
a `_planbench` folder's adapted plan whose adapted problem is missing and that has no object mapping runs on
the original problem when it is the original gold plan under a consistent one-to-one renaming of objects.
"""

from __future__ import annotations

import re
from pathlib import Path

from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry, read_descriptions, read_text, strip_comments
from apb.datasets.layouts import PlanPair, plan_pairs, plan_stem, problem_files
from apb.domains.registry import natural_key
from apb.engine import Plan, load_domain, read_plan

# split name -> problem folder, in the order of `Dataset.problems`
SPLIT_FOLDERS = {"orig": "orig_problems", "adapted": "adapted_instances", "few_shot": "orig_few_shot_instance"}
# gold-plan folder -> split of the problems it solves
PLAN_SPLITS = {"orig_gold_plans": "orig", "gold_plans": "orig", "adapted_gold_plans": "adapted",
               "orig_few_shot_instance_plan": "few_shot"}


def is_autoplanbench(folder: Path) -> bool:
    """True if the folder has one of AutoPlanBench's problem folders."""
    return any((folder / sub).is_dir() for sub in SPLIT_FOLDERS.values())


def from_autoplanbench(folder: str | Path) -> Dataset:
    """Loads an AutoPlanBench folder: splits `orig`, `adapted`, `few_shot` and the view `test` (the 20 problems of
    `orig` that are not the few-shot example); ids like `orig/instance-3`."""
    folder = Path(folder).expanduser()
    domain_file = folder / "domain.pddl"
    if not folder.is_dir():
        raise DatasetError("not a folder", path=folder, hint="pass an AutoPlanBench dataset folder")
    if not domain_file.is_file():
        raise DatasetError("no domain.pddl in this folder", path=folder,
                           hint="an AutoPlanBench dataset folder holds domain.pddl and orig_problems/")
    if not is_autoplanbench(folder):
        raise DatasetError("not an AutoPlanBench folder: no " + ", ".join(f"{s}/" for s in SPLIT_FOLDERS.values()),
                           path=folder, hint="use from_folder() for a folder of plain problem files")
    domain = load_domain(domain_file)
    entries: dict[str, ProblemEntry] = {}
    for split, sub in SPLIT_FOLDERS.items():
        for path in problem_files(folder, sub):
            entries[f"{split}/{path.stem}"] = ProblemEntry(f"{split}/{path.stem}", path, None, split)
    orphans: list[PlanPair] = []
    for pair in plan_pairs(folder):
        if pair.split not in PLAN_SPLITS:
            continue
        if pair.problem is None:
            orphans.append(pair)
            continue
        split = "few_shot" if pair.problem.parent.name == SPLIT_FOLDERS["few_shot"] else PLAN_SPLITS[pair.split]
        _attach(entries, split, pair)
    for pair in orphans:
        _attach(entries, PLAN_SPLITS[pair.split], _resolve_by_alignment(folder, pair, entries))
    order = list(SPLIT_FOLDERS)
    problems = sorted(entries.values(), key=lambda e: (order.index(e.split), natural_key(Path(e.stem))))
    return Dataset(folder.name, "autoplanbench", folder, domain_file, domain, problems, read_descriptions(folder),
                   views={"test": test_ids(problems)} if any(e.split == "orig" for e in problems) else None)


def test_ids(problems: list[ProblemEntry]) -> list[str]:
    """The ids of the test problems: `orig` without the problem that is also the few-shot example (the paper's
    "21 problems incl. the few-shot one", of which 20 are tested)."""
    examples = {_problem_body(e.path) for e in problems if e.split == "few_shot"}
    return [e.id for e in problems if e.split == "orig" and _problem_body(e.path) not in examples]


_PROBLEM_NAME = re.compile(r"\(\s*problem\s+[^\s()]+\s*\)", re.IGNORECASE)


def _problem_body(path: Path) -> str:
    """A problem file's text without comments, its problem name and layout, for telling copies apart."""
    text = strip_comments(read_text(path, "problem"))
    return " ".join(_PROBLEM_NAME.sub(" ", text).lower().split())


def _attach(entries: dict[str, ProblemEntry], split: str, pair: PlanPair) -> None:
    """Gives the entry of `pair.problem` its plan (the first plan folder wins), creating it when missing."""
    assert pair.problem is not None
    key = f"{split}/{pair.problem.stem}"
    entry = entries.get(key)
    if entry is None:  # the problem lives elsewhere: original problem of an adapted plan, sibling's few-shot
        entries[key] = ProblemEntry(key, pair.problem, pair.plan, split, dict(pair.rename))
    elif entry.plan_path is None and entry.path == pair.problem:
        entries[key] = ProblemEntry(key, entry.path, pair.plan, split, dict(pair.rename))


def _resolve_by_alignment(folder: Path, pair: PlanPair, entries: dict[str, ProblemEntry]) -> PlanPair:
    """An orphan adapted plan that is the original gold plan with objects renamed runs on the original problem."""
    stem = plan_stem(pair.plan.name)
    original = entries.get(f"orig/{stem}")
    if pair.split == "adapted_gold_plans" and original is not None and original.plan_path is not None:
        rename = aligned_renaming(read_plan(pair.plan), read_plan(original.plan_path))
        if rename is not None:
            return PlanPair(pair.plan, original.path, pair.split, rename)
    raise DatasetError(f"gold plan for a missing problem: no {stem}.pddl for it in this dataset", path=pair.plan,
                       hint=f"add the problem to {folder}/{SPLIT_FOLDERS[PLAN_SPLITS[pair.split]]}/ "
                       "(or an object mapping to instance_object_mappings.json), or remove the plan")


def aligned_renaming(plan: Plan, reference: Plan) -> dict[str, str] | None:
    """The object renaming that turns `plan` into `reference` step by step, if one consistent bijection does."""
    if len(plan) != len(reference):
        return None
    rename: dict[str, str] = {}
    for step, ref in zip(plan.steps, reference.steps):
        name, *args = step.text.strip("()").split()
        ref_name, *ref_args = ref.text.strip("()").split()
        if name != ref_name or len(args) != len(ref_args):
            return None
        for arg, ref_arg in zip(args, ref_args):
            if rename.setdefault(arg, ref_arg) != ref_arg:
                return None
    if len(set(rename.values())) != len(rename):
        return None
    return rename

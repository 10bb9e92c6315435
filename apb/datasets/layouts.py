"""Dataset folders: a `domain.pddl` with problem folders and matching gold-plan folders.

Understands AutoPlanBench's layout (`orig_problems/` + `orig_gold_plans/`, `adapted_instances/` +
`adapted_gold_plans/`, PlanBench's `gold_plans/`, the few-shot instance) and apb's own (`problems/` + `plans/`).
A plan `X_gold_plan.txt` or `X.plan` / `X.txt` belongs to the problem `X.pddl`. Two AutoPlanBench quirks are
resolved: an adapted plan whose adapted problem is missing belongs to the original problem with objects renamed
by `instance_object_mappings.json`, and a `*_planbench` few-shot plan belongs to the sibling dataset's few-shot
problem when both use the same domain file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from apb.domains.registry import natural_key
from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_CONFIG_BYTES, kind_of, read_input
from apb.engine.plan_files import Plan, PlanStep

# (plan folder, problem folders to look in, in order)
PLAN_FOLDERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("orig_gold_plans", ("orig_problems", "orig_few_shot_instance")),
    ("gold_plans", ("orig_problems", "orig_few_shot_instance")),
    ("adapted_gold_plans", ("adapted_instances",)),
    ("orig_few_shot_instance_plan", ("orig_few_shot_instance",)),
    ("plans", ("problems",)),
)
_PLAN_SUFFIX = re.compile(r"(_gold_plan)?(\.plan|\.txt|\.soln)?$")


@dataclass(frozen=True)
class PlanPair:
    """A gold plan and the problem it solves (`problem` is None when no problem file matches)."""

    plan: Path
    problem: Path | None
    split: str  # the plan folder's name
    rename: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # plan object -> problem object

    def plan_steps(self, plan: Plan) -> list[PlanStep]:
        """The plan's steps with objects renamed to the problem's names (line numbers kept)."""
        if not self.rename:
            return list(plan.steps)
        renamed = []
        for step in plan.steps:
            name, *args = step.text.strip("()").split()
            renamed.append(PlanStep("(" + " ".join([name, *(self.rename.get(a, a) for a in args)]) + ")", step.line))
        return renamed


def plan_stem(name: str) -> str:
    """The problem stem a plan file belongs to: `p01` for `p01.plan`, `p01.txt` or `p01_gold_plan.txt`."""
    return _PLAN_SUFFIX.sub("", name)


def dataset_domain(folder: str | Path) -> Path:
    """The `domain.pddl` of a dataset folder; raises ApbError when there is none."""
    folder = Path(folder)
    if not folder.is_dir():
        kind = kind_of(folder)
        raise ApbError(f"{folder}: {'no such folder' if kind is None else f'this is {kind}, not a folder'} (expected "
                       "a dataset folder with domain.pddl)")
    domain = folder / "domain.pddl"
    if not domain.is_file():
        raise ApbError(f"{folder}: no domain.pddl in this folder")
    return domain


def plan_pairs(folder: str | Path) -> list[PlanPair]:
    """Every gold plan of a dataset folder with its problem, in a stable order."""
    folder = Path(folder)
    pairs: list[PlanPair] = []
    for plan_dir, problem_dirs in PLAN_FOLDERS:
        plans = folder / plan_dir
        if not plans.is_dir():
            continue
        for plan in sorted((p for p in plans.iterdir() if p.is_file()), key=natural_key):
            stem = plan_stem(plan.name)
            problem = None
            for problem_dir in problem_dirs:
                candidate = folder / problem_dir / f"{stem}.pddl"
                if candidate.is_file():
                    problem = candidate
                    break
            pairs.append(PlanPair(plan, problem, plan_dir) if problem else _resolve_orphan(folder, plan, stem))
    return pairs


def _resolve_orphan(folder: Path, plan: Path, stem: str) -> PlanPair:
    split = plan.parent.name
    if split == "adapted_gold_plans":
        original = folder / "orig_problems" / f"{stem}.pddl"
        mapping_file = folder / "instance_object_mappings.json"
        if original.is_file() and mapping_file.is_file():
            try:
                text = read_input(mapping_file, "object mapping file", limit=MAX_CONFIG_BYTES)
                mapping = json.loads(text).get(f"{stem}.pddl") or {}
            except ValueError as err:
                raise ApbError(f"{mapping_file}: cannot read the object mapping: {err}") from None
            if mapping:
                rename = {str(new).lower(): str(old).lower() for old, new in mapping.items()}
                return PlanPair(plan, original, split, rename)
    if folder.name.endswith("_planbench"):
        sibling = folder.parent / folder.name.removesuffix("_planbench")
        candidate = sibling / "orig_few_shot_instance" / f"{stem}.pddl"
        same_domain = (sibling / "domain.pddl").is_file() and (
            (sibling / "domain.pddl").read_bytes() == (folder / "domain.pddl").read_bytes())
        if candidate.is_file() and same_domain:
            return PlanPair(plan, candidate, split)
    return PlanPair(plan, None, split)


def problem_files(folder: str | Path, split: str = "orig_problems") -> list[Path]:
    """The problem files of one split of a dataset folder, naturally sorted."""
    path = Path(folder) / split
    if not path.is_dir():
        return []
    return sorted(path.glob("*.pddl"), key=natural_key)

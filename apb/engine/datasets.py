"""Dataset folders: a `domain.pddl` with problem folders and matching gold-plan folders.

Understands AutoPlanBench's layout (`orig_problems/` + `orig_gold_plans/`, `adapted_instances/` +
`adapted_gold_plans/`, PlanBench's `gold_plans/`, the few-shot instance) and apb's own (`problems/` + `plans/`).
A plan `X_gold_plan.txt` or `X.plan` / `X.txt` belongs to the problem `X.pddl`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from apb.engine.errors import ApbError

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


def natural_key(path: Path) -> tuple:
    """Sorts instance-2 before instance-10."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name))


def dataset_domain(folder: str | Path) -> Path:
    """The `domain.pddl` of a dataset folder; raises ApbError when there is none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ApbError(f"{folder}: not a directory (expected a dataset folder with domain.pddl)")
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
            stem = _PLAN_SUFFIX.sub("", plan.name)
            problem = None
            for problem_dir in problem_dirs:
                candidate = folder / problem_dir / f"{stem}.pddl"
                if candidate.is_file():
                    problem = candidate
                    break
            pairs.append(PlanPair(plan, problem, plan_dir))
    return pairs


def problem_files(folder: str | Path, split: str = "orig_problems") -> list[Path]:
    """The problem files of one split of a dataset folder, naturally sorted."""
    path = Path(folder) / split
    if not path.is_dir():
        return []
    return sorted(path.glob("*.pddl"), key=natural_key)

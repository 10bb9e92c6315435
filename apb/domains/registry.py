"""The bundled domains: where their files are, their generators, their problem sets and statistics.

A bundled domain is a folder `apb/domains/<name>/` with `domain.pddl`, `generator.py`, `problems/pNN.pddl` and
`plans/pNN.plan` (p00 is the one-shot example, p01-p20 the test set), and for some domains `scaled/problems/`
and `scaled/plans/`, or a study's own problems in `study/problems/` and `study/plans/` (Baking: the closed-loop
study's four problems, split `study`).
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

from apb.domains.paper import AUTOPLANBENCH_STEP_LIMIT
from apb.engine import load_domain, read_plan
from apb.engine.errors import ApbError
from apb.engine.loader import load_problem

DOMAINS_DIR = Path(__file__).resolve().parent
# The 12 domains of the AutoPlanBench paper, then Gripper (one robot, two rooms) for scaling, then Baking (the
# kitchen of the closed-loop relational planning study).
BUNDLED = ("blocksworld", "depot", "ferry", "floortile", "goldminer", "grid", "grippers", "logistics", "movie",
           "rovers", "satellite", "visitall", "gripper", "baking")
# The folder of each domain in the AutoPlanBench reference data, where the name differs.
REFERENCE_NAMES = {"grippers": "gripper", "movie": "movie-complex", "gripper": "gripper"}
SPLITS = ("example", "test", "scaled", "study")  # study: a study's own problems in <domain>/study/ (baking)


def natural_key(path: Path) -> tuple:
    """Sorts instance-2 before instance-10 (by file name)."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name))


class UnknownDomainError(ApbError):
    """A domain name that is not bundled."""


def domain_names() -> list[str]:
    """The bundled domains that are present in this installation, in the paper's order."""
    return [name for name in BUNDLED if (DOMAINS_DIR / name / "domain.pddl").is_file()]


def domain_dir(name: str) -> Path:
    """The folder of a bundled domain; raises UnknownDomainError naming the available ones."""
    key = name.lower()
    folder = DOMAINS_DIR / key
    if key not in BUNDLED or not (folder / "domain.pddl").is_file():
        raise UnknownDomainError(f"unknown domain {name!r}: bundled domains are {', '.join(domain_names())}")
    return folder


def domain_file(name: str) -> Path:
    return domain_dir(name) / "domain.pddl"


def generator(name: str) -> ModuleType:
    """The generator module of a bundled domain (`generate(seed, **params)`, `PARAMETERS`, `suite(split)`)."""
    domain_dir(name)
    return importlib.import_module(f"apb.domains.{name.lower()}.generator")


def split_dirs(name: str, split: str) -> tuple[Path, Path]:
    """(problems folder, plans folder) of a split: example and test share problems/ and plans/."""
    if split not in SPLITS:
        raise ApbError(f"unknown split {split!r}: use one of {', '.join(SPLITS)}")
    base = domain_dir(name)
    if split in ("scaled", "study"):
        base = base / split
    return base / "problems", base / "plans"


def problem_files(name: str, split: str = "test") -> list[Path]:
    """The problem files of a split in order (example: p00; test: p01-p20; scaled: all of scaled/)."""
    problems, _ = split_dirs(name, split)
    files = sorted(problems.glob("*.pddl"), key=natural_key) if problems.is_dir() else []
    if split == "example":
        return [f for f in files if f.stem == "p00"]
    if split == "test":
        return [f for f in files if f.stem != "p00"]
    return files


def plan_file(problem: Path) -> Path:
    """The gold plan that belongs to a bundled problem file."""
    return problem.parent.parent / "plans" / f"{problem.stem}.plan"


@dataclass(frozen=True)
class SplitStats:
    """Averages over one split of one domain, as in the paper's Table 6."""

    name: str
    split: str
    problems: int
    avg_optimal_plan_length: float
    avg_goal_facts: float
    avg_init_facts: float
    avg_objects: float
    actions: int
    predicates: int
    types: int
    optimal_plans: int  # how many gold plans are proven optimal (all, except in scaled sets)

    def to_dict(self) -> dict:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def plan_is_optimal(plan_path: Path) -> bool:
    """Bundled gold plans say `; optimal: no` when they come from a satisficing planner."""
    return "; optimal: no" not in plan_path.read_text(encoding="utf-8")


def plan_says_optimal(plan_path: Path) -> bool:
    """A plan file of another folder counts as optimal only when it says so (`; optimal: yes`, as `apb generate`
    writes)."""
    try:
        return "; optimal: yes" in plan_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def plan_steps(plan_path: Path) -> int:
    """The number of actions in a plan file (lines that start with '(' once comments are removed)."""
    try:
        text = plan_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    return sum(1 for line in text.splitlines() if line.split(";", 1)[0].strip().startswith("("))


def step_limit_for(plan_lengths: Iterable[int]) -> int:
    """The default episode step limit for problems whose gold/reference plans have these lengths: twice the longest,
    and never below AutoPlanBench's 24, so every problem can be solved within it with room for mistakes."""
    return max([AUTOPLANBENCH_STEP_LIMIT, *(2 * n for n in plan_lengths)])


def bundled_step_limit(name: str, split: str | None = None) -> int:
    """`step_limit_for` over a bundled domain's gold plans in one split, or over all its splits (the registered
    default of its env id, which serves every split)."""
    chosen = [split] if split else splits(name)
    return step_limit_for(plan_steps(p) for s in chosen for f in problem_files(name, s)
                          if (p := plan_file(f)).is_file())


def splits(name: str) -> list[str]:
    """The splits a bundled domain has problems in."""
    return [split for split in SPLITS if problem_files(name, split)]


def split_stats(name: str, split: str) -> SplitStats | None:
    """Table-6 style statistics of a split, or None when the split has no problems."""
    files = problem_files(name, split)
    if not files:
        return None
    domain = _domain(name)
    lengths, goals, inits, objects, optimal = [], [], [], [], 0
    for path in files:
        problem = load_problem(path, domain)
        plan_path = plan_file(path)
        lengths.append(len(read_plan(plan_path)))
        optimal += plan_is_optimal(plan_path)
        goals.append(len(problem.goal))
        inits.append(len(problem.init))
        objects.append(len(problem.objects))
    n = len(files)
    return SplitStats(name, split, n, sum(lengths) / n, sum(goals) / n, sum(inits) / n, sum(objects) / n,
                      len(domain.actions), len(domain.predicates), len(domain.types), optimal)


@cache
def _domain(name: str):
    return load_domain(domain_file(name))


@cache
def paper_table6() -> dict[str, dict[str, float]]:
    """The paper's Table 6 rows by bundled domain name."""
    raw = json.loads((DOMAINS_DIR / "paper_table6.json").read_text(encoding="utf-8"))
    columns = raw["_columns"]
    return {name: dict(zip(columns, values)) for name, values in raw.items() if not name.startswith("_")}

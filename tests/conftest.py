"""Shared test helpers: the engine's own test data and the AutoPlanBench reference data.

The reference (read-only data from the AutoPlanBench repository) lives at `$APB_REFERENCE`, or by default at
`../shared/reference/autoplanbench` next to the repository. Tests that need it fail (never skip) when it is
missing, with a message saying where it was looked for.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from apb.engine import ActionSchema, Literal, PDDLWarning, State, Task, load_domain, load_task


def pytest_configure(config) -> None:
    """Tests never write into the user's home (an llm.sqlite appeared in ~/.cache/apb): the answer cache, matplotlib's
    config and Ray's files go to a fresh temporary folder, also for the subprocesses tests start (they inherit the
    environment)."""
    import tempfile

    folder = tempfile.mkdtemp(prefix="apb-test-cache-")
    config._apb_cache_dir = folder
    os.environ["APB_CACHE_DIR"] = folder
    os.environ["MPLCONFIGDIR"] = os.path.join(folder, "matplotlib")
    # a new local Ray instance writes an auth token to ~/.ray unless its auth mode is set; the tests' instance is
    # local to this machine and its processes
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    # the IPC 2023 Learning Track's public benchmark (apb/IPC2023-*-v0, ipc2023:<domain>) is the user's folder, as
    # $APB_IPC2023 says; the tests use the reference copy
    os.environ.setdefault("APB_IPC2023", str(Path(__file__).resolve().parents[1].parent / "shared" / "reference"
                                             / "ipc2023-learning"))
    # A run started in the background by a shell without job control (`pytest &`, `nohup ... &`) ignores SIGINT,
    # and so would every `apb` subprocess the Ctrl-C tests interrupt: give SIGINT its Python handler back (a
    # subprocess then starts with the default disposition and raises KeyboardInterrupt as a user's terminal would).
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_unconfigure(config) -> None:
    """The temporary cache folder goes when the run ends (runs left one each in the system temp dir)."""
    import shutil

    folder = getattr(config, "_apb_cache_dir", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


TESTS_DIR = Path(__file__).resolve().parent
ENGINE_DATA = TESTS_DIR / "data" / "engine"
BAD_DATA = ENGINE_DATA / "bad"

REFERENCE_ENV = "APB_REFERENCE"
DEFAULT_REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "autoplanbench"

# The reference has 12 main datasets, 4 `_scaled` ones (bigger problems) and 3 `_planbench` ones (PlanBench NL).
EXPECTED_DATASETS = {"main": 12, "scaled": 4, "planbench": 3}

# Split name -> (problem folder, plan folder). `gold_plans` exists only in `_planbench` datasets: the same
# plans as `orig_gold_plans` for the same `orig_problems`, plus a `; cost = k` line.
SPLITS = {
    "orig": ("orig_problems", "orig_gold_plans"),
    "adapted": ("adapted_instances", "adapted_gold_plans"),
    "planbench_gold": ("orig_problems", "gold_plans"),
    "few_shot": ("orig_few_shot_instance", "orig_few_shot_instance_plan"),
}
PLAN_SUFFIX = "_gold_plan.txt"


def reference_root() -> Path | None:
    """The reference folder if it exists, else None."""
    configured = os.environ.get(REFERENCE_ENV)
    root = Path(configured).expanduser() if configured else DEFAULT_REFERENCE
    return root.resolve() if root.is_dir() else None


def missing_reference_message() -> str:
    configured = os.environ.get(REFERENCE_ENV)
    where = f"${REFERENCE_ENV}={configured}" if configured else f"{DEFAULT_REFERENCE} (default)"
    return (f"AutoPlanBench reference data not found at {where}. Set {REFERENCE_ENV} to the folder that holds "
            "blocksworld/, logistics/, ... (the data of github.com/minecraft-saar/autoplanbench).")


def require_reference() -> Path:
    """The reference folder; fails the calling test (never skips it) when the folder is missing."""
    root = reference_root()
    if root is None:
        pytest.fail(missing_reference_message(), pytrace=False)
    return root


def dataset_kind(name: str) -> str:
    if name.endswith("_scaled"):
        return "scaled"
    if name.endswith("_planbench"):
        return "planbench"
    return "main"


def reference_datasets() -> list[str]:
    """Every dataset folder of the reference, sorted; empty when the reference is missing."""
    root = reference_root()
    if root is None:
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / "domain.pddl").is_file())


def dataset_params() -> list:
    """`pytest.param` per dataset for parametrize; one failing placeholder when the reference is missing."""
    names = reference_datasets()
    if not names:
        return [pytest.param(None, id="reference-missing")]
    return [pytest.param(name, id=name) for name in names]


def dataset_dir(name: str | None) -> Path:
    root = require_reference()
    if name is None:  # the placeholder of `dataset_params`: the reference is present now but was not at collection
        pytest.fail(missing_reference_message(), pytrace=False)
    return root / name


def instance_number(path: Path) -> int:
    match = re.search(r"instance-(\d+)", path.name)
    return int(match.group(1)) if match else -1


@dataclass(frozen=True)
class GoldCase:
    """A domain, a problem and its gold plan; `rename` maps plan object names to the problem's names."""

    dataset: str
    split: str
    domain: Path
    problem: Path
    plan: Path
    rename: tuple[tuple[str, str], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.dataset}/{self.split}/{self.problem.stem}"


def gold_cases(dataset: str, split: str) -> list[GoldCase]:
    """(domain, problem, plan) for every problem of a split that has a plan, by instance number."""
    folder = dataset_dir(dataset)
    problem_dir, plan_dir = (folder / sub for sub in SPLITS[split])
    if not plan_dir.is_dir():
        return []
    cases = []
    for problem in sorted(problem_dir.glob("*.pddl"), key=instance_number):
        plan = plan_dir / (problem.stem + PLAN_SUFFIX)
        if plan.is_file():
            cases.append(GoldCase(dataset, split, folder / "domain.pddl", problem, plan))
    return cases


def problems_without_plan(dataset: str) -> list[Path]:
    folder = dataset_dir(dataset)
    missing = []
    for problem_sub, plan_sub in SPLITS.values():
        if not (folder / plan_sub).is_dir():
            continue
        for problem in (folder / problem_sub).glob("*.pddl"):
            if not (folder / plan_sub / (problem.stem + PLAN_SUFFIX)).is_file():
                missing.append(problem)
    return sorted(missing)


def orphan_plans(dataset: str) -> list[Path]:
    """Gold plans whose problem file is not in the matching problem folder."""
    folder = dataset_dir(dataset)
    orphans = []
    for problem_sub, plan_sub in SPLITS.values():
        if not (folder / plan_sub).is_dir():
            continue
        for plan in (folder / plan_sub).glob("*" + PLAN_SUFFIX):
            if not (folder / problem_sub / (plan.name[: -len(PLAN_SUFFIX)] + ".pddl")).is_file():
                orphans.append(plan)
    return sorted(orphans)


def resolve_orphan(dataset: str, plan: Path) -> GoldCase | None:
    """The problem an orphan gold plan belongs to, where the reference says so, else None.

    - `adapted_gold_plans/instance-N` without `adapted_instances/instance-N`: the renamed plan of
      `orig_problems/instance-N`; `instance_object_mappings.json` gives the renaming.
    - `X_planbench/orig_gold_plans/instance-0`: the one-shot example, `X/orig_few_shot_instance/instance-0`,
      when X has the same domain file.
    """
    folder = dataset_dir(dataset)
    stem = plan.name[: -len(PLAN_SUFFIX)]
    if plan.parent.name == "adapted_gold_plans":
        mapping_file = folder / "instance_object_mappings.json"
        problem = folder / "orig_problems" / f"{stem}.pddl"
        if mapping_file.is_file() and problem.is_file():
            mapping = json.loads(mapping_file.read_text(encoding="utf-8")).get(f"{stem}.pddl")
            if mapping:
                rename = tuple(sorted((new.lower(), old.lower()) for old, new in mapping.items()))
                return GoldCase(dataset, "adapted_orphan", folder / "domain.pddl", problem, plan, rename)
    if plan.parent.name == "orig_gold_plans" and dataset.endswith("_planbench"):
        sibling = folder.parent / dataset.removesuffix("_planbench")
        problem = sibling / "orig_few_shot_instance" / f"{stem}.pddl"
        same_domain = (sibling / "domain.pddl").is_file() and (
            (sibling / "domain.pddl").read_bytes() == (folder / "domain.pddl").read_bytes())
        if problem.is_file() and same_domain:
            return GoldCase(dataset, "orig_orphan", folder / "domain.pddl", problem, plan)
    return None


def all_gold_cases(dataset: str) -> list[GoldCase]:
    """Every gold plan of a dataset with its problem: the four splits plus the orphans we can resolve."""
    cases = [case for split in SPLITS for case in gold_cases(dataset, split)]
    cases.extend(c for c in (resolve_orphan(dataset, p) for p in orphan_plans(dataset)) if c is not None)
    return cases


def smallest_and_largest_orig_problem(dataset: str) -> list[Path]:
    """The smallest and the largest `orig_problems` file (by size, then instance number)."""
    problems = sorted(dataset_dir(dataset).joinpath("orig_problems").glob("*.pddl"),
                      key=lambda p: (p.stat().st_size, instance_number(p)))
    return [problems[0], problems[-1]] if len(problems) > 1 else problems


@cache
def reference_domain(dataset: str):
    """The parsed domain of a dataset (undeclared-requirement warnings silenced; tested separately)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        return load_domain(dataset_dir(dataset) / "domain.pddl")


@cache
def reference_task(dataset: str, problem: Path) -> Task:
    """A grounded reference task, cached: tasks are immutable so tests may share them."""
    return load_task(reference_domain(dataset), problem)


def first_ipc_problem(folder: str) -> tuple[Path, Path]:
    """(domain file, problem file) of the first problem of an IPC reference folder, paired as
    benchmarks/ipc_coverage.py pairs them; skips the test when the folder is missing."""
    import sys

    ipc = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "ipc-classical"
    if not (ipc / folder).is_dir():
        pytest.skip(f"IPC reference folder missing: {ipc / folder}")
    benchmarks = str(Path(__file__).resolve().parents[1] / "benchmarks")
    if benchmarks not in sys.path:
        sys.path.insert(0, benchmarks)
    from ipc_coverage import problem_pairs

    return problem_pairs(ipc / folder)[0]


def engine_data(*parts: str) -> Path:
    """A file of the engine's own test data (tests/data/engine/...)."""
    path = ENGINE_DATA.joinpath(*parts)
    assert path.is_file(), f"missing test data file {path}"
    return path


@pytest.fixture(scope="session")
def reference() -> Path:
    """The AutoPlanBench reference folder (the test fails when it is missing)."""
    return require_reference()


# ---- a brute-force oracle built from the lifted model only -------------------------------------------------

def ground_literal(lit: Literal, binding: dict[str, str]) -> str:
    """`(on a b)`, `(not (on a b))`, `(= a b)` for a lifted literal under a binding."""
    atom = "(" + " ".join((lit.predicate, *(binding.get(a, a) for a in lit.args))) + ")"
    return atom if lit.positive else f"(not {atom})"


def literal_holds(lit: Literal, binding: dict[str, str], true_facts: frozenset[str] | set[str]) -> bool:
    args = [binding.get(a, a) for a in lit.args]
    if lit.predicate == "=":
        return (args[0] == args[1]) == lit.positive
    return ("(" + " ".join((lit.predicate, *args)) + ")" in true_facts) == lit.positive


class LiftedOracle:
    """PDDL semantics by brute force over every well-typed binding of every action schema.

    Uses only the lifted model (`task.domain`, `task.problem`, `task.objects`) and fact strings; never the
    engine's grounding, fact ids or masks. Static facts (of predicates no effect mentions) are computed here
    from the problem's init, and bindings that violate a static or equality precondition are set aside once.
    """

    def __init__(self, task: Task) -> None:
        self.task = task
        domain = task.domain
        self.fluent_predicates = frozenset(e.predicate for a in domain.actions for e in a.effects)
        self.static_facts = frozenset(
            "(" + " ".join((lit.predicate, *lit.args)) + ")" for lit in task.problem.init
            if lit.predicate not in self.fluent_predicates)
        self.init_facts = frozenset("(" + " ".join((lit.predicate, *lit.args)) + ")" for lit in task.problem.init)
        self.schemas = {schema.name: schema for schema in domain.actions}
        self.pools = {schema.name: [self.objects_of(p.types) for p in schema.parameters]
                      for schema in domain.actions}
        # bindings whose static and equality preconditions hold: (name, fluent checks [(fact, wanted)])
        self.candidates: list[tuple[str, list[tuple[str, bool]]]] = []
        self.num_bindings = 0
        for schema in domain.actions:
            fluent = [lit for lit in schema.precondition if lit.predicate in self.fluent_predicates]
            fixed = [lit for lit in schema.precondition if lit.predicate not in self.fluent_predicates]
            for args in itertools.product(*self.pools[schema.name]):
                self.num_bindings += 1
                binding = self.binding(schema, args)
                if all(literal_holds(lit, binding, self.static_facts) for lit in fixed):
                    checks = [(ground_literal(Literal(lit.predicate, lit.args), binding), lit.positive)
                              for lit in fluent]
                    self.candidates.append((self.action_text(schema.name, args), checks))

    def ancestors(self, type_name: str) -> set[str]:
        chain = {type_name, "object"}
        parent = self.task.domain.types.get(type_name)
        while parent is not None and parent not in chain:
            chain.add(parent)
            parent = self.task.domain.types.get(parent)
        return chain

    def objects_of(self, types: tuple[str, ...]) -> list[str]:
        """Every object (constants included) whose type is one of `types` or a subtype of one."""
        return sorted(o for o, t in self.task.objects.items() if self.ancestors(t) & set(types))

    @staticmethod
    def binding(schema: ActionSchema, args: Iterable[str]) -> dict[str, str]:
        return dict(zip((p.name for p in schema.parameters), args))

    @staticmethod
    def action_text(name: str, args: Iterable[str]) -> str:
        return "(" + " ".join((name, *args)) + ")"

    def true_facts(self, state: State) -> frozenset[str]:
        return self.task.facts(state) | self.static_facts

    def applicable(self, state: State) -> list[str]:
        """Sorted texts of the applicable ground actions."""
        facts = self.task.facts(state)
        return sorted(text for text, checks in self.candidates
                      if all((fact in facts) == wanted for fact, wanted in checks))

    def split(self, text: str) -> tuple[ActionSchema, dict[str, str]]:
        name, *args = text[1:-1].split()
        schema = self.schemas[name]
        return schema, self.binding(schema, args)

    def unmet(self, state: State, text: str) -> list[str]:
        """The preconditions of the action that do not hold, in the order the domain writes them."""
        schema, binding = self.split(text)
        facts = self.true_facts(state)
        return [ground_literal(lit, binding) for lit in schema.precondition
                if not literal_holds(lit, binding, facts)]

    def successor_facts(self, state: State, text: str) -> frozenset[str]:
        """The fluent facts after the action: delete effects first, then add effects."""
        schema, binding = self.split(text)
        deleted = {ground_literal(Literal(e.predicate, e.args), binding) for e in schema.delete_effects}
        added = {ground_literal(e, binding) for e in schema.add_effects}
        return (self.task.facts(state) - deleted) | added

    def unsatisfied_goals(self, state: State) -> list[str]:
        facts = self.true_facts(state)
        return [ground_literal(lit, {}) for lit in self.task.goal if not literal_holds(lit, {}, facts)]

    def random_action(self, rng) -> str:
        """A uniformly drawn well-typed ground action text (applicable or not)."""
        name = rng.choice(sorted(n for n, pools in self.pools.items() if all(pools)))
        return self.action_text(name, [rng.choice(pool) for pool in self.pools[name]])

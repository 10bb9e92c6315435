"""IPC classical domains that cover every construct: they load, ground, random-walk and survive the writer; and,
where the optional tools are installed, the engine agrees with pymimir (applicable actions, every successor,
derived atoms, costs, goal tests along random walks) and with Fast Downward (its plans validate with its cost,
apb's A* finds its optimal cost, and mutated plans get the verdict a brute-force interpreter gives)."""

from __future__ import annotations

import random
import re
import sys
import warnings
from pathlib import Path

import pytest
from test_engine_adl_reference import BruteForce

from apb.engine import domain_to_pddl, load_domain, load_problem, parse_domain, problem_to_pddl
from apb.engine.task import Task

ROOT = Path(__file__).resolve().parents[1]
IPC = ROOT.parent / "shared" / "reference" / "ipc-classical"
sys.path.insert(0, str(ROOT / "benchmarks"))
from ipc_coverage import problem_pairs  # noqa: E402  (the benchmark's pairing of problems with domain files)

# Domain folder -> what it covers.
COVERAGE = {
    "elevators-opt08-strips": "action costs with static functions",
    "transport-opt08-strips": "action costs",
    "parcprinter-08-strips": "action costs, per-problem domain files",
    "woodworking-opt08-strips": "action costs, either types",
    "miconic-fulladl": "imply, exists, forall, or, conditional effects",
    "schedule": "conditional effects in forall, quantified conditions",
    "assembly": "forall/exists/or preconditions, conditional effects",
    "airport-adl": "negated exists, forall effects, when",
    "psr-small": "STRIPS compilation of PSR",
    "psr-middle": "derived predicates",
    "philosophers": "derived predicates with nested quantifiers",
    "openstacks": "forall effects, costs-free ADL",
    "trucks": "forall preconditions",
    "zenotravel": "'(aircraft?a)' without a space",
}


def first_task(folder: str, index: int = 0) -> tuple[Task, Path, Path]:
    domain_file, problem_file = problem_pairs(IPC / folder)[index]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        domain = load_domain(domain_file)
        problem = load_problem(problem_file, domain)
    return Task(domain, problem), domain_file, problem_file


def walk(task: Task, steps: int, seed: int):
    """Yields (state, applicable actions) along a seeded random walk."""
    rng = random.Random(seed)
    state = task.initial_state
    for _ in range(steps):
        options = task.applicable(state)
        yield state, options
        if not options:
            return
        state = task.apply(state, rng.choice(options))


@pytest.mark.parametrize("folder", sorted(COVERAGE))
def test_ipc_domain_loads_grounds_and_walks(folder):
    assert (IPC / folder).is_dir(), f"missing IPC reference folder {IPC / folder}"
    task, _, _ = first_task(folder)
    assert task.actions
    for state, options in walk(task, 30, seed=1):
        assert len(set(options)) == len(options)
        for action in options[:5]:
            assert task.explain(state, action) == []
    problem = task.problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = parse_domain(domain_to_pddl(task.domain))
        reread = load_problem(problem_to_pddl(problem), again)
    assert again.actions == task.domain.actions and again.axioms == task.domain.axioms
    assert (reread.goal, reread.complex_goal, reread.init) == (problem.goal, problem.complex_goal, problem.init)


# ---- pymimir ----------------------------------------------------------------------------------------------------

def _norm(text: str) -> str:
    return "(" + " ".join(text.strip("() ").lower().split()) + ")"


def mimir_task(domain_file: Path, problem_file: Path, tmp_path: Path):
    """pymimir's grounded task on the same files (its parser wants :derived-predicates declared)."""
    pymimir = pytest.importorskip("pymimir")
    text = domain_file.read_text()
    if "(:derived" in text:  # pymimir is strict about requirements the IPC files leave out
        text = re.sub(r"\(:requirements", "(:requirements :adl :derived-predicates", text, count=1, flags=re.I)
    path = tmp_path / "domain.pddl"
    path.write_text(text)
    domain = pymimir.Domain(str(path))
    return domain, pymimir.Problem(domain, str(problem_file), mode="grounded")


MIMIR_DOMAINS = ["elevators-opt08-strips", "woodworking-opt08-strips", "miconic-fulladl", "schedule", "assembly",
                 "airport-adl", "psr-middle", "philosophers", "openstacks", "trucks"]


@pytest.mark.parametrize("folder", MIMIR_DOMAINS)
def test_random_walks_agree_with_pymimir(folder, tmp_path):
    task, domain_file, problem_file = first_task(folder)
    _, mproblem = mimir_task(domain_file, problem_file, tmp_path)

    def mimir_facts(state) -> set[str]:
        atoms = {str(a) for a in state.get_atoms(ignore_static=True)}
        return {_norm(a) for a in atoms if _norm(a)[1:].split(" ")[0].rstrip(")") in
                set(task.domain.predicates)}

    def ours(state) -> set[str]:
        return set(task.facts(state))

    rng = random.Random(7)
    state, mstate = task.initial_state, mproblem.get_initial_state()
    for _ in range(12):
        assert ours(state) == mimir_facts(mstate)
        assert task.is_goal(state) == mproblem.get_goal_condition().holds(mstate)
        theirs = {}
        for action in mstate.generate_applicable_actions():
            theirs.setdefault(_norm(str(action)), action)
        options = task.applicable(state)
        assert {str(a) for a in options} == set(theirs)
        for action in options:
            successor, cost = theirs[str(action)].apply(mstate, return_cost=True)
            assert ours(task.successor(state, action)) == mimir_facts(successor), str(action)
            assert task.cost(action) == cost
        if not options:
            break
        action = rng.choice(options)
        state, mstate = task.apply(state, action), theirs[str(action)].apply(mstate)


# ---- Fast Downward ----------------------------------------------------------------------------------------------

FD_CASES = [("miconic-fulladl", 1), ("schedule", 0), ("psr-small", 0), ("zenotravel", 0), ("airport-adl", 0),
            ("transport-opt08-strips", 0), ("psr-middle", 0)]


def brute_verdict(brute: BruteForce, plan: list[str]) -> bool:
    """Whether `plan` is valid by direct evaluation of the lifted PDDL."""
    atoms = brute.initial()
    for step in plan:
        name, *args = step.strip("()").split()
        schema = brute.domain.action(name)
        binding = dict(zip((p.name for p in schema.parameters), args))
        if not brute.holds(schema.condition, atoms, binding):
            return False
        atoms = brute.successor(atoms, schema, binding)
    return brute.is_goal(atoms)


@pytest.mark.parametrize(("folder", "index"), FD_CASES)
def test_fast_downward_plans_costs_and_mutations(folder, index):
    from ipc_coverage import fast_downward

    from apb.planners import astar
    from apb.planners.downward import is_available
    if not is_available():
        pytest.skip("optional extra: pip install 'apb[planners]' (up-fast-downward)")
    task, domain_file, problem_file = first_task(folder, index)
    plan, cost, status = fast_downward(domain_file, problem_file, "eager_greedy([ff()])", 60)
    assert status == "solved", status
    check = task.validate(plan)
    assert check.valid, check.reason
    assert check.cost == cost
    plan, optimum, status = fast_downward(domain_file, problem_file, "astar(lmcut())", 60)
    if status == "unsupported":
        plan, optimum, status = fast_downward(domain_file, problem_file, "astar(blind())", 60)
    assert status == "solved", status
    assert task.validate(plan).cost == optimum
    result = astar(task, timeout=20)
    if result.solved:  # where both finish within the budget, the costs agree
        assert task.validate(result.plan).cost == optimum
    brute = BruteForce(task.domain, task.problem)
    dropped = [plan[:i] + plan[i + 1:] for i in range(len(plan))]
    swapped = [[*plan[:i], plan[i + 1], plan[i], *plan[i + 2:]] for i in range(len(plan) - 1)]
    for mutant in [plan, *dropped[:5], *swapped[:5]]:
        assert task.validate(mutant).valid == brute_verdict(brute, [m.lower() for m in mutant]), mutant

"""Optimal search with action costs: h_max and LM-cut count the task's costs (not one per cut), stay below the
optimal cost on every reachable state, A* finds the cost that uniform-cost search and Fast Downward find, and
`apb solve --json` reports the plan's cost beside its length."""

from __future__ import annotations

import heapq
import json
import math
import sys
import warnings
from pathlib import Path

import pytest

from apb.cli import main
from apb.engine import Task, load_task
from apb.planners import HMax, LMCut, astar, solve

ROOT = Path(__file__).resolve().parents[1]
ADL = ROOT / "tests" / "data" / "adl"
IPC = ROOT.parent / "shared" / "reference" / "ipc-classical"
sys.path.insert(0, str(ROOT / "benchmarks"))
from ipc_coverage import problem_pairs  # noqa: E402  (the benchmark's pairing of problems with domain files)

# IPC problems with real action costs that uniform-cost search still solves in seconds: (folder, problem index).
# nomystery's costs are 0 and 1, the others' vary (parcprinter's run into the hundreds of thousands).
COST_CASES = [("nomystery-opt11-strips", 0), ("parcprinter-08-strips", 0), ("scanalyzer-08-strips", 0),
              ("pegsol-08-strips", 0)]
# Where uniform-cost search takes minutes, Fast Downward still checks the optimum.
FD_COST_CASES = [*COST_CASES, ("data-network-opt18-strips", 0)]


def roads() -> Task:
    return load_task(ADL / "costs-domain.pddl", ADL / "costs-p01.pddl")


def ipc_task(folder: str, index: int) -> Task:
    if not (IPC / folder).is_dir():
        pytest.skip(f"IPC reference folder missing: {IPC / folder}")
    domain_file, problem_file = problem_pairs(IPC / folder)[index]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_task(domain_file, problem_file)


def optimal_cost(task: Task, state) -> float:
    """h* by Dijkstra written with the engine's public API only (independent of the planners)."""
    best = {state: 0}
    heap = [(0, 0, state)]
    seq = 1
    while heap:
        g, _, current = heapq.heappop(heap)
        if g != best[current]:
            continue
        if task.is_goal(current):
            return g
        for action in task.applicable(current):
            child = task.apply(current, action)
            cost = g + task.cost(action)
            if cost < best.get(child, math.inf):
                best[child] = cost
                heapq.heappush(heap, (cost, seq, child))
                seq += 1
    return math.inf


def test_hmax_and_lmcut_count_the_action_costs():
    task = roads()
    bits = task.initial_state.bits
    assert HMax(task)(bits) == 12  # the three roads cost 3 + 4 + 5; h_max sees the costliest chain
    h, landmarks = LMCut(task).evaluate_costs(bits)
    assert h == 12 == sum(cost for _, cost in landmarks)
    assert LMCut(task)(bits) == 12
    assert LMCut(task).evaluate(bits)[0] < 12  # counting each cut as 1 would be far weaker
    for cut, cost in landmarks:
        assert cost > 0 and all(task.actions[op].cost >= cost for op in cut)


def test_heuristics_never_exceed_the_optimal_cost_on_any_reachable_state():
    task = roads()
    hmax, lmcut = HMax(task), LMCut(task)
    seen = {task.initial_state}
    frontier = [task.initial_state]
    while frontier:
        state = frontier.pop()
        assert hmax(state.bits) <= lmcut(state.bits) <= optimal_cost(task, state), sorted(task.facts(state))
        for action in task.applicable(state):
            child = task.apply(state, action)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) > 4


@pytest.mark.parametrize(("folder", "index"), COST_CASES)
def test_astar_with_lmcut_finds_the_uniform_cost_optimum(folder, index):
    task = ipc_task(folder, index)
    assert task.has_costs and task.is_strips
    ours = astar(task, timeout=120)
    assert ours.status == "solved", ours.message
    uniform = solve(task, "ucs", timeout=120)
    assert uniform.status == "solved", uniform.message
    assert task.validate(ours.plan).valid
    assert ours.plan_cost == uniform.plan_cost == task.validate(uniform.plan).cost
    assert ours.expanded <= uniform.expanded  # an informed heuristic never expands more than blind search
    lmcut = LMCut(task)
    assert lmcut(task.initial_state.bits) <= ours.plan_cost


@pytest.mark.parametrize(("folder", "index"), FD_COST_CASES)
def test_astar_with_lmcut_finds_fast_downwards_optimum(folder, index):
    from apb.planners.downward import is_available
    if not is_available():
        pytest.skip("optional extra: pip install 'apb[planners]' (up-fast-downward)")
    task = ipc_task(folder, index)
    theirs = solve(task, "fd-opt", timeout=120)
    assert theirs.status == "solved", theirs.message
    ours = astar(task, timeout=120)
    assert ours.status == "solved", ours.message
    assert ours.plan_cost == theirs.plan_cost


def test_solve_json_reports_cost_beside_length(capsys):
    code = main(["solve", str(ADL / "costs-domain.pddl"), str(ADL / "costs-p01.pddl"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["status"] == "solved"
    assert data["plan_length"] == 4 and data["cost"] == 12  # drive a-b-c-d and look: 3 + 4 + 5 + 0
    code = main(["solve", str(ADL / "costs-domain.pddl"), str(ADL / "costs-nometric.pddl"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["cost"] == data["plan_length"] == 2  # without a metric each action costs 1
    code = main(["solve", str(ADL / "costs-domain.pddl"), str(ADL / "costs-p01.pddl"), "--planner", "bfs",
                 "--max-nodes", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["cost"] is None and data["plan_length"] is None


def test_solve_text_reports_the_cost(capsys):
    code = main(["solve", str(ADL / "costs-domain.pddl"), str(ADL / "costs-p01.pddl")])
    err = capsys.readouterr().err
    assert code == 0 and "plan length 4, cost 12" in err


@pytest.mark.parametrize("folder", ["nomystery-opt11-strips", "elevators-opt08-strips", "scanalyzer-08-strips"])
def test_the_bucket_exploration_equals_dijkstra_on_zero_one_costs(folder):
    """`explore` (a stack per h_max level) settles facts in the order `explore_costs` does (the last reached
    first among equal values, as Fast Downward), so the values, precondition choices and cuts are the same."""
    import random

    from apb.planners.relaxed import relaxed_task

    task = ipc_task(folder, 0)
    relaxed = relaxed_task(task)
    buckets, dijkstra = LMCut(task), LMCut(task)
    buckets._explore, dijkstra._explore = relaxed.explore, relaxed.explore_costs
    rng = random.Random(2)
    state = task.initial_state
    compared = 0
    for _ in range(25):
        facts = relaxed.state_facts(state.bits)
        for costs in (relaxed.cost, [c if rng.random() < 0.7 else 0 for c in relaxed.cost]):
            assert relaxed.explore(facts, costs) == relaxed.explore_costs(facts, costs)
            assert buckets.find_cut(facts, costs) == dijkstra.find_cut(facts, costs)
            compared += 1
        options = task.applicable(state)
        state = task.apply(state, rng.choice(options)) if options else task.initial_state
    assert compared == 50


def test_unit_cost_lmcut_matches_fast_downwards_expansions_on_nomystery():
    """With Fast Downward's tie-breaking among equal h_max values, A* + LM-cut on nomystery-opt11 p04 expands
    190 states (Fast Downward's astar(lmcut()): 201; the breadth-first choice expanded 593)."""
    result = astar(ipc_task("nomystery-opt11-strips", 1), timeout=None)
    assert result.status == "solved" and result.plan_length == 19
    assert result.expanded <= 1.5 * 201

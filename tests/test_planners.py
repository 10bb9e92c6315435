"""Planners: heuristic values checked by hand on tiny tasks, optimal plans on all 252 AutoPlanBench reference
problems, budgets and statuses, the random walk, and the Fast Downward backend.

The reference lives at `$APB_REFERENCE` or `../shared/reference/autoplanbench` next to the repository; tests
that need it fail (never skip) when it is missing. Optimal lengths come from `data/planners/optimal_lengths.json`
(Fast Downward's A* + LM-cut): 82 reference gold plans are valid but longer than optimal, so optimal planners
are checked against that table and against the gold plans as upper bounds.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import conftest
import pytest
from conftest import require_reference as reference_root

import apb.engine.errors
import apb.planners.downward as fd_backend
from apb.domains.registry import domain_dir, domain_file
from apb.engine import Task, load_task, read_plan
from apb.errors import ApbError
from apb.planners import (
    FF,
    PLANNERS,
    STATUSES,
    Blind,
    GoalCount,
    HAdd,
    HMax,
    LMCut,
    SearchResult,
    astar,
    breadth_first_search,
    fast_downward,
    random_walk,
    solve,
)

DATA = Path(__file__).resolve().parent / "data" / "planners"
MAIN_DATASETS = ("blocksworld", "depot", "ferry", "floortile", "goldminer", "grid", "gripper", "logistics",
                 "movie-complex", "rovers", "satellite", "visitall")
OPTIMAL: dict[str, dict[str, int]] = {name: lengths for name, lengths in
                                      json.loads((DATA / "optimal_lengths.json").read_text()).items()
                                      if not name.startswith("_")}
CASES = [pytest.param(dataset, instance, id=f"{dataset}/{instance}")
         for dataset in MAIN_DATASETS for instance in OPTIMAL[dataset]]
SMALL_CASES = [case for case in CASES if OPTIMAL[case.values[0]][case.values[1]] <= 8]
TIMEOUT = 60.0
ASTAR_NODES = 200_000  # A*'s budget in expansions (the largest run of the reference, floortile instance-25, ~48k)
HARD = ("floortile", "instance-25")  # the longest A* run of the reference: about 10-20 s


# ---- helpers ---------------------------------------------------------------------------------------------------
def reference_task(dataset: str, instance: str) -> Task:
    return conftest.reference_task(dataset, reference_root() / dataset / "orig_problems" / f"{instance}.pddl")


def gold_plan(dataset: str, instance: str) -> list[str]:
    plan = read_plan(reference_root() / dataset / "orig_gold_plans" / f"{instance}_gold_plan.txt")
    assert plan.cost == len(plan.steps), "the '; cost = k' comment disagrees with the number of actions"
    return [step.text for step in plan.steps]


def tiny_task(name: str, problem: int = 1) -> Task:
    return load_task(DATA / f"{name}-domain.pddl", DATA / f"{name}-p{problem:02d}.pddl")


def action_index(task: Task, text: str) -> int:
    return task.parse_action(text).index


def states_along(task: Task, plan: list[str]) -> list[int]:
    """State bits before each step of a plan, and after the last."""
    state = task.initial_state
    states = [state.bits]
    for step in plan:
        state = task.apply(state, step)
        states.append(state.bits)
    return states


def assert_valid(task: Task, result: SearchResult) -> None:
    assert result.plan is not None, result.message
    check = task.validate(result.plan)
    assert check.valid, check.reason
    assert result.plan_length == len(result.plan)


# ---- the reference: optimal lengths and gold plans ---------------------------------------------------------------
def test_optimal_table_covers_the_reference_problems():
    root = reference_root()
    assert sum(len(lengths) for lengths in OPTIMAL.values()) == 252
    for dataset in MAIN_DATASETS:
        problems = {p.stem for p in (root / dataset / "orig_problems").glob("instance-*.pddl")}
        assert problems == set(OPTIMAL[dataset]), dataset
        assert len(problems) == 21


@pytest.mark.parametrize(("dataset", "instance"), CASES)
def test_astar_finds_an_optimal_plan(dataset, instance):
    task = reference_task(dataset, instance)
    result = solve(task, "astar", timeout=None, max_nodes=ASTAR_NODES)  # a count, not a clock: loaded CI machines
    assert result.status == "solved", result.message
    assert result.planner == "astar" and result.heuristic == "lmcut"
    assert_valid(task, result)
    assert result.plan_length == OPTIMAL[dataset][instance]
    assert result.plan_length <= len(gold_plan(dataset, instance))
    assert result.expanded <= result.generated and result.evaluated > 0 and result.seconds > 0


@pytest.mark.parametrize("dataset", MAIN_DATASETS)
def test_lmcut_lies_between_hmax_and_the_remaining_gold_plan(dataset):
    """Along every gold plan: h_max <= LM-cut <= steps left (a plan suffix bounds h*), incremental LM-cut too."""
    for instance, optimal in OPTIMAL[dataset].items():
        task = reference_task(dataset, instance)
        hmax, lmcut = HMax(task), LMCut(task)
        plan = gold_plan(dataset, instance)
        states = states_along(task, plan)
        assert lmcut(states[0]) <= optimal
        landmarks: tuple = ()
        for i, bits in enumerate(states):
            left = len(plan) - i
            h, found = lmcut.evaluate(bits)
            assert hmax(bits) <= h <= left, (instance, i)
            assert len(found) == h
            if i:  # the parent's landmarks without the action taken still hold here
                action = action_index(task, plan[i - 1])
                inherited = tuple(lm for lm in landmarks if action not in lm)
                h_inc, _ = lmcut.evaluate(bits, inherited)
                assert len(inherited) <= h_inc <= left, (instance, i)
            landmarks = found
        assert lmcut(states[-1]) == 0 and hmax(states[-1]) == 0


@pytest.mark.parametrize(("dataset", "instance"), SMALL_CASES)
def test_breadth_first_search_finds_the_same_lengths(dataset, instance):
    task = reference_task(dataset, instance)
    result = breadth_first_search(task, timeout=TIMEOUT)
    assert result.status == "solved", result.message
    assert_valid(task, result)
    assert result.plan_length == OPTIMAL[dataset][instance]


@pytest.mark.parametrize(("dataset", "instance"), CASES)
def test_greedy_search_finds_a_valid_plan(dataset, instance):
    task = reference_task(dataset, instance)
    result = solve(task, "gbfs", timeout=TIMEOUT)
    assert result.status == "solved", result.message
    assert result.heuristic == "ff"
    assert_valid(task, result)
    assert result.plan_length >= OPTIMAL[dataset][instance]


@pytest.mark.parametrize(("dataset", "instance"), SMALL_CASES)
def test_greedy_search_with_preferred_operators_finds_a_valid_plan(dataset, instance):
    task = reference_task(dataset, instance)
    result = solve(task, "gbfs", timeout=TIMEOUT, preferred=True)
    assert result.status == "solved" and result.extra == {"preferred": True}, result.message
    assert_valid(task, result)
    assert result.plan_length >= OPTIMAL[dataset][instance]


def test_preferred_operators_are_the_relaxed_plan_and_need_h_ff():
    task = tiny_task("chain")
    value, helpful = FF(task).relaxed_plan(task.initial_state.bits)
    assert value == FF(task)(task.initial_state.bits) == len(helpful)  # unit costs: one action per relaxed step
    assert set(task.applicable_ids(task.initial_state.bits)) & helpful
    for problem in (2, 3):
        assert solve(tiny_task("vase", problem), "gbfs", preferred=True).status == "unsolvable"
    with pytest.raises(ApbError, match="h_FF"):
        solve(task, "gbfs", heuristic="hadd", preferred=True)
    with pytest.raises(ApbError, match="apply to gbfs"):
        solve(task, "astar", preferred=True)


# ---- heuristics on tiny tasks, values computed by hand ------------------------------------------------------------
@pytest.mark.parametrize(("name", "expected"), [
    ("chain", {"blind": 1, "goal-count": 1, "hmax": 4, "lmcut": 4, "hadd": 4, "ff": 4}),
    ("landmarks", {"blind": 1, "goal-count": 2, "hmax": 2, "lmcut": 3, "hadd": 3, "ff": 3}),
    ("shared", {"blind": 1, "goal-count": 2, "hmax": 1, "lmcut": 1, "hadd": 2}),
    ("switches", {"blind": 1, "goal-count": 2, "hmax": 1, "lmcut": 1, "hadd": 1, "ff": 1}),
    ("vase", {"blind": 1, "goal-count": 1, "hmax": 1, "lmcut": 1, "hadd": 1, "ff": 1}),
])
def test_heuristic_values_on_tiny_tasks(name, expected):
    task = tiny_task(name)
    classes = {"blind": Blind, "goal-count": GoalCount, "hmax": HMax, "lmcut": LMCut, "hadd": HAdd, "ff": FF}
    got = {key: classes[key](task)(task.initial_state.bits) for key in expected}
    assert got == expected


def test_lmcut_finds_one_landmark_per_action_where_hmax_sees_one_chain():
    task = tiny_task("landmarks")
    h, landmarks = LMCut(task).evaluate(task.initial_state.bits)
    assert h == 3
    assert sorted(sorted(str(task.actions[op]) for op in lm) for lm in landmarks) == [
        ["(make-x)"], ["(make-y)"], ["(make-z)"]]
    shared = tiny_task("shared")
    _, (only,) = LMCut(shared).evaluate(shared.initial_state.bits)
    assert "(make-both)" in {str(shared.actions[op]) for op in only}


def test_relaxation_heuristics_see_a_dead_end():
    task = tiny_task("vase")
    dead = task.apply(task.initial_state, "(smash)").bits
    for heuristic in (HMax, LMCut, HAdd, FF):
        assert heuristic(task)(dead) == math.inf, heuristic.name
    assert LMCut(task).evaluate(dead) == (math.inf, ())
    assert GoalCount(task)(dead) == 1  # not a relaxation: it cannot tell
    result = astar(task)
    assert result.plan_strings() == ["(finish)"]


def optimal_cost(task: Task, state) -> float:
    """h* by a breadth-first search written with the engine's public API only (independent of the planners)."""
    if task.is_goal(state):
        return 0
    seen = {state}
    frontier = [state]
    depth = 0
    while frontier:
        depth += 1
        following = []
        for parent in frontier:
            for action in task.applicable(parent):
                child = task.apply(parent, action)
                if child in seen:
                    continue
                if task.is_goal(child):
                    return depth
                seen.add(child)
                following.append(child)
        frontier = following
    return math.inf


@pytest.mark.parametrize(("name", "problem"), [("chain", 1), ("landmarks", 1), ("shared", 1), ("switches", 1),
                                               ("vase", 1), ("vase", 2)])
def test_hmax_lmcut_and_optimal_cost_are_ordered_on_every_reachable_state(name, problem):
    task = tiny_task(name, problem)
    hmax, lmcut = HMax(task), LMCut(task)
    seen = {task.initial_state}
    frontier = [task.initial_state]
    while frontier:
        state = frontier.pop()
        assert hmax(state.bits) <= lmcut(state.bits) <= optimal_cost(task, state), sorted(task.facts(state))
        for action in task.applicable(state):
            successor = task.apply(state, action)
            if successor not in seen:
                seen.add(successor)
                frontier.append(successor)
    assert len(seen) > 1


# ---- statuses and budgets ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("planner", ["bfs", "astar", "gbfs", "lazy-gbfs"])
def test_unsolvable_tasks_are_reported(planner):
    for problem in (2, 3):  # unsolvable through deletes only / already without deletes
        result = solve(tiny_task("vase", problem), planner)
        assert result.status == "unsolvable", (problem, result)
        assert result.plan is None and result.plan_length is None
        assert result.message
    assert solve(tiny_task("vase", 2), planner).expanded >= 1


def test_astar_with_hmax_is_optimal_too():
    for dataset, instance in [("blocksworld", "instance-1"), ("logistics", "instance-12"), ("visitall", "instance-1"),
                              ("ferry", "instance-12")]:
        task = reference_task(dataset, instance)
        result = astar(task, heuristic="hmax")
        assert result.status == "solved" and result.heuristic == "hmax"
        assert_valid(task, result)
        assert result.plan_length == OPTIMAL[dataset][instance]
    switches = tiny_task("switches")
    for planner in ("bfs", "astar"):
        assert sorted(solve(switches, planner).plan_strings()) == ["(turn-off l2)", "(turn-on l1)"]


@pytest.mark.parametrize(("planner", "heuristic"), [("bfs", None), ("astar", None), ("astar", "hmax"),
                                                     ("astar", "blind"), ("gbfs", None), ("lazy-gbfs", None)])
def test_max_nodes_stops_with_node_limit(planner, heuristic):
    task = reference_task(*HARD)
    result = solve(task, planner, max_nodes=5, heuristic=heuristic)
    assert result.status == "node_limit"
    assert result.expanded == 5 and result.generated > 0
    assert result.plan is None and "5" in result.message


@pytest.mark.parametrize("planner", ["bfs", "astar", "gbfs", "lazy-gbfs", "random"])
def test_a_zero_timeout_stops_with_timeout(planner):
    task = reference_task(*HARD)
    result = solve(task, planner, timeout=0.0)
    assert result.status == "timeout"
    assert result.plan is None and "time limit" in result.message
    assert result.seconds >= 0


def test_goal_initial_state_gives_the_empty_plan():
    there = tiny_task("chain", 2)
    for planner in ("bfs", "astar", "gbfs", "lazy-gbfs", "random"):
        result = solve(there, planner)
        assert result.status == "solved" and result.plan == [], planner


def test_solve_rejects_bad_requests_with_clear_errors():
    task = tiny_task("chain")
    with pytest.raises(ApbError, match=r"unknown planner 'dfs'.*bfs, astar, ucs, gbfs, lazy-gbfs, random, fd-opt"):
        solve(task, "dfs")
    with pytest.raises(ApbError, match="admissible"):
        solve(task, "astar", heuristic="ff")
    with pytest.raises(ApbError, match="unknown heuristic 'hm'"):
        solve(task, "astar", heuristic="hm")
    with pytest.raises(ApbError, match="bfs takes no heuristic"):
        solve(task, "bfs", heuristic="hmax")
    with pytest.raises(ApbError, match="max_steps"):
        solve(task, "astar", max_steps=3)
    with pytest.raises(ApbError, match="max_nodes"):
        solve(task, "random", max_nodes=3)
    with pytest.raises(ApbError, match="needs a knowledge file"):
        solve(task, "learned")
    with pytest.raises(ApbError, match="astar takes no search"):
        solve(task, "astar", search="policy")
    assert PLANNERS == ("bfs", "astar", "ucs", "gbfs", "lazy-gbfs", "random", "fd-opt", "fd-sat", "learned")


def test_results_convert_to_json():
    task = reference_task("blocksworld", "instance-1")
    result = solve(task, "astar")
    data = json.loads(json.dumps(result.to_dict()))
    assert data["status"] == "solved" and data["status"] in STATUSES
    assert data["plan"] == [str(a) for a in result.plan] and data["plan_length"] == 4
    assert {"planner", "heuristic", "expanded", "generated", "evaluated", "seconds", "message"} <= set(data)
    failed = solve(task, "astar", max_nodes=0).to_dict()
    assert failed["plan"] is None and failed["plan_length"] is None and failed["status"] == "node_limit"


def test_planners_are_deterministic():
    task = reference_task("logistics", "instance-12")
    for planner in ("bfs", "astar", "gbfs", "lazy-gbfs"):
        first, second = solve(task, planner), solve(task, planner)
        assert first.plan == second.plan and first.expanded == second.expanded, planner


# ---- the random walk ----------------------------------------------------------------------------------------------
def test_random_walk_is_reproducible_for_a_seed():
    task = reference_task("logistics", "instance-12")
    walks = {}
    for seed in range(5):
        first = solve(task, "random", seed=seed)
        second = random_walk(task, seed=seed)
        assert first.to_dict() | {"seconds": 0} == second.to_dict() | {"seconds": 0}
        walk = first.extra["walk"]
        assert first.status == "step_limit" and len(walk) == 24 and first.expanded == 24
        task.run(walk)  # every step was applicable
        walks[seed] = tuple(walk)
    assert len(set(walks.values())) > 1, "different seeds should give different walks"


def test_random_walk_can_reach_the_goal_and_honours_max_steps():
    task = reference_task("blocksworld", "instance-5")  # optimal length 2
    solved = [r for r in (random_walk(task, seed=seed) for seed in range(200)) if r.status == "solved"]
    assert solved, "no seed in 0..199 reached a goal two steps away within 24 steps"
    for result in solved:
        assert_valid(task, result)
        assert result.plan_length <= 24
    short = solve(task, "random", max_steps=1, seed=0)
    assert short.status == "step_limit" and len(short.extra["walk"]) == 1 and "1 random steps" in short.message


def test_random_walk_stops_where_no_action_applies():
    task = tiny_task("vase", 2)
    result = random_walk(task, seed=3)
    assert result.status == "step_limit" and len(result.extra["walk"]) == 1
    assert "no applicable action" in result.message


# ---- Fast Downward -------------------------------------------------------------------------------------------------
# Note: `import up_fast_downward` needs the separate `unified_planning` package, which `apb[planners]` does not
# install, so pytest.importorskip("up_fast_downward") would skip even where Fast Downward works. The tests skip
# only when the backend itself cannot find the driver.
needs_fast_downward = pytest.mark.skipif(not fd_backend.is_available(),
                                         reason="optional extra: pip install 'apb[planners]'")


@needs_fast_downward
@pytest.mark.parametrize("dataset", MAIN_DATASETS)
def test_fast_downward_finds_optimal_and_valid_plans(dataset):
    instance = max(OPTIMAL[dataset], key=lambda name: (OPTIMAL[dataset][name] <= 12, OPTIMAL[dataset][name]))
    task = reference_task(dataset, instance)
    optimal = fast_downward(task, "opt", timeout=TIMEOUT)
    assert optimal.status == "solved", optimal.message
    assert optimal.planner == "fd-opt" and optimal.heuristic == "lmcut"
    assert_valid(task, optimal)
    assert optimal.plan_length == OPTIMAL[dataset][instance]
    assert 0 < optimal.expanded <= optimal.generated
    satisficing = solve(task, "fd-sat", timeout=TIMEOUT)
    assert satisficing.status == "solved", satisficing.message
    assert_valid(task, satisficing)


@needs_fast_downward
def test_fast_downward_reports_unsolvable_tasks_and_reads_every_feature():
    assert solve(tiny_task("vase", 2), "fd-opt").status == "unsolvable"
    assert solve(tiny_task("switches"), "fd-opt").plan_length == 2  # negative preconditions and goals
    features = solve(tiny_task("features"), "fd-opt")  # either, constants, equality, a parameterless action
    assert features.plan_strings() == ["(start)", "(drive t1 shop home)", "(park t1)"]


def test_fast_downward_missing_raises_a_clear_error(monkeypatch):
    monkeypatch.setattr(fd_backend, "find_spec", lambda name: None)
    with pytest.raises(ApbError) as caught:
        solve(tiny_task("chain"), "fd-opt")
    assert str(caught.value) == "Fast Downward is not installed: pip install 'apb[planners]'"
    assert isinstance(caught.value, apb.engine.errors.ApbError)
    assert not fd_backend.is_available()


@pytest.mark.parametrize(("code", "status"), [(11, "unsolvable"), (10, "unsolvable"), (23, "timeout"),
                                              (22, "error"), (12, "error"), (35, "error")])
def test_fast_downward_exit_codes_map_to_statuses(monkeypatch, tmp_path, code, status):
    monkeypatch.setattr(fd_backend, "find_driver", lambda: tmp_path / "fast-downward.py")
    monkeypatch.setattr(fd_backend, "_run", lambda command, cwd, timeout: (code, "Expanded 7 state(s).\n"))
    result = fast_downward(tiny_task("chain"), "sat", timeout=3)
    assert (result.status, result.expanded, result.planner) == (status, 7, "fd-sat")
    assert result.plan is None and result.message


def test_fast_downward_timeout_kills_the_run(monkeypatch, tmp_path):
    def run(command, cwd, timeout):
        assert "--overall-time-limit" in command and command[command.index("--overall-time-limit") + 1] == "1"
        raise subprocess.TimeoutExpired(command, timeout)

    monkeypatch.setattr(fd_backend, "find_driver", lambda: tmp_path / "fast-downward.py")
    monkeypatch.setattr(fd_backend, "_run", run)
    result = fast_downward(tiny_task("chain"), timeout=0.2)
    assert result.status == "timeout" and result.plan is None
    with pytest.raises(ApbError, match="unknown Fast Downward mode"):
        fast_downward(tiny_task("chain"), "fast")


def test_h2_pairs_prove_mutexes_and_keep_compatible_facts():
    from apb.planners.h2 import reachable_pairs

    task = load_task(domain_file("blocksworld"), domain_dir("blocksworld") / "problems" / "p01.pddl")
    pairs = reachable_pairs(task, task.initial_state.bits)
    fid = {name: i for i, name in enumerate(task.fact_names)}

    def together(p: str, q: str) -> bool:
        return bool(pairs[fid[p]] >> fid[q] & 1) and bool(pairs[fid[q]] >> fid[p] & 1)

    assert not together("(holding block_a)", "(handempty)")
    assert not together("(on block_a block_b)", "(on block_b block_a)")
    assert together("(holding block_a)", "(clear block_b)") and together("(handempty)", "(handempty)")
    assert all(pairs[f] >> g & 1 == pairs[g] >> f & 1 for f in range(len(pairs)) for g in range(len(pairs)))

"""Lazy greedy best-first search with h_FF and preferred operators (LAMA's first iteration): engine-valid plans, the
verdicts of the complete eager search, and budgets in expansions (the same result on every run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.engine import load_task
from apb.planners.gbfs import greedy_best_first
from apb.planners.lazy_gbfs import lazy_greedy
from apb.planners.result import NODE_LIMIT, SOLVED, UNSOLVABLE
from apb.planners.solve import solve

ROOT = Path(__file__).resolve().parents[1]
IPC = (ROOT / ".." / "shared" / "reference" / "ipc-classical").resolve()

# relaxed-solvable (the relaxation keeps (at a) after going to b) but unsolvable: the search must exhaust the space
UNSOLVABLE_DOMAIN = """(define (domain trap) (:requirements :strips)
  (:predicates (at ?x) (link ?x ?y) (been ?x) (key))
  (:action go :parameters (?x ?y) :precondition (and (at ?x) (link ?x ?y))
    :effect (and (at ?y) (been ?y) (not (at ?x))))
  (:action grab :parameters (?x ?y) :precondition (and (at ?x) (been ?y) (link ?x ?y)) :effect (key)))"""
UNSOLVABLE_PROBLEM = """(define (problem trap1) (:domain trap) (:objects a b c)
  (:init (at a) (link a b) (link b c)) (:goal (key)))"""


def _ipc(domain: str, problem: str):
    return load_task(IPC / domain / "domain.pddl", IPC / domain / problem)


@pytest.mark.parametrize("domain,problem", [("barman-opt11-strips", "pfile01-003.pddl"),
                                            ("childsnack-opt14-strips", "child-snack_pfile02.pddl"),
                                            ("elevators-opt08-strips", "p03.pddl"),
                                            ("blocks", "probBLOCKS-4-0.pddl")])
def test_finds_engine_valid_plans_on_ipc_domains_and_the_same_plan_every_run(domain, problem):
    if not (IPC / domain / problem).exists():
        problem = sorted(p.name for p in (IPC / domain).glob("*.pddl") if p.name != "domain.pddl")[0]
    task = _ipc(domain, problem)
    first = lazy_greedy(task, timeout=None, max_nodes=20_000)
    assert first.status == SOLVED, first.message
    assert task.validate(first.plan).valid
    again = lazy_greedy(task, timeout=None, max_nodes=20_000)
    assert [str(a) for a in again.plan] == [str(a) for a in first.plan]
    assert (again.expanded, again.evaluated) == (first.expanded, first.evaluated)


def test_expands_fewer_states_than_eager_search_evaluates_where_branching_is_wide():
    """Lazy search evaluates one state per expansion; eager search evaluates every new successor. On Elevators both
    solve, and the lazy search's relaxed plans are far fewer."""
    task = _ipc("elevators-opt08-strips", "p04.pddl")
    lazy = lazy_greedy(task, timeout=None, max_nodes=20_000)
    eager = greedy_best_first(task, timeout=None, max_nodes=20_000, preferred=True)
    assert lazy.solved and eager.solved
    assert lazy.evaluated < eager.evaluated


def test_proves_unsolvable_tasks_and_stops_at_the_expansion_budget(tmp_path):
    (tmp_path / "domain.pddl").write_text(UNSOLVABLE_DOMAIN)
    (tmp_path / "p.pddl").write_text(UNSOLVABLE_PROBLEM)
    trap = load_task(tmp_path / "domain.pddl", tmp_path / "p.pddl")
    exhausted = lazy_greedy(trap, timeout=None)
    assert exhausted.status == UNSOLVABLE == solve(trap, "bfs", timeout=None).status
    assert exhausted.expanded >= 1  # the relaxation alone does not prove it: the search did
    task = _ipc("barman-opt11-strips", "pfile02-005.pddl")
    cut = lazy_greedy(task, timeout=None, max_nodes=50)
    assert cut.status == NODE_LIMIT and cut.plan is None and cut.expanded == 50


def test_a_plan_that_avoids_a_fact_never_makes_it_true_and_none_when_every_plan_needs_it():
    task = _ipc("blocks", "probBLOCKS-5-0.pddl")
    plain = lazy_greedy(task, timeout=None, max_nodes=20_000)
    states = [task.initial_state]
    for action in plain.plan:
        states.append(task.apply(states[-1], action))
    visited = [f for f in range(task.num_facts) if any(s.bits >> f & 1 for s in states)
               and not task.initial_state.bits >> f & 1]
    avoided = 0
    for fid in visited:
        found = lazy_greedy(task, timeout=None, max_nodes=None, avoid=1 << fid)
        if found.solved:
            avoided += 1
            assert task.validate(found.plan).valid
            state = task.initial_state
            for action in found.plan:
                state = task.apply(state, action)
                assert not state.bits >> fid & 1
        else:
            assert found.status == UNSOLVABLE  # a landmark: the search exhausts the states that avoid it
    assert 0 < avoided < len(visited)
    goal = task.goal_pos[0]
    assert lazy_greedy(task, timeout=None, avoid=1 << goal).status == UNSOLVABLE

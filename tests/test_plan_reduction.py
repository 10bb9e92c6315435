"""apb.planners.plan_reduction: the learned planners' plans made shorter by the engine's semantics, never invalid."""

from __future__ import annotations

from pathlib import Path

from apb.engine import load_task
from apb.planners import solve
from apb.planners.plan_improvement import improve_plan
from apb.planners.plan_reduction import eliminate_actions, merge_pairs, plan_cost, reduce_plan, shortcut_plan

REF = (Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "ipc2023-learning").resolve()
BLOCKS = """(define (domain bw) (:requirements :strips)
  (:predicates (on ?x ?y) (ontable ?x) (clear ?x) (handempty) (holding ?x))
  (:action pick-up :parameters (?x) :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down :parameters (?x) :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack :parameters (?x ?y) :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack :parameters (?x ?y) :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))"""
PROBLEM = """(define (problem p) (:domain bw) (:objects a b c)
  (:init (ontable a) (ontable b) (ontable c) (clear a) (clear b) (clear c) (handempty))
  (:goal (and (on a b))))"""


def _task(tmp_path: Path):
    (tmp_path / "d.pddl").write_text(BLOCKS)
    (tmp_path / "p.pddl").write_text(PROBLEM)
    return load_task(tmp_path / "d.pddl", tmp_path / "p.pddl")


def _plan(task, *texts):
    return [task.parse_action(t) for t in texts]


def test_cycles_and_detours_go(tmp_path):
    task = _task(tmp_path)
    # a cycle (c up and down), a detour (b picked up and put back), then the plan
    detour = _plan(task, "(pick-up c)", "(put-down c)", "(pick-up b)", "(put-down b)", "(pick-up a)", "(stack a b)")
    assert task.validate(detour).valid
    assert [str(a) for a in shortcut_plan(task, detour)] == ["(pick-up a)", "(stack a b)"]
    assert [str(a) for a in reduce_plan(task, detour)] == ["(pick-up a)", "(stack a b)"]


def test_elimination_drops_actions_the_goal_does_not_need(tmp_path):
    task = _task(tmp_path)
    # c is stacked on the table block... onto nothing the goal needs: no state repeats, so only elimination sees it
    plan = _plan(task, "(pick-up c)", "(stack c b)", "(unstack c b)", "(stack c a)", "(unstack c a)",
                 "(put-down c)", "(pick-up a)", "(stack a b)")
    assert task.validate(plan).valid
    reduced = eliminate_actions(task, plan)
    assert task.validate(reduced).valid
    assert len(reduced) < len(plan)
    assert [str(a) for a in reduce_plan(task, plan)] == ["(pick-up a)", "(stack a b)"]


def test_a_plan_ending_past_the_goal_is_cut_at_it(tmp_path):
    task = _task(tmp_path)
    plan = _plan(task, "(pick-up a)", "(stack a b)", "(pick-up c)", "(put-down c)")
    assert [str(a) for a in shortcut_plan(task, plan)] == ["(pick-up a)", "(stack a b)"]


def test_stop_returns_a_valid_plan_at_once(tmp_path):
    task = _task(tmp_path)
    plan = _plan(task, "(pick-up c)", "(put-down c)", "(pick-up a)", "(stack a b)")
    assert reduce_plan(task, plan, stop=lambda: True) == plan
    assert task.validate(shortcut_plan(task, plan, stop=lambda: True)).valid


def test_reduced_plans_stay_valid_and_no_dearer_on_track_tasks():
    """Plans of a weak planner (breadth-first on spanner would be optimal; greedy search with the goal-count
    heuristic is not) are reduced to valid plans no dearer, on the track's own tasks."""
    for number in (30, 60, 90):
        domain = REF / "spanner" / "domain.pddl"
        task = load_task(domain, REF / "spanner" / "training" / "easy" / f"p{number:02d}.pddl")
        found = solve(task, "gbfs", heuristic="goal-count", timeout=60)
        assert found.solved
        reduced = reduce_plan(task, found.plan)
        assert task.validate(reduced).valid
        assert plan_cost(task, reduced) <= plan_cost(task, found.plan)


def test_an_action_undone_later_is_merged_with_its_undoing(tmp_path):
    """Moved to r2, a lamp lit, then on to r3: one move r1 -> r3 (what a satellite's two turns are); no single
    action can be left out, so only the merge finds it."""
    (tmp_path / "rooms.pddl").write_text("""(define (domain rooms) (:requirements :strips)
      (:predicates (at ?r) (lit ?l))
      (:action move :parameters (?a ?b) :precondition (at ?a) :effect (and (not (at ?a)) (at ?b)))
      (:action light :parameters (?l) :precondition (and) :effect (lit ?l)))""")
    (tmp_path / "p.pddl").write_text("""(define (problem p) (:domain rooms) (:objects r1 r2 r3 lamp)
      (:init (at r1)) (:goal (and (at r3) (lit lamp))))""")
    task = load_task(tmp_path / "rooms.pddl", tmp_path / "p.pddl")
    plan = _plan(task, "(move r1 r2)", "(light lamp)", "(move r2 r3)")
    assert eliminate_actions(task, plan) == plan
    merged = merge_pairs(task, plan)
    assert [str(a) for a in merged] == ["(move r1 r3)", "(light lamp)"]
    assert task.validate(merged).valid


def test_improvement_finds_a_cheaper_plan_with_the_same_heuristic(tmp_path):
    task = _task(tmp_path)
    detour = _plan(task, "(pick-up c)", "(stack c b)", "(unstack c b)", "(put-down c)", "(pick-up a)", "(stack a b)")
    calls = []

    def goal_count(bits_list):
        calls.append(len(bits_list))
        return [0.0 if task.is_goal_bits(b) else 1.0 for b in bits_list]

    better = improve_plan(task, goal_count, detour, stop=lambda: False)
    assert task.validate(better).valid and len(better) == 2
    assert calls  # evaluated in batches by the learned heuristic's interface
    assert improve_plan(task, goal_count, detour, stop=lambda: True) == detour  # stopped: the plan given

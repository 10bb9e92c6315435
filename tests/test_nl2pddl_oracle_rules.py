"""Planetarium's verdicts where its own Blocksworld and Gripper oracles cannot plan (apb.nl2pddl.oracle_rules): each
rule on pairs built here, scored not solvable (and so not correct) although PDDL semantics plans them, while the
same problem with the state repaired stays solvable and correct."""

from __future__ import annotations

from apb.nl2pddl.evaluate import assess


def _bw(objects: str, init: str, goal: str) -> str:
    return (f"(define (problem p) (:domain blocksworld) (:objects {objects}) (:init (arm-empty) {init}) "
            f"(:goal (and {goal})))")


def _gripper(objects: str, init: str, goal: str) -> str:
    return f"(define (problem p) (:domain gripper) (:objects {objects}) (:init {init}) (:goal (and {goal})))"


def test_a_block_in_no_initial_fact_is_not_solvable():
    """b3 is declared but the initial state says nothing of it: Planetarium says not solvable (its oracle finds
    nothing under b3), where PDDL semantics reaches the goal (b1 on b2) without touching b3."""
    gold = _bw("b1 b2 b3", "(on-table b1) (clear b1) (on-table b2) (clear b2) (on-table b3) (clear b3)", "(on b1 b2)")
    pred = _bw("b1 b2 b3", "(on-table b1) (clear b1) (on-table b2) (clear b2)", "(on b1 b2)")
    result = assess(gold, pred)
    assert tuple(result.evaluation) == (True, False, False)
    assert "block b3 is neither on the table" in result.planner_status
    assert tuple(assess(gold, gold).evaluation) == (True, True, True)


def test_a_block_only_clear_is_unsupported_too():
    gold = _bw("b1 b2", "(on-table b1) (clear b1) (on-table b2) (clear b2)", "(on b1 b2)")
    pred = _bw("b1 b2", "(on-table b1) (clear b1) (clear b2)", "(on-table b1)")
    result = assess(gold, pred)
    assert tuple(result.evaluation) == (True, False, False) and "block b2" in result.planner_status


def test_a_cycle_of_on_in_the_initial_state_is_not_solvable():
    """a on b on a, neither clear: nothing can move them, and the goal (c on the table) already holds in PDDL; the
    oracle's topological order fails."""
    pred = _bw("a b c", "(on a b) (on b a) (on-table c) (clear c)", "(on-table c)")
    result = assess(pred, pred)
    assert tuple(result.evaluation) == (True, False, False) and "cycle (a on b on a)" in result.planner_status
    fixed = _bw("a b c", "(on a b) (on-table b) (clear a) (on-table c) (clear c)", "(on-table c)")
    assert tuple(assess(fixed, fixed).evaluation) == (True, True, True)


def test_balls_to_move_without_a_gripper_are_not_solvable():
    """No object is a gripper while a ball sits in a room: the goal (the robot in room2) is reachable in PDDL, but
    Planetarium's oracle gathers every ball with the first gripper."""
    objects = "room1 room2 ball1 left"
    init = "(room room1) (room room2) (ball ball1) (at-robby room1) (at ball1 room1)"
    pred = _gripper(objects, init, "(at-robby room2)")
    result = assess(pred, pred)
    assert tuple(result.evaluation) == (True, False, False) and "no object is a gripper" in result.planner_status
    with_gripper = _gripper(objects, init + " (gripper left) (free left)", "(at-robby room2)")
    assert tuple(assess(with_gripper, with_gripper).evaluation) == (True, True, True)
    no_ball = _gripper("room1 room2", "(room room1) (room room2) (at-robby room1)", "(at-robby room2)")
    assert tuple(assess(no_ball, no_ball).evaluation) == (True, True, True)  # nothing to gather: the oracle plans

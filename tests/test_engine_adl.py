"""Semantics of the constructs beyond STRIPS on small hand-written domains (tests/data/adl): conditional effects,
quantified and disjunctive conditions, derived predicates, FD's lexical habits, and their explanations."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.engine import NotApplicableError, load_task, parse_domain, parse_problem
from apb.engine.explain import Unmet
from apb.engine.task import Task

ADL = Path(__file__).parent / "data" / "adl"


def task_of(name: str, problem: str = "p01") -> Task:
    return load_task(ADL / f"{name}-domain.pddl", ADL / f"{name}-{problem}.pddl")


def facts(task: Task, state) -> set[str]:
    return set(task.facts(state))


# ---- conditional effects -------------------------------------------------------------------------------------

def test_conditional_effects_read_the_state_before_the_action():
    task = task_of("lights")
    state = task.apply(task.initial_state, "(toggle kitchen)")
    # l1 was on and goes off, l2 is broken and stays off; the (not (on l)) condition of l1 is read before the
    # first when turned it off, so l1 is not turned on again.
    assert facts(task, state) == {"(broken l2)"}
    state = task.apply(state, "(toggle kitchen)")
    assert facts(task, state) == {"(broken l2)", "(on l1)"}


def test_conditional_effects_leave_other_rooms_alone():
    task = task_of("lights")
    state = task.apply(task.initial_state, "(toggle hall)")
    assert facts(task, state) == {"(broken l2)", "(on l1)", "(on l3)"}


def test_delete_then_add_keeps_a_fact_both_deleted_and_added():
    task = task_of("lights")
    state = task.apply(task.initial_state, "(mark l1)")
    assert "(marked l1)" in task.facts(state)
    assert task.apply(state, "(mark l1)") == state


def test_states_stay_hashable_and_equal_by_facts():
    task = task_of("lights")
    twice = task.run(["(toggle kitchen)", "(toggle kitchen)"])
    assert twice == task.initial_state and hash(twice) == hash(task.initial_state)
    assert len({task.initial_state, twice}) == 1


def test_grounded_representation_of_a_conditional_effect():
    task = task_of("lights")
    toggle = task.parse_action("(toggle kitchen)")
    assert not toggle.is_strips and not task.is_strips
    # l1 has two conditional effects (on -> off, off -> on); broken l2's conditions can hold too (repair)
    assert len(toggle.effects) == 4
    assert all(effect.condition.holds(task.initial_state.bits) in (True, False) for effect in toggle.effects)
    assert toggle.add == () and toggle.delete == ()


# ---- quantified and disjunctive conditions -------------------------------------------------------------------

def test_universal_precondition_and_its_failing_instances():
    task = task_of("lights")
    assert task.explain(task.initial_state, "(darken kitchen)") == ["(not (on l1))"]
    detail = task.explain_detail(task.initial_state, "(darken kitchen)")
    assert detail == [Unmet("forall_fails", "(forall (?l - lamp) (imply (in ?l kitchen) (not (on ?l))))",
                            (Unmet("not_fact", "(not (on l1))"),))]
    state = task.apply(task.initial_state, "(toggle kitchen)")
    assert task.explain(state, "(darken kitchen)") == []
    assert "(darken kitchen)" in {str(a) for a in task.applicable(state)}


def test_disjunction_none_of_its_options_holds():
    task = task_of("lights", "p02")
    state = task.apply(task.initial_state, "(repair l1)")
    assert task.explain(state, "(mark l1)") == ["(or (on l1) (broken l1))"]
    detail = task.explain_detail(state, "(mark l1)")
    assert detail[0].kind == "none_of"
    assert [c.pddl for c in detail[0].children] == ["(on l1)", "(broken l1)"]
    assert task.explain(task.initial_state, "(mark l1)") == []  # broken l1 is one option


def test_an_option_that_can_never_hold_is_left_out_of_the_explanation():
    task = task_of("lights")  # nothing breaks l1 here: (broken l1) can never hold
    state = task.apply(task.initial_state, "(toggle kitchen)")
    assert task.explain(state, "(mark l1)") == ["(on l1)"]


def test_existential_without_witness():
    task = task_of("lights", "p02")
    text = "(exists (?l - lamp) (marked ?l))"
    assert task.goal_detail(task.initial_state) == [Unmet("no_witness", text)]
    assert task.unsatisfied_goals(task.initial_state) == [text]
    assert task.validate(["(mark l1)"]).valid


def test_existential_over_static_facts_narrows_to_its_only_candidate():
    task = task_of("lights")
    state = task.run(["(toggle kitchen)", "(darken kitchen)"])
    assert task.explain(state, "(repair l2)") == ["(not (dark kitchen))"]
    with pytest.raises(NotApplicableError) as raised:
        task.apply(state, "(repair l2)")
    assert raised.value.unmet == ["(not (dark kitchen))"]


def test_complex_goal_and_its_explanation():
    task = task_of("lights")
    assert task.unsatisfied_goals(task.initial_state) == ["(on l2)", "(or (dark hall) (marked l3))",
                                                          "(not (broken l2))"]
    kinds = [u.kind for u in task.goal_detail(task.initial_state)]
    assert kinds == ["forall_fails", "none_of", "forall_fails"]
    plan = ["(toggle kitchen)", "(repair l2)", "(toggle kitchen)", "(toggle hall)", "(mark l3)"]
    check = task.validate(plan)
    assert check.valid, check.reason
    assert task.is_goal(check.final_state) and not task.unsatisfied_goals(check.final_state)


# ---- derived predicates ----------------------------------------------------------------------------------------

def test_derived_predicates_follow_every_step():
    task = task_of("reach")
    assert facts(task, task.initial_state) == {"(reachable home)", "(safe home)", "(trap b)"}
    state = task.run(["(open-door home a)", "(open-door a b)"])
    assert {"(reachable a)", "(reachable b)", "(safe a)"} <= facts(task, state)
    assert "(safe b)" not in task.facts(state)  # b is trapped: safe needs the negation of a lower stratum
    closed = task.apply(state, "(close-door home a)")
    assert "(reachable b)" not in task.facts(closed) and "(reachable a)" not in task.facts(closed)


def test_derived_precondition_is_explained_one_level_down():
    task = task_of("reach")
    state = task.run(["(open-door home a)", "(open-door a b)"])
    assert task.explain(state, "(visit b)") == ["(safe b) because (not (trap b))"]
    detail = task.explain_detail(state, "(visit b)")
    assert detail == [Unmet("derived", "(safe b)", (Unmet("not_fact", "(not (trap b))"),))]
    plan = ["(open-door home a)", "(open-door a b)", "(disarm b)", "(open-door b c)", "(visit c)"]
    assert task.validate(plan).valid


def test_derived_atom_with_several_axioms_keeps_those_that_can_hold():
    task = task_of("reach")
    detail = task.explain_detail(task.initial_state, "(open-door a b)")
    assert detail[0].kind == "derived" and detail[0].pddl == "(reachable a)"
    # (= a home) never holds and the exists narrows to the one door into a: one level down is that door
    assert detail[0].children == (Unmet("fact", "(open home a)"),)


def test_unstratifiable_axioms_are_refused():
    text = ("(define (domain d) (:requirements :adl :derived-predicates) (:predicates (p) (q))"
            " (:derived (p) (not (q))) (:derived (q) (not (p))) (:action a :effect (and)))")
    domain = parse_domain(text, "d.pddl")
    problem = parse_problem("(define (problem x) (:domain d) (:init) (:goal (p)))", domain)
    with pytest.raises(Exception) as raised:
        Task(domain, problem)
    assert "not stratifiable" in str(raised.value) and "d.pddl" in str(raised.value)


# ---- lexical habits --------------------------------------------------------------------------------------------

def test_no_space_before_a_variable():
    task = task_of("glued")
    assert [str(a) for a in task.applicable(task.initial_state)] == ["(finish t1)", "(finish t2)"]
    assert task.validate(["(finish t1)", "(finish t2)"]).valid


def test_strips_tasks_keep_the_fast_representation():
    task = task_of("glued")
    assert task.is_strips and task.axioms is None and task.goal_extra == ()
    assert all(a.is_strips and a.cost == 1 for a in task.actions)


@pytest.mark.parametrize(("goal", "reached", "unmet"), [
    ("(and (done t1) (= t1 t1))", True, []),
    ("(and (done t1) (not (= t1 t1)))", False, ["(not (= t1 t1))"]),
    ("(or (= t1 t2) (done t1))", True, []),
])
def test_equality_in_goals(goal, reached, unmet):
    problem = (f"(define (problem q) (:domain glued) (:objects t1 t2 - thing) (:init (ready t1)) "
               f"(:goal {goal}))")
    task = load_task(ADL / "glued-domain.pddl", problem)
    state = task.apply(task.initial_state, "(finish t1)")
    assert task.is_goal(state) == reached and task.unsatisfied_goals(state) == unmet

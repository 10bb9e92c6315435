"""Action costs: constant and function-valued increases of total-cost, FD's convention without a metric, plan
cost in validation, optimal A* with costs, and the writer round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.engine import PDDLError, domain_to_pddl, load_task, parse_domain, parse_problem, problem_to_pddl
from apb.planners import astar

ADL = Path(__file__).parent / "data" / "adl"
DOMAIN = ADL / "costs-domain.pddl"


def test_costs_come_from_constants_and_static_functions():
    task = load_task(DOMAIN, ADL / "costs-p01.pddl")
    assert task.has_costs
    assert task.cost("(drive a b)") == 3 and task.cost("(drive a d)") == 20
    assert task.cost("(fly a c)") == 50
    assert task.cost("(look a)") == 0  # with a metric, an action without an increase costs 0
    assert task.cost(task.parse_action("(drive c d)")) == 5


def test_without_a_metric_every_action_costs_one():
    task = load_task(DOMAIN, ADL / "costs-nometric.pddl")
    assert not task.has_costs
    assert {a.cost for a in task.actions} == {1}


def test_validate_reports_the_plan_cost():
    task = load_task(DOMAIN, ADL / "costs-p01.pddl")
    check = task.validate(["(drive a b)", "(drive b c)", "(drive c d)", "(look d)"])
    assert check.valid and check.cost == 12 and "cost 12" in check.reason
    direct = task.validate(["(drive a d)", "(look d)"])
    assert direct.valid and direct.cost == 20
    failed = task.validate(["(drive a b)", "(drive c d)"])
    assert not failed.valid and failed.cost == 3 and failed.failed_step == 1


def test_astar_is_optimal_with_costs():
    task = load_task(DOMAIN, ADL / "costs-p01.pddl")
    result = astar(task)
    assert result.solved
    assert task.validate(result.plan).cost == 12  # three short roads beat the long road (20) and flying (50)
    unit = load_task(DOMAIN, ADL / "costs-nometric.pddl")
    result = astar(unit)
    assert result.solved and len(result.plan) == 2  # unit costs: the shortest plan


def test_costs_survive_the_writer():
    domain = parse_domain(DOMAIN.read_text(), str(DOMAIN))
    problem = parse_problem((ADL / "costs-p01.pddl").read_text(), domain)
    again = parse_domain(domain_to_pddl(domain))
    assert again.actions == domain.actions and again.functions.keys() == domain.functions.keys()
    problem_again = parse_problem(problem_to_pddl(problem), again)
    assert problem_again.function_values == problem.function_values and problem_again.metric == problem.metric


def test_a_missing_function_value_names_the_term():
    text = (ADL / "costs-p01.pddl").read_text().replace("(= (distance b c) 4)", "")
    with pytest.raises(PDDLError) as raised:
        load_task(DOMAIN, text)
    assert "(distance b c)" in str(raised.value) and "init" in str(raised.value)


@pytest.mark.parametrize(("effect", "words"), [
    ("(increase (total-cost) -3)", "negative action cost"),
    ("(increase (total-cost) (speed ?x))", "unknown function"),
    ("(increase (fuel) 1)", "numeric fluents ('increase' of anything but total-cost)"),
    ("(decrease (total-cost) 1)", "numeric fluents ('decrease'"),
    ("(forall (?y) (increase (total-cost) 1))", "action costs inside a conditional or quantified effect"),
])
def test_bad_cost_effects_name_the_problem(effect, words):
    text = ("(define (domain d) (:requirements :action-costs) (:predicates (p ?x)) (:functions (total-cost))\n"
            f"  (:action a :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) {effect})))")
    with pytest.raises(PDDLError) as raised:
        parse_domain(text, "costs.pddl")
    assert words in str(raised.value) and str(raised.value).startswith("costs.pddl:2:")


def test_uniform_cost_search_and_plan_costs_agree_with_astar():
    from apb.planners import solve

    task = load_task(DOMAIN, ADL / "costs-p01.pddl")
    ucs, best = solve(task, "ucs"), solve(task, "astar")
    assert ucs.solved and ucs.planner == "ucs"
    assert ucs.plan_cost == best.plan_cost == task.validate(ucs.plan).cost == 12
    shortest = solve(task, "bfs")  # fewest actions, not cheapest: the long road (20)
    assert shortest.plan_length < ucs.plan_length and shortest.plan_cost > ucs.plan_cost

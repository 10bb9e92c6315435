"""Property tests: on random walks through reference tasks, the engine agrees with a brute-force oracle that
enumerates every well-typed ground action from the lifted model (see `LiftedOracle` in conftest.py)."""

from __future__ import annotations

import random
from functools import cache

import pytest
from conftest import (
    LiftedOracle,
    dataset_dir,
    reference_datasets,
    reference_task,
    smallest_and_largest_orig_problem,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apb.engine import NotApplicableError, State, Task, read_plan


def _cases() -> list:
    """The smallest and the largest orig problem of every reference dataset."""
    names = reference_datasets()
    if not names:
        return [pytest.param(None, None, id="reference-missing")]
    return [pytest.param(name, problem.name, id=f"{name}-{problem.stem}")
            for name in names for problem in smallest_and_largest_orig_problem(name)]


CASES = _cases()
WALK = st.lists(st.integers(min_value=0, max_value=2**20), max_size=15)
START = st.integers(min_value=0, max_value=2**20)
# The hypothesis tests also take the `reference` fixture: a missing reference fails them before any example runs.
PROPERTY_SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def _oracle(dataset: str, problem: str) -> LiftedOracle:
    return LiftedOracle(reference_task(dataset, dataset_dir(dataset) / "orig_problems" / problem))


@cache
def _gold_states(dataset: str, problem: str) -> tuple[State, ...]:
    """The states along the problem's gold plan, from the initial state to a goal state."""
    task = _oracle(dataset, problem).task
    plan = read_plan(dataset_dir(dataset) / "orig_gold_plans" / problem.replace(".pddl", "_gold_plan.txt"))
    states = [task.initial_state]
    for step in plan:
        states.append(task.apply(states[-1], step.text))
    assert task.is_goal(states[-1])
    return tuple(states)


def _setup(dataset, problem) -> tuple[Task, LiftedOracle]:
    dataset_dir(dataset)  # fails the test when the reference is missing
    oracle = _oracle(dataset, problem)
    return oracle.task, oracle


def walk(task: Task, start: int, choices: list[int], dataset: str, problem: str) -> list[State]:
    """A walk from a state of the gold plan (`start` picks which) that takes `applicable[c % n]` for each choice
    c, stopping at dead ends; returns the states visited."""
    gold = _gold_states(dataset, problem)
    states = [gold[start % len(gold)]]
    for choice in choices:
        actions = task.applicable(states[-1])
        if not actions:
            break
        states.append(task.apply(states[-1], actions[choice % len(actions)]))
    return states


@pytest.mark.parametrize(("dataset", "problem"), CASES)
def test_oracle_setup_matches_task(dataset, problem):
    """The oracle's view of the problem and the engine's agree before any walk: objects, statics, init."""
    task, oracle = _setup(dataset, problem)
    assert task.static_facts == oracle.static_facts
    assert task.facts(task.initial_state) == oracle.init_facts - oracle.static_facts
    assert oracle.num_bindings >= len(oracle.candidates) >= len(task.applicable(task.initial_state))
    for text, _checks in oracle.candidates:  # every statically possible binding parses to itself
        assert str(task.parse_action(text)) == text


@pytest.mark.parametrize(("dataset", "problem"), CASES)
@PROPERTY_SETTINGS
@given(start=START, choices=WALK)
def test_applicable_equals_brute_force(reference, dataset, problem, start, choices):
    task, oracle = _setup(dataset, problem)
    for state in walk(task, start, choices, dataset, problem):
        applicable = task.applicable(state)
        assert [str(a) for a in applicable] == oracle.applicable(state)
        assert all(task.parse_action(str(a)) == a for a in applicable)


@pytest.mark.parametrize(("dataset", "problem"), CASES)
@PROPERTY_SETTINGS
@given(start=START, choices=WALK)
def test_apply_is_delete_then_add(reference, dataset, problem, start, choices):
    task, oracle = _setup(dataset, problem)
    for state in walk(task, start, choices, dataset, problem):
        for action in task.applicable(state):
            assert task.facts(task.apply(state, action)) == oracle.successor_facts(state, str(action))


@pytest.mark.parametrize(("dataset", "problem"), CASES)
@PROPERTY_SETTINGS
@given(start=START, choices=WALK, seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_explain_is_empty_exactly_when_applicable(reference, dataset, problem, start, choices, seed):
    task, oracle = _setup(dataset, problem)
    rng = random.Random(seed)
    for state in walk(task, start, choices, dataset, problem):
        for action in task.applicable(state):
            assert task.explain(state, action) == []
        applicable = set(oracle.applicable(state))
        for _ in range(15):
            text = oracle.random_action(rng)
            action = task.parse_action(text)
            unmet = task.explain(state, action)
            assert unmet == oracle.unmet(state, text)
            assert (unmet == []) == (text in applicable) == task.is_applicable(state, action)
            if unmet:
                with pytest.raises(NotApplicableError) as raised:
                    task.apply(state, action)
                assert raised.value.unmet == unmet


@pytest.mark.parametrize(("dataset", "problem"), CASES)
@PROPERTY_SETTINGS
@given(start=START, choices=WALK)
def test_goal_test_agrees_with_unsatisfied_goals(reference, dataset, problem, start, choices):
    task, oracle = _setup(dataset, problem)
    for state in walk(task, start, choices, dataset, problem) + list(_gold_states(dataset, problem)):
        assert task.state_from_facts(task.facts(state)) == state
        unsatisfied = task.unsatisfied_goals(state)
        assert unsatisfied == oracle.unsatisfied_goals(state)
        assert task.is_goal(state) == (unsatisfied == [])

"""Property tests: on random problems and random walks, the engine agrees with a brute-force interpreter of the
lifted PDDL (tests/test_engine_adl_reference.py) on applicable actions, every successor state (conditional
effects, derived predicates), step costs, goal tests, and explanations (empty exactly when applicable)."""

from __future__ import annotations

import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_adl_reference import BruteForce

from apb.engine import load_domain, load_problem
from apb.engine.task import Task

ADL = Path(__file__).parent / "data" / "adl"
IPC = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "ipc-classical"
DOMAINS = {name: load_domain(ADL / f"{name}-domain.pddl") for name in ("lights", "reach", "costs")}


def agree_along_walk(domain, problem_text: str, choices: list[int]) -> None:
    """Walks the choices from the initial state, comparing engine and brute force at every state."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        problem = load_problem(problem_text, domain)
    task = Task(domain, problem)
    brute = BruteForce(domain, problem)
    state, atoms = task.initial_state, brute.initial()
    for choice in [*choices, None]:
        assert task.facts(state) == brute.visible(atoms)
        assert task.is_goal(state) == brute.is_goal(atoms)
        assert (task.unsatisfied_goals(state) == []) == brute.is_goal(atoms)
        expected = brute.applicable(atoms)
        found = {str(a): a for a in task.applicable(state)}
        assert set(found) == set(expected)
        for text, (schema, binding) in expected.items():
            action = found[text]
            assert task.explain(state, action) == []
            assert task.cost(action) == brute.cost(schema, binding)
            assert task.facts(task.successor(state, action)) == brute.visible(brute.successor(atoms, schema, binding))
        for action in task.actions:
            if str(action) not in expected:
                assert task.explain(state, action), f"{action} is not applicable but nothing is unmet"
        if choice is None or not expected:
            return
        text = sorted(expected)[choice % len(expected)]
        state = task.apply(state, text)
        atoms = brute.successor(atoms, *expected[text])


@st.composite
def lights_problem(draw) -> str:
    lamps = [f"l{i}" for i in range(draw(st.integers(1, 4)))]
    rooms = [f"r{i}" for i in range(draw(st.integers(1, 3)))]
    init = [f"(in {lamp} {draw(st.sampled_from(rooms))})" for lamp in lamps]
    init += [f"(on {lamp})" for lamp in lamps if draw(st.booleans())]
    init += [f"(broken {lamp})" for lamp in lamps if draw(st.booleans())]
    init += [f"(dark {room})" for room in rooms if draw(st.booleans())]
    goal = draw(st.sampled_from([
        f"(forall (?l - lamp) (imply (in ?l {rooms[0]}) (on ?l)))",
        "(exists (?l - lamp) (and (marked ?l) (not (on ?l))))",
        f"(or (dark {rooms[-1]}) (not (broken {lamps[0]})))",
    ]))
    return (f"(define (problem p) (:domain lights) (:objects {' '.join(lamps)} - lamp {' '.join(rooms)} - room)"
            f" (:init {' '.join(init)}) (:goal {goal}))")


@st.composite
def reach_problem(draw) -> str:
    places = [f"c{i}" for i in range(draw(st.integers(1, 4)))]
    everywhere = ["home", *places]
    doors = {(a, b) for a in everywhere for b in everywhere if a != b and draw(st.integers(0, 2)) == 0}
    init = [f"(door {a} {b})" for a, b in sorted(doors)]
    init += [f"(open {a} {b})" for a, b in sorted(doors) if draw(st.booleans())]
    init += [f"(trap {p})" for p in places if draw(st.booleans())]
    goal = f"(and (visited {places[-1]}) (not (trap {places[0]})))"
    return f"(define (problem p) (:domain reach) (:objects {' '.join(places)} - place) (:init {' '.join(init)})" \
           f" (:goal {goal}))"


CHOICES = st.lists(st.integers(0, 1000), max_size=8)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(lights_problem(), CHOICES)
def test_conditional_effects_and_quantifiers_match_brute_force(problem, choices):
    agree_along_walk(DOMAINS["lights"], problem, choices)


@SETTINGS
@given(reach_problem(), CHOICES)
def test_axioms_match_brute_force(problem, choices):
    agree_along_walk(DOMAINS["reach"], problem, choices)


@settings(max_examples=20, deadline=None)
@given(CHOICES)
def test_costs_match_brute_force(choices):
    agree_along_walk(DOMAINS["costs"], (ADL / "costs-p01.pddl").read_text(), choices)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["miconic-fulladl/f1-2.pddl", "miconic-fulladl/f1-3.pddl", "schedule/probschedule-2-2.pddl"]),
       CHOICES)
def test_ipc_adl_problems_match_brute_force(problem, choices):
    path = IPC / problem
    assert path.is_file(), f"missing IPC reference file {path}"
    agree_along_walk(load_domain(path.parent / "domain.pddl"), path.read_text(), choices)

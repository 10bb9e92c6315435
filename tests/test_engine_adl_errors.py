"""What stays refused (numeric fluents beyond total-cost, durative actions, preferences, constraints, object
fluents) names the feature, the file and the line; mutated ADL text never raises anything but a PDDLError."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apb.engine import UnsupportedFeatureError, load_task, parse_domain, parse_problem
from apb.errors import PDDLError

ADL = Path(__file__).parent / "data" / "adl"
HEAD = "(define (domain d) (:requirements :adl :action-costs)\n  (:predicates (p ?x) (q))\n"


@pytest.mark.parametrize(("body", "line", "feature"), [
    ("  (:action a :parameters (?x)\n   :precondition (> (fuel ?x) 2) :effect (q)))", 4, "numeric fluents"),
    ("  (:functions (fuel ?x))\n  (:action a :parameters (?x)\n   :effect (decrease (fuel ?x) 1)))", 5,
     "numeric fluents ('decrease'"),
    ("  (:functions (fuel ?x))\n  (:action a :parameters (?x)\n   :effect (assign (fuel ?x) 1)))", 5,
     "numeric fluents ('assign'"),
    ("  (:functions (fuel ?x))\n  (:action a :parameters (?x)\n   :precondition (fuel ?x) :effect (q)))", 5,
     "numeric fluents (function 'fuel' used as a condition)"),
    ("  (:functions (holder ?x) - block)\n  (:action a :effect (q)))", 3, "object fluents"),
    ("  (:durative-action a :parameters (?x) :duration (= ?duration 1)\n   :condition (at start (q))"
     " :effect (at end (q))))", 3, "durative actions"),
    ("  (:constraints (always (q))))", 3, "state-trajectory constraints"),
    ("  (:action a :parameters (?x)\n   :precondition (preference p1 (p ?x)) :effect (q)))", 4, "preferences"),
])
def test_refused_domain_features_name_feature_file_and_line(body, line, feature):
    with pytest.raises(UnsupportedFeatureError) as raised:
        parse_domain(HEAD + body, "refused.pddl")
    err = raised.value
    assert feature in str(err) and err.file == "refused.pddl" and err.line == line
    assert str(err).startswith(f"refused.pddl:{line}:") and "unsupported PDDL feature" in str(err)
    assert "\n" not in str(err)


@pytest.mark.parametrize(("requirement", "feature"), [
    (":numeric-fluents", "numeric fluents"), (":durative-actions", "durative actions"),
    (":preferences", "preferences"), (":constraints", "state-trajectory constraints"),
    (":object-fluents", "object fluents"), (":timed-initial-literals", "timed initial literals"),
])
def test_refused_requirements(requirement, feature):
    with pytest.raises(UnsupportedFeatureError) as raised:
        parse_domain(f"(define (domain d)\n  (:requirements :strips {requirement}))", "r.pddl")
    assert feature in str(raised.value) and raised.value.line == 2 and raised.value.file == "r.pddl"


@pytest.mark.parametrize(("snippet", "feature"), [
    ("(:init (q) (= (fuel a) b))", "object fluents"),
    ("(:init (q) (= (fuel a) (* 2 3)))", "numeric fluents"),
    ("(:init (q)) (:goal (q)) (:metric maximize (total-cost))", "plan metrics other than"),
    ("(:init (q)) (:goal (and (q) (preference g (q))))", "preferences"),
    ("(:init (q)) (:goal (q)) (:constraints (always (q)))", "state-trajectory constraints"),
])
def test_refused_problem_features(snippet, feature):
    domain = parse_domain(HEAD + "  (:functions (fuel ?x) - number)\n  (:action a :effect (q)))")
    text = f"(define (problem x) (:domain d) (:objects a b)\n  {snippet}"
    text += ")" if ":goal" in snippet else " (:goal (q)))"
    with pytest.raises(UnsupportedFeatureError) as raised:
        parse_problem(text, domain, "x.pddl")
    assert feature in str(raised.value) and raised.value.line == 2 and raised.value.file == "x.pddl"


def test_parse_errors_inside_new_constructs_keep_line_and_column():
    text = HEAD + "  (:action a :parameters (?x)\n   :effect (forall (?y) (when (p ?z) (q)))))"
    with pytest.raises(PDDLError) as raised:
        parse_domain(text, "e.pddl")
    assert "unknown variable ?z" in str(raised.value)
    assert (raised.value.line, raised.value.column) == (4, text.splitlines()[3].index("?z") + 1)


# ---- fuzzing ---------------------------------------------------------------------------------------------------

SOURCES = [(ADL / f"{name}-domain.pddl").read_text() for name in ("lights", "reach", "costs")]
PROBLEMS = {0: (ADL / "lights-p01.pddl").read_text(), 1: (ADL / "reach-p01.pddl").read_text(),
            2: (ADL / "costs-p01.pddl").read_text()}
TOKENS = ["(", ")", "forall", "exists", "when", "imply", "or", "not", "and", "?l", "?x", "-", "either", "increase",
          "(total-cost)", "3", "-1", ":derived", "(=", "lamp", "(either lamp room)", "?", "decrease", "preference"]


@st.composite
def mutated(draw):
    which = draw(st.integers(0, len(SOURCES) - 1))
    text = SOURCES[which]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if kind == "insert":
            text = text[:at] + " " + draw(st.sampled_from(TOKENS)) + " " + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        else:
            end = min(len(text), at + draw(st.integers(1, 30)))
            text = text[:end] + text[at:end] + text[end:]
    return which, text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_adl_text_raises_only_pddl_errors(case):
    which, text = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            task = load_task(text, PROBLEMS[which])
        except PDDLError as err:
            assert str(err) and "\n" not in str(err).split(" (")[0]
            return
    state = task.initial_state
    for _ in range(3):
        options = task.applicable(state)
        if not options:
            break
        assert task.explain(state, options[-1]) == []
        state = task.apply(state, options[-1])
    task.unsatisfied_goals(state)

"""Bad input gives one clear apb error naming file, line and column, never a traceback from deep inside.

The bad inputs live in tests/data/engine/bad/ so that their line numbers mean something.
"""

from __future__ import annotations

import warnings

import pytest
from conftest import BAD_DATA, engine_data
from hypothesis import given, settings
from hypothesis import strategies as st

from apb.engine import (
    ApbError,
    PDDLError,
    PDDLSemanticError,
    PDDLSyntaxError,
    PDDLWarning,
    UnsupportedFeatureError,
    load_domain,
    load_task,
    parse_domain,
    parse_problem,
)

SMALL_DOMAIN = BAD_DATA / "small-domain.pddl"


def bad(name: str):
    path = BAD_DATA / name
    assert path.is_file(), f"missing test data file {path}"
    return path


def expect_error(cls, call, *, file, line, column=None, words=()):
    """Runs `call`, expects a `cls` located at file:line[:column] whose message contains every word."""
    with pytest.raises(cls) as raised:
        call()
    err = raised.value
    assert isinstance(err, ApbError) and isinstance(err, PDDLError)
    assert err.file == str(file)
    assert err.line == line, str(err)
    if column is not None:
        assert err.column == column, str(err)
    text = str(err)
    location = f"{file}:{line}:{err.column}" if err.column is not None else f"{file}:{line}"
    assert text.startswith(location + ": "), text
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"
    return err


# ---- parentheses ---------------------------------------------------------------------------------------------

def test_missing_close_paren_names_the_unclosed_open_paren():
    path = bad("missing-close-paren-domain.pddl")
    err = expect_error(PDDLSyntaxError, lambda: load_domain(path), file=path, line=9, column=1,
                       words=["unbalanced parentheses", "line 2, column 1", "never closed", "add the missing ')'"])
    assert err.hint == "add the missing ')'"


def test_missing_close_paren_inside_an_action_points_at_the_next_section():
    path = bad("missing-close-paren-in-action-domain.pddl")
    expect_error(PDDLSyntaxError, lambda: load_domain(path), file=path, line=9, column=3,
                 words=["unbalanced parentheses", "'(:action' at line 5, column 3 is not closed",
                        "before the next section '(:action' starts", "add the missing ')' before this line"])


def test_extra_close_paren_is_located_where_the_define_closes_too_early():
    path = bad("extra-close-paren-domain.pddl")
    expect_error(PDDLSyntaxError, lambda: load_domain(path), file=path, line=3, column=30,
                 words=["closes the '(' at line 1, column 1", "more PDDL follows", "one ')' too many"])


def test_extra_close_paren_at_the_end():
    path = bad("trailing-close-paren-domain.pddl")
    expect_error(PDDLSyntaxError, lambda: load_domain(path), file=path, line=8, column=1,
                 words=["unexpected ')'", "no matching '('"])


# ---- unknown names and wrong arities --------------------------------------------------------------------------

def test_unknown_predicate_in_an_action():
    path = bad("unknown-predicate-in-action-domain.pddl")
    expect_error(PDDLSemanticError, lambda: load_domain(path), file=path, line=7, column=25,
                 words=["unknown predicate 'r'", "action 'a'", "(:predicates"])


def test_unknown_type_in_action_parameters():
    path = bad("unknown-type-domain.pddl")
    expect_error(PDDLSemanticError, lambda: load_domain(path), file=path, line=6, column=34,
                 words=["unknown type 'table'", "(:types"])


@pytest.mark.parametrize(("problem", "line", "column", "words"), [
    ("unknown-predicate-in-init-problem.pddl", 6, 11, ["unknown predicate 'ontable'", "init", "clear, on"]),
    ("unknown-predicate-in-goal-problem.pddl", 6, 16, ["unknown predicate 'holding'", "goal"]),
    ("wrong-arity-in-init-problem.pddl", 5, 5, ["'clear' takes 1 argument(s) but is given 2", "init"]),
    ("undeclared-object-in-goal-problem.pddl", 6, 21, ["undeclared object 'c'", "goal", "(:objects"]),
    ("unknown-object-type-problem.pddl", 4, 17, ["unknown type 'table'", "object 't'"]),
])
def test_problem_errors(problem, line, column, words):
    path = bad(problem)
    expect_error(PDDLSemanticError, lambda: load_task(SMALL_DOMAIN, path), file=path, line=line, column=column,
                 words=words)


def test_problem_without_goal():
    path = bad("no-goal-problem.pddl")
    expect_error(PDDLSyntaxError, lambda: load_task(SMALL_DOMAIN, path), file=path, line=1,
                 words=["no (:goal ...) section"])


def test_type_mismatch_in_init_is_reported():
    text = engine_data("delivery-p01.pddl").read_text().replace("(parcel-at box home)", "(parcel-at t1 home)")
    with pytest.raises(PDDLSemanticError) as raised:
        load_task(engine_data("delivery-domain.pddl"), text)
    assert "'t1' of type 'truck'" in str(raised.value) and "(either parcel tool)" in str(raised.value)
    assert raised.value.line == 13 and raised.value.file is None and str(raised.value).startswith("<text>:13:")


# ---- unsupported features: one per family ---------------------------------------------------------------------

# or/exists/forall/when/derived/action costs are supported now (tests/test_engine_adl*.py); what stays refused:
@pytest.mark.parametrize(("domain", "line", "column", "feature"), [
    ("durative-domain.pddl", 4, 3, "durative actions (':durative-action')"),
    ("fluents-requirement-domain.pddl", 3, 18, "numeric fluents (':fluents')"),
    ("constraints-domain.pddl", 4, 3, "state-trajectory constraints (':constraints')"),
])
def test_unsupported_domain_features_are_refused_by_name(domain, line, column, feature):
    path = bad(domain)
    err = expect_error(UnsupportedFeatureError, lambda: load_domain(path), file=path, line=line, column=column,
                       words=["unsupported PDDL feature", feature, "STRIPS"])
    assert err.hint and "numeric fluents beyond total-cost" in err.hint


def test_metric_in_a_problem_is_refused():
    path = bad("metric-problem.pddl")
    expect_error(UnsupportedFeatureError, lambda: load_task(SMALL_DOMAIN, path), file=path, line=6, column=3,
                 words=["plan metrics other than 'minimize (total-cost)'"])


@pytest.mark.parametrize(("snippet", "feature"), [
    ("(> (fuel) 1)", "numeric fluents"),
    ("(not (<= (fuel) 1))", "numeric fluents"),
])
def test_other_unsupported_conditions(snippet, feature):
    text = (f"(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition {snippet} "
            ":effect (p ?x)))")
    with pytest.raises(UnsupportedFeatureError) as raised:
        parse_domain(text, "inline.pddl")
    assert feature in str(raised.value) and raised.value.file == "inline.pddl" and raised.value.line == 1
    assert raised.value.column == text.index(snippet) + 1 + (5 if snippet.startswith("(not") else 0)


def test_numeric_init_is_refused():
    domain = parse_domain("(define (domain d) (:predicates (p)) (:functions (fuel) - number))")
    with pytest.raises(UnsupportedFeatureError) as raised:
        parse_problem("(define (problem q) (:domain d)\n (:init (p) (= (fuel) (+ 1 2))) (:goal (p)))", domain,
                      "q.pddl")
    assert "numeric fluents" in str(raised.value) and str(raised.value).startswith("q.pddl:2:23:")


def test_unknown_requirement_is_a_syntax_error():
    with pytest.raises(PDDLSyntaxError) as raised:
        parse_domain("(define (domain d)\n  (:requirements :strips :teleportation))", "d.pddl")
    assert raised.value.line == 2 and raised.value.column == 26 and "':teleportation'" in str(raised.value)


# ---- wrong arguments, missing files, empty text ---------------------------------------------------------------

def test_swapped_domain_and_problem():
    problem = bad("no-goal-problem.pddl")
    expect_error(PDDLSyntaxError, lambda: load_task(problem, SMALL_DOMAIN), file=problem, line=1, column=9,
                 words=["expected a domain but this is a problem", "order of the domain and problem"])


def test_a_domain_given_as_the_problem():
    expect_error(PDDLSyntaxError, lambda: load_task(SMALL_DOMAIN, SMALL_DOMAIN), file=SMALL_DOMAIN, line=2,
                 words=["expected a problem but this is a domain"])


@pytest.mark.parametrize("as_str", [True, False])
def test_missing_file(tmp_path, as_str):
    missing = tmp_path / "nowhere" / "domain.pddl"
    with pytest.raises(PDDLError) as raised:
        load_task(str(missing) if as_str else missing, SMALL_DOMAIN)
    assert raised.value.file == str(missing) and "file not found" in str(raised.value)
    with pytest.raises(PDDLError) as raised:
        load_task(SMALL_DOMAIN, missing)
    assert raised.value.file == str(missing)


def test_a_directory_instead_of_a_file(tmp_path):
    with pytest.raises(PDDLError) as raised:
        load_task(tmp_path, SMALL_DOMAIN)
    assert "directory" in str(raised.value) and raised.value.file == str(tmp_path)


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "; only a comment\n"])
def test_empty_text(text):
    with pytest.raises(PDDLSyntaxError) as raised:
        load_task(text, SMALL_DOMAIN)
    assert "the text is empty" in str(raised.value) and raised.value.line == 1


def test_empty_file():
    path = bad("empty.pddl")
    expect_error(PDDLSyntaxError, lambda: load_domain(path), file=path, line=1, column=1,
                 words=["expected '(define ...)'", "empty"])


def test_wrong_argument_type():
    with pytest.raises(PDDLError) as raised:
        load_task(None, SMALL_DOMAIN)
    assert "NoneType" in str(raised.value)


# ---- warnings ------------------------------------------------------------------------------------------------

def test_undeclared_requirement_is_accepted_with_a_warning():
    path = bad("undeclared-negative-preconditions-domain.pddl")
    with pytest.warns(PDDLWarning, match=":negative-preconditions but does not declare it") as caught:
        task = load_task(path, bad("sloppy-problem.pddl"))
    assert any(str(w.message).startswith(f"{path}:2:3:") for w in caught)
    assert task.domain.warnings and ":negative-preconditions" in task.domain.warnings[0]
    assert [str(a) for a in task.applicable(task.initial_state)] == ["(a o2)"]


@pytest.mark.parametrize(("requirements", "body", "missing"), [
    (":strips", "(:types t) (:predicates (p ?x - t))", ":typing"),
    (":strips", "(:predicates (p ?x)) (:action a :parameters (?x ?y) :precondition (= ?x ?y) :effect (p ?x))",
     ":equality"),
])
def test_other_undeclared_requirements_warn(requirements, body, missing):
    with pytest.warns(PDDLWarning, match=missing):
        parse_domain(f"(define (domain d) (:requirements {requirements}) {body})")


def test_declared_requirements_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_task(engine_data("blocks-domain.pddl"), engine_data("blocks-p01.pddl"))
        load_task(engine_data("delivery-domain.pddl"), engine_data("delivery-p01.pddl"))


# ---- no input crashes the parser ------------------------------------------------------------------------------

_TOKENS = ["(", ")", "-", "?x", "either", "not", "and", "=", ":action", ":parameters", ":precondition", ":effect",
           "object", ":types", "depot", "(either)", "()", "(not)", "(and)", "(= ?x)", ";", "\n", " ", "x"]


@settings(max_examples=300, deadline=None)
@given(edits=st.lists(st.tuples(st.floats(0, 1), st.booleans(), st.sampled_from(_TOKENS), st.integers(1, 12)),
                      min_size=1, max_size=4),
       in_domain=st.booleans())
def test_mutated_pddl_loads_or_raises_an_apb_error(edits, in_domain):
    domain = engine_data("delivery-domain.pddl").read_text()
    problem = engine_data("delivery-p01.pddl").read_text()
    text = domain if in_domain else problem
    for where, insert, token, length in edits:
        k = int(where * len(text))
        text = text[:k] + token + text[k:] if insert else text[:k] + text[k + length:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        try:
            task = load_task(text if in_domain else domain, problem if in_domain else text)
        except ApbError as err:
            assert str(err).startswith("<text>:")
            return
    task.applicable(task.initial_state)
    task.unsatisfied_goals(task.initial_state)

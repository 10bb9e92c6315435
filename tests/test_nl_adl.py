"""English feedback and domain text for ADL constructs: disjunctions, quantifiers, derived predicates, conditional
effects and action costs (tests/data/nl_adl: a small hand-written domain with a curated nl.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.engine import load_task
from apb.envs.text_env import PDDLTextEnv
from apb.nl.explain import FormulaText, parse_formula
from apb.nl.render import DomainText
from apb.nl.sources import load_templates

DATA = Path(__file__).parent / "data" / "nl_adl"


@pytest.fixture()
def env():
    env = PDDLTextEnv(domain_file=DATA / "domain.pddl", problem_file=DATA / "p01.pddl")
    env.reset()
    return env


def _fail(env, action: str) -> tuple[str, dict]:
    observation, _, _, _, info = env.step(action)
    assert info["action_valid"] is False
    assert info["failure"]["kind"] == "unmet_preconditions"
    return observation, info


def test_disjunction_of_two_says_neither_nor(env):
    observation, info = _fail(env, "(paint block_b)")
    assert observation == "I cannot paint block_b because neither block_b is clear nor block_b is red."
    assert info["failure"]["unmet"] == ["(or (clear block_b) (red block_b))"]  # PDDL strings stay the engine's


def test_disjunction_of_three_lists_every_option(env):
    observation, _ = _fail(env, "(polish block_c)")
    assert observation == ("I cannot polish block_c because none of these is the case: block_c is clear, "
                           "block_c is red or block_c is heavy.")


def test_universal_names_the_objects_it_fails_for(env):
    observation, info = _fail(env, "(sweep block_a)")
    assert observation == "I cannot sweep block_a because block_b is not clear and block_c is not clear."
    assert info["failure"]["unmet"] == ["(clear block_b)", "(clear block_c)"]


def test_existential_without_witness_says_there_is_no(env):
    observation, _ = _fail(env, "(lift block_a)")
    assert observation == "I cannot lift block_a because there is no block A such that A is on block_a."


def test_derived_predicate_is_explained_one_level_down(env):
    observation, _ = _fail(env, "(move block_a)")
    assert observation == "I cannot move block_a because block_a is not free because block_a is heavy."


def test_failed_action_text_is_not_mixed_up_between_actions_outside_the_grounding(env):
    _fail(env, "(paint block_b)")
    observation, _ = _fail(env, "(sweep block_c)")
    assert observation.startswith("I cannot sweep block_c because")


def test_valid_adl_step_and_pddl_feedback_unchanged():
    env = PDDLTextEnv(domain_file=DATA / "domain.pddl", problem_file=DATA / "p01.pddl", description="pddl")
    env.reset()
    observation, _, _, _, info = env.step("(paint block_b)")
    assert observation == "(paint block_b) failed: unmet preconditions (or (clear block_b) (red block_b))."
    observation, _, _, _, info = env.step("(lift block_b)")
    assert info["action_valid"] and observation == "(lift block_b) executed."


def test_domain_text_renders_complex_preconditions_conditional_effects_and_costs(env):
    text = env.domain_text
    assert "I can only paint a block A if A is clear or A is red." in text
    assert "I can only sweep a block A if for every block B, B is clear." in text
    assert "I can only lift a block A if there is a block B such that B is on A." in text
    assert "Once I sweep a block A, for every block B, if B is red, then B is not red anymore." in text
    assert "Once I move a block A, if A is red, then A is heavy." in text
    assert "Each action has a cost" in text
    assert "The cost to lift a block A is 3." in text


def test_rule_templates_render_the_adl_domain_too():
    task = load_task(DATA / "domain.pddl", DATA / "p01.pddl")
    text = DomainText(task.domain, load_templates(task.domain, "rule")).description()
    assert "for every" in text and "there is" in text and "if " in text and "Each action has a cost" in text


def test_strips_domain_text_has_no_cost_or_formula_sentences():
    env = PDDLTextEnv("blocksworld")
    assert "cost" not in env.domain_text and "for every" not in env.domain_text


def test_formula_text_reads_imply_and_negated_conjunction(env):
    words = FormulaText(env.text.words)
    assert words.claim("(imply (red ?b) (heavy ?b))", {"?b": "A"}) == "if A is red, then A is heavy"
    assert words.claim("(not (and (red a) (heavy a)))") == "it is not the case that a is red and a is heavy"
    assert parse_formula("(exists (?c - block) (on ?c b))") == ["exists", ["?c", "-", "block"], ["on", "?c", "b"]]


def test_formula_text_keeps_scopes_apart(env):
    words = FormulaText(env.text.words)
    assert words.claim("(or (and (red a) (heavy a)) (clear a))") == "both a is red and a is heavy or a is clear"
    assert words.claim("(and (or (red a) (heavy a)) (clear a))") == "either a is red or a is heavy and a is clear"
    assert words.claim("(or (forall (?p - block) (red ?p)) (exists (?q - block) (heavy ?q)))") == \
        "either for every block A, A is red; or there is a block A such that A is heavy"
    # a nested quantifier that reuses a variable name gets a fresh letter
    assert words.claim("(forall (?p - block) (or (red ?p) (exists (?p - block) (heavy ?p))))") == \
        "for every block A, A is red or there is a block B such that B is heavy"
    assert words.rule("(imply (red ?b) (heavy ?b))", {"?b": "A"}, "move a block A") == \
        "If A is red, I can only move a block A if A is heavy."


def test_complex_goal_is_said_in_the_task_and_in_finish_feedback():
    env = PDDLTextEnv(domain_file=DATA / "domain.pddl", problem_file=DATA / "p02.pddl")
    observation, info = env.reset()
    assert observation.endswith("My goal is that block_a is done and for every block A, A is done or A is red.")
    observation, _, _, _, info = env.step("(finish)")
    assert info["failure"]["kind"] == "goal_not_reached"
    assert observation == ("I am not finished yet because block_a is not done, neither block_b is done nor block_b "
                           "is red and neither block_c is done nor block_c is red.")


def test_condition_strings_of_explain_read_as_words(env):
    words = env.text.words
    assert words.literal("(or (clear a) (red a))") == "a is clear or a is red"
    assert words.unmet("(or (clear a) (red a))") == "it is not the case that a is clear or a is red"
    assert words.literal("(free a) because (not (heavy a))") == "a is free"
    assert words.unmet("(clear a)") == "a is not clear"


def test_a_failing_implication_reads_x_but_not_y(env):
    from apb.engine import Unmet

    words = FormulaText(env.text.words)
    failed = Unmet("none_of", "(imply (red a) (heavy a))", (Unmet("not_fact", "(not (red a))"),
                                                            Unmet("fact", "(heavy a)")))
    assert words.reason(failed) == "a is red but a is not heavy"
    failed = Unmet("none_of", "(imply (red a) (not (clear a)))", (Unmet("not_fact", "(not (red a))"),
                                                                  Unmet("not_fact", "(not (clear a))")))
    assert words.reason(failed) == "a is red but a is clear"

"""Env feedback for any action text stays inside the observation space (bounded, printable quotes), text that is
not an action is answered as not understood, and a step after the goal keeps the episode terminated."""

from __future__ import annotations

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apb.envs  # noqa: F401  (registers the ids)
from apb.agents.act import ActAgent
from apb.agents.episode import run_episode
from apb.llm.scripted import ScriptedLLM
from apb.nl.feedback import MAX_QUOTED

ENVS = {"nl": gym.make("apb/Blocksworld-v0", problem=1),
        "pddl": gym.make("apb/Blocksworld-v0", problem=1, description="pddl")}
for _env in ENVS.values():
    _env.reset(seed=0)

ACTION_SHAPES = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1).map(lambda t: f"({t})"),
    st.text(alphabet=st.characters(codec="utf-8")).map(lambda t: f"(stack block_a {t})"),
    st.text(alphabet=st.characters(codec="utf-8")).map(lambda t: f"{t} block_a block_b"),
    st.text(alphabet=st.characters(codec="utf-8")).map(lambda t: f"(pick-up {t})"),
)


@pytest.mark.parametrize("style", sorted(ENVS))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=ACTION_SHAPES)
def test_every_observation_is_inside_the_observation_space(style, action):
    env = ENVS[style]
    obs, _, _, _, info = env.step(action)
    assert env.observation_space.contains(obs), repr(obs)
    if not info["action_valid"]:
        assert info["failure"]["text"] == obs
    env.reset(seed=0)


@pytest.mark.parametrize("style", sorted(ENVS))
@pytest.mark.parametrize("action", [
    "x" * 2_000_000,
    "(" + "fly " * 500_000 + ")",
    "(pick-up " + "block_q" * 300_000 + ")",
    "(stack\x00 block_a\x1b[31m block_b)",
    "(fly\x0bblock_a\x0cblock_b\u2028)",
    "(stack block_a\x07 block_b)",
    "(\ud800 block_a)",
])
def test_long_and_control_character_actions_are_quoted_as_a_bounded_printable_prefix(style, action):
    env = ENVS[style]
    obs, _, _, _, info = env.step(action)
    assert not info["action_valid"]
    assert env.observation_space.contains(obs), repr(obs[:300])
    assert len(obs) < 4 * MAX_QUOTED + 600
    env.reset(seed=0)


def test_a_long_action_quote_says_it_was_cut():
    obs, *_ = ENVS["nl"].step("(" + "x" * 10_000 + ")")
    assert "..." in obs and "x" * (MAX_QUOTED + 1) not in obs


@pytest.mark.parametrize("text", ["I pick up the red block", "Let me think about this", "pick up block a now"])
def test_english_that_is_not_an_action_is_not_understood(text):
    env = ENVS["nl"]
    obs, _, _, _, info = env.step(text)
    assert info["failure"]["kind"] == "syntax"
    assert obs.startswith(f"I cannot understand {text!r} as an action.")
    assert "no action called" not in obs
    env.reset(seed=0)


def test_act_agent_untranslatable_text_gets_not_understood_feedback():
    env = gym.make("apb/Blocksworld-v0", problem=1)
    llm = ScriptedLLM(["I juggle the blocks while whistling", "look around"])
    result = run_episode(env, ActAgent(llm=llm), max_steps=2)
    feedback = next(m["content"] for m in reversed(llm.calls[1]["messages"]) if m["role"] == "user")
    assert result.steps[0].action_valid is False
    assert feedback.startswith("I cannot understand 'I juggle the blocks while whistling' as an action")
    assert "no action called" not in feedback


@pytest.mark.parametrize("require_finish", [False, True])
def test_a_step_after_the_goal_keeps_the_episode_terminated(require_finish):
    env = gym.make("apb/Blocksworld-v0", problem=1, require_finish=require_finish, max_episode_steps=100)
    _, info = env.reset(seed=0)
    for action in info["gold_plan"] + (["(finish)"] if require_finish else []):
        _, reward, terminated, _, info = env.step(action)
    assert terminated and reward == 1.0 and info["goal_reached"]
    state = info["state_pddl"]
    for action in [info["admissible_actions"][0], "(look-around)", "(finish)", "nonsense"]:
        obs, reward, terminated, truncated, info = env.step(action)
        assert terminated and not truncated and reward == 0.0
        assert info["goal_reached"] and info["state_pddl"] == state
        assert not info["action_valid"] and info["failure"]["kind"] == "episode_over"
        assert "reset" in obs and env.observation_space.contains(obs)
    obs, info = env.reset(seed=0)
    _, _, terminated, _, info = env.step(info["admissible_actions"][0])
    assert not terminated and info["action_valid"]

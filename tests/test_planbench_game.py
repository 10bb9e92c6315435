"""PlanBench's domain families as Gymnasium games worded by their configs (apb.planbench.game), through
`gymnasium.make` with no prior `import apb`."""

from __future__ import annotations

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from apb.datasets.planbench import GAME_FAMILIES, load_config


@pytest.mark.parametrize("family", sorted(GAME_FAMILIES))
def test_every_family_plays_in_its_configs_words(family):
    env = gym.make(f"apb/PlanBench-{family}-v0")
    observation, info = env.reset(seed=0, options={"problem": 2})
    data = load_config(GAME_FAMILIES[family]).data
    intro = str(data.get("domain_intro") or "").strip()
    if intro:
        assert info["domain_description"].startswith(intro.splitlines()[0].strip())
    action = info["admissible_actions"][0]
    observation, _, terminated, _, info = env.step(action)
    assert info["action_valid"] and not terminated
    if data.get("actions"):
        name = action.strip("()").split()[0]
        template = data["actions"][name]
        assert template.split("{}")[0].strip().lower() in observation.lower()  # the config's action words


def test_blocksworld_reads_as_planbench_prompts_do():
    env = gym.make("apb/PlanBench-Blocksworld-v0", config="blocksworld_3")
    observation, info = env.reset(options={"problem": 1})
    assert "the orange block is on top of the blue block" in observation  # `the {} is on top of the {}`, colours
    assert info["problem_id"] == "instance-1" and len(info["admissible_actions"]) == 1
    observation, *_ = env.step("(unstack orange blue)")
    assert observation == "I unstack the orange block from on top of the blue block."
    observation, _, *_, info = env.step("(stack red blue)")
    assert not info["action_valid"] and "the hand is currently holding red block" in observation
    check_env(env.unwrapped, skip_render_check=True)


def test_mystery_names_are_kept():
    env = gym.make("apb/PlanBench-MysteryBlocksworld-v0")
    observation, _ = env.reset(options={"problem": 2})
    assert "object a craves object b" in observation and "harmony" in observation
    observation, *_ = env.step("(feast a b)")
    assert observation == "I feast object a from object b."

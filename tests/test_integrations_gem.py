"""GEM environments (extra `gem`): apb's games through gem.make, played to the goal and with a wrong action; apb's
reasoning-gym datasets through GEM's rg: ids."""

from __future__ import annotations

import pytest

pytest.importorskip("gem")

import gem
from balance import ENTRIES, SEEDS, assert_at_chance

from apb.agents.act import english_action
from apb.integrations.gem import ENV_IDS, ApbGemEnv


def test_every_bundled_domain_has_a_gem_id_next_to_its_gymnasium_id():
    from apb.envs.registration import ENV_NAMES

    assert {f"apb:{name}-v0" for name in ENV_NAMES.values()} <= set(ENV_IDS)
    assert "apb:PDDL-v0" in ENV_IDS and "rg:apb_blocksworld" in ENV_IDS and "rg:apb_acp_app" in ENV_IDS


def test_gem_make_plays_a_problem_to_the_goal_with_reward_1():
    env = gem.make("apb:Blocksworld-v0", problem=1)
    assert isinstance(env, ApbGemEnv)
    observation, info = env.reset()
    assert "Rules:" in observation and "My goal is" in observation and info["problem_id"] == "p01"
    plan = env.game.info["gold_plan"]
    for number, action in enumerate(plan, 1):
        text = english_action(action, env.game.info)
        if number % 2:  # GEM's answer convention works too
            text = f"I think the best move is \\boxed{{{text}}}"
        observation, reward, terminated, truncated, info = env.step(text)
        assert info["valid"] and info["action"] == action
        assert terminated == (number == len(plan)) and not truncated
    assert reward == 1.0 and info["goal_reached"]
    assert env.summary["plan_length"] == env.summary["optimal_length"] == len(plan)


def test_a_wrong_action_gets_apbs_explanation_and_reward_0_and_nonsense_never_raises():
    env = gem.make("apb:Blocksworld-v0", problem=1, max_steps=3)
    env.reset()
    observation, reward, terminated, truncated, info = env.step("stack block_a on top of block_b")
    assert observation == "I cannot stack block_a on top of block_b because I am not holding block_a."
    assert reward == 0.0 and not terminated and not truncated
    assert not info["valid"] and info["failure"]["unmet"] == ["(holding block_a)"]
    _, reward, terminated, truncated, info = env.step("}}{{ \\boxed{")
    assert reward == 0.0 and not info["valid"]
    _, reward, terminated, truncated, _ = env.step(env.sample_random_action())
    assert truncated and not terminated and reward == 0.0  # the step limit


def test_reset_seeds_pick_problems_reproducibly_and_spawn_copies_an_episode():
    env = gem.make("apb:Gripper-v0", description="pddl")
    picked = [env.reset(seed=s)[1]["problem_id"] for s in (0, 1, 2, 3, 0)]
    assert picked[0] == picked[-1] and len(set(picked)) > 1
    action = env.sample_random_action()
    assert action.startswith("(")  # the PDDL view: actions are PDDL
    env.step(action)
    child = env.spawn(same_state=True)
    assert child.game.problem_id == env.game.problem_id and child.game.plan == env.game.plan == [action]
    seeded = gem.make("apb:Gripper-v0", seed=2)  # gem.make_vec passes a seed: the first reset uses it
    assert seeded.reset()[1]["problem_id"] == picked[2]


def test_apbs_reasoning_gym_datasets_reach_gem_scored_by_apb():
    env = gem.make("rg:apb_blocksworld")
    question, _ = env.reset()
    entry = env.data
    assert question == entry["question"] and entry["metadata"]["source_dataset"] == "apb_blocksworld"
    assert env.step(f"My plan:\n\\boxed{{{entry['answer']}}}")[1] == 1.0
    rest = entry["answer"].splitlines()[1:]
    assert env.step("\\boxed{" + "\n".join(rest) + "}")[1] == 0.0  # the first action left out: not a plan
    assert env.step("no boxed answer")[1] == 0.0


def test_gem_make_vec_runs_apb_games_side_by_side_to_the_goal():
    envs = gem.make_vec(["apb:Blocksworld-v0", "apb:Blocksworld-v0"], problem=1, seed=0)
    observations, _ = envs.reset()
    assert len(observations) == 2 and all("My goal is" in o for o in observations)
    first = envs.envs[0].game
    plan = [english_action(a, first.info) for a in first.info["gold_plan"]]
    for text in plan:
        observations, rewards, terminated, _, _ = envs.step([text, text])
    assert list(rewards) == [1.0, 1.0] and list(terminated) == [True, True]
    assert all("My goal is" in o for o in observations)  # GEM's vector env resets a finished episode at once


def test_options_typed_as_text_get_their_types():
    """`max_steps="3"` crashed the session ("bad max_steps '3'"); `hints="false"` turned the hints on."""
    env = gem.make("apb:Blocksworld-v0", problem=1, max_steps="3", hints="false")
    observation, _ = env.reset()
    assert "Actions I can do now" not in observation
    for _ in range(3):
        observation, reward, _, truncated, _ = env.step("no idea")
    assert truncated and reward == 0.0 and "Actions I can do now" not in observation


@pytest.mark.parametrize("seed", SEEDS)
def test_a_constant_answer_scores_at_chance_on_rg_acp_datasets(seed):
    """Issue 41: rg:apb_acp_* gave the gold yes on every question, so always answering yes earned full reward."""
    env = gem.make("rg:apb_acp_app", seed=seed)
    entries = []
    for _ in range(ENTRIES):
        env.reset()
        entries.append(env.data)
    assert_at_chance("bool", entries, lambda answer, entry: env.reward_fn(answer=answer, entry=entry),
                     f"seed {seed}")
    env.data = entries[0]
    assert env.step(f"\\boxed{{{entries[0]['answer']}}}")[1] == 1.0  # GEM's own step rewards the gold

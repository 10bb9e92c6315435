"""RL wrappers: recreatable from their spec (check_env, make_vec(wrappers=...)), integer-only discrete actions, the
multi-hot fact encoding with its action mask, and the example that trains a masked policy with numpy only."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from functools import partial
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import apb.envs  # noqa: F401  (registers the ids)
from apb.envs.encodings import MultiHotObservations
from apb.envs.wrappers import DiscreteActions, LiteralObservations, SelectInfo
from apb.errors import ApbError

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rl_masked_policy.py"
WRAPPERS = [DiscreteActions, partial(LiteralObservations, literal_format="pddlgym"), MultiHotObservations,
            partial(SelectInfo, keys=["problem_id", "state_pddl"])]


def make(domain: str = "Blocksworld", **kwargs) -> gym.Env:
    return gym.make(f"apb/{domain}-v0", **kwargs)


@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")
@pytest.mark.parametrize("wrapper", WRAPPERS, ids=["discrete", "literals", "multihot", "select"])
def test_wrappers_pass_check_env_and_are_recreated_from_their_spec(wrapper):
    env = wrapper(make(problem=2))
    check_env(env, skip_render_check=True)
    again = env.spec.make()
    assert type(again) is type(env)
    assert again.spec.to_json() == env.spec.to_json()
    obs, info = env.reset(seed=1)
    obs2, info2 = again.reset(seed=1)
    assert info["problem_id"] == info2["problem_id"] == "p02"
    assert env.observation_space == again.observation_space and env.action_space == again.action_space
    if isinstance(env, LiteralObservations):
        assert again.literal_format == "pddlgym" and obs == obs2
    elif isinstance(env, SelectInfo):
        assert set(info) == {"problem_id", "state_pddl"} and info == info2
    else:
        assert np.array_equal(info["action_mask"], info2["action_mask"])


@pytest.mark.parametrize("action", ["(pick-up block_a)", 2.5, True, None, np.array([1, 2]), np.float32(1.0)])
def test_discrete_actions_reject_non_integer_actions(action):
    env = DiscreteActions(make())
    env.reset(seed=0)
    with pytest.raises(ApbError, match=r"DiscreteActions takes an integer action index 0-\d+"):
        env.step(action)


@pytest.mark.parametrize("action", [np.int64(0), np.array(0), np.array([0]), 0])
def test_discrete_actions_accept_integers_of_any_kind(action):
    env = DiscreteActions(make())
    env.reset(seed=0)
    *_, info = env.step(action)
    assert info["action"] == env.action_names[0]


def test_multi_hot_observations_encode_state_and_goal_over_a_fixed_domain_index():
    env = MultiHotObservations(make())
    n = len(env.fact_names)
    assert env.observation_space == gym.spaces.MultiBinary(2 * n)
    assert env.fact_names == sorted(env.fact_names) and len(set(env.fact_names)) == n
    seen = set()
    for problem in (1, 2, 7):
        obs, info = env.reset(options={"problem": problem})
        assert env.observation_space.contains(obs) and obs.dtype == np.int8
        state, goal = obs[:n], obs[n:]
        assert [env.fact_names[i] for i in np.flatnonzero(state)] == sorted(info["state_pddl"])
        assert [env.fact_names[i] for i in np.flatnonzero(goal)] == sorted(info["goal_pddl"])
        assert [env.action_names[i] for i in np.flatnonzero(info["action_mask"])] == info["admissible_actions"]
        seen.add(obs.tobytes())
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs2, _, _, _, info2 = env.step(action)
        assert [env.fact_names[i] for i in np.flatnonzero(obs2[:n])] == sorted(info2["state_pddl"])
        assert np.array_equal(obs2[n:], goal) and np.array_equal(env.action_masks(), info2["action_mask"])
    assert len(seen) == 3


def test_multi_hot_over_a_discrete_env_does_not_wrap_twice():
    env = MultiHotObservations(DiscreteActions(make()))
    assert sum(isinstance(w, DiscreteActions) for w in _stack(env)) == 1
    alone = MultiHotObservations(make())
    assert sum(isinstance(w, DiscreteActions) for w in _stack(alone)) == 1
    assert alone.action_space == env.action_space


def _stack(env):
    while isinstance(env, gym.Wrapper):
        yield env
        env = env.env


def test_multi_hot_vector_env():
    envs = gym.make_vec("apb/Blocksworld-v0", num_envs=2, vectorization_mode="sync", wrappers=[MultiHotObservations])
    try:
        obs, infos = envs.reset(seed=0, options={"problem": 1})
        assert obs.shape[0] == 2 and obs.dtype == np.int8 and infos["action_mask"].shape[0] == 2
    finally:
        envs.close()


def _load_example():
    spec = importlib.util.spec_from_file_location("rl_masked_policy", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_masked_q_learning_example_solves_the_problem():
    example = _load_example()
    env = MultiHotObservations(make(problem=1))
    q_table = example.train(env, episodes=300, seed=0)
    actions = example.greedy_plan(env, q_table)
    _, info = env.reset(options={"problem": 1})
    assert len(actions) <= 2 * info["optimal_plan_length"]
    task = env.unwrapped.task
    assert task.validate(actions).valid


def test_masked_q_learning_example_runs_as_a_script():
    done = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "goal reached: True" in done.stdout


def test_select_info_keeps_the_chosen_keys_and_names_unknown_ones():
    env = SelectInfo(MultiHotObservations(make(problem=1)))
    _, info = env.reset(seed=0)
    assert set(info) == {"problem_id", "admissible_actions", "action_mask", "goal_reached"}
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert set(info) == {"problem_id", "admissible_actions", "action_mask", "action_valid", "goal_reached"}
    typo = SelectInfo(make(), keys=["admissible_actions", "acton_valid"])
    _, info = typo.reset(seed=0)
    assert set(info) == {"admissible_actions"}
    with pytest.raises(ApbError, match=r"no info key 'acton_valid'; the keys are .*action_valid"):
        typo.step(info["admissible_actions"][0])
    with pytest.raises(ApbError, match="list of info key names"):
        SelectInfo(make(), keys="problem_id")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_multi_hot_vector_env_with_lean_infos(mode):
    envs = gym.make_vec("apb/Blocksworld-v0", num_envs=2, vectorization_mode=mode,
                        wrappers=[MultiHotObservations, SelectInfo])
    try:
        obs, infos = envs.reset(seed=0, options={"problem": 1})
        assert obs.shape == (2, envs.single_observation_space.n) and obs.dtype == np.int8
        actions = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
        obs2, _, _, _, infos = envs.step(actions)
        assert list(infos["action_valid"]) == [True, True] and not np.array_equal(obs, obs2)
        assert {k for k in infos if not k.startswith("_")} == {"problem_id", "admissible_actions", "action_mask",
                                                                "action_valid", "goal_reached"}
    finally:
        envs.close()

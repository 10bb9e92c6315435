"""The native vector env (gymnasium.make_vec's default for apb ids): the same trajectories as N single envs in
Gymnasium's SyncVectorEnv for the same seeds, in every observation and action mode, with lean batched infos."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import apb.envs  # noqa: F401  (registers the ids)
from apb.envs.vector import DEFAULT_INFO_KEYS, PDDLVectorEnv
from apb.errors import ApbError

ID = "apb/Blocksworld-v0"


def _actions(rng, infos, names, action_mode, num_envs):
    """Random actions from each env's info: mostly applicable, sometimes not (both feedback paths)."""
    out = []
    for i in range(num_envs):
        admissible = list(infos["admissible_actions"][i])
        text = rng.choice(admissible) if rng.random() < 0.8 else rng.choice(names)
        out.append(text)
    if action_mode == "index":
        return np.array([names.index(a) for a in out])
    return tuple(out)


@pytest.mark.parametrize(("obs_mode", "action_mode"), [("text", "text"), ("facts", "index"), ("graph", "text")])
def test_native_vector_env_matches_sync_vector_env_of_single_envs(obs_mode, action_mode):
    num_envs, steps = 3, 60
    kwargs = {"obs_mode": obs_mode, "action_mode": action_mode, "max_episode_steps": 7}
    native = gym.make_vec(ID, num_envs=num_envs, **kwargs)
    sync = gym.make_vec(ID, num_envs=num_envs, vectorization_mode="sync", **kwargs)
    assert isinstance(native, PDDLVectorEnv) and native.single_observation_space == sync.single_observation_space
    names = native.unwrapped.action_names
    rng = np.random.default_rng(5)
    obs_n, info_n = native.reset(seed=11)
    obs_s, info_s = sync.reset(seed=11)
    resets = 0
    for _ in range(steps):
        assert data_equivalence(obs_n, obs_s)
        assert info_n and set(info_n) <= set(info_s)
        for key in info_n:
            assert data_equivalence(info_n[key], info_s[key]), key
        assert list(info_n["problem_id"]) == list(info_s["problem_id"])
        actions = _actions(rng, info_n, names, action_mode, num_envs)
        obs_n, rew_n, term_n, trunc_n, info_n = native.step(actions)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(actions)
        assert np.array_equal(rew_n, rew_s) and np.array_equal(term_n, term_s) and np.array_equal(trunc_n, trunc_s)
        resets += int(trunc_n.sum() + term_n.sum())
    assert resets > 3  # autoresets happened (7-step episodes) and drew the same next problems
    native.close()
    sync.close()


def test_default_info_keys_are_lean_and_others_come_on_request():
    envs = gym.make_vec(ID, num_envs=2)
    _, infos = envs.reset(seed=0)
    assert {k for k in infos if not k.startswith("_")} == set(DEFAULT_INFO_KEYS) - {"action_valid"}
    _, _, _, _, infos = envs.step(tuple(a[0] for a in infos["admissible_actions"]))
    assert {k for k in infos if not k.startswith("_")} == set(DEFAULT_INFO_KEYS)
    envs = gym.make_vec(ID, num_envs=2, obs_mode="facts", info_keys=["state_pddl", "action_valid", "feedback"])
    _, infos = envs.reset(seed=0)
    assert set(infos) == {"state_pddl", "_state_pddl", "feedback", "_feedback"}
    names = envs.unwrapped.action_names
    *_, infos = envs.step([names[int(np.flatnonzero(m)[0])] for m in envs.unwrapped.action_masks()])
    assert infos["action_valid"].tolist() == [True, True] and infos["feedback"][0].startswith("I ")
    full = gym.make_vec(ID, num_envs=2, info_keys="all")
    _, infos = full.reset(seed=0)
    assert "domain_description" in infos and "action_mask" in infos


def test_action_masks_and_autoreset_modes():
    envs = gym.make_vec(ID, num_envs=4, obs_mode="facts", action_mode="index", autoreset_mode="SameStep",
                        max_episode_steps=3)
    obs, infos = envs.reset(seed=2)
    masks = envs.unwrapped.action_masks()
    assert masks.shape == (4, len(envs.unwrapped.action_names)) and masks.dtype == bool
    assert np.array_equal(masks, infos["action_mask"].astype(bool))
    for _ in range(3):
        obs, _, _, trunc, infos = envs.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        masks = envs.unwrapped.action_masks()
    assert trunc.all() and "final_obs" in infos and infos["_final_obs"].all()
    assert infos["final_obs"][0].shape == obs[0].shape
    # the observation after a same-step reset is the new episode's first one
    assert all(s == 0 for s in (lane._steps for lane in envs.unwrapped.lanes))
    with pytest.raises(ApbError, match="autoreset_mode"):
        PDDLVectorEnv(2, domain="blocksworld", autoreset_mode="later")
    with pytest.raises(ApbError, match="obs_mode='pixels'"):
        gym.make_vec(ID, num_envs=2, obs_mode="pixels")

"""The native vector env's batch path (apb.envs.batched): facts observations and index actions stepped on numpy
arrays for all sub-envs at once give the same trajectories as Gymnasium's SyncVectorEnv of single envs (obs,
rewards, terminations, truncations, infos, masks) over 1,000 seeded steps with autoresets and a different problem
per sub-env; other modes and non-STRIPS tasks fall back to the per-env loop and say so."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import apb.envs  # noqa: F401  (registers the ids)
from apb.envs.batched import BATCH_INFO_KEYS
from apb.envs.vector import PDDLVectorEnv
from apb.errors import ApbError

MODES = {"obs_mode": "facts", "action_mode": "index"}


def _pair(env_id: str, num_envs: int, **kwargs):
    native = gym.make_vec(env_id, num_envs=num_envs, **MODES, **kwargs)
    sync_kwargs = {k: v for k, v in kwargs.items() if k not in ("info_keys", "autoreset_mode")}
    vector_kwargs = {"autoreset_mode": kwargs["autoreset_mode"]} if "autoreset_mode" in kwargs else {}
    sync = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", vector_kwargs=vector_kwargs,
                        **MODES, **sync_kwargs)
    return native, sync


def _same_infos(native: dict, sync: dict) -> None:
    assert native and set(native) <= set(sync)
    for key in native:
        if isinstance(native[key], dict):
            _same_infos(native[key], sync[key])
        else:
            assert data_equivalence(native[key], sync[key]), key


def _sync_masks(sync) -> np.ndarray:
    return np.stack([env.unwrapped.action_masks() for env in sync.envs])


@pytest.mark.parametrize(("env_id", "info_keys"), [("apb/Blocksworld-v0", None),
                                                   ("apb/Logistics-v0", sorted(BATCH_INFO_KEYS))])
def test_batched_vector_env_matches_sync_vector_env_over_1000_steps(env_id, info_keys):
    num_envs, steps = 6, 1000
    native, sync = _pair(env_id, num_envs, max_episode_steps=9,
                         **({"info_keys": info_keys} if info_keys else {}))
    assert native.stepping == "batched" and "batched" in repr(native)
    size = native.single_action_space.n
    rng = np.random.default_rng(7)
    obs_n, info_n = native.reset(seed=3)
    obs_s, info_s = sync.reset(seed=3)
    assert len(set(info_n["problem_id"])) > 1  # the sub-envs are on different problems
    problems, resets, invalid = set(), 0, 0
    for _ in range(steps):
        assert data_equivalence(obs_n, obs_s)
        _same_infos(info_n, info_s)
        masks = native.action_masks()
        assert np.array_equal(masks, _sync_masks(sync)) and masks.dtype == np.bool_
        problems.update(info_n["problem_id"])
        # mostly an applicable action drawn from the batched mask, sometimes any action (unmet preconditions)
        drawn = np.array([rng.choice(np.flatnonzero(m)) if m.any() and rng.random() < 0.85 else rng.integers(size)
                          for m in masks])
        obs_n, rew_n, term_n, trunc_n, info_n = native.step(drawn)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(drawn)
        assert np.array_equal(rew_n, rew_s) and rew_n.dtype == rew_s.dtype
        assert np.array_equal(term_n, term_s) and np.array_equal(trunc_n, trunc_s)
        resets += int((term_n | trunc_n).sum())
        if "action_valid" in info_n:  # absent when every sub-env started a new episode on this step
            invalid += int((~info_n["action_valid"] & info_n["_action_valid"]).sum())
    assert resets > 100 and invalid > 100 and len(problems) > 10
    native.close()
    sync.close()


def test_batched_same_step_autoreset_matches_sync():
    native, sync = _pair("apb/Blocksworld-v0", 4, max_episode_steps=5, autoreset_mode="SameStep",
                         info_keys=["problem_id", "action_valid", "step", "action", "action_mask"])
    assert native.stepping == "batched"
    rng = np.random.default_rng(1)
    obs_n, info_n = native.reset(seed=5)
    obs_s, info_s = sync.reset(seed=5)
    finals = 0
    for _ in range(200):
        masks = native.action_masks()
        drawn = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_n, rew_n, term_n, trunc_n, info_n = native.step(drawn)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(drawn)
        assert data_equivalence(obs_n, obs_s) and np.array_equal(rew_n, rew_s)
        assert np.array_equal(term_n, term_s) and np.array_equal(trunc_n, trunc_s)
        _same_infos(info_n, info_s)
        finals += int(info_n.get("_final_obs", np.zeros(4, bool)).sum())
    assert finals > 100


def test_batched_disabled_autoreset_and_bad_actions():
    envs = gym.make_vec("apb/Blocksworld-v0", num_envs=3, autoreset_mode="Disabled", max_episode_steps=2, **MODES)
    envs.reset(seed=0)
    for _ in range(2):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ApbError, match="finished its episode"):
        envs.step(np.zeros(3, dtype=np.int64))
    _, infos = envs.reset(options={"reset_mask": np.array([True, False, False])})
    assert infos["_problem_id"].tolist() == [True, False, False]
    envs.reset(seed=0)
    with pytest.raises(ApbError, match="out of range"):
        envs.step(np.array([0, 1, 10_000]))
    with pytest.raises(ApbError, match="integer action index"):
        envs.step(["(pick-up block_a)", 0, 0])
    with pytest.raises(ApbError, match="2 actions for 3 envs"):
        envs.step(np.array([0, 1]))


COND_DOMAIN = """(define (domain switch) (:requirements :strips :negative-preconditions :conditional-effects)
  (:predicates (on ?x) (lit ?x))
  (:action flip :parameters (?x) :precondition (not (on ?x))
    :effect (and (on ?x) (when (lit ?x) (not (lit ?x))))))"""
COND_PROBLEM = """(define (problem s1) (:domain switch) (:objects a b) (:init (lit a)) (:goal (and (on a) (on b))))"""


def test_fallback_to_the_per_env_loop_is_said(tmp_path):
    graph = gym.make_vec("apb/Blocksworld-v0", num_envs=2, obs_mode="graph", action_mode="index")
    assert graph.stepping == "per-env loop" and "obs_mode='graph'" in repr(graph)
    text_keys = gym.make_vec("apb/Blocksworld-v0", num_envs=2, info_keys=["feedback"], **MODES)
    assert text_keys.stepping == "per-env loop" and "feedback" in text_keys.fallback_reason
    (tmp_path / "domain.pddl").write_text(COND_DOMAIN)
    (tmp_path / "p1.pddl").write_text(COND_PROBLEM)
    envs = PDDLVectorEnv(2, domain_file=tmp_path / "domain.pddl", problem_file=tmp_path / "p1.pddl", **MODES)
    assert envs.stepping == "per-env loop" and "conditional effects" in repr(envs)
    envs.reset(seed=0)  # the loop still steps it
    obs, *_ = envs.step(np.array([0, 0]))
    assert obs.shape == (2, envs.single_observation_space.n)


def test_bench_env_vector_with_index_actions_from_the_mask(capsys):
    from apb.cli import main

    assert main(["bench", "env", "--vector", "--domains", "logistics", "--seconds", "0.05", "--json", "--obs",
                 "facts", "--actions", "index", "--modes", "single,native,sync", "--num-envs", "8"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["actions"] == "index"
    assert [(r["mode"], r["envs"]) for r in report["rows"]] == [("single", 1), ("native", 8), ("sync", 8)]
    assert all(r["steps"] > 0 for r in report["rows"])
    assert report["rows"][1]["stepping"] == "batched"

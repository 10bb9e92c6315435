"""Vector envs: `gymnasium.make_vec` in sync and async mode returns the real text observations and infos, with no
extra kwargs (Gymnasium's shared memory for Text spaces would otherwise hand back strings of '0')."""

from __future__ import annotations

import copy
import json

import gymnasium as gym
import numpy as np
import pytest

import apb.envs  # noqa: F401  (registers the ids)
from apb.envs.spaces import PrintableText
from apb.envs.wrappers import DiscreteActions, LiteralObservations

ID = "apb/Blocksworld-v0"


def single(problem: int):
    env = gym.make(ID, problem=problem)
    obs, info = env.reset(seed=0)
    return env, obs, info


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_returns_the_real_observations_and_infos(mode):
    envs = gym.make_vec(ID, num_envs=2, vectorization_mode=mode)
    try:
        obs, infos = envs.reset(seed=0, options={"problem": 1})
        _, expected, info1 = single(1)
        assert isinstance(obs, tuple) and len(obs) == 2
        assert obs == (expected, expected)
        assert list(infos["problem_id"]) == ["p01", "p01"]
        assert envs.single_observation_space.contains(obs[0])
        action = info1["admissible_actions"][0]
        obs2, reward, terminated, truncated, infos2 = envs.step((action, "(fly away)"))
        env, *_ = single(1)
        feedback = env.step(action)[0]
        assert obs2[0] == feedback and obs2[0].startswith("I ")
        assert "there is no action called fly" in obs2[1]
        assert list(infos2["action_valid"]) == [True, False]
        assert list(reward) == [0.0, 0.0] and not terminated.any() and not truncated.any()
        assert obs2 != obs  # the buffer is read again on every step
    finally:
        envs.close()


def test_async_without_copy_reads_each_step_and_copies_are_plain_tuples():
    envs = gym.make_vec(ID, num_envs=2, vectorization_mode="async", vector_kwargs={"copy": False})
    try:
        live, infos = envs.reset(seed=0, options={"problem": 2})
        first = copy.deepcopy(live)
        assert type(first) is tuple and first[0].startswith(live[0][:20])
        envs.step(tuple(infos["admissible_actions"][i][0] for i in range(2)))
        assert live[0] != first[0] and live[0].startswith("I ")  # a view: it follows the buffer
        assert len(live) == 2 and list(live) == [live[0], live[1]]
    finally:
        envs.close()


def test_async_shared_memory_holds_unicode_and_long_text():
    from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

    space = PrintableText(50)
    memory = create_shared_memory(space, n=3)
    view = read_from_shared_memory(space, memory, n=3)
    assert tuple(view) == ("", "", "")
    write_to_shared_memory(space, 1, "Ünïcödé blöck ☃\nnext line", memory)
    write_to_shared_memory(space, 2, "x" * 80, memory)  # longer than the space: cut at max_length
    assert view[1] == "Ünïcödé blöck ☃\nnext line" and view[2] == "x" * 50 and view[0] == ""
    write_to_shared_memory(space, 1, "short", memory)
    assert view[1] == "short"


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_with_apb_wrappers(mode):
    envs = gym.make_vec(ID, num_envs=2, vectorization_mode=mode, wrappers=[DiscreteActions])
    try:
        _, infos = envs.reset(seed=3, options={"problem": 1})
        mask = infos["action_mask"]
        assert mask.shape[0] == 2 and mask.dtype == np.int8
        actions = np.array([int(np.flatnonzero(m)[0]) for m in mask])
        _, _, _, _, infos = envs.step(actions)
        assert list(infos["action_valid"]) == [True, True]
    finally:
        envs.close()
    envs = gym.make_vec(ID, num_envs=2, vectorization_mode=mode, wrappers=[LiteralObservations])
    try:
        obs, infos = envs.reset(seed=3, options={"problem": 1})
        assert type(obs["literals"]) is tuple and obs["literals"][0] == tuple(sorted(infos["state_pddl"][0]))
        assert obs["goal"][1] == tuple(infos["goal_pddl"][1])
        assert len(obs["objects"][0]) == len([k for k in infos["objects"] if k[0] != "_"])
        obs, _, _, _, infos = envs.step((infos["admissible_actions"][0][0], "(look-around)"))
        assert obs["literals"][0] == tuple(sorted(infos["state_pddl"][0])) != obs["literals"][1]
        assert all(envs.single_observation_space[k].contains(obs[k][0]) for k in obs)
    finally:
        envs.close()


def test_literal_observation_spaces_bound_every_problem():
    env = LiteralObservations(gym.make("apb/Logistics-v0"), literal_format="pddlgym")
    for problem in range(1, 21):
        obs, info = env.reset(options={"problem": problem})
        assert env.observation_space.contains(obs), problem
        obs, *_ = env.step(info["admissible_actions"][-1])
        assert env.observation_space.contains(obs), problem


def test_bench_env_vector_reports_single_sync_and_async(capsys):
    from apb.cli import main

    assert main(["bench", "env", "--vector", "--domains", "blocksworld", "--seconds", "0.02", "--json",
                 "--obs", "text,facts"]) == 0
    report = json.loads(capsys.readouterr().out)
    modes = ["single", "native", "sync", "async", "sync + SelectInfo", "async + SelectInfo"]
    assert [(r["obs"], r["mode"]) for r in report["rows"]] == [(o, m) for o in ("text", "facts") for m in modes]
    assert all(r["steps"] > 0 and r["steps_per_s"] > 0 and r["domain"] == "blocksworld" for r in report["rows"])
    assert [r["envs"] for r in report["rows"]] == [1, 2, 2, 2, 2, 2] * 2
    single = {r["obs"]: r["steps_per_s"] for r in report["rows"] if r["mode"] == "single"}
    assert all(r["vs_single"] == round(r["steps_per_s"] / single[r["obs"]], 3) for r in report["rows"])
    assert main(["bench", "env", "--vector", "--domains", "blocksworld", "--seconds", "0.02", "--json",
                 "--obs", "graph", "--modes", "native", "--num-envs", "3"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["obs"], r["mode"], r["envs"]) for r in rows] == [("graph", "native", 3)]
    assert main(["bench", "env", "--vector", "--obs", "pixels"]) == 2
    assert "--obs pixels" in capsys.readouterr().err
    assert main(["bench", "env", "--vector", "--domains", "blocksworld,nope"]) == 2
    assert "unknown domain(s) nope" in capsys.readouterr().err

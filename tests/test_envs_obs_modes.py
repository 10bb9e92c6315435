"""obs_mode / action_mode: Gymnasium spaces that pass check_env, graph observations that round-trip to the state's
facts, action masks equal to the engine's applicable actions on random walks of every bundled domain, and index /
lifted actions that mean the same ground action as its PDDL string."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import apb.envs  # noqa: F401  (registers the ids)
from apb.domains.registry import BUNDLED
from apb.envs.registration import env_id
from apb.errors import ApbError

ID = "apb/Blocksworld-v0"


@pytest.mark.parametrize("obs_mode", ["text", "facts", "graph"])
@pytest.mark.parametrize("action_mode", ["text", "index", "lifted"])
def test_check_env_passes_for_every_mode(obs_mode, action_mode):
    env = gym.make(ID, obs_mode=obs_mode, action_mode=action_mode)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    if (obs_mode, action_mode) != ("text", "text"):
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].sum() == len(info["admissible_actions"])
    if obs_mode != "text":
        assert info["feedback"] == env.unwrapped._current.observation


@pytest.mark.parametrize("domain", sorted(BUNDLED))
def test_masks_graphs_and_facts_follow_the_engine_on_random_walks(domain):
    env = gym.make(env_id(domain), obs_mode="graph", action_mode="index", max_episode_steps=1000)
    base = env.unwrapped
    encoding = base.encoding
    rng = random.Random(domain)
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        for _ in range(15):
            task, state = base.task, base.state
            applicable = [str(a) for a in task.applicable(state)]
            assert [encoding.action_names[i] for i in np.flatnonzero(info["action_mask"])] == sorted(applicable)
            assert env.unwrapped.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
            facts, goal = encoding.graph_facts(obs, info["objects"])
            assert facts == sorted(task.facts(state) | task.static_facts) == sorted(info["state_pddl"])
            assert goal == sorted(str(g) for g in task.goal if g.positive and g.predicate != "=")
            vector = encoding.facts_vector(task, state.bits)
            size = len(encoding.fact_names)
            assert sorted(encoding.fact_names[i] for i in np.flatnonzero(vector[:size])) == facts
            assert sorted(encoding.fact_names[i] for i in np.flatnonzero(vector[size:])) == goal
            if not applicable:
                break
            action = rng.choice(applicable)
            obs, _, terminated, _, info = env.step(encoding.action_names.index(action))
            assert info["action"] == action and info["action_valid"]
            if terminated:
                break


def test_lifted_actions_round_trip_and_explain_bad_objects():
    env = gym.make("apb/Logistics-v0", action_mode="lifted", obs_mode="facts")
    base = env.unwrapped
    _, info = env.reset(seed=1)
    encoding = base.encoding
    for name in info["admissible_actions"]:
        lifted = encoding.lifted(base.task, name)
        assert env.action_space.contains(lifted)
        assert encoding.action_text(base.task, lifted) == name
    name = info["admissible_actions"][0]
    _, _, _, _, step_info = env.step(encoding.lifted(base.task, name))
    assert step_info["action"] == name and step_info["action_valid"]
    bad = encoding.lifted(base.task, name)
    bad[1] = encoding.max_objects - 1 if len(info["objects"]) < encoding.max_objects else bad[1]
    mask = base.action_masks()
    assert mask.shape == (len(encoding.schemas) + encoding.max_objects * encoding.max_parameters,)
    assert mask[:len(encoding.schemas)].any()
    with pytest.raises(ApbError, match="lifted action"):
        env.step(np.array([0]))


def test_facts_observation_and_index_actions_with_the_existing_multi_hot_wrapper():
    from apb.envs.encodings import MultiHotObservations

    wrapped = MultiHotObservations(gym.make(ID))
    native = gym.make(ID, obs_mode="facts", action_mode="index")
    a, _ = wrapped.reset(seed=4)
    b, info = native.reset(seed=4)
    assert wrapped.fact_names == native.unwrapped.encoding.fact_names and np.array_equal(a, b)
    index = int(np.flatnonzero(info["action_mask"])[0])
    assert np.array_equal(wrapped.step(index)[0], native.step(index)[0])


def test_bad_modes_are_one_line_errors():
    with pytest.raises(ApbError, match="obs_mode='pixels' is not an observation mode"):
        gym.make(ID, obs_mode="pixels")
    with pytest.raises(ApbError, match="action_mode='grounded'"):
        gym.make(ID, action_mode="grounded")


def test_graph_converts_to_pytorch_geometric_in_one_call():
    pytest.importorskip("torch_geometric")
    from apb.envs.graph_data import to_data, to_heterodata

    env = gym.make(ID, obs_mode="graph")
    graph, info = env.reset(seed=0)
    data = to_data(graph)
    assert data.num_nodes == len(graph.nodes) and data.edge_index.shape[1] == 2 * len(graph.edges)
    hetero = to_heterodata(graph)
    assert hetero["object"].num_nodes == len(info["objects"])
    assert hetero["atom"].num_nodes == len(info["state_pddl"]) + len(info["goal_pddl"])

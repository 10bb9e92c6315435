"""The learned general policy (the rl extra): a tiny model trained for a few steps end to end (labelled state
spaces, checkpoint, reload, evaluation report, the gnn agent in an episode), and MaskablePPO on apb's facts
observations with masked discrete actions. Without the extra only the error message is tested."""

from __future__ import annotations

import json
import sys

import gymnasium as gym
import numpy as np
import pytest

import apb.envs  # noqa: F401  (registers the ids)
from apb.cli import main
from apb.errors import ApbError


def test_apb_rl_without_torch_is_a_one_line_error(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert main(["rl", "train", "blocksworld", "--max-objects", "4", "--out", str(tmp_path)]) == 2
    assert "pip install 'apb[rl]'" in capsys.readouterr().err


def test_cost_to_go_labels_are_optimal_distances():
    from apb.planners import breadth_first_search
    from apb.rl.problems import cost_to_go, generate

    problem = generate("blocksworld", 4, seed=3)
    labels = cost_to_go(problem.task)
    assert labels[problem.task.initial_state.bits] == len(breadth_first_search(problem.task).plan)
    assert min(labels.values()) == 0 and len(labels) == 125  # every state of 4 blocks reaches the goal
    assert cost_to_go(generate("blocksworld", 6, seed=3).task, limit=100) is None


def test_blocksworld_bound_is_admissible_on_every_state_and_tighter_than_lmcut():
    from apb.engine import State
    from apb.planners.heuristics import LMCut
    from apb.rl.bounds import BlocksworldBound, lower_bound
    from apb.rl.problems import cost_to_go, generate

    exact = total = ours = lmcut = 0
    for blocks, seed in ((3, 0), (4, 0), (4, 3), (5, 1), (5, 4)):
        task = generate("blocksworld", blocks, seed).task
        assert BlocksworldBound.applies(task)
        bound, h = BlocksworldBound(task), LMCut(task)
        for bits, distance in cost_to_go(task).items():  # every reachable state, with its optimal distance
            value = bound(bits)
            assert value <= distance, (blocks, seed, sorted(task.facts(State(bits))))
            assert (value == 0) == (distance == 0)
            exact += value == distance
            total += 1
            ours += value
            lmcut += h(bits)
    assert ours > lmcut and exact > total // 4
    big = generate("blocksworld", 20, seed=5).task
    assert lower_bound(big)[1] == "blocksworld-bound" and lower_bound(big)[0] > LMCut(big)(big.initial_state.bits)
    assert not BlocksworldBound.applies(generate("gripper", 7, seed=0).task)
    assert lower_bound(generate("gripper", 7, seed=0).task)[1] == "lmcut"


def test_goal_atoms_are_split_into_unmet_and_met_relations():
    from apb.domains import registry
    from apb.engine import load_domain
    from apb.rl.graphs import TaskEncoder, Vocabulary
    from apb.rl.problems import cost_to_go, generate

    vocabulary = Vocabulary(load_domain(registry.domain_file("blocksworld")))
    task = generate("blocksworld", 4, seed=3).task
    encoder = TaskEncoder(vocabulary, task)
    unmet, met, on = (vocabulary.relation_index[r] for r in ("goal:on", "done:on", "on"))
    goals = {tuple(lit.args) for lit in task.goal}
    names = list(task.objects)
    for bits, distance in cost_to_go(task).items():
        graph = encoder.encode(bits)
        state_on = {tuple(names[i] for i in row) for row in graph.atoms[on]}
        done = {tuple(names[i] for i in row) for row in graph.atoms[met]}
        todo = {tuple(names[i] for i in row) for row in graph.atoms[unmet]}
        assert done | todo == goals and not done & todo and done == goals & state_on
        assert (distance == 0) == (not todo)


def test_training_samples_pair_an_optimal_successor_with_a_worse_one():
    pytest.importorskip("torch")
    from apb.rl.policy import GNNPolicy
    from apb.rl.train import TrainConfig, labelled_states

    data = labelled_states(TrainConfig("blocksworld", 4, problems=3, states_per_problem=50),
                           GNNPolicy.create("blocksworld"))
    assert data.problems == 3 and 0 < len(data.pairs) <= 150 and len(data.graphs) == len(data.labels)
    labels = np.array(data.labels)
    assert (labels[data.pairs[:, 1]] - labels[data.pairs[:, 0]] >= 1).all()  # the hinge's margin holds for V*
    assert (labels[data.pairs[:, 0]] == 0).any()  # states next to the goal are sampled too


def test_size_rules_and_ranges_are_checked():
    from apb.rl.problems import generate, parse_range

    assert parse_range("10-30") == (10, 30) and parse_range("7") == (7, 7)
    with pytest.raises(ApbError, match="--objects '30-10'"):
        parse_range("30-10")
    with pytest.raises(ApbError, match="no size rule for 'movie'"):
        generate("movie", 5, seed=0)
    assert len(generate("blocksworld", 30, seed=1).task.objects) == 30


def test_train_checkpoint_eval_and_agent_end_to_end(tmp_path, capsys):
    pytest.importorskip("torch")
    from apb.agents import make_agent
    from apb.agents.episode import run_episode
    from apb.rl.policy import GNNPolicy

    out = tmp_path / "policy"
    assert main(["rl", "train", "blocksworld", "--max-objects", "4", "--out", str(out), "--problems", "3",
                 "--epochs", "2", "--states", "40", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["samples"] > 0 and len(summary["epochs"]) == 2 and (out / "policy.pt").is_file()
    policy = GNNPolicy.load(out)
    assert policy.settings["max_objects"] == 4 and policy.settings["epochs_done"] == 2
    assert policy.settings["finished"] is True and policy.settings["epochs_planned"] == 2
    import torch

    threads = torch.get_num_threads()
    try:
        assert main(["rl", "eval", str(out), "--objects", "4-5", "--problems", "3", "--optimal-timeout", "5",
                     "--threads", "2", "--json"]) == 0
        assert torch.get_num_threads() == 2  # --threads sets PyTorch's threads (default 1)
    finally:
        torch.set_num_threads(threads)
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 3 and 0.0 <= report["coverage"] <= 1.0
    assert {"coverage", "mean_length_ratio", "sizes", "random_coverage", "bfs_coverage"} <= set(report)
    assert sum(row["problems"] for row in report["sizes"]) == 3
    for row in report["problems_detail"]:
        assert row["optimal"] is not None and row["lower_bound"] <= row["optimal"]
        if row["solved"]:
            assert row["length"] >= row["optimal"]
    # the trained policy as an agent in an episode: every action it sends is applicable
    agent = make_agent(f"gnn:checkpoint={out}")
    env = gym.make("apb/Blocksworld-v0", problem=1, max_episode_steps=20)
    result = run_episode(env, agent)
    assert len(result.steps) >= 1 and result.invalid_actions == 0
    assert main(["rl", "eval", str(tmp_path / "missing"), "--objects", "4-5"]) == 2
    assert "is not a trained policy" in capsys.readouterr().err
    assert main(["rl", "eval", str(out), "--objects", "4-5", "--threads", "0"]) == 2
    assert "--threads must be at least 1" in capsys.readouterr().err


def test_maskable_ppo_trains_on_facts_observations_with_masked_actions(tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # SB3's logger otherwise leaves a folder in the system temp dir
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    # make_vec_env asks for render_mode="rgb_array" by default (apb used to refuse it with ApbError): as SB3 users
    # write it, with no render_mode in env_kwargs
    envs = make_vec_env("apb/Blocksworld-v0", n_envs=4, env_kwargs={"obs_mode": "facts", "action_mode": "index",
                                                                      "max_episode_steps": 16})
    assert envs.render_mode == "rgb_array"
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = envs.reset()
    masks = np.stack(envs.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(mask[a] for mask, a in zip(masks, actions))  # masked predictions pick applicable actions
    frames = envs.get_images()  # SB3's VecVideoRecorder reads these
    assert len(frames) == 4 and all(f.ndim == 3 and f.shape[2] == 3 and f.dtype == np.uint8 for f in frames)

"""verifiers environment (extra `verifiers`): the env's `run` driven through verifiers' turn protocol by scripted
policies. verifiers 0.4 runs a real model through a harness program that uv installs from the registry, so the
model's side is a test double of `Interaction` here; the trace, its rewards and the taskset are verifiers' own.
The real thing, `vf-eval` with its harness against a local model server, runs in test_integrations_readme.py."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from contextlib import asynccontextmanager

import pytest

pytest.importorskip("verifiers.v1")

import verifiers.v1 as vf

from apb.agents.act import english_action
from apb.agents.baselines import episode_seed
from apb.integrations.game import GameSession
from apb.integrations.verifiers import ApbGameEnv, load_environment


class ScriptedInteraction:
    """verifiers' Interaction as the env sees it: `turn(message)` -> a Segment with the policy's reply."""

    def __init__(self, env, task, policy):
        self.messages = [task.data.system_prompt, task.data.prompt]
        self.policy, self.task = policy, task
        self.trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data),
                              agent=vf.AgentInfo(config=env.config.player, name="player"))

    async def turn(self, message=None):
        if message is not None:
            self.messages.append(message)
        reply = self.policy(self.task, self.messages)
        self.messages.append(reply)
        return vf.Segment(messages=[], root_reply=reply)


def rollout(env, task, policy):
    holder = {}

    class Agents:
        class player:  # verifiers names an agent by its config field
            @staticmethod
            @asynccontextmanager
            async def interaction(task):
                holder["interaction"] = ScriptedInteraction(env, task, policy)
                yield holder["interaction"]

    asyncio.run(env.run(task, Agents))
    return holder["interaction"]


def gold_policy(task, messages):
    session = GameSession(task.data.info["domain"])
    session.reset(problem=task.data.info["problem"])
    plan = [english_action(a, session.info) for a in session.info["gold_plan"]]
    return plan[(len(messages) - 2) // 2]


def test_the_taskset_and_env_load_through_verifiers():
    env = load_environment(domain="gripper", problems="1,2", seeds=2)
    assert isinstance(env, ApbGameEnv) and env.config.player.harness.id == "null"
    tasks = list(env.taskset)
    assert [t.data.id for t in tasks] == ["gripper-p01-s0", "gripper-p01-s1", "gripper-p02-s0", "gripper-p02-s1"]
    assert "My goal is" in tasks[0].data.prompt and "Rules:" in tasks[0].data.system_prompt


def test_a_scripted_policy_reaches_the_goal_with_reward_1_and_shaping_is_optional():
    env = load_environment(domain="blocksworld", problems="1", valid_action_weight=0.1, plan_length_weight=0.2)
    [task] = env.taskset
    interaction = rollout(env, task, gold_policy)
    trace = interaction.trace
    assert trace.rewards["goal_reached"].score == 1.0
    assert trace.rewards["valid_action_rate"].score == 1.0 and trace.rewards["plan_length_ratio"].score == 1.0
    assert trace.reward == pytest.approx(1.3)
    assert trace.metrics["steps"] == trace.metrics["optimal_length"] == 10
    assert trace.info["apb"]["stop_reason"] == "goal" and len(trace.info["apb"]["plan"]) == 10
    assert len(interaction.messages) == 2 + 2 * 10 - 1  # the last step ends the episode: no feedback turn


def test_a_wrong_or_malformed_reply_gets_apb_feedback_and_reward_0():
    env = load_environment(domain="blocksworld", problems="1", max_steps=3)
    [task] = env.taskset
    replies = iter(["stack block_a on top of block_b", "}}{{ 42", ""])
    interaction = rollout(env, task, lambda task, messages: next(replies))
    trace = interaction.trace
    assert trace.reward == 0.0 and trace.metrics["invalid_actions"] == 3
    assert interaction.messages[3] == "I cannot stack block_a on top of block_b because I am not holding block_a."
    assert trace.info["apb"]["stop_reason"] == "step_limit"
    assert "valid_action_rate" not in trace.rewards  # shaping is off by default


def random_policy(task, messages):
    """apb's random agent, seen from the model's side: a uniform choice among the listed actions, seeded as
    RandomAgent seeds an episode."""
    state = random_policy.rngs.setdefault(task.data.id, random.Random(episode_seed(task.data.info["seed"],
                                                                                    task.data.info["problem"])))
    listed = messages[-1].split("Actions I can do now:\n", 1)[1].splitlines()
    return state.choice(listed)


random_policy.rngs = {}


def test_a_random_policy_earns_what_apb_eval_agents_random_scores(tmp_path):
    # the random agent keeps AutoPlanBench's 24 steps in apb eval: the same limit here
    env = load_environment(domain="ferry", problems="1-4", seeds=3, hints=True, max_steps=24)
    rewards = {}
    for task in env.taskset:
        trace = rollout(env, task, random_policy).trace
        rewards[(int(task.data.info["problem"][1:]), task.data.info["seed"])] = (trace.reward, trace.metrics["steps"])
    done = subprocess.run([sys.executable, "-m", "apb", "eval", "--domains", "ferry", "--agents", "random",
                           "--problems", "1-4", "--seeds", "3", "--out", str(tmp_path / "run")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    expected = {}
    for path in (tmp_path / "run" / "episodes").glob("*.jsonl"):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        header, footer = lines[0], lines[-1]
        expected[(int(header["problem"]), header["seed"])] = (float(footer["goal_reached"]), footer["steps"])
    assert rewards == expected
    assert 0 < sum(r for r, _ in rewards.values()) < len(rewards)  # some episodes solved, some not


def test_task_options_typed_on_a_command_line_get_their_types():
    """verifiers passes `--env.taskset.max-steps 4` as the text "4", which crashed the session."""
    env = load_environment(domain="blocksworld", problems="1", max_steps="4", seeds="1", hints="false")
    config = env.taskset.config
    assert config.max_steps == 4 and config.seeds == 1 and config.hints is False
    [task] = env.taskset
    interaction = rollout(env, task, lambda task, messages: "no idea")
    assert interaction.trace.metrics["steps"] == 4 and interaction.trace.info["apb"]["stop_reason"] == "step_limit"


def test_a_model_error_is_an_error_of_the_rollout_never_a_reward_of_0():
    env = load_environment(domain="blocksworld", problems="1")
    [task] = env.taskset

    def failing(task, messages):
        raise ConnectionError("the model server answered 401")

    with pytest.raises(ConnectionError):
        rollout(env, task, failing)


def test_a_constant_answer_earns_no_reward():
    """The balancing rule (issue 41) for verifiers: it serves games only (no yes/no or MCQ data), where a reply that
    is not an action never reaches the goal: a constant answer scores 0, never above chance."""
    env = load_environment(domain="blocksworld", problems="1,2", max_steps=4)
    for constant in ("yes", "no", "A", "B", "C", "D"):
        for task in env.taskset:
            trace = rollout(env, task, lambda task, messages, c=constant: c).trace
            assert trace.reward == 0.0 and trace.metrics["invalid_actions"] == 4

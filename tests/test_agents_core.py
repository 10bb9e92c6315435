"""The agent base: events, the episode runner's stop reasons, and the one-shot examples."""

from __future__ import annotations

import gymnasium as gym
import pytest

import apb.envs  # noqa: F401  (registers the ids)
from apb.agents.base import AgentError, BaseAgent, StopEpisode
from apb.agents.episode import run_episode
from apb.agents.examples import build_example
from apb.domains.registry import domain_names
from apb.llm import ScriptedLLM
from apb.translators import make_translator


class Scripted(BaseAgent):
    """Sends the given actions in order, then stops."""

    name = "scripted-actions"

    def __init__(self, actions, **kwargs):
        super().__init__(**kwargs)
        self.actions = list(actions)

    def reset(self, observation, info):
        self.queue = list(self.actions)

    def act(self, observation, info):
        if not self.queue:
            raise StopEpisode("no more actions")
        item = self.queue.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def ferry():
    return gym.make("apb/Ferry-v0")


def test_goal_stop_and_step_records():
    env = ferry()
    _, info = env.reset(options={"problem": 1})
    result = run_episode(env, Scripted(info["gold_plan"]), options={"problem": 1})
    assert result.success and result.stop_reason == "goal"
    assert result.actions == info["gold_plan"] and result.invalid_actions == 0
    assert result.steps[-1].terminated and result.steps[-1].reward == 1.0


def test_agent_stopped_failure_limit_step_limit_and_error():
    env = ferry()
    result = run_episode(env, Scripted(["(look-around)"]), options={"problem": 1})
    assert result.stop_reason == "agent_stopped" and result.detail == "no more actions" and result.look_arounds == 1
    result = run_episode(env, Scripted(["(fly)"] * 5), options={"problem": 1}, max_consecutive_failures=3)
    assert result.stop_reason == "failure_limit" and result.invalid_actions == 3
    assert result.steps[0].failure_kind == "unknown_action"
    limit = env.spec.max_episode_steps  # the registered TimeLimit: ferry's default (twice its longest gold plan)
    result = run_episode(env, Scripted(["(look-around)"] * (limit + 5)), options={"problem": 1})
    assert result.stop_reason == "step_limit" and len(result.steps) == limit
    result = run_episode(env, Scripted(["(look-around)", RuntimeError("boom")]), options={"problem": 1})
    assert result.stop_reason == "error" and "RuntimeError: boom" in result.error and not result.success
    assert result.to_dict()["invalid_actions"] == 0


def test_llm_agents_need_an_llm_and_record_events():
    class NeedsLLM(BaseAgent):
        name = "needs"
        needs_llm = True

    with pytest.raises(AgentError, match="needs an LLM"):
        NeedsLLM()
    seen = []
    agent = NeedsLLM(llm=ScriptedLLM(["pick up block_a"]), translator=make_translator("template"),
                     on_event=seen.append)
    _, info = gym.make("apb/Blocksworld-v0").reset(options={"problem": 2})
    text = agent.call_llm([{"role": "user", "content": "go"}], role="planner")
    assert agent.translate(text, info) == "(pick-up block_a)"
    events = agent.pop_events()
    assert [e["type"] for e in events] == ["llm", "translation"] and events == seen
    assert events[0]["role"] == "planner" and events[0]["text"] == "pick up block_a"
    assert events[1]["action"] == "(pick-up block_a)" and events[1]["method"] == "template"
    assert agent.pop_events() == []


@pytest.mark.parametrize("domain", domain_names())
def test_examples_replay_the_gold_plan_of_p00(domain):
    example = build_example(domain)
    assert example.problem_id == "p00" and example.steps
    assert example.steps[-1].observation.endswith("I have reached my goal.")
    for step in example.steps:
        assert step.observation.startswith("I ") and step.text and step.thought.endswith(".")
    assert "Currently, " in example.task and "My goal is that" in example.task


def test_shortened_example_starts_from_the_state_after_the_dropped_prefix():
    example = build_example("blocksworld")
    short = example.shortened(3)
    dropped = len(example.steps) - 3
    assert short.steps == example.steps[dropped:]
    assert short.initial_state == example.steps[dropped - 1].state
    assert f"Currently, {short.initial_state}." in short.task
    assert example.shortened(10) is example


def test_every_cli_agent_name_builds():
    from apb.agents import AGENTS, agent_class, make_agent

    assert list(AGENTS) == ["basic", "cot", "act", "react", "closed-loop", "open-loop", "basic-pddl", "act-pddl",
                            "random", "bfs", "astar", "gbfs", "fd-opt", "fd-sat", "oracle", "llm+p", "human", "gnn"]
    with pytest.raises(AgentError, match="gnn:checkpoint=DIR"):  # a trained policy (apb rl train) is required
        make_agent("gnn")
    for name in (n for n in AGENTS if n != "gnn"):
        needs_llm = getattr(agent_class(name), "needs_llm", False)
        agent = make_agent(name, llm=ScriptedLLM(["x"])) if needs_llm else make_agent(name)
        assert agent.name == name
    with pytest.raises(AgentError, match="unknown agent 'nope'"):
        make_agent("nope")

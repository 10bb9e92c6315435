"""Plan-generation agents (Basic, CoT, Basic-PDDL) with scripted LLMs: end to end on every bundled domain,
failures, garbage answers, prompt snapshots and trace events."""

from __future__ import annotations

import json
import os
from pathlib import Path

import gymnasium
import pytest

import apb.envs  # noqa: F401  (registers apb/<Domain>-v0)
from apb.agents.base import AgentError
from apb.agents.episode import run_episode
from apb.agents.plan_generation import BasicAgent, BasicPDDLAgent, CoTAgent, parse_pddl_plan, parse_plan
from apb.envs.registration import ENV_NAMES
from apb.llm.scripted import ScriptedLLM

SNAPSHOTS = Path(__file__).parent / "data" / "agents" / "plan"
DOMAINS = sorted(ENV_NAMES)


def make_env(domain: str, **kwargs):
    return gymnasium.make(f"apb/{ENV_NAMES[domain]}-v0", problem=1, **kwargs)


def render(action: str, info: dict) -> str:
    """A PDDL action in English through the env's NL templates (the action schemas' `nl`)."""
    name, *args = action.strip("()").split()
    schema = next(s for s in info["action_schemas"] if s["name"] == name)
    return schema["nl"].format(**{p[0]: a for p, a in zip(schema["parameters"], args)})


def gold(domain: str, **kwargs) -> tuple[list[str], dict]:
    _, info = make_env(domain, **kwargs).reset()
    assert info["gold_plan"], f"{domain} p01 has no gold plan"
    return info["gold_plan"], info


def english_plan(domain: str, *, thoughts: bool = False) -> str:
    plan, info = gold(domain)
    lines = []
    for i, action in enumerate(plan, 1):
        if thoughts:
            lines.append(f"Think: step {i} brings me closer to my goal.")
        lines.append(f"{i}. {render(action, info)}")
    return "\n".join([*lines, "[PLAN END]"])


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("agent_cls", [BasicAgent, CoTAgent])
def test_english_plan_solves_problem_1(domain, agent_cls):
    llm = ScriptedLLM([english_plan(domain, thoughts=agent_cls is CoTAgent)])
    result = run_episode(make_env(domain), agent_cls(llm=llm))
    assert result.stop_reason == "goal", (result.detail, result.actions)
    assert result.success and result.invalid_actions == 0
    assert len(llm.calls) == 1


@pytest.mark.parametrize("domain", DOMAINS)
def test_pddl_plan_solves_problem_1(domain):
    plan, _ = gold(domain, description="pddl")
    llm = ScriptedLLM(["Plan:\n" + "\n".join(f"{i}. {a}  ; step {i}" for i, a in enumerate(plan, 1)) + "\n[PLAN END]"])
    result = run_episode(make_env(domain, description="pddl"), BasicPDDLAgent(llm=llm))
    assert result.stop_reason == "goal", (result.detail, result.actions)
    assert result.success and result.actions == plan


def test_wrong_plan_stops_at_the_first_failure():
    plan, info = gold("blocksworld")
    steps = [render(a, info) for a in plan]
    wrong = [*steps[:2], steps[-1], *steps[2:]]  # the third step stacks too early
    llm = ScriptedLLM(["\n".join(wrong)])
    result = run_episode(make_env("blocksworld"), BasicAgent(llm=llm))
    assert result.stop_reason == "agent_stopped"
    assert not result.goal_reached
    assert len(result.steps) == 3 and not result.steps[2].action_valid
    assert result.detail.startswith("the plan failed at step 3")
    assert steps[-1] in result.detail


def test_without_stop_on_failure_the_plan_runs_on():
    plan, info = gold("blocksworld")
    steps = [render(a, info) for a in plan]
    llm = ScriptedLLM(["\n".join([*steps[:2], steps[-1], *steps[2:]])])
    result = run_episode(make_env("blocksworld"), BasicAgent(llm=llm, stop_on_failure=False))
    assert result.stop_reason == "goal" and result.invalid_actions == 1


def test_short_plan_sends_finish_then_stops():
    plan, info = gold("blocksworld")
    llm = ScriptedLLM(["\n".join(render(a, info) for a in plan[:2])])
    result = run_episode(make_env("blocksworld"), BasicAgent(llm=llm))
    assert result.stop_reason == "agent_stopped" and result.detail == "plan exhausted"
    assert result.actions[-1] == "(finish)" and len(result.steps) == 3


@pytest.mark.parametrize("answer", ["", "   \n\n", "I am sorry, I cannot help with that.", "%%%\n}{)(\n[PLAN END]"])
@pytest.mark.parametrize("agent_cls", [BasicAgent, CoTAgent, BasicPDDLAgent])
def test_garbage_answers_end_the_episode(answer, agent_cls):
    kwargs = {"description": "pddl"} if agent_cls is BasicPDDLAgent else {}
    result = run_episode(make_env("blocksworld", **kwargs), agent_cls(llm=ScriptedLLM([answer])), max_steps=50)
    assert result.stop_reason == "agent_stopped", result.error
    assert not result.goal_reached and len(result.steps) <= 2


def test_an_llm_is_required():
    with pytest.raises(AgentError):
        BasicAgent(llm=None)


def test_events_one_planner_call_and_a_translation_per_step():
    plan, info = gold("blocksworld")
    llm = ScriptedLLM(["\n".join(render(a, info) for a in plan)])
    agent = BasicAgent(llm=llm)
    result = run_episode(make_env("blocksworld"), agent)
    assert result.success
    assert [e["type"] for e in result.pre_events] == ["llm"]
    assert result.pre_events[0]["role"] == "planner" and result.pre_events[0]["agent"] == "basic"
    for step in result.steps:
        assert [e["type"] for e in step.events] == ["translation"]
        assert step.events[0]["action"] == step.action


def test_prompt_shape_static_first_with_cache_mark():
    for agent_cls, kwargs in [(BasicAgent, {}), (CoTAgent, {}), (BasicPDDLAgent, {"description": "pddl"})]:
        llm = ScriptedLLM([""])
        observation, info = make_env("blocksworld", **kwargs).reset()
        agent_cls(llm=llm).reset(observation, info)
        messages = llm.calls[0]["messages"]
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
        assert [bool(m.get("cache")) for m in messages] == [False, False, True, False]
        assert info["problem_pddl" if agent_cls is BasicPDDLAgent else "goal"] in messages[-1]["content"]


def test_hints_only_when_asked():
    observation, info = make_env("blocksworld").reset()
    for hints in (False, True):
        llm = ScriptedLLM([""])
        BasicAgent(llm=llm, hints=hints).reset(observation, info)
        assert (info["admissible_actions"][0] in llm.calls[0]["messages"][-1]["content"]) is hints


def test_cot_example_has_three_steps_with_thoughts():
    llm = ScriptedLLM([""])
    observation, info = make_env("blocksworld").reset()
    CoTAgent(llm=llm).reset(observation, info)
    example_plan = llm.calls[0]["messages"][2]["content"].splitlines()
    assert sum(line.startswith("Think: ") for line in example_plan) == 3
    assert len(example_plan) == 7 and example_plan[-1] == "[PLAN END]"


def test_parse_plan_variants():
    text = "Plan:\n1. pick up a\n2) stack a on b\n- Think: done\n* put down c\n\n[PLAN END]\nignored"
    assert parse_plan(text) == ["pick up a", "stack a on b", "Think: done", "put down c"]
    assert parse_plan(text, thoughts=True) == ["pick up a", "stack a on b", "put down c"]
    assert parse_pddl_plan("1. (pick-up  A)\nso then\n(stack a b) ; why\n[PLAN END]\n(x)") == ["(pick-up A)",
                                                                                                "(stack a b)"]


@pytest.mark.parametrize("agent_cls", [BasicAgent, CoTAgent, BasicPDDLAgent])
def test_prompt_snapshot_blocksworld_problem_1(agent_cls):
    kwargs = {"description": "pddl"} if agent_cls is BasicPDDLAgent else {}
    llm = ScriptedLLM([""])
    observation, info = make_env("blocksworld", **kwargs).reset()
    agent_cls(llm=llm).reset(observation, info)
    got = json.dumps(llm.calls[0]["messages"], indent=2, ensure_ascii=False) + "\n"
    path = SNAPSHOTS / f"{agent_cls.name}.json"
    if os.environ.get("APB_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"missing snapshot {path}: run with APB_UPDATE_SNAPSHOTS=1 to write it"
    assert got == path.read_text(encoding="utf-8"), (
        f"the {agent_cls.name} prompt changed; if on purpose, rerun with APB_UPDATE_SNAPSHOTS=1 and review the diff")


def test_require_finish_env_gets_finish_after_the_plan():
    llm = ScriptedLLM([english_plan("blocksworld")])
    result = run_episode(make_env("blocksworld", require_finish=True), BasicAgent(llm=llm))
    assert result.stop_reason == "goal" and result.success
    assert result.actions[-1] == "(finish)"

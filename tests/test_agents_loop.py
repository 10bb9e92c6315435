"""Closed-loop (horizon H) and open-loop grounding agents, with scripted LLMs: solving with correct answers,
explaining failures and replanning around them, limits, garbage output, prompt snapshots, grounding questions."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import gymnasium
import pytest

import apb.envs  # noqa: F401  (registers apb/<Name>-v0)
from apb.agents.act import english_action
from apb.agents.base import AgentError
from apb.agents.closed_loop import ClosedLoopAgent
from apb.agents.episode import run_episode
from apb.agents.open_loop import OpenLoopGroundingAgent, fitting_objects, match_action_name, match_object
from apb.agents.registry import make_agent
from apb.envs.registration import ENV_NAMES
from apb.llm.scripted import ScriptedLLM

SNAPSHOTS = Path(__file__).resolve().parent / "data" / "agents" / "loop"
EXPLANATION = "The action needs me to hold the block first."
DOMAINS = sorted(ENV_NAMES)


def make_env(domain: str, **kwargs):
    return gymnasium.make(f"apb/{ENV_NAMES[domain]}-v0", problem=1, **kwargs)


def kind_of(messages: list[dict]) -> str:
    """Which prompt this is: explain, ground, open-plan or plan (closed-loop planning)."""
    system = messages[0]["content"]
    if system.startswith("You explain why an action failed"):
        return "explain"
    if system.startswith("You choose the objects"):
        return "ground"
    if "giving only the name of each action" in system:
        return "open-plan"
    return "plan"


def done_count(prompt: str) -> int:
    """How many actions a closed-loop replanning prompt lists as taken so far."""
    if "The plan so far" not in prompt:
        return 0
    section = prompt.split("The plan so far", 1)[1].split("\n\nNow, ", 1)[0]
    return len(re.findall(r"^\d+\. ", section, re.MULTILINE))


def correct_responder(info: dict):
    """Answers every prompt of both agents correctly for the problem of `info` (its gold plan)."""
    gold = info["gold_plan"]
    english = [english_action(a, info) for a in gold]
    names = [a.strip("()").split()[0] for a in gold]
    args = [a.strip("()").split()[1:] for a in gold]

    def respond(messages: list[dict]) -> str:
        kind, last = kind_of(messages), messages[-1]["content"]
        if kind == "explain":
            return EXPLANATION
        if kind == "open-plan":
            return "\n".join([*names, "[PLAN END]"])
        if kind == "ground":
            step = int(re.search(r"Step (\d+) of the plan", last).group(1))
            chosen = re.search(r"already chosen: (.*)\.", last)
            index = len(chosen.group(1).split("; ")) if chosen else 0
            return args[step - 1][index]
        rest = english[done_count(last):]
        return "\n".join([f"{i}. {t}" for i, t in enumerate(rest, 1)] + ["[PLAN END]"])

    return respond


def planner_prompts(llm: ScriptedLLM) -> list[str]:
    return [c["messages"][-1]["content"] for c in llm.calls if kind_of(c["messages"]) == "plan"]


def all_events(result) -> list[dict]:
    return result.pre_events + [e for s in result.steps for e in s.events]


# ---- solving with correct answers ----------------------------------------------------------------------------
@pytest.mark.parametrize("horizon", [1, 5, None])
@pytest.mark.parametrize("domain", DOMAINS)
def test_closed_loop_solves_problem_1(domain, horizon):
    env = make_env(domain)
    info = env.reset()[1]
    llm = ScriptedLLM(correct_responder(info))
    result = run_episode(env, ClosedLoopAgent(llm=llm, horizon=horizon))
    assert result.success, (result.stop_reason, result.detail, result.error)
    assert result.invalid_actions == 0 and result.actions == info["gold_plan"]
    length = len(info["gold_plan"])
    expected_plans = length if horizon == 1 else 1 if horizon is None else -(-length // horizon)
    assert len(planner_prompts(llm)) == expected_plans


@pytest.mark.parametrize("domain", DOMAINS)
def test_open_loop_solves_problem_1(domain):
    env = make_env(domain)
    info = env.reset()[1]
    llm = ScriptedLLM(correct_responder(info))
    result = run_episode(env, OpenLoopGroundingAgent(llm=llm))
    assert result.success, (result.stop_reason, result.detail, result.error)
    assert result.actions == info["gold_plan"]
    roles = [e["role"] for e in all_events(result) if e["type"] == "llm"]
    assert roles.count("planner") == 1
    assert roles.count("grounder") == sum(len(a.split()) - 1 for a in info["gold_plan"])


def test_registry_builds_both_agents():
    llm = ScriptedLLM([])
    closed = make_agent("closed-loop", llm=llm, horizon=5, max_replans=3)
    assert isinstance(closed, ClosedLoopAgent) and closed.horizon == 5 and closed.max_replans == 3
    assert isinstance(make_agent("open-loop", llm=llm), OpenLoopGroundingAgent)


def test_bad_options_and_missing_llm_are_agent_errors():
    for options in ({"horizon": 0}, {"max_actions": 0}, {"max_replans": -1}):
        with pytest.raises(AgentError):
            ClosedLoopAgent(llm=ScriptedLLM([]), **options)
    with pytest.raises(AgentError):
        ClosedLoopAgent(llm=None)
    with pytest.raises(AgentError):
        OpenLoopGroundingAgent(llm=None)


# ---- failures: explained, remembered, replanned around --------------------------------------------------------
WRONG_STEP = "stack block_a on top of block_c"  # block_a is not held at the start of blocksworld p01


def wrong_first_plan_responder(info: dict):
    correct = correct_responder(info)
    state = {"planned": 0}

    def respond(messages):
        if kind_of(messages) == "plan":
            state["planned"] += 1
            if state["planned"] == 1:
                return f"1. {WRONG_STEP}\n2. pick up block_a\n[PLAN END]"
        return correct(messages)

    return respond


@pytest.mark.parametrize("horizon", [1, None])
def test_failure_is_explained_then_replanning_lists_the_mistake(horizon):
    env = make_env("blocksworld")
    info = env.reset()[1]
    llm = ScriptedLLM(wrong_first_plan_responder(info))
    result = run_episode(env, ClosedLoopAgent(llm=llm, horizon=horizon))
    assert result.success and result.invalid_actions == 1
    assert result.actions == ["(stack block_a block_c)", *info["gold_plan"]]
    explainers = [e for e in all_events(result) if e["type"] == "llm" and e["role"] == "explainer"]
    assert len(explainers) == 1 and explainers[0]["text"] == EXPLANATION
    question = explainers[0]["messages"][-1]["content"]
    assert info["state"] in question and WRONG_STEP in question
    assert result.steps[0].observation in question  # the env's feedback
    replans = planner_prompts(llm)[1:]
    assert replans and all(WRONG_STEP in p and EXPLANATION in p and result.steps[0].observation in p
                           for p in replans)


def test_replanning_prompt_has_the_current_state_and_the_actions_so_far():
    env = make_env("blocksworld")
    info = env.reset()[1]
    llm = ScriptedLLM(correct_responder(info))
    result = run_episode(env, ClosedLoopAgent(llm=llm, horizon=1))
    assert result.success
    prompts = planner_prompts(llm)
    second = prompts[1]
    assert english_action(info["gold_plan"][0], info) in second
    assert "my hand is empty" not in second.split("Now, ", 1)[1].split("\n", 1)[0]  # holding block_b now
    assert "block_b" in second.split("Now, ", 1)[1]


def always(text: str):
    return ScriptedLLM(lambda messages: EXPLANATION if kind_of(messages) == "explain" else text)


def test_max_actions_stops_the_episode():
    env = make_env("blocksworld")
    llm = always(f"1. {WRONG_STEP}\n[PLAN END]")
    result = run_episode(env, ClosedLoopAgent(llm=llm, horizon=1, max_actions=3))
    assert result.stop_reason == "agent_stopped" and result.detail.startswith("max_actions")
    assert len(result.steps) == 3 and result.error is None

    valid_loop = always("1. unstack block_b from on top of block_d\n2. stack block_b on top of block_d\n[PLAN END]")
    result = run_episode(make_env("blocksworld"), ClosedLoopAgent(llm=valid_loop, horizon=None, max_actions=5))
    assert result.detail.startswith("max_actions") and len(result.steps) == 5 and result.invalid_actions == 0


def test_max_replans_stops_the_episode():
    llm = always(f"1. {WRONG_STEP}\n[PLAN END]")
    result = run_episode(make_env("blocksworld"), ClosedLoopAgent(llm=llm, max_replans=2))
    assert result.detail.startswith("max_replans") and len(result.steps) == 3
    assert len(planner_prompts(llm)) == 3


def test_two_empty_plans_stop_the_episode():
    llm = ScriptedLLM(["", "Plan:\n\n[PLAN END]"])
    result = run_episode(make_env("blocksworld"), ClosedLoopAgent(llm=llm))
    assert result.stop_reason == "agent_stopped" and result.detail.startswith("empty_plan")
    assert result.error is None and result.steps == []


@pytest.mark.parametrize("garbage", ["", "{}{0}}", "???\n\n@@@ (((\n[PLAN END]", "1.\n2. \n-", "x" * 500])
def test_garbage_output_never_crashes(garbage):
    for agent in (ClosedLoopAgent(llm=ScriptedLLM(lambda m: garbage), max_actions=4),
                  ClosedLoopAgent(llm=ScriptedLLM(lambda m: garbage), horizon=None, max_replans=1),
                  OpenLoopGroundingAgent(llm=ScriptedLLM(lambda m: garbage))):
        result = run_episode(make_env("blocksworld"), agent)
        assert result.error is None, result.error
        assert result.stop_reason == "agent_stopped" and not result.success


def test_open_loop_stops_at_the_first_failure():
    env = make_env("blocksworld")
    info = env.reset()[1]
    correct = correct_responder(info)
    llm = ScriptedLLM(lambda m: "stack\npick-up\n[PLAN END]" if kind_of(m) == "open-plan" else
                      "block_a" if kind_of(m) == "ground" else correct(m))
    result = run_episode(env, OpenLoopGroundingAgent(llm=llm))
    assert result.actions == ["(stack block_a block_a)"] and result.invalid_actions == 1
    assert result.stop_reason == "agent_stopped" and "failed at step 1" in result.detail


def test_open_loop_unknown_object_answer_stops_cleanly():
    llm = ScriptedLLM(lambda m: "pick-up\n[PLAN END]" if kind_of(m) == "open-plan" else "the red one")
    result = run_episode(make_env("blocksworld"), OpenLoopGroundingAgent(llm=llm))
    assert result.error is None and result.steps == [] and result.detail.startswith("grounding failed")


# ---- grounding questions ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", ["blocksworld", "depot", "rovers"])
def test_open_loop_asks_one_question_per_parameter_with_choices(domain):
    env = make_env(domain)
    info = env.reset()[1]
    llm = ScriptedLLM(correct_responder(info))
    assert run_episode(env, OpenLoopGroundingAgent(llm=llm)).success
    questions = [c for c in llm.calls if kind_of(c["messages"]) == "ground"]
    gold_args = [arg for a in info["gold_plan"] for arg in a.strip("()").split()[1:]]
    assert len(questions) == len(gold_args)
    schemas = {s["name"]: s for s in info["action_schemas"]}
    expected = []
    for action in info["gold_plan"]:
        name = action.strip("()").split()[0]
        expected += [(schemas[name]["variables"][p], t) for p, t in schemas[name]["parameters"]]
    for call, arg, (description, param_type) in zip(questions, gold_args, expected):
        text = call["messages"][-1]["content"]
        assert f"Which object is {description.rstrip('?.')}? Objects: " in text
        assert call["choices"] and arg in call["choices"]
        assert call["choices"] == fitting_objects(info, param_type)
        assert set(call["choices"]) <= set(info["objects"])
    if domain != "blocksworld":  # typed domains offer only the objects of a fitting type
        assert any(len(c["choices"]) < len(info["objects"]) for c in questions)


def test_fitting_objects_follow_the_type_hierarchy():
    info = {"objects": {"t1": "truck", "h1": "hoist", "p1": "pallet", "c1": "crate", "d1": "depot"},
            "types": {"object": None, "locatable": "object", "truck": "locatable", "hoist": "locatable",
                      "surface": "locatable", "pallet": "surface", "crate": "surface", "place": "object",
                      "depot": "place"}}
    assert fitting_objects(info, "surface") == ["c1", "p1"]
    assert fitting_objects(info, "object") == ["c1", "d1", "h1", "p1", "t1"]
    assert fitting_objects(info, ["truck", "depot"]) == ["d1", "t1"]
    assert fitting_objects(info, "unknown") == ["c1", "d1", "h1", "p1", "t1"]  # nothing fits: all objects


def test_matching_answers_and_action_names():
    objects = ["block_a", "block_ab", "b"]
    assert match_object(" 'Block_A'. ", objects, objects) == "block_a"
    assert match_object("It is block_ab, I think", objects, objects) == "block_ab"
    assert match_object("nothing", objects, objects) is None
    names = ["pick-up", "put-down", "stack", "unstack"]
    assert match_action_name("Pick up", names) == "pick-up"
    assert match_action_name("(unstack block_a block_b)", names) == "unstack"
    assert match_action_name("put_down the block", names) == "put-down"
    assert match_action_name("dance", names) is None


# ---- prompt snapshots ------------------------------------------------------------------------------------------
def check_snapshot(name: str, messages: list[dict]) -> None:
    got = json.dumps(messages, indent=2, ensure_ascii=False) + "\n"
    path = SNAPSHOTS / f"{name}.json"
    if os.environ.get("APB_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"missing snapshot {path}: run with APB_UPDATE_SNAPSHOTS=1 to write it"
    assert got == path.read_text(encoding="utf-8"), (
        f"the {name} prompt changed; if on purpose, rerun with APB_UPDATE_SNAPSHOTS=1 and review the diff")


def test_closed_loop_prompt_snapshots_blocksworld_problem_1():
    env = make_env("blocksworld")
    info = env.reset()[1]
    first_plan = f"1. unstack block_b from on top of block_d\n2. {WRONG_STEP}\n[PLAN END]"
    correct = correct_responder(info)
    state = {"planned": 0}

    def respond(messages):
        if kind_of(messages) == "plan":
            state["planned"] += 1
            if state["planned"] == 1:
                return first_plan
        return correct(messages)

    llm = ScriptedLLM(respond)
    run_episode(env, ClosedLoopAgent(llm=llm, horizon=None), max_steps=3)
    kinds = [kind_of(c["messages"]) for c in llm.calls]
    assert kinds[:3] == ["plan", "explain", "plan"]
    check_snapshot("closed_loop_plan", llm.calls[0]["messages"])
    check_snapshot("closed_loop_explain", llm.calls[1]["messages"])
    check_snapshot("closed_loop_replan", llm.calls[2]["messages"])


def test_open_loop_prompt_snapshots_blocksworld_problem_1():
    env = make_env("blocksworld")
    info = env.reset()[1]
    llm = ScriptedLLM(correct_responder(info))
    run_episode(env, OpenLoopGroundingAgent(llm=llm), max_steps=2)
    check_snapshot("open_loop_plan", llm.calls[0]["messages"])
    assert "already chosen" in llm.calls[2]["messages"][-1]["content"]
    check_snapshot("open_loop_ground", llm.calls[2]["messages"])  # step 1, with its first object chosen

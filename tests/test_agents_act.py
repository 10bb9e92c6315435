"""Act, ReAct and Act-PDDL agents with scripted LLMs: gold plans solve every domain, failures are explained,
limits stop episodes, odd outputs never crash, prompts match their snapshots, and the hint/constrained options."""

from __future__ import annotations

import json
import os
from pathlib import Path

import gymnasium
import pytest

import apb.envs  # noqa: F401  (registers the apb/<Domain>-v0 ids)
from apb.agents.act import ActAgent, ActPDDLAgent, ReActAgent, english_action
from apb.agents.base import FINISH, LOOK_AROUND, AgentError
from apb.agents.episode import run_episode
from apb.envs.registration import ENV_NAMES
from apb.llm.scripted import ScriptedLLM

SNAPSHOTS = Path(__file__).resolve().parent / "data" / "agents" / "act"
DOMAINS = sorted(ENV_NAMES)


def make_env(domain: str = "blocksworld", **kwargs):
    return gymnasium.make(f"apb/{ENV_NAMES[domain]}-v0", problem=1, **kwargs)


def english(action: str, info: dict) -> str:
    """A PDDL action in English through its schema's NL template (the test's own rendering)."""
    name, *args = action[1:-1].split()
    schema = next(s for s in info["action_schemas"] if s["name"] == name)
    text = schema["nl"]
    for (param, _type), arg in zip(schema["parameters"], args):
        text = text.replace("{" + param + "}", arg)
    return text


def turns_since_task(messages: list[dict]) -> int:
    """How many answers the agent gave in this episode (assistant messages after the static prefix)."""
    start = max(i for i, m in enumerate(messages) if m.get("cache"))
    return sum(m["role"] == "assistant" for m in messages[start + 1:])


def gold_responder(actions: list[str], wrap=lambda text: text, done: str = "I am finished"):
    def respond(messages: list[dict]) -> str:
        step = turns_since_task(messages)
        return wrap(actions[step]) if step < len(actions) else wrap(done)
    return respond


def last_user(messages: list[dict]) -> str:
    return next(m["content"] for m in reversed(messages) if m["role"] == "user")


# ---- (1) gold plans, one action per call, solve problem 1 of every domain -------------------------------------
@pytest.mark.parametrize("domain", DOMAINS)
def test_act_solves_with_gold_actions(domain):
    env = make_env(domain)
    _, info = env.reset()
    llm = ScriptedLLM(gold_responder([english(a, info) for a in info["gold_plan"]]))
    result = run_episode(env, ActAgent(llm=llm))
    assert result.stop_reason == "goal", (result.detail, result.error, result.actions)
    assert result.goal_reached and result.actions == info["gold_plan"]
    assert result.invalid_actions == 0


@pytest.mark.parametrize("domain", DOMAINS)
def test_react_solves_with_gold_actions(domain):
    env = make_env(domain)
    _, info = env.reset()
    wrap = lambda text: f"Think: the next step of my plan.\nAction: {text}"  # noqa: E731
    llm = ScriptedLLM(gold_responder([english(a, info) for a in info["gold_plan"]], wrap))
    result = run_episode(env, ReActAgent(llm=llm))
    assert result.stop_reason == "goal", (result.detail, result.error, result.actions)
    assert result.actions == info["gold_plan"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_act_pddl_solves_with_gold_actions(domain):
    env = make_env(domain, description="pddl")
    _, info = env.reset()
    llm = ScriptedLLM(gold_responder(info["gold_plan"], done=FINISH))
    result = run_episode(env, ActPDDLAgent(llm=llm))
    assert result.stop_reason == "goal", (result.detail, result.error, result.actions)
    assert result.actions == info["gold_plan"]


def test_act_declares_finish_when_the_env_requires_it():
    env = make_env(require_finish=True)
    _, info = env.reset()
    llm = ScriptedLLM(gold_responder([english(a, info) for a in info["gold_plan"]]))
    result = run_episode(env, ActAgent(llm=llm))
    assert result.stop_reason == "goal" and result.goal_reached
    assert result.actions[-1] == FINISH


# ---- (2) wrong answers, look-around, finish ---------------------------------------------------------------------
@pytest.mark.parametrize("agent_class", [ActAgent, ReActAgent])
def test_failure_is_explained_in_the_next_prompt(agent_class):
    llm = ScriptedLLM(["put down block_a", "look around"])
    result = run_episode(make_env(), agent_class(llm=llm), max_steps=2)
    assert result.steps[0].action_valid is False
    feedback = last_user(llm.calls[1]["messages"])
    assert feedback == result.steps[0].observation
    assert feedback.startswith("I cannot put down block_a because")
    assert result.steps[1].action == LOOK_AROUND


def test_failure_limit_stops_the_episode():
    llm = ScriptedLLM(["put down block_a"], cycle=True)
    result = run_episode(make_env(), ActAgent(llm=llm, max_failures=3))
    assert result.stop_reason == "agent_stopped"
    assert result.detail == "3 invalid actions in a row"
    assert len(result.steps) == 3 and result.invalid_actions == 3


def test_no_failure_limit_runs_to_the_step_limit():
    llm = ScriptedLLM(["put down block_a"], cycle=True)
    result = run_episode(make_env(), ActAgent(llm=llm, max_failures=None), max_steps=12)
    assert result.stop_reason == "step_limit" and len(result.steps) == 12


def test_valid_actions_reset_the_failure_count():
    env = make_env()
    _, info = env.reset()
    first = english(info["gold_plan"][0], info)
    llm = ScriptedLLM(["put down block_a", first, "put down block_c", "put down block_c"])
    result = run_episode(env, ActAgent(llm=llm, max_failures=2))
    assert result.stop_reason == "agent_stopped" and len(result.steps) == 4


@pytest.mark.parametrize("answer", ["look around", "Look around.", "(look-around)"])
def test_look_around(answer):
    llm = ScriptedLLM([answer, "look around"])
    result = run_episode(make_env(), ActAgent(llm=llm), max_steps=2)
    assert result.steps[0].action == LOOK_AROUND and result.steps[0].action_valid
    assert last_user(llm.calls[1]["messages"]).startswith("I look around.")


@pytest.mark.parametrize("answer", ["I am finished", "finish", "Done.", "I am finished."])
def test_premature_finish_gets_the_reason(answer):
    llm = ScriptedLLM([answer, "look around"])
    result = run_episode(make_env(require_finish=True), ActAgent(llm=llm), max_steps=2)
    assert result.steps[0].action == FINISH
    assert "not finished yet because" in last_user(llm.calls[1]["messages"])


def test_react_premature_finish_and_look_around():
    llm = ScriptedLLM(["Think: done, I believe.\nAction: I am finished", "Think: let me check.\nAction: look around"])
    result = run_episode(make_env(require_finish=True), ReActAgent(llm=llm), max_steps=2)
    assert result.actions == [FINISH, LOOK_AROUND]
    assert "not finished yet because" in last_user(llm.calls[1]["messages"])


def test_act_pddl_failure_feedback_and_commands():
    llm = ScriptedLLM(["(put-down block_a)", "(look-around)", "I think: (FINISH)."])
    env = make_env(description="pddl", require_finish=True)
    result = run_episode(env, ActPDDLAgent(llm=llm), max_steps=3)
    assert result.actions == ["(put-down block_a)", LOOK_AROUND, FINISH]
    assert "failed" in last_user(llm.calls[1]["messages"])
    assert last_user(llm.calls[2]["messages"]).startswith("State:")


def test_react_thought_only_answers_get_ok():
    llm = ScriptedLLM(["Think: let me see.", "Think: block_b must go first.\nAction: unstack block_b from on top of "
                       "block_d"])
    agent = ReActAgent(llm=llm)
    result = run_episode(make_env(), agent, max_steps=1)
    assert result.actions == ["(unstack block_b block_d)"]
    assert len(llm.calls) == 2
    assert llm.calls[1]["messages"][-1] == {"role": "user", "content": "OK."}
    assert llm.calls[1]["messages"][-2]["content"] == "Think: let me see."


def test_react_third_thought_in_a_row_counts_as_action():
    llm = ScriptedLLM(["Think: hmm.", "Think: hmm hmm.", "Think: put down block_a"])
    result = run_episode(make_env(), ReActAgent(llm=llm), max_steps=1)
    assert len(llm.calls) == 3
    assert result.actions == ["(put-down block_a)"]


# ---- (3) garbage never crashes -------------------------------------------------------------------------------------
GARBAGE = ["", "   \n\n", "asdf qwerty!!", "Think:", "Action:", "((((", ")", "Action: ()", "{}", "\u00e9\u00e8 \u2603",
           "Think: x\nAction:", "1. 2. 3.", "(stack)", "look", "```\n```"]


@pytest.mark.parametrize("agent_class", [ActAgent, ReActAgent, ActPDDLAgent])
def test_garbage_outputs_never_crash(agent_class):
    llm = ScriptedLLM(GARBAGE, cycle=True)
    env = make_env(description="pddl") if agent_class is ActPDDLAgent else make_env()
    result = run_episode(env, agent_class(llm=llm, max_failures=None), max_steps=len(GARBAGE))
    assert result.error is None, result.error
    assert result.stop_reason in ("step_limit", "agent_stopped")
    assert all(isinstance(a, str) for a in result.actions)


# ---- (4) prompt snapshots ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("agent_class", "description"),
                         [(ActAgent, "curated"), (ReActAgent, "curated"), (ActPDDLAgent, "pddl")],
                         ids=["act", "react", "act-pddl"])
def test_prompt_snapshot(agent_class, description):
    llm = ScriptedLLM(["look around"])
    run_episode(make_env(description=description), agent_class(llm=llm), max_steps=1)
    messages = llm.calls[0]["messages"]
    assert sum(bool(m.get("cache")) for m in messages) == 1
    assert messages[0]["role"] == "system" and messages[-1]["role"] == "user"
    assert messages[-2].get("cache")
    path = SNAPSHOTS / f"blocksworld_p01_{agent_class.name}.json"
    text = json.dumps(messages, indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("APB_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"missing snapshot {path}: run with APB_UPDATE_SNAPSHOTS=1 to write it"
    assert text == path.read_text(encoding="utf-8"), "prompt changed: rerun with APB_UPDATE_SNAPSHOTS=1 if intended"


def test_react_example_is_shortened_with_thoughts():
    llm = ScriptedLLM(["look around"])
    run_episode(make_env(), ReActAgent(llm=llm), max_steps=1)
    answers = [m["content"] for m in llm.calls[0]["messages"] if m["role"] == "assistant"]
    assert len(answers) == 4  # the example's last three steps, then its finish
    assert all(a.startswith("Think: ") and "\nAction: " in a for a in answers)


def test_task_message_is_the_reset_observation():
    env = make_env()
    observation, _ = env.reset()
    llm = ScriptedLLM(["look around"])
    run_episode(env, ActAgent(llm=llm), max_steps=1)
    assert llm.calls[0]["messages"][-1]["content"].endswith(observation.strip())


# ---- (5) constrained choices and hints -----------------------------------------------------------------------------
def test_constrained_passes_choices_and_maps_back():
    env = make_env()
    _, info = env.reset()
    llm = ScriptedLLM(lambda messages: llm.calls[-1]["choices"][-2])  # the last admissible action
    agent = ActAgent(llm=llm, constrained=True)
    result = run_episode(env, agent, max_steps=1)
    choices = llm.calls[0]["choices"]
    assert choices == [english_action(a, info) for a in info["admissible_actions"]] + ["I am finished"]
    assert result.actions == [info["admissible_actions"][-1]]
    assert agent.events == [] and result.steps[0].events[-1]["method"] == "choice"


def test_constrained_react_and_pddl():
    env = make_env()
    _, info = env.reset()
    llm = ScriptedLLM(lambda messages: f"Think: ok.\nAction: {llm.calls[-1]['choices'][0]}")
    result = run_episode(env, ReActAgent(llm=llm, constrained=True), max_steps=1)
    assert result.actions == [info["admissible_actions"][0]]

    env = make_env(description="pddl")
    _, info = env.reset()
    llm = ScriptedLLM(lambda messages: llm.calls[-1]["choices"][0])
    result = run_episode(env, ActPDDLAgent(llm=llm, constrained=True), max_steps=1)
    assert llm.calls[0]["choices"] == [*info["admissible_actions"], FINISH]
    assert result.actions == [info["admissible_actions"][0]]


def test_unconstrained_passes_no_choices():
    llm = ScriptedLLM(["look around"])
    run_episode(make_env(), ActAgent(llm=llm), max_steps=1)
    assert llm.calls[0]["choices"] is None


@pytest.mark.parametrize("hints", [False, True])
def test_hints_only_when_enabled(hints):
    env = make_env()
    _, info = env.reset()
    llm = ScriptedLLM(["put down block_a", "look around"])
    run_episode(env, ActAgent(llm=llm, hints=hints), max_steps=2)
    some_action = english_action(info["admissible_actions"][0], info)
    for call in llm.calls:
        turn = last_user(call["messages"])
        assert ("Actions I can do now" in turn) is hints
        assert (some_action in turn) is hints
    assert not any("Actions I can do now" in m["content"] for m in llm.calls[0]["messages"][:-1])


def test_english_action_drops_a_repeated_type_noun():
    env = make_env()
    _, info = env.reset()
    assert english_action("(stack block_a block_b)", info) == "stack block_a on top of block_b"
    assert english_action("(stack x y)", info) == "stack block x on top of block y"
    assert english_action("(fly a b)", info) == "(fly a b)"


def test_pddl_hints_list_pddl_actions():
    env = make_env(description="pddl")
    _, info = env.reset()
    llm = ScriptedLLM(["(look-around)"])
    run_episode(env, ActPDDLAgent(llm=llm, hints=True), max_steps=1)
    assert info["admissible_actions"][0] in last_user(llm.calls[0]["messages"])


# ---- (6) events and construction -------------------------------------------------------------------------------
@pytest.mark.parametrize("agent_class", [ActAgent, ReActAgent])
def test_events_per_call_and_per_action(agent_class):
    env = make_env()
    _, info = env.reset()
    wrap = (lambda t: f"Think: next.\nAction: {t}") if agent_class is ReActAgent else (lambda t: t)
    llm = ScriptedLLM(gold_responder([english(a, info) for a in info["gold_plan"]], wrap))
    seen = []
    result = run_episode(env, agent_class(llm=llm, on_event=seen.append))
    for step in result.steps:
        kinds = [e["type"] for e in step.events]
        assert kinds == ["llm", "translation"]
        assert step.events[0]["role"] == "planner" and step.events[0]["agent"] == agent_class.name
        assert step.events[1]["action"] == step.action
    assert len([e for e in seen if e["type"] == "llm"]) == len(llm.calls)


def test_act_pddl_events():
    llm = ScriptedLLM(["(put-down block_a)", "nonsense"])
    result = run_episode(make_env(description="pddl"), ActPDDLAgent(llm=llm), max_steps=2)
    assert [[e["type"] for e in s.events] for s in result.steps] == [["llm", "translation"]] * 2
    assert result.steps[1].events[1]["action"] is None


@pytest.mark.parametrize("agent_class", [ActAgent, ReActAgent, ActPDDLAgent])
def test_needs_an_llm(agent_class):
    with pytest.raises(AgentError):
        agent_class(llm=None)


def test_names_and_default_translator():
    llm = ScriptedLLM([])
    assert (ActAgent.name, ReActAgent.name, ActPDDLAgent.name) == ("act", "react", "act-pddl")
    assert ActAgent(llm=llm).translator is not None
    assert ActPDDLAgent(llm=llm).translator is None
    custom = object()
    assert ReActAgent(llm=llm, translator=custom).translator is custom

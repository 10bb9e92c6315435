"""Agents work on any env that honours the documented contract, not only on apb's own PDDLTextEnv.

`LightSwitchEnv` is a third-party-style puzzle written here with plain gymnasium and no apb import: three rooms
in a row (hall - kitchen - cellar), I start in the hall with every light off and must switch on the lights of the
hall and the cellar. It has its own tiny simulator and offers the PDDL of the same puzzle in its info, as the
contract asks. Other test modules can reuse `contract_env()` and `run_on_contract_env(agent)` for new agents.
"""

from __future__ import annotations

import string
from typing import ClassVar

import gymnasium as gym
import pytest
from gymnasium import spaces

from apb.agents.baselines import OracleAgent, PlannerAgent, RandomAgent
from apb.agents.episode import run_episode

DOMAIN_PDDL = """(define (domain lights)
  (:requirements :strips :typing :negative-preconditions)
  (:types room)
  (:predicates (at ?r - room) (adjacent ?a ?b - room) (lit ?r - room))
  (:action move
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (adjacent ?from ?to))
    :effect (and (not (at ?from)) (at ?to)))
  (:action switch-on
    :parameters (?r - room)
    :precondition (and (at ?r) (not (lit ?r)))
    :effect (lit ?r)))
"""

PROBLEM_PDDL = """(define (problem three-rooms) (:domain lights)
  (:objects hall kitchen cellar - room)
  (:init (at hall) (adjacent hall kitchen) (adjacent kitchen hall) (adjacent kitchen cellar)
         (adjacent cellar kitchen))
  (:goal (and (lit hall) (lit cellar))))
"""

ROOMS = ("hall", "kitchen", "cellar")
ADJACENT = {("hall", "kitchen"), ("kitchen", "hall"), ("kitchen", "cellar"), ("cellar", "kitchen")}
GOAL = ("hall", "cellar")
GOLD_PLAN = ["(switch-on hall)", "(move hall kitchen)", "(move kitchen cellar)", "(switch-on cellar)"]
SCHEMAS = [
    {"name": "move", "parameters": [["from", "room"], ["to", "room"]], "pddl": "(move ?from ?to)",
     "nl": "walk from {from} to {to}"},
    {"name": "switch-on", "parameters": [["r", "room"]], "pddl": "(switch-on ?r)",
     "nl": "switch on the light in {r}"},
]


class LightSwitchEnv(gym.Env):
    """The three-room light-switch puzzle, honouring apb's env contract and nothing more."""

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(self, *, require_finish: bool = False, gold_plan: list[str] | None = GOLD_PLAN,
                 max_steps: int = 24) -> None:
        self.observation_space = spaces.Text(4096, charset=string.printable)
        self.action_space = spaces.Text(256, charset=string.printable)
        self.require_finish = require_finish
        self.gold_plan = gold_plan
        self.max_steps = max_steps
        self.position = "hall"
        self.lit: set[str] = set()
        self.steps = 0
        self.sent: list[str] = []

    # ---- the puzzle ---------------------------------------------------------------------------------------------
    def facts(self) -> list[str]:
        return [f"(at {self.position})", *(f"(lit {r})" for r in ROOMS if r in self.lit)]

    def unmet(self, name: str, args: list[str]) -> list[str]:
        if name == "move":
            source, target = args
            return ([] if self.position == source else [f"(at {source})"]) + (
                [] if (source, target) in ADJACENT else [f"(adjacent {source} {target})"])
        (room,) = args
        return ([] if self.position == room else [f"(at {room})"]) + ([f"(lit {room})"] if room in self.lit else [])

    def admissible(self) -> list[str]:
        moves = [f"(move {a} {b})" for a, b in ADJACENT if a == self.position]
        switches = [f"(switch-on {self.position})"] if self.position not in self.lit else []
        return sorted(moves + switches)

    def unsatisfied(self) -> list[str]:
        return [f"(lit {r})" for r in GOAL if r not in self.lit]

    def state_text(self) -> str:
        lights = ", ".join(f"the light in {r} is {'on' if r in self.lit else 'off'}" for r in ROOMS)
        return f"I am in the {self.position}, {lights}"

    def info(self) -> dict:
        return {
            "domain_description": "I walk between three rooms in a row and switch lights on.",
            "goal": "the lights in the hall and the cellar are on", "goal_pddl": [f"(lit {r})" for r in GOAL],
            "objects": {r: "room" for r in ROOMS}, "action_schemas": [dict(s) for s in SCHEMAS],
            "state": self.state_text(), "state_pddl": self.facts(), "admissible_actions": self.admissible(),
            "problem_id": "three-rooms", "optimal_plan_length": 4, "domain_pddl": DOMAIN_PDDL,
            "problem_pddl": PROBLEM_PDDL, "gold_plan": list(self.gold_plan) if self.gold_plan is not None else None,
            "goal_reached": not self.unsatisfied(), "unsatisfied_goals": self.unsatisfied(),
        }

    # ---- gymnasium API ------------------------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.position, self.lit, self.steps, self.sent = "hall", set(), 0, []
        return f"Rooms: hall, kitchen, cellar.\n\nCurrently, {self.state_text()}.\n\nMy goal is that " \
               f"the lights in the hall and the cellar are on.", self.info()

    def step(self, action):
        self.steps += 1
        self.sent.append(action)
        words = str(action).strip().lower().strip("()").split()
        name, args = (words[0], words[1:]) if words else ("", [])
        valid, failure, terminated = True, None, False
        if name == "look-around" and not args:
            observation = self.state_text() + "."
        elif name == "finish" and not args:
            terminated = not self.unsatisfied()
            valid = terminated
            observation = "I am done." if terminated else "I cannot finish: the goal is not reached."
            if not valid:
                failure = {"kind": "goal_not_reached", "unmet": self.unsatisfied(), "text": observation}
        elif name in ("move", "switch-on") and len(args) == (2 if name == "move" else 1):
            if any(a not in ROOMS for a in args):
                valid, observation = False, f"I do not know {' '.join(args)}."
                failure = {"kind": "unknown_object", "unmet": [], "text": observation}
            elif unmet := self.unmet(name, args):
                valid, observation = False, f"I cannot do {action} because {' and '.join(unmet)} is not true."
                failure = {"kind": "unmet_preconditions", "unmet": unmet, "text": observation}
            elif name == "move":
                self.position = args[1]
                observation = f"I walk to the {args[1]}."
            else:
                self.lit.add(args[0])
                observation = f"I switch on the light in the {args[0]}."
            if valid and not self.require_finish and not self.unsatisfied():
                terminated = True
                observation += " The goal is reached."
        else:
            valid, observation = False, f"I do not know how to {action}."
            failure = {"kind": "unknown_action", "unmet": [], "text": observation}
        info = self.info()
        info.update(action=str(action), action_valid=valid, failure=failure)
        reward = 1.0 if terminated else 0.0
        truncated = not terminated and self.steps >= self.max_steps
        return observation, reward, terminated, truncated, info


def contract_env(**kwargs) -> LightSwitchEnv:
    """A fresh third-party-style env that honours only the documented contract."""
    return LightSwitchEnv(**kwargs)


def run_on_contract_env(agent, **kwargs):
    """Runs `agent` for one episode on a fresh contract env; returns (result, env)."""
    env = contract_env(**kwargs)
    return run_episode(env, agent, seed=0), env


def test_the_contract_env_is_a_gymnasium_env():
    env = contract_env()
    observation, info = env.reset(seed=0)
    assert isinstance(env, gym.Env) and "hall" in observation
    assert info["admissible_actions"] == ["(move hall kitchen)", "(switch-on hall)"]


@pytest.mark.parametrize("agent", [OracleAgent(), PlannerAgent("bfs"), PlannerAgent("astar")],
                         ids=lambda a: a.name)
def test_plan_followers_solve_the_contract_env(agent):
    result, env = run_on_contract_env(agent)
    assert result.success and result.stop_reason == "goal"
    assert env.sent == GOLD_PLAN
    assert result.invalid_actions == 0


@pytest.mark.parametrize("agent_factory", [OracleAgent, lambda: PlannerAgent("bfs")], ids=["oracle", "bfs"])
def test_plan_followers_declare_finish_when_the_env_requires_it(agent_factory):
    result, env = run_on_contract_env(agent_factory(), require_finish=True)
    assert result.success
    assert env.sent == [*GOLD_PLAN, "(finish)"]


def test_planner_records_its_search_on_the_contract_env():
    agent = PlannerAgent("bfs")
    result, _ = run_on_contract_env(agent)
    (event,) = [e for e in result.pre_events if e["type"] == "planner"]
    assert event["planner"] == "bfs" and event["status"] == "solved" and event["plan_length"] == 4


def test_random_agent_sends_only_admissible_actions_on_the_contract_env():
    for seed in range(5):
        env = contract_env()
        observation, info = env.reset(seed=0)
        agent = RandomAgent(seed=seed)
        agent.reset(observation, info)
        for _ in range(24):
            action = agent.act(observation, info)
            assert action in info["admissible_actions"]
            observation, _, terminated, truncated, info = env.step(action)
            assert info["action_valid"]
            if terminated or truncated:
                break


def test_random_agent_finishes_on_the_contract_env_with_require_finish():
    solved = [run_on_contract_env(RandomAgent(seed=seed), require_finish=True)[0] for seed in range(20)]
    assert any(r.success for r in solved)
    for result in solved:
        if result.success:
            assert result.actions[-1] == "(finish)" and result.invalid_actions == 0


def test_oracle_stops_cleanly_on_a_contract_env_without_gold_plan():
    result, env = run_on_contract_env(OracleAgent(), gold_plan=None)
    assert result.stop_reason == "agent_stopped" and result.detail == "no gold plan"
    assert result.error is None and env.sent == []


def test_human_agent_plays_the_contract_env_in_english():
    import io

    from rich.console import Console

    from apb.agents.human import HumanAgent

    lines = iter(["switch on the light in hall", ":state", "walk from hall to kitchen", "(move kitchen cellar)",
                  "switch on the light in cellar"])
    agent = HumanAgent(read=lambda prompt: next(lines), console=Console(file=io.StringIO(), width=120))
    result, env = run_on_contract_env(agent)
    assert result.success
    assert env.sent == [GOLD_PLAN[0], "(look-around)", *GOLD_PLAN[1:]]


# ---- LLM agents on the contract env: scripted LLMs that answer in the env's own English ------------------------
ENGLISH_PLAN = ["switch on the light in hall", "walk from hall to kitchen", "walk from kitchen to cellar",
                "switch on the light in cellar"]


def _one_at_a_time(prefix: str = ""):
    answers = iter(ENGLISH_PLAN)

    def respond(messages):
        return prefix + next(answers, "I am finished")

    return respond


@pytest.mark.parametrize("name, respond", [  # closed-loop runs the whole plan (horizon=None): the script is static
    ("basic", lambda messages: "\n".join(ENGLISH_PLAN)),
    ("cot", lambda messages: "\n".join(f"Think: this helps.\n{step}" for step in ENGLISH_PLAN)),
    ("act", None),
    ("react", "Think: this helps.\nAction: "),
    ("closed-loop", lambda messages: "\n".join(f"{i}. {s}" for i, s in enumerate(ENGLISH_PLAN, 1)) + "\n[PLAN END]"),
])
def test_llm_agents_solve_the_contract_env(name, respond):
    from apb.agents import make_agent
    from apb.llm import ScriptedLLM

    if respond is None or isinstance(respond, str):
        respond = _one_at_a_time(respond or "")
    options = {"horizon": None} if name == "closed-loop" else {}
    agent = make_agent(name, llm=ScriptedLLM(respond), **options)
    result, _ = run_on_contract_env(agent)
    assert result.goal_reached and result.stop_reason == "goal", (result.stop_reason, result.detail, result.error)
    assert result.actions == GOLD_PLAN

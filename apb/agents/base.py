"""The agent protocol and what every agent shares: LLM calls and translations recorded as trace events.

An agent sees an environment only through the Gymnasium API and the documented `info` keys. It holds prompt
state (its conversation), never environment state:

    agent.reset(observation, info)            # a new episode: the task text and the reset info
    action = agent.act(observation, info)     # the PDDL action (or "(look-around)" / "(finish)") to send
    agent.close()

`act` receives the observation and info of the previous step (the reset ones on the first call). Every LLM call
and every translation is appended to `agent.events` (and passed to `on_event` if given) as a dict, so runners can
write trajectories without knowing the agent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from apb.engine.errors import ApbError
from apb.envs.text_env import FINISH, LOOK_AROUND

__all__ = ["FINISH", "LOOK_AROUND", "Agent", "AgentError", "AgentWrapper", "BaseAgent", "StopEpisode",
           "action_from_info",
           "ensure_events"]


class AgentError(ApbError):
    """An agent that cannot run: a missing LLM, an unknown agent name, a bad option."""


class StopEpisode(Exception):
    """Raised by `act` when the agent has nothing more to do (plan exhausted, failure limit reached).
    `reason` says why; runners record it as the episode's stop reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class Agent(Protocol):
    name: str
    events: list[dict]

    def reset(self, observation: str, info: dict) -> None: ...

    def act(self, observation: str, info: dict) -> str: ...

    def close(self) -> None: ...


class BaseAgent:
    """Shared plumbing: the LLM and translator, event recording, prompt assembly helpers."""

    name = "agent"
    # Facts runners read from the class (through apb.agents.registry), never from lists of names:
    needs_llm = False  # True: the agent calls an LLM (the runner gives it one, and a translator)
    deterministic = False  # True: the episode does not depend on the seed (run once per problem)
    view = "nl"  # the env view the agent reads: "nl" (English) or "pddl" (description="pddl")
    options: tuple[str, ...] = ()  # constructor options a run may set (CLI flags, YAML agent_options)

    @classmethod
    def default_step_limit(cls, dataset_limit: int) -> int:
        """The episode step limit a run gives this agent when none is asked for: the dataset's (twice its longest
        gold plan, at least 24; `apb.datasets.step_limit`)."""
        return dataset_limit

    def __init__(self, *, llm=None, translator=None, on_event: Callable[[dict], None] | None = None,
                 max_tokens: int | None = None, temperature: float = 0.0, seed: int | None = None,
                 shots: int = 1) -> None:
        if self.needs_llm and llm is None:
            raise AgentError(f"the {self.name} agent needs an LLM: pass llm=make_llm('local') or another spec")
        self.llm = llm
        self.translator = translator
        self.on_event = on_event
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        if shots not in (0, 1):
            raise AgentError(f"shots must be 0 (no example) or 1 (the one-shot example), got {shots!r}")
        self.shots = shots
        self.events: list[dict] = []

    # ---- events ---------------------------------------------------------------------------------------------
    def emit(self, event: dict) -> None:
        event.setdefault("agent", self.name)
        event.setdefault("time", time.time())
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def pop_events(self) -> list[dict]:
        """The events since the last call (runners attach them to the step they belong to)."""
        events, self.events = self.events, []
        return events

    # ---- LLM and translation --------------------------------------------------------------------------------
    def call_llm(self, messages: Sequence[dict], *, role: str = "planner", stop: Sequence[str] | None = None,
                 max_tokens: int | None = None, choices: Sequence[str] | None = None) -> str:
        """One LLM call, recorded as an event (role 'planner', 'translator', 'explainer', 'grounder')."""
        completion = self.llm.complete(list(messages), max_tokens=max_tokens or self.max_tokens,
                                       temperature=self.temperature, stop=stop, seed=self.seed, choices=choices)
        self.emit({"type": "llm", "role": role, "messages": [dict(m) for m in messages],
                   "text": completion.text, "usage": completion.usage.to_dict(), "cost": completion.cost,
                   "cached": completion.cached, "latency": completion.latency, "model": completion.model})
        return completion.text

    def translate(self, text: str, info: dict) -> str | None:
        """Free text -> a grounded PDDL action through the translator, recorded as an event."""
        if self.translator is None:
            return text.strip() or None
        result = self.translator.translate(text, info)
        for call in result.completions:  # the translator's LLM calls count like the agent's own
            self.emit({"type": "llm", "role": "translator", **call})
        self.emit({"type": "translation", "input": text, **result.to_dict()})
        return result.action

    # ---- the one-shot example ---------------------------------------------------------------------------------
    example = None

    def example_for(self, info: dict):
        """The one-shot example: the one given, else the bundled domain's (from info["domain"]), else None; None
        with `shots=0` (a smaller prompt, for models with a short context)."""
        if not getattr(self, "shots", 1):
            return None
        if self.example is not None:
            return self.example
        domain = info.get("domain")
        if isinstance(domain, str) and domain:
            from apb.agents.thoughts import bundled_example

            return bundled_example(domain)
        return None

    # ---- protocol defaults ------------------------------------------------------------------------------------
    def reset(self, observation: str, info: dict) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def act(self, observation: str, info: dict) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        pass


class AgentWrapper:
    """An agent around another: `reset`, `act` and `close` go to `agent` unless overridden, and so does every
    other attribute (`name`, `events`, `pop_events`, ...). Runners use it to add behaviour (a transcript, a stop
    flag) without knowing the agent."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    def __getattr__(self, name: str) -> Any:
        if name == "agent":
            raise AttributeError(name)
        return getattr(self.agent, name)

    def reset(self, observation: str, info: dict) -> None:
        self.agent.reset(observation, info)

    def act(self, observation: str, info: dict) -> str:
        return self.agent.act(observation, info)

    def close(self) -> None:
        self.agent.close()


def action_from_info(info: dict, text: str) -> str | None:
    """`text` if it is one of the admissible actions written exactly, else None (for symbolic agents)."""
    return text if text in info.get("admissible_actions", ()) else None


def ensure_events(agent: Any) -> list[dict]:
    """The events an agent recorded since the last call, for agents with or without `pop_events`."""
    pop = getattr(agent, "pop_events", None)
    return pop() if callable(pop) else []

"""Run one episode of an agent in an environment (synchronously) and keep what happened, step by step.

Stop reasons: `goal` (the env terminated with the goal reached), `step_limit` (the env truncated, or `max_steps`),
`failure_limit` (too many invalid actions in a row), `agent_stopped` (the agent raised StopEpisode; its reason is
kept), `error` (the agent raised anything else; the error is kept, the episode counts as a failure).
"""

from __future__ import annotations

import traceback
from dataclasses import asdict, dataclass, field
from typing import Any

from apb.agents.base import StopEpisode, ensure_events


@dataclass
class StepRecord:
    index: int
    action: str
    observation: str
    reward: float
    terminated: bool
    truncated: bool
    action_valid: bool
    failure_kind: str | None
    events: list[dict] = field(default_factory=list)
    action_cost: float | None = None  # the env's info["action_cost"]: None for an invalid action


@dataclass
class EpisodeResult:
    problem_id: str | None
    steps: list[StepRecord]
    goal_reached: bool
    stop_reason: str
    detail: str | None = None
    error: str | None = None
    pre_events: list[dict] = field(default_factory=list)

    @property
    def success(self) -> bool:
        return self.goal_reached and self.error is None

    @property
    def invalid_actions(self) -> int:
        return sum(not s.action_valid for s in self.steps)

    @property
    def look_arounds(self) -> int:
        return sum(s.action == "(look-around)" for s in self.steps)

    @property
    def plan_cost(self) -> float | None:
        """The summed cost of the valid actions executed (None when the env reports no action costs)."""
        total = 0
        for s in self.steps:
            if s.action_valid:
                if s.action_cost is None:
                    return None
                total += s.action_cost
        return total

    @property
    def actions(self) -> list[str]:
        return [s.action for s in self.steps]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(success=self.success, invalid_actions=self.invalid_actions, look_arounds=self.look_arounds,
                    plan_cost=self.plan_cost)
        return data


def run_episode(env, agent, *, seed: int | None = None, options: dict | None = None, max_steps: int | None = None,
                max_consecutive_failures: int | None = None, first: tuple[str, dict] | None = None) -> EpisodeResult:
    """reset, then act/step until the env terminates or truncates, the agent stops, or a limit is reached.
    `first`: the (observation, info) of a reset the caller has already done (then `seed`/`options` are unused)."""
    observation, info = first if first is not None else env.reset(seed=seed, options=options)
    problem_id = info.get("problem_id")
    steps: list[StepRecord] = []
    try:
        agent.reset(observation, info)
    except StopEpisode as stop:
        return EpisodeResult(problem_id, steps, bool(info.get("goal_reached")), "agent_stopped", stop.reason,
                             pre_events=ensure_events(agent))
    except Exception as err:  # an agent bug or an LLM failure: recorded, never dropped
        return EpisodeResult(problem_id, steps, False, "error", error=describe_error(err),
                             pre_events=ensure_events(agent))
    pre_events = ensure_events(agent)
    failures_in_row = 0
    while True:
        if max_steps is not None and len(steps) >= max_steps:
            return EpisodeResult(problem_id, steps, bool(info.get("goal_reached")), "step_limit",
                                 pre_events=pre_events)
        try:
            action = agent.act(observation, info)
        except StopEpisode as stop:
            return EpisodeResult(problem_id, steps, bool(info.get("goal_reached")), "agent_stopped", stop.reason,
                                 pre_events=pre_events)
        except Exception as err:
            return EpisodeResult(problem_id, steps, False, "error", error=describe_error(err), pre_events=pre_events)
        events = ensure_events(agent)
        observation, reward, terminated, truncated, info = env.step(action)
        valid = bool(info.get("action_valid", True))
        failure = info.get("failure") or {}
        steps.append(StepRecord(len(steps), str(info.get("action", action)), observation, float(reward),
                                bool(terminated), bool(truncated), valid, failure.get("kind"), events,
                                info.get("action_cost") if valid else None))
        failures_in_row = 0 if valid else failures_in_row + 1
        if terminated:
            return EpisodeResult(problem_id, steps, bool(info.get("goal_reached", reward > 0)), "goal",
                                 pre_events=pre_events)
        if truncated:
            return EpisodeResult(problem_id, steps, bool(info.get("goal_reached")), "step_limit",
                                 pre_events=pre_events)
        if max_consecutive_failures is not None and failures_in_row >= max_consecutive_failures:
            return EpisodeResult(problem_id, steps, False, "failure_limit",
                                 f"{failures_in_row} invalid actions in a row", pre_events=pre_events)


def describe_error(err: BaseException) -> str:
    last = traceback.extract_tb(err.__traceback__)[-1:] if err.__traceback__ else []
    where = f" at {last[0].filename.rsplit('/', 1)[-1]}:{last[0].lineno}" if last else ""
    return f"{type(err).__name__}: {err}{where}"

"""An OpenEnv environment server for apb's text games, and its client (extra `openenv`).

    apb serve openenv --domain blocksworld --port 8000        # OpenEnv's routes: /health /reset /step /state /ws

    from apb.integrations.openenv import ApbAction, ApbEnvClient
    with ApbEnvClient(base_url="http://localhost:8000").sync() as env:
        result = env.reset(problem=1)                       # result.observation.text: the task
        result = env.step(ApbAction(text="unstack block_b from on top of block_d"))
        result.observation.text, result.reward, result.done   # apb's feedback, 1.0 at the goal

An action is free text (English, or PDDL with `description=pddl`), turned into a grounded action by apb's
translator (`GameSession`); the observation carries the env's feedback (why an action failed, every unmet
precondition), reward (1.0 when the goal is reached) and done; the state has the domain, problem and step count.
As everywhere in OpenEnv, HTTP `/reset` and `/step` are stateless (each request gets a fresh env, so `/step` acts
on the problem's initial state); an episode is a WebSocket session (`/ws`), which `ApbEnvClient` opens.
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import Field

from apb.integrations import require

require("openenv.core", "openenv")

from openenv.core.client_types import StepResult  # noqa: E402
from openenv.core.env_client import EnvClient  # noqa: E402
from openenv.core.env_server import Action, Environment, Observation, State, create_fastapi_app  # noqa: E402
from openenv.core.env_server.types import EnvironmentMetadata  # noqa: E402

from apb.integrations.game import DEFAULT_MAX_STEPS, GameSession  # noqa: E402


class ApbAction(Action):
    """One model turn: free text (an English action, a PDDL action, "look around", "I am finished")."""

    text: str = Field(description="the action, in English or PDDL")


class ApbObservation(Observation):
    """The env's answer: on reset the task (and `instructions`, the system prompt), after a step the feedback."""

    text: str = Field(default="", description="the task text after reset, the env's feedback after a step")
    instructions: str = Field(default="", description="the domain description and rules (after reset)")
    action: str | None = Field(default=None, description="the grounded action apb executed for the text")
    valid: bool = Field(default=True, description="whether the action was applicable")
    failure: str | None = Field(default=None, description="why the action failed (unmet preconditions, ...)")
    goal_reached: bool = False
    problem_id: str = ""
    admissible_actions: list[str] = Field(default_factory=list, description="PDDL actions applicable now")


class ApbState(State):
    """The episode: its domain and problem, steps so far (OpenEnv's step_count), invalid actions, goal."""

    domain: str = ""
    problem_id: str = ""
    invalid_actions: int = 0
    goal_reached: bool = False
    optimal_length: int | None = None


class ApbEnvironment(Environment[ApbAction, ApbObservation, ApbState]):
    """A GameSession behind OpenEnv's Environment interface; `reset(problem=...)` picks the problem."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # each session has its own env and state

    def __init__(self, domain: str = "blocksworld", *, problem: int | str | None = None, split: str = "test",
                 description: str = "curated", translator: str = "cascade",
                 max_steps: int | str | None = DEFAULT_MAX_STEPS, hints: bool = False) -> None:
        super().__init__()
        self.problem = problem
        self.game = GameSession(domain, split=split, description=description, translator=translator,
                                max_steps=max_steps, hints=hints)
        self._state = ApbState(domain=domain)

    def reset(self, seed: int | None = None, episode_id: str | None = None, problem: int | str | None = None,
              **kwargs: Any) -> ApbObservation:
        chosen = problem if problem is not None else self.problem
        text = self.game.reset(problem=chosen, seed=seed)
        info = self.game.info
        self._state = ApbState(episode_id=episode_id or uuid.uuid4().hex, step_count=0, domain=self.game.domain,
                               problem_id=self.game.problem_id, optimal_length=info.get("optimal_plan_length"))
        return ApbObservation(text=text, instructions=self.game.system_prompt, problem_id=self.game.problem_id,
                              admissible_actions=list(info.get("admissible_actions") or ()), reward=0.0,
                              done=False)

    def step(self, action: ApbAction, timeout_s: float | None = None, **kwargs: Any) -> ApbObservation:
        if not self.game.info:  # a stateless HTTP /step: act on the problem's initial state
            self.reset()
        if self.game.done:
            return ApbObservation(text="The episode is over: reset to play again.", done=True, reward=0.0,
                                  valid=False, goal_reached=self.game.goal_reached, problem_id=self.game.problem_id)
        turn = self.game.step(action.text)
        self._state.step_count += 1
        self._state.invalid_actions += not turn.valid
        self._state.goal_reached = turn.goal_reached
        return ApbObservation(text=turn.observation, action=turn.action, valid=turn.valid,
                              failure=(turn.failure or {}).get("text"), goal_reached=turn.goal_reached,
                              problem_id=self.game.problem_id, reward=turn.reward, done=turn.done,
                              admissible_actions=list(turn.info.get("admissible_actions") or ()))

    @property
    def state(self) -> ApbState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(name=f"apb-{self.game.domain}",
                                   description=f"apb's {self.game.domain} PDDL domain as a text game")

    def close(self) -> None:
        self.game.close()


def create_app(domain: str = "blocksworld", *, max_concurrent_envs: int = 8, **options: Any):
    """OpenEnv's FastAPI app for a domain (routes /health, /reset, /step, /state, /schema, /ws); `options` go to
    ApbEnvironment (problem, split, description, translator, max_steps, hints). The domain is checked here."""
    ApbEnvironment(domain, **options).close()  # a bad domain or option fails now, not at the first request
    return create_fastapi_app(lambda: ApbEnvironment(domain, **options), ApbAction, ApbObservation,
                              max_concurrent_envs=max_concurrent_envs)


def serve(domain: str = "blocksworld", *, host: str = "127.0.0.1", port: int = 8000, **options: Any) -> None:
    """Runs the server until interrupted (uvicorn, installed with openenv-core)."""
    import uvicorn

    uvicorn.run(create_app(domain, **options), host=host, port=port, log_level="warning")


class ApbEnvClient(EnvClient[ApbAction, ApbObservation, ApbState]):
    """OpenEnv's WebSocket client for an apb server: `reset(problem=...)`, `step(ApbAction(text=...))`, `state()`."""

    def _step_payload(self, action: ApbAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[ApbObservation]:
        fields = dict(payload.get("observation") or {})
        observation = ApbObservation(**fields, reward=payload.get("reward"), done=bool(payload.get("done")))
        return StepResult(observation=observation, reward=payload.get("reward"), done=bool(payload.get("done")))

    def _parse_state(self, payload: dict[str, Any]) -> ApbState:
        return ApbState(**payload)


__all__ = ["ApbAction", "ApbEnvClient", "ApbEnvironment", "ApbObservation", "ApbState", "create_app", "serve"]

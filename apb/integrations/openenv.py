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

What the server holds to (`create_app`): a reset without a problem plays the server's default problem (`problem=`,
else the split's first), the same one every time; `problem="random"` picks one with the reset's `seed`. A client
names problems by number or id only (never a server path), and an unknown problem or a bad field is a 400 with a
message; no response carries a server path. A request body over `max_body` bytes (64 KB by default; a WebSocket
message too) is answered 413 before it is read. At most `max_sessions` WebSocket sessions at once; one idle for
`idle_timeout` seconds is closed, and a client turned away is told why and what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from typing import Any

from pydantic import Field

from apb.integrations import require

require("openenv.core", "openenv")

from openenv.core.client_types import StepResult  # noqa: E402
from openenv.core.env_client import EnvClient  # noqa: E402
from openenv.core.env_server import Action, Environment, Observation, State  # noqa: E402
from openenv.core.env_server.exceptions import SessionCapacityError  # noqa: E402
from openenv.core.env_server.http_server import HTTPEnvServer  # noqa: E402
from openenv.core.env_server.types import ConcurrencyConfig, EnvironmentMetadata  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from apb.engine.errors import ApbError  # noqa: E402
from apb.integrations.game import DEFAULT_MAX_STEPS, GameSession  # noqa: E402

MAX_BODY = 64 * 1024  # bytes of a request body or WebSocket message (an action is a line of text)
MAX_SESSIONS = 8  # WebSocket sessions at once
IDLE_TIMEOUT = 300.0  # seconds after which an idle session is closed
RANDOM = "random"  # the problem of a reset that asks for a seeded random choice


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


class RequestError(ValueError):
    """A request the server refuses (unknown problem, bad field, closed session): a 400 over HTTP, an error message
    over WebSocket; its text never names a server path."""


_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'\"]+){2,}[\\/]?")


def without_paths(text: str) -> str:
    """`text` with every absolute-looking path replaced by its last part (`/srv/data/p01.pddl` -> `p01.pddl`)."""
    return _PATH.sub(lambda m: m.group(0).rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1], text)


class ApbEnvironment(Environment[ApbAction, ApbObservation, ApbState]):
    """A GameSession behind OpenEnv's Environment interface; `reset(problem=...)` picks the problem (None: this
    env's `problem`, else the split's first; "random": a choice seeded by `seed`)."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # each session has its own env and state

    def __init__(self, domain: str = "blocksworld", *, problem: int | str | None = None, split: str = "test",
                 description: str = "curated", translator: str = "cascade",
                 max_steps: int | str | None = DEFAULT_MAX_STEPS, hints: bool = False) -> None:
        super().__init__()
        self.game = GameSession(domain, split=split, description=description, translator=translator,
                                max_steps=max_steps, hints=hints)
        self.dataset = self.game.env.unwrapped.dataset
        self.name = self.dataset.name  # the domain's name, never the path it was loaded from
        if problem is None and not self.dataset.problems:
            raise ApbError(f"dataset {self.name!r} has no problems in split {split!r}")
        self.problem = RANDOM if problem == RANDOM else \
            self.dataset.entry(problem if problem is not None else self.dataset.numbers()[0]).id
        self.closed = False
        self._state = ApbState(domain=self.name)

    def problem_key(self, problem: Any) -> str | None:
        """The problem id a client's `problem` names (None: a seeded random choice); RequestError otherwise.
        Clients name problems by number or id, never by path."""
        if problem is None:
            problem = self.problem
        if problem == RANDOM:
            return None
        if isinstance(problem, str) and (len(problem) > 200 or re.search(r"[/\\~\x00]", problem)):
            raise RequestError(f"bad problem: a path or an overlong name; give a problem number, an id or {RANDOM!r}")
        if isinstance(problem, bool) or not isinstance(problem, int | str):
            raise RequestError(f"bad problem {str(problem)[:80]!r}: give a problem number, an id or {RANDOM!r}")
        try:
            return self.dataset.entry(problem).id
        except ApbError:
            numbers = self.dataset.numbers()
            raise RequestError(f"unknown problem {problem!r} in {self.name!r}: give a number "
                               f"{min(numbers)}-{max(numbers)}, an id ({self.dataset.listed_ids()}) or {RANDOM!r}"
                               ) from None

    def reset(self, seed: int | None = None, episode_id: str | None = None, problem: int | str | None = None,
              **kwargs: Any) -> ApbObservation:
        self._check_open()
        if kwargs:
            raise RequestError(f"unknown reset field(s): {', '.join(sorted(map(str, kwargs)))[:200]}; a reset "
                               "takes problem, seed and episode_id")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise RequestError(f"bad seed {str(seed)[:40]!r}: a whole number, 0 or more")
        chosen = self.problem_key(problem)
        try:
            text = self.game.reset(problem=chosen, seed=seed)
        except ApbError as error:
            raise RequestError(without_paths(str(error))) from None
        info = self.game.info
        self._state = ApbState(episode_id=episode_id or uuid.uuid4().hex, step_count=0, domain=self.name,
                               problem_id=self.game.problem_id, optimal_length=info.get("optimal_plan_length"))
        return ApbObservation(text=text, instructions=self.game.system_prompt, problem_id=self.game.problem_id,
                              admissible_actions=list(info.get("admissible_actions") or ()), reward=0.0,
                              done=False)

    def _check_open(self) -> None:
        if self.closed:
            raise RequestError("this session was closed (idle longer than the server's timeout, or the server is "
                               "stopping): open a new one")

    def step(self, action: ApbAction, timeout_s: float | None = None, **kwargs: Any) -> ApbObservation:
        self._check_open()
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
        return EnvironmentMetadata(name=f"apb-{self.name}", description=f"apb's {self.name} PDDL domain as a text game")

    def close(self) -> None:
        self.closed = True
        self.game.close()


class _Server(HTTPEnvServer):
    """OpenEnv's server with a message that says what to do when every session is taken."""

    async def _create_session(self):
        try:
            return await super()._create_session()
        except SessionCapacityError as full:
            timeout = self.concurrency_config.session_timeout
            idle = f"; idle sessions close after {timeout:g} s" if timeout else ""
            raise SessionCapacityError(full.active_sessions, full.max_sessions, message=(
                f"the server is full: {full.active_sessions} of {full.max_sessions} sessions are open{idle}; close "
                "yours when done, retry later, or start the server with a larger --max-sessions")) from None


class BodyLimit:
    """ASGI middleware: an HTTP request whose body is over `limit` bytes gets 413 at once, before its body is read
    (its Content-Length says so), or as soon as the bytes read pass the limit (a chunked body)."""

    def __init__(self, app, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "websocket":
            with contextlib.suppress(WebSocketDisconnect):  # OpenEnv closing a socket its client closed first
                await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if (length.strip().isdigit() and int(length) > self.limit) or (length and not length.strip().isdigit()):
            await self._refuse(send, "a body with a bad Content-Length" if not length.strip().isdigit() else None)
            return
        seen = 0
        started = False

        async def limited_receive():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send, what: str | None = None) -> None:
        body = json.dumps({"detail": f"{what or 'the request body is too large'}: at most {self.limit} bytes (an "
                                     "action is one line of text; the server's --max-body sets the limit)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


def create_app(domain: str = "blocksworld", *, max_sessions: int = MAX_SESSIONS,
               idle_timeout: float | None = IDLE_TIMEOUT, max_body: int = MAX_BODY, **options: Any):
    """OpenEnv's FastAPI app for a domain (routes /health, /reset, /step, /state, /schema, /ws) behind the body
    limit; `options` go to ApbEnvironment (problem, split, description, translator, max_steps, hints). The domain,
    the options and the default problem are checked here, before serving."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    if max_sessions < 1 or max_body < 1 or (idle_timeout is not None and not idle_timeout > 0):
        raise ApbError(f"bad server limits: max_sessions {max_sessions} and max_body {max_body} must be at least 1, "
                       f"idle_timeout {idle_timeout} positive (or None)")
    probe = ApbEnvironment(domain, **options)  # a bad domain or option fails now, not at the first request
    try:
        probe.reset()  # and so does a bad default problem
    finally:
        probe.close()
    app = FastAPI(title=f"apb {probe.name} (OpenEnv)", description="apb's text game as an OpenEnv environment")
    server = _Server(lambda: ApbEnvironment(domain, **options), ApbAction, ApbObservation,
                     concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions,
                                                          session_timeout=idle_timeout))
    server.register_routes(app)

    @app.exception_handler(RequestError)
    async def refused(request, error: RequestError):  # an unknown problem or bad field: 400, never a bare 500
        return JSONResponse(status_code=400, content={"detail": without_paths(str(error))})

    app.add_middleware(BodyLimit, limit=max_body)
    app.state.max_body = max_body
    return app


def serve(domain: str = "blocksworld", *, host: str = "127.0.0.1", port: int = 8000, **options: Any) -> None:
    """Runs the server until interrupted (uvicorn, installed with openenv-core); `options` as `create_app`'s."""
    serve_app(create_app(domain, **options), host=host, port=port)


def serve_app(app, *, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Runs an app of `create_app` until interrupted; WebSocket messages get the app's body limit too."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=app.state.max_body)


class ApbEnvClient(EnvClient[ApbAction, ApbObservation, ApbState]):
    """OpenEnv's WebSocket client for an apb server: `reset(problem=...)`, `step(ApbAction(text=...))`, `state()`."""

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        """OpenEnv's, except that a server that turned this session away (full) is an error with its message, not a
        bare closed connection: the server's message waits in the socket's queue."""
        from websockets.exceptions import ConnectionClosed

        try:
            return await super()._send_and_receive(message)
        except ConnectionClosed:
            told = None
            with contextlib.suppress(Exception):
                told = json.loads(await asyncio.wait_for(self._ws.recv(), timeout=1.0))
            if isinstance(told, dict) and told.get("type") == "error":
                raise RuntimeError(f"Server error: {(told.get('data') or {}).get('message')}") from None
            raise

    def _step_payload(self, action: ApbAction) -> dict[str, Any]:
        return action.model_dump(exclude={"metadata"})

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[ApbObservation]:
        fields = dict(payload.get("observation") or {})
        observation = ApbObservation(**fields, reward=payload.get("reward"), done=bool(payload.get("done")))
        return StepResult(observation=observation, reward=payload.get("reward"), done=bool(payload.get("done")))

    def _parse_state(self, payload: dict[str, Any]) -> ApbState:
        return ApbState(**payload)


__all__ = ["ApbAction", "ApbEnvClient", "ApbEnvironment", "ApbObservation", "ApbState", "RequestError", "create_app",
           "serve", "serve_app"]

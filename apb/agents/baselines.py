"""Symbolic baselines: a random walk over admissible actions, a planner that solves the task's PDDL and executes the
plan, and an oracle that replays the gold plan. None of them calls an LLM.

They see the environment only through the documented `info` keys: `admissible_actions` (random),
`domain_pddl` and `problem_pddl` (planner), `gold_plan` (oracle), plus `goal_reached` and `action_valid` of a
step's info. In an env with `require_finish`, the plan followers send `(finish)` once after their plan, and the
random agent sends it as soon as a step reports the goal reached.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence

from apb.agents.base import FINISH, AgentError, BaseAgent, StopEpisode
from apb.domains.paper import AUTOPLANBENCH_STEP_LIMIT
from apb.engine.errors import ApbError

PLANNER_AGENTS = ("bfs", "astar", "gbfs", "fd-opt", "fd-sat")


def episode_seed(seed: int, problem_id: object) -> int:
    """A seed for one episode, stable across processes and Python versions (no salted `hash`)."""
    return zlib.crc32(f"{seed}:{problem_id}".encode())


class RandomAgent(BaseAgent):
    """A uniformly random admissible action each step: AutoPlanBench's `rnd` baseline (24 steps unless a run asks
    for another limit). With a `seed`, each episode's choices depend only on (seed, problem id), so runs are
    reproducible."""

    name = "random"

    @classmethod
    def default_step_limit(cls, dataset_limit: int) -> int:
        return AUTOPLANBENCH_STEP_LIMIT  # the paper's rnd setting, whatever the dataset

    def __init__(self, *, seed: int | None = None, on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(seed=seed, on_event=on_event)
        self.rng = random.Random(seed)

    def reset(self, observation: str, info: dict) -> None:
        if self.seed is not None:
            self.rng = random.Random(episode_seed(self.seed, info.get("problem_id")))

    def act(self, observation: str, info: dict) -> str:
        if info.get("goal_reached"):  # only reachable in require_finish envs: declare it
            return FINISH
        actions = list(info.get("admissible_actions") or ())
        if not actions:
            raise StopEpisode("dead end")
        return self.rng.choice(actions)


class _PlanFollower(BaseAgent):
    """Executes a fixed list of PDDL actions, then `(finish)` once, then stops ("plan exhausted")."""

    deterministic = True

    def __init__(self, *, seed: int | None = None, on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(seed=seed, on_event=on_event)
        self._plan: list[str] = []
        self._next = 0
        self._finished = False
        self._sent: str | None = None

    def _start(self, plan: Sequence[str]) -> None:
        self._plan = [str(a) for a in plan]
        self._next = 0
        self._finished = False
        self._sent = None

    def act(self, observation: str, info: dict) -> str:
        if self._sent is not None and info.get("action_valid") is False:
            failure = info.get("failure") or {}
            raise StopEpisode(f"the env rejected {self._sent}: {failure.get('text') or observation}")
        if self._next < len(self._plan):
            self._sent = self._plan[self._next]
            self._next += 1
            return self._sent
        if not self._finished:
            self._finished = True
            self._sent = FINISH
            return FINISH
        raise StopEpisode("plan exhausted")


class PlannerAgent(_PlanFollower):
    """Solves the task from `info["domain_pddl"]` and `info["problem_pddl"]` at reset with one of apb's planners
    (bfs, astar, gbfs, or Fast Downward's fd-opt / fd-sat), then executes the plan open loop."""

    def __init__(self, planner: str = "astar", *, timeout: float | None = 60.0, max_nodes: int | None = None,
                 seed: int | None = None, on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(seed=seed, on_event=on_event)
        self.planner = str(planner).lower()
        if self.planner not in PLANNER_AGENTS:
            raise AgentError(f"unknown planner {planner!r}: choose one of {', '.join(PLANNER_AGENTS)}")
        self.name = self.planner
        self.timeout = timeout
        self.max_nodes = max_nodes

    def reset(self, observation: str, info: dict) -> None:
        from apb.engine import load_task
        from apb.planners import solve

        self._start([])
        domain, problem = info.get("domain_pddl"), info.get("problem_pddl")
        if not domain or not problem:
            raise StopEpisode("the env gives no domain_pddl / problem_pddl to plan on")
        try:
            task = load_task(domain, problem)
        except ApbError as err:
            raise StopEpisode(f"cannot load the task: {err}") from err
        kwargs = {"max_nodes": self.max_nodes} if self.max_nodes is not None else {}
        try:
            result = solve(task, self.planner, timeout=self.timeout, **kwargs)
        except ApbError as err:  # e.g. Fast Downward not installed, or a budget this planner does not take
            self.emit({"type": "planner", "planner": self.planner, "status": "error", "plan_length": None,
                       "expanded": 0, "seconds": 0.0, "message": str(err)})
            raise StopEpisode(f"{self.planner}: error: {err}") from err
        self.emit({"type": "planner", "planner": self.planner, "status": result.status,
                   "plan_length": result.plan_length, "expanded": result.expanded,
                   "seconds": round(result.seconds, 6), "message": result.message})
        if not result.solved:
            detail = f": {result.message}" if result.message else ""
            raise StopEpisode(f"{self.planner}: {result.status}{detail}")
        self._start(result.plan_strings() or [])


class OracleAgent(_PlanFollower):
    """Replays the env's gold plan (`info["gold_plan"]`): an upper bound, and a check of the env and its plans."""

    name = "oracle"

    def reset(self, observation: str, info: dict) -> None:
        plan = info.get("gold_plan")
        if plan is None:
            self._start([])
            raise StopEpisode("no gold plan")
        self._start(plan)

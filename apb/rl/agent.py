"""The trained GNN policy as an apb agent (`apb eval --agents gnn:checkpoint=DIR` or `=FILE`, a knowledge file of
the gnn learner; an unfinished one is used with a one-line warning): closed loop, one action per
step from the current state (`info["state_pddl"]`) of the task in `info["domain_pddl"]` / `info["problem_pddl"]`."""

from __future__ import annotations

from collections.abc import Callable

from apb.agents.base import FINISH, AgentError, BaseAgent, StopEpisode
from apb.engine import load_task
from apb.engine.errors import ApbError


class GNNPolicyAgent(BaseAgent):
    """Acts with a policy trained by `apb rl train` (the `checkpoint` folder or knowledge file); deterministic."""

    name = "gnn"
    deterministic = True
    options = ("checkpoint",)

    def __init__(self, checkpoint: str | None = None, *, seed: int | None = None,
                 on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(seed=seed, on_event=on_event)
        if not checkpoint:
            raise AgentError("the gnn agent needs a trained policy: gnn:checkpoint=DIR (from apb rl train)")
        from apb.rl.policy import GNNPolicy

        self.policy = GNNPolicy.load(checkpoint)
        self._task = None
        self._visited: set[int] = set()

    def reset(self, observation: str, info: dict) -> None:
        domain, problem = info.get("domain_pddl"), info.get("problem_pddl")
        if not domain or not problem:
            raise StopEpisode("the env gives no domain_pddl / problem_pddl for the policy")
        try:
            self._task = load_task(domain, problem)
        except ApbError as err:
            raise StopEpisode(f"cannot load the task: {err}") from err
        if self._task.domain.name != self.policy.vocabulary.domain.name:
            raise StopEpisode(f"the policy was trained on {self.policy.domain}, not on {self._task.domain.name}")
        self._visited = set()

    def act(self, observation: str, info: dict) -> str:
        if info.get("goal_reached"):
            return FINISH
        state = self._task.state_from_facts(info.get("state_pddl") or ())
        self._visited.add(state.bits)
        index = self.policy.choose(self._task, state.bits, self._visited)
        if index is None:
            raise StopEpisode("dead end")
        action = self._task.actions[index]
        self.emit({"type": "policy", "action": str(action)})
        return str(action)

"""Agent names (as on the command line) -> agent classes, and `make_agent` to build one by name."""

from __future__ import annotations

import importlib
from typing import Any

from apb.agents.base import AgentError

# name -> (module, class, fixed keyword arguments)
AGENTS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "basic": ("apb.agents.plan", "BasicAgent", {}),
    "cot": ("apb.agents.plan", "CoTAgent", {}),
    "act": ("apb.agents.act", "ActAgent", {}),
    "react": ("apb.agents.act", "ReActAgent", {}),
    "closed-loop": ("apb.agents.closed_loop", "ClosedLoopAgent", {}),
    "open-loop": ("apb.agents.open_loop", "OpenLoopGroundingAgent", {}),
    "basic-pddl": ("apb.agents.plan", "BasicPDDLAgent", {}),
    "act-pddl": ("apb.agents.act", "ActPDDLAgent", {}),
    "random": ("apb.agents.baselines", "RandomAgent", {}),
    "bfs": ("apb.agents.baselines", "PlannerAgent", {"planner": "bfs"}),
    "astar": ("apb.agents.baselines", "PlannerAgent", {"planner": "astar"}),
    "gbfs": ("apb.agents.baselines", "PlannerAgent", {"planner": "gbfs"}),
    "fd-opt": ("apb.agents.baselines", "PlannerAgent", {"planner": "fd-opt"}),
    "fd-sat": ("apb.agents.baselines", "PlannerAgent", {"planner": "fd-sat"}),
    "oracle": ("apb.agents.baselines", "OracleAgent", {}),
    "llm+p": ("apb.agents.llm_plus_p", "LLMPlusPAgent", {}),
    "human": ("apb.agents.human", "HumanAgent", {}),
}
# Agents whose prompts carry PDDL: their envs use description="pddl".
PDDL_AGENTS = ("basic-pddl", "act-pddl")


def agent_class(name: str) -> type:
    entry = AGENTS.get(name)
    if entry is None:
        raise AgentError(f"unknown agent {name!r}: use one of {', '.join(AGENTS)}")
    module, cls, _ = entry
    return getattr(importlib.import_module(module), cls)


def make_agent(name: str, **kwargs: Any):
    """An agent by its CLI name; kwargs go to its constructor (llm=, translator=, example=, horizon=, seed=, ...)."""
    cls = agent_class(name)
    return cls(**{**AGENTS[name][2], **kwargs})

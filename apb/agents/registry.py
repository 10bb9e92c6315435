"""Agent names (as on the command line) -> agent classes, and `make_agent` to build one by name. A name may carry
constructor options: `closed-loop:horizon=5` (so one experiment can hold the same agent with different settings)."""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

from apb.agents.base import AgentError

# name -> (module, class, fixed keyword arguments)
AGENTS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "basic": ("apb.agents.plan_generation", "BasicAgent", {}),
    "cot": ("apb.agents.plan_generation", "CoTAgent", {}),
    "act": ("apb.agents.act", "ActAgent", {}),
    "react": ("apb.agents.act", "ReActAgent", {}),
    "closed-loop": ("apb.agents.closed_loop", "ClosedLoopAgent", {}),
    "open-loop": ("apb.agents.open_loop", "OpenLoopGroundingAgent", {}),
    "basic-pddl": ("apb.agents.plan_generation", "BasicPDDLAgent", {}),
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
    "gnn": ("apb.rl.agent", "GNNPolicyAgent", {}),  # a policy from apb rl train (the rl extra): gnn:checkpoint=DIR
}


def agent_spec(name: str) -> tuple[str, dict[str, Any]]:
    """An agent name with options, as one experiment entry: 'closed-loop:horizon=5' -> ('closed-loop',
    {'horizon': 5}); values are YAML scalars (5, true, text; none or all is None: `horizon=all` runs whole plans);
    a plain name has no options."""
    import yaml

    base, _, rest = str(name).partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise AgentError(f"bad agent {name!r}: write options as name:key=value,key=value "
                             "(e.g. closed-loop:horizon=5)")
        value = value.strip()
        options[key.strip().replace("-", "_")] = None if value.lower() in ("", "none", "all") else yaml.safe_load(value)
    return base.strip(), options


def agent_class(name: str) -> type:
    base, options = agent_spec(name)
    entry = AGENTS.get(base)
    if entry is None:
        raise AgentError(f"unknown agent {name!r}: use one of {', '.join(AGENTS)}")
    module, cls_name, _ = entry
    cls = getattr(importlib.import_module(module), cls_name)
    unknown = [k for k in options if k not in getattr(cls, "options", ())]
    if unknown:
        raise AgentError(f"agent {name!r}: {base} takes no option {unknown[0]!r} (its options: "
                         f"{', '.join(getattr(cls, 'options', ())) or 'none'})")
    check_option_values(cls, options, f"agent {name!r}")
    return cls


_KINDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "text", "None": "all/none"}


def check_option_values(cls: type, options: dict[str, Any], where: str) -> None:
    """AgentError when an option's value is not of the type the agent's constructor declares (`horizon=abc` for an
    `int | None`), so a bad value is refused before a run instead of failing every episode."""
    parameters = inspect.signature(cls.__init__).parameters
    for key, value in options.items():
        param = parameters.get(key)
        if param is None:
            continue
        annotation = param.annotation if isinstance(param.annotation, str) else \
            getattr(param.annotation, "__name__", "")
        kinds = set(re.findall(r"\b(int|float|bool|str|None)\b", annotation or ""))
        if not kinds:
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        fits = (value is None and "None" in kinds) or (isinstance(value, bool) and "bool" in kinds) or \
            (number and isinstance(value, int) and "int" in kinds) or (number and "float" in kinds) or \
            (isinstance(value, str) and "str" in kinds)
        if not fits:
            wanted = " or ".join(_KINDS[k] for k in ("int", "float", "bool", "str", "None") if k in kinds)
            raise AgentError(f"{where}: option {key} must be {wanted}, got {value!r}")


def needs_llm(name: str) -> bool:
    """Whether the agent calls an LLM (its class says so)."""
    return bool(agent_class(name).needs_llm)


def is_deterministic(name: str) -> bool:
    """Whether the agent's episodes do not depend on the seed (deterministic planners, the oracle)."""
    return bool(agent_class(name).deterministic)


def agent_view(name: str) -> str:
    """The env view the agent reads: "nl" or "pddl" (the env's description)."""
    return str(agent_class(name).view)


def make_agent(name: str, **kwargs: Any):
    """An agent by its CLI name; kwargs go to its constructor (llm=, translator=, example=, horizon=, seed=, ...)."""
    cls = agent_class(name)
    base, options = agent_spec(name)
    return cls(**{**AGENTS[base][2], **options, **kwargs})

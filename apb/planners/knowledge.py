"""Planning with learned domain knowledge: a knowledge file (written by `apb rl train`) turned into a heuristic and
searched with apb.planners.learned_search. `knowledge_kind(path)` says which learner wrote a file; this layer plans
with the Weisfeiler-Leman model (kind "wl"); other kinds are planned by the layer that owns their model.
"""

from __future__ import annotations

import os

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.learned_search import FALLBACKS, learned_gbfs
from apb.planners.result import SearchResult
from apb.planners.wl_model import KIND as WL_KIND
from apb.planners.wl_model import WLModel, read_knowledge

DEFAULT_FALLBACK = "none"


def knowledge_kind(path: str | os.PathLike) -> str:
    """The learner that wrote a knowledge file (its `kind`); ApbError for a file that is not one."""
    data = read_knowledge(path)
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str):
        raise ApbError(f"{path}: not a knowledge file of apb rl train (it has no kind)")
    return kind


def solve_with_knowledge(task: Task, path: str | os.PathLike, *, timeout: float | None = 60.0,
                         max_nodes: int | None = None, fallback: str = DEFAULT_FALLBACK,
                         cpu_time: bool = False) -> SearchResult:
    """Greedy best-first search guided by the knowledge file's heuristic (a WL model); the plan is validated.
    `cpu_time` makes `timeout` a limit of CPU time."""
    if fallback not in FALLBACKS:
        raise ApbError(f"unknown fallback {fallback!r}: choose one of {', '.join(FALLBACKS)}")
    kind = knowledge_kind(path)
    if kind != WL_KIND:
        raise ApbError(f"{path}: knowledge of kind {kind!r} is planned with apb rl plan, not here "
                       f"(apb solve plans with kind {WL_KIND!r})")
    model = WLModel.load(path)
    return learned_gbfs(task, model.heuristic(task), timeout=timeout, max_nodes=max_nodes, fallback=fallback,
                        name=f"{WL_KIND}-gbfs" + ("" if fallback == "none" else f"+{fallback}"), cpu_time=cpu_time)

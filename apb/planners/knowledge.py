"""Planning with learned domain knowledge: a knowledge file of any learner (apb.planners.knowledge_files: what
`apb rl train` writes) turned into a heuristic, then greedy policy execution with backtracking
(apb.planners.learned_policy; the default for gnn knowledge) or greedy best-first search (apb.planners.learned_search;
the default for wl knowledge). `apb solve --planner learned` and `apb rl plan` both plan through here.
"""

from __future__ import annotations

import os
import time
import warnings

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.knowledge_files import KnowledgeWarning, load_knowledge, unfinished_line
from apb.planners.learned_policy import greedy_policy
from apb.planners.learned_search import FALLBACKS, HELPFUL, learned_gbfs
from apb.planners.plan_improvement import improve_plan
from apb.planners.plan_reduction import plan_cost, reduce_plan
from apb.planners.result import SOLVED, SearchResult

DEFAULT_FALLBACK = "none"
DEFAULT_HELPFUL = "ff"  # greedy best-first search's preferred operators (measured in docs/learning.md)
DEFAULT_IMPROVE = 1.0  # after the first plan: this many times the first search's time improving it ...
IMPROVE_MIN_SECONDS = 1.0  # ... and at least this long (both within the time limit)
SEARCHES = ("policy", "gbfs")
DEFAULT_SEARCH = {"gnn": "policy"}  # a learner's default search; "gbfs" for the others


def solve_with_knowledge(task: Task, path: str | os.PathLike, *, timeout: float | None = 60.0,
                         max_nodes: int | None = None, search: str | None = None, fallback: str = DEFAULT_FALLBACK,
                         cpu_time: bool = False, reduce: bool = True, helpful: str = DEFAULT_HELPFUL,
                         improve: float = DEFAULT_IMPROVE) -> SearchResult:
    """Plans `task` with a knowledge file of any learner: greedy policy execution with backtracking
    (`search="policy"`) or greedy best-first search (`"gbfs"`, alternating with h_FF when `fallback="ff"`); `None`
    picks the learner's default (DEFAULT_SEARCH). `helpful="ff"` (the default) gives greedy best-first search FF's
    helpful actions as preferred operators and prunes the dead ends its relaxed plan proves. `max_nodes` bounds the
    expansions (the policy's steps), `cpu_time` makes `timeout` a limit of CPU time. An unfinished knowledge file
    warns (KnowledgeWarning, one line).

    After the first plan (its cost in `extra["found_cost"]`), within the time limit: with `improve` > 0, restarting
    weighted A* with the same heuristic looks for a cheaper plan (apb.planners.plan_improvement) for `improve` times
    the first search's time, at least IMPROVE_MIN_SECONDS; with `reduce`, the plan is shortened by the engine's
    semantics (apb.planners.plan_reduction: cycles, one-action shortcuts, merged pairs, action elimination) for as
    long again. A plan is taken only when it is cheaper and the engine validates it; the search's own plan is
    validated too."""
    if fallback not in FALLBACKS:
        raise ApbError(f"unknown fallback {fallback!r}: choose one of {', '.join(FALLBACKS)}")
    if helpful not in HELPFUL:
        raise ApbError(f"unknown helpful-action source {helpful!r}: choose one of {', '.join(HELPFUL)}")
    if search is not None and search not in SEARCHES:
        raise ApbError(f"unknown search {search!r}: choose one of {', '.join(SEARCHES)}")
    knowledge = load_knowledge(path, warn=False)
    if not knowledge.finished:
        warnings.warn(unfinished_line(knowledge), KnowledgeWarning, stacklevel=2)
    clock = time.process_time if cpu_time else time.perf_counter
    deadline = None if timeout is None else clock() + timeout
    h = knowledge.heuristic(task)
    search = search or DEFAULT_SEARCH.get(knowledge.learner, "gbfs")
    if search == "policy":
        if fallback != "none":
            raise ApbError("the greedy policy takes no fallback heuristic (it applies to --search gbfs)")
        result = greedy_policy(task, h, timeout=timeout, max_steps=max_nodes, cpu_time=cpu_time)
        result.planner = f"{knowledge.learner}-policy"
    else:
        result = learned_gbfs(task, h, timeout=timeout, max_nodes=max_nodes, fallback=fallback, cpu_time=cpu_time,
                              helpful=helpful,
                              name=f"{knowledge.learner}-gbfs" + ("" if fallback == "none" else f"+{fallback}"))
    if result.status != SOLVED or not result.plan:
        return result
    found = plan_cost(task, result.plan)
    result.extra["found_cost"] = found
    window = max(IMPROVE_MIN_SECONDS, improve * result.seconds)  # each pass's share of CPU time

    def stop_after(seconds: float):
        until = clock() + seconds if deadline is None else min(clock() + seconds, deadline)
        return lambda: clock() >= until
    if improve > 0:
        _adopt(task, result, improve_plan(task, h, result.plan, stop_after(window)))
    if reduce:
        _adopt(task, result, reduce_plan(task, result.plan, stop_after(window)))
    return result


def _adopt(task: Task, result: SearchResult, plan: list) -> None:
    """Takes `plan` for `result` when it is cheaper and the engine validates it."""
    if plan_cost(task, plan) < plan_cost(task, result.plan) and task.validate(plan).valid:
        result.plan = plan

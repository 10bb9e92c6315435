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
from apb.planners.learned_search import FALLBACKS, learned_gbfs
from apb.planners.plan_reduction import plan_cost, reduce_plan
from apb.planners.result import SOLVED, SearchResult

DEFAULT_FALLBACK = "none"
SEARCHES = ("policy", "gbfs")
DEFAULT_SEARCH = {"gnn": "policy"}  # a learner's default search; "gbfs" for the others


def solve_with_knowledge(task: Task, path: str | os.PathLike, *, timeout: float | None = 60.0,
                         max_nodes: int | None = None, search: str | None = None, fallback: str = DEFAULT_FALLBACK,
                         cpu_time: bool = False, reduce: bool = True, helpful: str = "none") -> SearchResult:
    """Plans `task` with a knowledge file of any learner: greedy policy execution with backtracking
    (`search="policy"`) or greedy best-first search (`"gbfs"`, alternating with h_FF when `fallback="ff"`); `None`
    picks the learner's default (DEFAULT_SEARCH). `max_nodes` bounds the expansions (the policy's steps), `cpu_time`
    makes `timeout` a limit of CPU time. The plan is validated by the engine; an unfinished file warns
    (KnowledgeWarning, one line). With `reduce` (the default) the plan found is shortened within what is left of the
    time limit (apb.planners.plan_reduction: cycles, one-action shortcuts, action elimination) and validated again;
    `extra["found_cost"]` is the cost the search found."""
    if fallback not in FALLBACKS:
        raise ApbError(f"unknown fallback {fallback!r}: choose one of {', '.join(FALLBACKS)}")
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
    if reduce and result.status == SOLVED and result.plan:
        found = plan_cost(task, result.plan)
        shorter = reduce_plan(task, result.plan, lambda: deadline is not None and clock() >= deadline)
        if plan_cost(task, shorter) < found and task.validate(shorter).valid:
            result.plan = shorter
        result.extra["found_cost"] = found
    return result

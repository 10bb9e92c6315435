"""`solve(task, planner)`: one entry point over every planner, with uniform budgets and results."""

from __future__ import annotations

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.astar import astar
from apb.planners.bfs import breadth_first_search
from apb.planners.downward import fast_downward
from apb.planners.gbfs import greedy_best_first
from apb.planners.heuristics import Heuristic
from apb.planners.knowledge import solve_with_knowledge
from apb.planners.lazy_gbfs import lazy_greedy
from apb.planners.random_walk import random_walk
from apb.planners.result import SearchResult

PLANNERS = ("bfs", "astar", "ucs", "gbfs", "lazy-gbfs", "random", "fd-opt", "fd-sat", "learned")
HEURISTIC_PLANNERS = ("astar", "gbfs")  # planners that take a heuristic (all but blind use the relaxed task)
_TAKES_NODES = ("bfs", "astar", "ucs", "gbfs", "lazy-gbfs", "learned")


def solve(task: Task, planner: str = "astar", *, timeout: float | None = 60.0, max_nodes: int | None = None,
          max_steps: int | None = None, seed: int = 0, heuristic: str | Heuristic | None = None,
          preferred: bool = False, knowledge: str | None = None, search: str | None = None) -> SearchResult:
    """Runs one planner on `task` (see PLANNERS; `ucs` is uniform-cost search, optimal with action costs).
    `timeout` is in seconds, `max_nodes` bounds expansions, `max_steps` and `seed` drive the random walk,
    `heuristic` overrides the default of astar (lmcut) or gbfs (ff); `preferred` gives gbfs h_FF's preferred
    operators and a boosted dual queue (apb.planners.gbfs); `lazy-gbfs` is lazy greedy search with h_FF and preferred
    operators, as LAMA's first iteration without landmarks (apb.planners.lazy_gbfs: one relaxed plan per expansion,
    for tasks with many actions); `learned` plans with the `knowledge` file of apb rl train
    (any learner): `search` "policy" (greedy policy execution) or "gbfs" (apb.planners.knowledge).
    """
    name = str(planner).lower()
    if name not in PLANNERS:
        raise ApbError(f"unknown planner {planner!r}: choose one of {', '.join(PLANNERS)}")
    if heuristic is not None and name not in HEURISTIC_PLANNERS:
        raise ApbError(f"{name} takes no heuristic; heuristics apply to {' and '.join(HEURISTIC_PLANNERS)}")
    if max_nodes is not None and name not in _TAKES_NODES:
        raise ApbError(f"{name} has no expansion budget (max_nodes); it applies to {', '.join(_TAKES_NODES)}")
    if preferred and name != "gbfs":
        raise ApbError(f"{name} takes no preferred operators; they apply to gbfs")
    if max_steps is not None and name != "random":
        raise ApbError(f"{name} has no step limit (max_steps); it applies to the random walk")
    if (knowledge is not None) != (name == "learned"):
        raise ApbError("the learned planner needs a knowledge file (--knowledge, written by apb rl train), and only "
                       "it takes one")
    if search is not None and name != "learned":
        raise ApbError(f"{name} takes no search (--search); it applies to the learned planner")
    if name == "learned":
        return solve_with_knowledge(task, knowledge, timeout=timeout, max_nodes=max_nodes, search=search)
    if name == "bfs":
        return breadth_first_search(task, timeout=timeout, max_nodes=max_nodes)
    if name == "astar":
        return astar(task, heuristic=heuristic or "lmcut", timeout=timeout, max_nodes=max_nodes)
    if name == "ucs":  # uniform-cost search: A* with the blind heuristic, optimal with respect to action costs
        result = astar(task, heuristic="blind", timeout=timeout, max_nodes=max_nodes)
        result.planner = "ucs"
        return result
    if name == "gbfs":
        return greedy_best_first(task, heuristic=heuristic or "ff", timeout=timeout, max_nodes=max_nodes,
                                 preferred=preferred)
    if name == "lazy-gbfs":
        return lazy_greedy(task, timeout=timeout, max_nodes=max_nodes)
    if name == "random":
        return random_walk(task, max_steps=max_steps, seed=seed, timeout=timeout)
    return fast_downward(task, "opt" if name == "fd-opt" else "sat", timeout=timeout)

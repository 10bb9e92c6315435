"""Greedy best-first search with h_FF: fast, non-optimal plans.

Eager evaluation: each new state is evaluated when generated and queued by h alone, ties first in first out.
Every state enters the queue at most once (no reopening); dead ends (h = inf) are pruned. The goal test happens
at generation, so the search stops as soon as a goal state appears.
"""

from __future__ import annotations

import heapq

from apb.engine import Task
from apb.planners.heuristics import INF, Heuristic, make_heuristic
from apb.planners.result import SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import SearchSpace, Successors, goal_test


def greedy_best_first(task: Task, *, heuristic: str | Heuristic = "ff", timeout: float | None = 60.0,
                      max_nodes: int | None = None) -> SearchResult:
    """Greedy best-first search guided by `heuristic` (default h_FF); complete on finite tasks."""
    budget = Budget(timeout, max_nodes)
    h_fn = make_heuristic(heuristic, task) if isinstance(heuristic, str) else heuristic
    successors = Successors(task)
    is_goal = goal_test(task)
    space = SearchSpace()
    ids = space.ids
    expanded = generated = evaluated = 0

    def finish(status: str, plan=None) -> SearchResult:
        message = "" if status == SOLVED else budget.limit_message(status) or "the goal is unreachable"
        return SearchResult(status, "gbfs", plan, expanded, generated, evaluated, budget.elapsed(), h_fn.name,
                            message)

    root_bits = task.initial_state.bits
    root = space.add(root_bits, 0, -1, -1)
    if is_goal(root_bits):
        return finish(SOLVED, [])
    h0 = h_fn(root_bits)
    evaluated += 1
    if h0 == INF:
        return finish(UNSOLVABLE)
    heap = [(h0, 0, root)]
    seq = 1
    while heap:
        stop = budget.exceeded(expanded)
        if stop:
            return finish(stop)
        _, _, node = heapq.heappop(heap)
        expanded += 1
        child_g = space.g[node] + 1
        for action, succ in successors(space.bits[node]):
            generated += 1
            if succ in ids:
                continue
            child = space.add(succ, child_g, node, action)
            if is_goal(succ):
                return finish(SOLVED, space.plan(child, task.actions))
            h = h_fn(succ)
            evaluated += 1
            if h == INF:
                continue
            heapq.heappush(heap, (h, seq, child))
            seq += 1
    return finish(UNSOLVABLE)

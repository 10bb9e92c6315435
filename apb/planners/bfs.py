"""Breadth-first search: shortest plans without a heuristic, for small tasks and as a check on A*."""

from __future__ import annotations

from apb.engine import Task
from apb.planners.result import SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import SearchSpace, Successors, expand, goal_test


def breadth_first_search(task: Task, *, timeout: float | None = 60.0, max_nodes: int | None = None) -> SearchResult:
    """Optimal for unit costs: the goal test happens when a state is generated, duplicates are dropped by bits."""
    budget = Budget(timeout, max_nodes)
    successors = Successors(task)
    is_goal = goal_test(task)
    space = SearchSpace()
    root = space.add(task.initial_state.bits, 0, -1, -1)
    expanded = generated = 0

    def finish(status: str, plan=None) -> SearchResult:
        message = "" if status == SOLVED else budget.limit_message(status) or "the goal is unreachable"
        return SearchResult(status, "bfs", plan, expanded, generated, 0, budget.elapsed(), None, message)

    if is_goal(space.bits[root]):
        return finish(SOLVED, [])
    frontier = [root]
    head = 0
    while head < len(frontier):
        stop = budget.exceeded(expanded)
        if stop:
            return finish(stop)
        node = frontier[head]
        head += 1
        expanded += 1
        fresh, goal, count = expand(space, successors, node, is_goal)
        generated += count
        if goal is not None:
            return finish(SOLVED, space.plan(goal, task.actions))
        frontier.extend(fresh)
    return finish(UNSOLVABLE)

"""Cheaper plans after the first one, with the same learned heuristic: restarting weighted A* (as LAMA's later
iterations do), each run bounded by the best plan so far.

`improve_plan(task, heuristic, plan, stop)` runs weighted A* with f = g + w * h for w in WEIGHTS, from the initial
state, keeping only states whose g is below the best cost found so far (a state reached again more cheaply is
reopened). A goal reached below the bound is the new plan; the next weight starts from it. `stop()` (a budget check)
ends it; what it returns is the best plan found, the given one when none is cheaper. The heuristic is the batched
learned one (`h(bits_list) -> values`): a state's new children are evaluated in one call and each state's value
is kept. The result is a valid plan: every step is a generated transition (the caller validates it again).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from apb.engine import GroundAction, Task
from apb.planners.plan_reduction import plan_cost
from apb.planners.space import Successors

WEIGHTS = (5.0, 3.0, 2.0, 1.0)
BatchHeuristic = Callable[[Sequence[int]], Sequence[float]]


def improve_plan(task: Task, heuristic: BatchHeuristic, plan: Sequence[GroundAction], stop: Callable[[], bool],
                 weights: Sequence[float] = WEIGHTS) -> list[GroundAction]:
    """The cheapest plan restarting weighted A* finds below the cost of `plan` before `stop()` (see the module
    docstring); `plan` itself when none is found."""
    best, bound = list(plan), plan_cost(task, plan)
    successors = Successors(task)
    actions = task.actions
    costs = [task.cost(a) for a in actions]
    is_goal = task.is_goal_bits
    values: dict[int, float] = {}
    for weight in weights:
        found = _weighted_astar(task.initial_state.bits, weight, bound, successors, costs, is_goal, heuristic, values,
                                stop)
        if found is None:
            if stop():
                break
            continue
        best, bound = [actions[i] for i in found], plan_cost(task, [actions[i] for i in found])
    return best


def _weighted_astar(root: int, weight: float, bound: float, successors: Successors, costs: list[float],
                    is_goal: Callable[[int], bool], heuristic: BatchHeuristic, values: dict[int, float],
                    stop: Callable[[], bool]) -> list[int] | None:
    """Action indices of a plan cheaper than `bound`, or None (bound proved for this weight's search, or stopped)."""
    if is_goal(root):
        return [] if bound > 0 else None
    g = {root: 0.0}
    parent: dict[int, tuple[int, int]] = {}
    if root not in values:
        values[root] = float(heuristic([root])[0])
    queue = [(weight * values[root], 0.0, 0, root)]
    seq = 0
    while queue:
        if stop():
            return None
        _, g_node, _, bits = heapq.heappop(queue)
        if g_node > g[bits]:
            continue  # a cheaper path to it was found after this entry
        fresh = []
        for index, child in successors(bits):
            g_child = g_node + costs[index]
            if g_child >= bound or g_child >= g.get(child, float("inf")):
                continue
            g[child] = g_child
            parent[child] = (bits, index)
            if is_goal(child):
                return _path(parent, child, root)
            fresh.append(child)
        unknown = [c for c in dict.fromkeys(fresh) if c not in values]
        if unknown:
            for child, value in zip(unknown, heuristic(unknown)):
                values[child] = float(value)
        for child in fresh:
            seq -= 1  # among equal f, the newest first
            heapq.heappush(queue, (g[child] + weight * values[child], g[child], seq, child))
    return None


def _path(parent: dict[int, tuple[int, int]], node: int, root: int) -> list[int]:
    steps = []
    while node != root:
        node, index = parent[node]
        steps.append(index)
    steps.reverse()
    return steps

"""Greedy best-first search with h_FF: fast, non-optimal plans.

Eager evaluation: each new state is evaluated when generated and queued by h alone, ties first in first out.
Every state enters the queue at most once (no reopening); dead ends (h = inf) are pruned. The goal test happens
at generation, so the search stops as soon as a goal state appears.

With `preferred=True` (h_FF only) the search also uses preferred operators, as Fast Downward's eager greedy search
with a boosted dual queue does: the actions of a state's relaxed plan are its preferred operators; a successor
reached by one enters a second queue as well; the search takes from the queue with the higher priority (each pop
costs 1) and gives the preferred queue 1000 more whenever h reaches a new low. The same states are searched (the
search stays complete on finite tasks), in a different order, which gets through the plateaus of h_FF that grid
domains such as Floor Tile have (robots' moves and paint that the goal does not need leave h unchanged).
"""

from __future__ import annotations

import heapq

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.heuristics import FF, INF, Heuristic, make_heuristic
from apb.planners.result import SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import SearchSpace, Successors, expand, goal_test

BOOST = 1000  # priority the preferred queue gains on progress (Fast Downward's default boost)
_NONE: frozenset[int] = frozenset()


def greedy_best_first(task: Task, *, heuristic: str | Heuristic = "ff", timeout: float | None = 60.0,
                      max_nodes: int | None = None, preferred: bool = False) -> SearchResult:
    """Greedy best-first search guided by `heuristic` (default h_FF); complete on finite tasks. `preferred` adds
    preferred operators and a boosted dual queue (see the module docstring; it needs h_FF)."""
    budget = Budget(timeout, max_nodes)
    h_fn = make_heuristic(heuristic, task) if isinstance(heuristic, str) else heuristic
    if preferred and not isinstance(h_fn, FF):
        raise ApbError(f"preferred operators come from h_FF's relaxed plan; heuristic {h_fn.name!r} has none")
    evaluate = h_fn.relaxed_plan if preferred else lambda bits: (h_fn(bits), _NONE)
    successors = Successors(task)
    is_goal = goal_test(task)
    space = SearchSpace()
    expanded = generated = evaluated = 0

    def finish(status: str, plan=None) -> SearchResult:
        message = "" if status == SOLVED else budget.limit_message(status) or "the goal is unreachable"
        return SearchResult(status, "gbfs", plan, expanded, generated, evaluated, budget.elapsed(), h_fn.name,
                            message, {"preferred": True} if preferred else {})

    root_bits = task.initial_state.bits
    root = space.add(root_bits, 0, -1, -1)
    if is_goal(root_bits):
        return finish(SOLVED, [])
    h0, helpful = evaluate(root_bits)
    evaluated += 1
    if h0 == INF:
        return finish(UNSOLVABLE)
    helpful_of = {root: helpful}  # a node's preferred operators, kept until it is expanded
    queues: tuple[list, list] = ([(h0, 0, root)], [(h0, 0, root)] if preferred else [])  # (all, preferred)
    priority = [0, 0]
    best, seq = h0, 1
    closed: set[int] = set()  # a state may wait in both queues: expand it once
    while queues[0] or queues[1]:
        stop = budget.exceeded(expanded)
        if stop:
            return finish(stop)
        which = 1 if queues[1] and (priority[1] >= priority[0] or not queues[0]) else 0
        _, _, node = heapq.heappop(queues[which])
        priority[which] -= 1
        if node in closed:
            continue
        closed.add(node)
        expanded += 1
        helpful = helpful_of.pop(node)
        fresh, goal, count = expand(space, successors, node, is_goal)
        generated += count
        if goal is not None:
            return finish(SOLVED, space.plan(goal, task.actions))
        for child in fresh:
            succ, action = space.bits[child], space.action[child]
            h, helpful_of[child] = evaluate(succ)
            evaluated += 1
            if h == INF:
                del helpful_of[child]
                continue
            heapq.heappush(queues[0], (h, seq, child))
            if action in helpful:
                heapq.heappush(queues[1], (h, seq, child))
            seq += 1
            if h < best:
                best = h
                priority[1] += BOOST
    return finish(UNSOLVABLE)

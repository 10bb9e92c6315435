"""Lazy greedy best-first search with h_FF and preferred operators, as LAMA's first iteration searches: for tasks
whose branching makes eager evaluation (one heuristic call per generated state) too costly.

A state is evaluated when it is taken from a queue, not when generated: its successors enter the queues with the
parent's h, ordered by h, then preferred successors first, then first in first out. h and the preferred operators
come from FF's relaxed planning graph in numpy (apb.planners.relaxed_layers), one relaxed plan per expanded state.
Two queues as in Fast Downward's `lazy_greedy([ff], preferred=[ff], boost=1000)`: every successor enters the first,
the successors reached by a preferred operator the second as well; the queue with the higher priority is taken
(each pop costs 1) and the preferred queue gains 1000 whenever h reaches a new low. A state is expanded at most
once; dead ends (no relaxed plan) are pruned when evaluated, and so is every state where a fact of `avoid` (a
bitmask) holds: the plan found then never makes one true (a landmark's disproof). The budget counts expansions
(`max_nodes`), so the result does not depend on the machine's speed; the plan is validated by the engine.
"""

from __future__ import annotations

import heapq

from apb.engine import Task
from apb.planners.gbfs import BOOST
from apb.planners.relaxed import INF
from apb.planners.relaxed_layers import RelaxedLayers
from apb.planners.result import ERROR, SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import Successors, goal_test


def lazy_greedy(task: Task, *, timeout: float | None = 60.0, max_nodes: int | None = None, avoid: int = 0
                ) -> SearchResult:
    """Lazy GBFS with h_FF and preferred operators (see the module docstring); complete on finite tasks. With
    `avoid`, only states where none of its facts holds are searched (UNSOLVABLE: no plan avoids them)."""
    budget = Budget(timeout, max_nodes)
    relaxed = RelaxedLayers(task)
    successors = Successors(task)
    is_goal = goal_test(task)
    parent: dict[int, tuple[int, int]] = {}  # state bits -> (parent bits, action index) of its first entry
    closed: set[int] = set()
    expanded = generated = evaluated = 0

    def finish(status: str, goal: int | None = None) -> SearchResult:
        plan = None
        message = ""
        if status == SOLVED:
            steps, bits = [], goal
            while bits in parent:
                bits, action = parent[bits]
                steps.append(task.actions[action])
            plan = steps[::-1]
            check = task.validate(plan)
            if not check.valid:  # never return a plan the engine does not accept
                status, plan, message = ERROR, None, f"the plan found is not valid: {check.reason}"
        message = message or ("" if status == SOLVED else budget.limit_message(status) or "the goal is unreachable")
        return SearchResult(status, "lazy-gbfs", plan, expanded, generated, evaluated, budget.elapsed(), "ff",
                            message, {"preferred": True, "lazy": True})

    root = task.initial_state.bits
    if root & avoid:
        return finish(UNSOLVABLE)
    # queue entries: (h of the parent, 0 if reached by a preferred operator else 1, order, parent bits, action,
    # state bits)
    queues: tuple[list, list] = ([(0, 0, 0, -1, -1, root)], [])
    priority = [0, 0]
    best, seq = INF, 1
    while queues[0] or queues[1]:
        stop = budget.exceeded(expanded)
        if stop:
            return finish(stop)
        which = 1 if queues[1] and (priority[1] >= priority[0] or not queues[0]) else 0
        _, _, _, from_bits, action, bits = heapq.heappop(queues[which])
        priority[which] -= 1
        if bits in closed:
            continue
        closed.add(bits)
        if from_bits >= 0:
            parent[bits] = (from_bits, action)
        if is_goal(bits):
            return finish(SOLVED, bits)
        h, helpful = relaxed.helpful(bits)
        evaluated += 1
        if h == INF:
            continue
        if h < best:
            if best != INF:
                priority[1] += BOOST
            best = h
        expanded += 1
        for index, succ in successors(bits):
            generated += 1
            if succ in closed or succ & avoid:
                continue
            preferred = index in helpful
            entry = (h, 0 if preferred else 1, seq, bits, index, succ)
            seq += 1
            heapq.heappush(queues[0], entry)
            if preferred:
                heapq.heappush(queues[1], entry)
    return finish(UNSOLVABLE)

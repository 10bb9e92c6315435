"""Greedy best-first search guided by a learned, batched heuristic (`h(bits_list)` -> one value per state): the
planner of the learned domain knowledge (apb.planners.wl_model, or any object with that call).

Eager evaluation in batches: when a state is expanded its new children are evaluated together (one call), so a
model that pays per call (numpy, a GNN) pays once per expansion. The queue orders by h, ties broken towards the
newest state (depth first on plateaus, which a regression model has on states it cannot tell apart). Every state
enters the queue once; the goal test is at generation.

With `helpful="ff"` (preferred operators, as Fast Downward's `alt([h, pref_only(h)], boost=1000)` uses them): the
actions of the relaxed plan (apb.planners.relaxed_layers: FF's relaxed planning graph) of an expanded state that
apply in it are its helpful actions; their children go to a
second queue as well, ordered by the same learned heuristic; the queues are taken in turn, and the preferred one
gets 1000 turns of priority each time the best learned value so far improves. h_FF is computed once per expanded
state (not per child), so it costs one relaxed plan per expansion; a state it proves a dead end (no relaxed plan) is
not expanded.

With `fallback="ff"` the search alternates with h_FF as Fast Downward's alternation does (one queue per
heuristic, taken in turn; both queues are fed every state): the learned heuristic leads where it generalises and
h_FF keeps the search moving where it does not. The plan returned is validated by the engine.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence

from apb.engine import Task
from apb.planners.gbfs import BOOST
from apb.planners.heuristics import INF, make_heuristic
from apb.planners.relaxed_layers import RelaxedLayers
from apb.planners.result import ERROR, SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import SearchSpace, Successors, expand, goal_test

BatchHeuristic = Callable[[Sequence[int]], Sequence[float]]
FALLBACKS = ("none", "ff")
HELPFUL = ("none", "ff")


def learned_gbfs(task: Task, heuristic: BatchHeuristic, *, timeout: float | None = 60.0,
                 max_nodes: int | None = None, fallback: str = "none", name: str = "learned-gbfs",
                 cpu_time: bool = False, ties: str = "lifo", helpful: str = "none") -> SearchResult:
    """Greedy best-first search with a batched learned heuristic (see the module docstring); `cpu_time` makes
    `timeout` a limit of the process's CPU time."""
    budget = Budget(timeout, max_nodes, time.process_time if cpu_time else time.perf_counter)
    h_name = getattr(heuristic, "name", "learned")
    second = make_heuristic("ff", task) if fallback == "ff" else None
    relaxed = RelaxedLayers(task) if helpful == "ff" else None
    successors = Successors(task)
    is_goal = goal_test(task)
    space = SearchSpace()
    expanded = generated = evaluated = dead_ends = 0

    def finish(status: str, plan=None, message: str = "") -> SearchResult:
        if status == SOLVED:
            check = task.validate(plan)
            if not check.valid:  # never return a plan the engine does not accept
                status, plan, message = ERROR, None, f"the plan found is not valid: {check.reason}"
        message = message or ("" if status == SOLVED else budget.limit_message(status) or "the goal is unreachable")
        return SearchResult(status, name, plan, expanded, generated, evaluated, budget.elapsed(),
                            h_name if second is None else f"{h_name}+ff", message,
                            {"fallback": fallback, "helpful": helpful, "dead_ends": dead_ends})

    root_bits = task.initial_state.bits
    root = space.add(root_bits, 0, -1, -1)
    if is_goal(root_bits):
        return finish(SOLVED, [])
    seq, step = 0, 1 if ties == "fifo" else -1  # among equal h: oldest first (fifo) or newest first (lifo)
    # queue 0: every state by the learned value; then the preferred states by it (helpful), then h_FF (fallback)
    queues: list[list] = [[(0.0, 0, root)]]
    prefer = ff_queue = -1
    if relaxed is not None:
        prefer = len(queues)
        queues.append([(0.0, 0, root)])
    if second is not None:
        ff_queue = len(queues)
        queues.append([(0.0, 0, root)])
    turn, priority, best_h = 0, 0, INF
    closed: set[int] = set()
    while any(queues):
        stop = budget.exceeded(expanded)
        if stop:
            return finish(stop)
        if priority > 0 and queues[prefer]:
            priority -= 1
            turn = prefer
        else:
            turn = (turn + 1) % len(queues)
            while not queues[turn]:
                turn = (turn + 1) % len(queues)
        _, _, node = heapq.heappop(queues[turn])
        if node in closed:
            continue
        closed.add(node)
        expanded += 1
        preferred: frozenset[int] | tuple = ()
        if relaxed is not None:
            h_ff, preferred = relaxed.helpful(space.bits[node])
            if h_ff == INF:  # the relaxed plan proves a dead end: not expanded
                dead_ends += 1
                continue
        fresh, goal, count = expand(space, successors, node, is_goal)
        generated += count
        if goal is not None:
            return finish(SOLVED, space.plan(goal, task.actions))
        if not fresh:
            continue
        values = heuristic([space.bits[c] for c in fresh])
        evaluated += len(fresh)
        for child, h in zip(fresh, values):
            seq += step
            heapq.heappush(queues[0], (float(h), seq, child))
            if prefer >= 0:
                if h < best_h:
                    best_h, priority = h, priority + BOOST
                if space.action[child] in preferred:
                    heapq.heappush(queues[prefer], (float(h), seq, child))
            if ff_queue >= 0:
                h2 = second(space.bits[child])
                if h2 != INF:
                    heapq.heappush(queues[ff_queue], (h2, seq, child))
    return finish(UNSOLVABLE)

"""A* with an admissible heuristic (default LM-cut; h_max on tasks with conditional effects or axioms): optimal
plans w.r.t. the task's action costs (plan length for unit-cost tasks).

Ties on f are broken towards lower h, then first in first out. Nodes are reopened when a cheaper path to them
is found, so plans stay optimal with admissible but inconsistent heuristics such as LM-cut. States with
h = inf are dead ends and are pruned.

With LM-cut the search is lazy and incremental: the landmarks of a state that do not contain the action taken
still hold in the successor (every plan from it, prefixed by that action, is a plan from the parent), so the
successor is queued with their number as a lower bound, and its LM-cut value is completed one cut at a time,
only when it comes first in the queue. Every queue key is an admissible bound, so A* stays optimal, and most
states need one cheap zero-cost reachability test instead of one h_max exploration per landmark.

With action costs a landmark carries the cost its cut consumed of each of its operators (an operator may be in
several landmarks until its cost is used up). The inherited landmarks are a cost partitioning that stays valid in
the successor, further cuts are found under the remaining costs, and the bound of a state whose goal is not yet
free rises by the least positive remaining cost (no cut is cheaper).
"""

from __future__ import annotations

import copy
import heapq
import time

from apb.engine import State, Task
from apb.engine.errors import ApbError
from apb.planners.heuristics import INF, Heuristic, LMCut, make_heuristic
from apb.planners.result import SOLVED, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import SearchSpace, Successors, goal_test


def astar(task: Task, *, heuristic: str | Heuristic = "lmcut", timeout: float | None = 60.0,
          max_nodes: int | None = None) -> SearchResult:
    """Optimal A* search; `max_nodes` bounds expansions, `timeout` wall-clock seconds."""
    budget = Budget(timeout, max_nodes)
    if heuristic == "lmcut" and not task.is_strips:  # LM-cut is admissible only without conditional effects
        heuristic = "hmax"
    h_fn = make_heuristic(heuristic, task) if isinstance(heuristic, str) else heuristic
    if not h_fn.admissible:
        raise ApbError(f"A* needs an admissible heuristic to find optimal plans, and {h_fn.name} is not: "
                       "use lmcut, hmax or blind, or gbfs for non-optimal search")
    if isinstance(h_fn, LMCut):
        if all(a.cost == 1 for a in task.actions):
            return _astar_lmcut(task, h_fn, budget)
        return _astar_lmcut_costs(task, h_fn, budget)
    return _astar(task, h_fn, budget)


def _finish(status: str, name: str, budget: Budget, expanded: int, generated: int, evaluated: int,
            plan=None, message: str = "") -> SearchResult:
    if not message and status != SOLVED:
        message = budget.limit_message(status) or ("the goal is unreachable" if status == UNSOLVABLE else "")
    return SearchResult(status, "astar", plan, expanded, generated, evaluated, budget.elapsed(), name, message)


def _astar(task: Task, h_fn: Heuristic, budget: Budget) -> SearchResult:
    """A* with eager evaluation: each new state's h is computed when it is generated; g sums `task.cost`."""
    successors = Successors(task)
    costs = [a.cost for a in task.actions]
    is_goal = goal_test(task)
    space = SearchSpace()
    g, ids = space.g, space.ids
    root_bits = task.initial_state.bits
    h0 = h_fn(root_bits)
    evaluated, expanded, generated = 1, 0, 0
    if h0 == INF:
        return _finish(UNSOLVABLE, h_fn.name, budget, 0, 0, 1)
    root = space.add(root_bits, 0, -1, -1)
    h = [h0]
    closed = [False]
    heap = [(h0, h0, 0, root, 0)]
    seq = 1
    while heap:
        _, _, _, node, gn = heapq.heappop(heap)
        if gn != g[node] or closed[node]:
            continue
        bits = space.bits[node]
        if is_goal(bits):
            return _finish(SOLVED, h_fn.name, budget, expanded, generated, evaluated,
                           space.plan(node, task.actions))
        stop = budget.exceeded(expanded)
        if stop:
            return _finish(stop, h_fn.name, budget, expanded, generated, evaluated)
        closed[node] = True
        expanded += 1
        for action, succ in successors(bits):
            generated += 1
            child_g = gn + costs[action]
            child = ids.get(succ)
            if child is None:
                hc = h_fn(succ)
                evaluated += 1
                if hc == INF:
                    ids[succ] = -1
                    continue
                child = space.add(succ, child_g, node, action)
                h.append(hc)
                closed.append(False)
            elif child < 0 or child_g >= g[child]:
                continue
            else:
                g[child], space.parent[child], space.action[child] = child_g, node, action
                closed[child] = False
            heapq.heappush(heap, (child_g + h[child], h[child], seq, child, child_g))
            seq += 1
    return _finish(UNSOLVABLE, h_fn.name, budget, expanded, generated, evaluated)


def _astar_lmcut(task: Task, lmcut: LMCut, budget: Budget) -> SearchResult:
    """A* with incremental LM-cut computed lazily, one cut per pop (see the module docstring).

    Each node keeps landmarks that hold in its state and a lower bound on h: the number of landmarks, plus one
    once the goal is known to be out of zero-cost reach under them (then at least one more cut exists). A
    popped node whose h is not exact gets one step of work: a new cut if one is known to exist, then the
    zero-cost reachability test; it is requeued whenever its bound rises, and expanded once exact.
    """
    successors = Successors(task)
    is_goal = goal_test(task)
    relaxed = lmcut.relaxed
    space = SearchSpace()
    g, ids, parent, via = space.g, space.ids, space.parent, space.action
    root = space.add(task.initial_state.bits, 0, -1, -1)
    landmarks: list = [()]     # landmarks known to hold in the node's state (None: inherit from the parent)
    bound: list[int] = [0]     # admissible lower bound on h
    exact = [False]            # bound == LM-cut value: no further cut exists
    closed = [False]
    heap = [(0, 0, 0, root, 0)]
    seq = 1
    evaluated = expanded = generated = 0
    while heap:
        key, _, _, node, gn = heapq.heappop(heap)
        if gn != g[node] or closed[node]:
            continue
        stop = budget.exceeded(expanded)
        if stop:
            return _finish(stop, lmcut.name, budget, expanded, generated, evaluated)
        bits = space.bits[node]
        if not exact[node]:
            lms = landmarks[node]
            if lms is None:
                action = via[node]
                lms = tuple(lm for lm in landmarks[parent[node]] if action not in lm)
            evaluated += 1
            if bound[node] > len(lms):
                cut = lmcut.find_cut(relaxed.state_facts(bits), lmcut.costs(lms))
                if cut is None:  # a dead end: no entry for it is ever valid again
                    closed[node] = True
                    g[node] = -1
                    landmarks[node] = None
                    continue
                lms = (*lms, cut)
            landmarks[node] = lms
            if lmcut.goal_is_free(bits, lms):
                exact[node] = True
                bound[node] = len(lms)
            else:
                bound[node] = len(lms) + 1
            if not exact[node] or gn + bound[node] > key:  # requeue: the bound rose
                heapq.heappush(heap, (gn + bound[node], bound[node], seq, node, gn))
                seq += 1
                continue
        if is_goal(bits):
            return _finish(SOLVED, lmcut.name, budget, expanded, generated, evaluated,
                           space.plan(node, task.actions))
        closed[node] = True
        expanded += 1
        child_g = gn + 1
        node_lms = landmarks[node]
        count = len(node_lms)
        covered = frozenset().union(*node_lms)
        for action, succ in successors(bits):
            generated += 1
            child = ids.get(succ)
            if child is None:
                child = space.add(succ, child_g, node, action)
                landmarks.append(None)
                child_bound = count - 1 if action in covered else count
                bound.append(child_bound)
                exact.append(False)
                closed.append(False)
            elif child_g >= g[child] or g[child] < 0:
                continue
            else:
                g[child], parent[child], via[child] = child_g, node, action
                closed[child] = False
                if landmarks[child] is None:  # not evaluated yet: inherit from the new parent
                    child_bound = count - 1 if action in covered else count
                    bound[child] = child_bound
                else:
                    child_bound = bound[child]
            heapq.heappush(heap, (child_g + child_bound, child_bound, seq, child, child_g))
            seq += 1
    return _finish(UNSOLVABLE, lmcut.name, budget, expanded, generated, evaluated)


def _astar_lmcut_costs(task: Task, lmcut: LMCut, budget: Budget) -> SearchResult:
    """`_astar_lmcut` with any non-negative action costs: landmarks are (operators, cost consumed) pairs, g sums
    `task.cost`, and a node's bound is its landmarks' summed cost, plus the least positive remaining operator cost
    once the goal is known not to be free."""
    successors = Successors(task)
    is_goal = goal_test(task)
    relaxed = lmcut.relaxed
    costs = [a.cost for a in task.actions]
    space = SearchSpace()
    g, ids, parent, via = space.g, space.ids, space.parent, space.action
    root = space.add(task.initial_state.bits, 0, -1, -1)
    landmarks: list = [()]  # (operators, cost) pairs known to hold in the node's state (None: inherit)
    total: list = [0]       # the summed cost of the node's landmarks
    bound: list = [0]       # admissible lower bound on h, at least total
    exact = [False]         # bound == LM-cut value: no further cut exists
    closed = [False]
    heap = [(0, 0, 0, root, 0)]
    seq = 1
    evaluated = expanded = generated = 0
    while heap:
        key, _, _, node, gn = heapq.heappop(heap)
        if gn != g[node] or closed[node]:
            continue
        stop = budget.exceeded(expanded)
        if stop:
            return _finish(stop, lmcut.name, budget, expanded, generated, evaluated)
        bits = space.bits[node]
        if not exact[node]:
            lms = landmarks[node]
            if lms is None:
                action = via[node]
                lms = tuple(lm for lm in landmarks[parent[node]] if action not in lm[0])
                total[node] = sum(c for _, c in lms)
            evaluated += 1
            residual = lmcut.residual_costs(lms)
            if bound[node] > total[node]:  # the goal is not free: one more cut exists
                cut = lmcut.find_cut(relaxed.state_facts(bits), residual)
                if cut is None:  # a dead end: no entry for it is ever valid again
                    closed[node] = True
                    g[node] = -1
                    landmarks[node] = None
                    continue
                least = min(residual[op] for op in cut)
                for op in cut:
                    residual[op] -= least
                lms = (*lms, (cut, least))
                total[node] += least
            landmarks[node] = lms
            if lmcut.goal_is_free_under(bits, residual, lms):
                exact[node] = True
                bound[node] = total[node]
            else:
                bound[node] = total[node] + lmcut.next_cut_bound(residual, lms)
            if not exact[node] or gn + bound[node] > key:  # requeue: the bound rose
                heapq.heappush(heap, (gn + bound[node], bound[node], seq, node, gn))
                seq += 1
                continue
        if is_goal(bits):
            return _finish(SOLVED, lmcut.name, budget, expanded, generated, evaluated,
                           space.plan(node, task.actions))
        closed[node] = True
        expanded += 1
        node_total = total[node]
        consumed: dict[int, float] = {}
        for ops, cost in landmarks[node]:
            for op in ops:
                consumed[op] = consumed.get(op, 0) + cost
        for action, succ in successors(bits):
            generated += 1
            child_g = gn + costs[action]
            child = ids.get(succ)
            child_bound = node_total - consumed.get(action, 0)
            if child is None:
                child = space.add(succ, child_g, node, action)
                landmarks.append(None)
                total.append(child_bound)
                bound.append(child_bound)
                exact.append(False)
                closed.append(False)
            elif child_g >= g[child] or g[child] < 0:
                continue
            else:
                g[child], parent[child], via[child] = child_g, node, action
                closed[child] = False
                if landmarks[child] is None:  # not evaluated yet: inherit from the new parent
                    bound[child] = total[child] = child_bound
                else:
                    child_bound = bound[child]
            heapq.heappush(heap, (child_g + child_bound, child_bound, seq, child, child_g))
            seq += 1
    return _finish(UNSOLVABLE, lmcut.name, budget, expanded, generated, evaluated)


class Optimum:
    """The optimal cost to go (`steps=True`: plan length) from any state of `task` by A* with LM-cut, or None beyond
    the budget: `max_nodes` expansions and `seconds` per call, all calls ending by `deadline` (time.monotonic())."""

    def __init__(self, task: Task, max_nodes: int | None, *, seconds: float | None = None,
                 deadline: float | None = None, steps: bool = False) -> None:
        self.task, self.nodes, self.seconds, self.deadline, self.steps = task, max_nodes, seconds, deadline, steps
        self.h = LMCut(task)
        self.view = copy.copy(task)  # the same task with another initial state

    def __call__(self, bits: int) -> float | None:
        left = self.seconds
        if self.deadline is not None:
            left = min(left if left is not None else INF, self.deadline - time.monotonic())
            if left <= 0:
                return None
        if self.task.is_goal_bits(bits):
            return 0
        self.view.initial_state = State(bits)
        result = astar(self.view, heuristic=self.h, timeout=left, max_nodes=self.nodes)
        if not result.solved:
            return None
        return len(result.plan) if self.steps else result.plan_cost

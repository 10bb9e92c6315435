"""The delete relaxation of a task as flat int lists, built once per task and shared by all heuristics.

Negative preconditions and goals are dropped and delete effects ignored, so every estimate derived from it stays
admissible where the underlying relaxation heuristic is. Each operator has two costs: `cost`, 0/1 (1 for a task cost
of at least 1, never above it), which h_add and h_FF count (steps, as greedy search wants), and `action_cost`, the
task's own cost, which h_max and LM-cut use so that A* is optimal and well informed on cost domains; `unit` says
whether the two agree (every task cost is 0 or 1). Tasks beyond STRIPS get more relaxed operators after the goal
operator: one per conditional effect (the action's preconditions plus the facts its condition needs) and one
zero-cost operator per ground axiom (the facts its body needs, the derived fact as add); complex conditions are dropped,
which only relaxes further, so h_max stays admissible (LM-cut is not, as one action's effects become separate
operators).

Two artificial facts make the algorithms uniform: an `init` fact that holds in every state and is the precondition
of operators without one, and a `goal` fact added by an artificial zero-cost goal operator whose preconditions are
the positive goals.
"""

from __future__ import annotations

import heapq
import math
import weakref
from dataclasses import dataclass

from apb.engine import State, Task
from apb.engine.deadline import in_chunks

INF = math.inf

_CACHE: weakref.WeakKeyDictionary[Task, RelaxedTask] = weakref.WeakKeyDictionary()
BUILDING = "building the relaxed task"  # what a DeadlineExceeded names


class RelaxedTask:
    """Operators 0..m-1 are `task.actions` (same index); operator m is the artificial goal operator."""

    def __init__(self, task: Task, deadline: float | None = None) -> None:
        """`deadline` (a time.monotonic() value): building stops with DeadlineExceeded once it has passed (on
        millions of actions it takes long, the bitmasks longest)."""
        n = task.num_facts
        self.init_fact = n
        self.goal_fact = n + 1
        self.num_facts = n + 2
        pre: list[tuple[int, ...]] = []
        add: list[tuple[int, ...]] = []
        for action in (a for part in in_chunks(task.actions, deadline, BUILDING) for a in part):
            conditions = action.pre or (self.init_fact,)
            pre.append(conditions)
            add.append(tuple(f for f in action.add if f not in conditions))
        pre.append(task.goal_pos or (self.init_fact,))
        add.append((self.goal_fact,))
        self.goal_op = len(task.actions)
        cost = [1 if a.cost >= 1 else 0 for a in task.actions] + [0]
        action_cost = [a.cost for a in task.actions] + [0]
        for action in task.actions:
            for effect in action.effects:
                conditions = tuple(dict.fromkeys((*action.pre, *needed_facts(effect.condition))))
                pre.append(conditions or (self.init_fact,))
                add.append(effect.add)
                cost.append(cost[action.index])
                action_cost.append(action.cost)
        if task.axioms is not None:
            for layer in task.axioms.strata:
                for head, body in layer:
                    pre.append(needed_facts(body) or (self.init_fact,))
                    add.append((head,))
                    cost.append(0)
                    action_cost.append(0)
        self.num_ops = len(pre)
        self.pre = pre
        self.add = add
        self.pre_count = [len(p) for p in pre]
        self.cost = cost
        self.action_cost = action_cost
        self.unit = cost == action_cost
        self.pre_of: list[list[int]] = [[] for _ in range(self.num_facts)]
        self.achievers: list[list[int]] = [[] for _ in range(self.num_facts)]
        for op in (o for part in in_chunks(range(self.num_ops), deadline, BUILDING) for o in part):
            for f in pre[op]:
                self.pre_of[f].append(op)
            for f in add[op]:
                self.achievers[f].append(op)
        # The same operators as bitmasks over facts, for closure tests on whole states.
        self.op_masks = [(sum(1 << f for f in p), sum(1 << f for f in a))
                         for part in in_chunks(list(zip(pre, add)), deadline, BUILDING) for p, a in part]
        self.init_bit = 1 << self.init_fact

    def state_facts(self, bits: int) -> list[int]:
        """The true facts of a state (given as its bitmask) plus the artificial init fact."""
        facts = [self.init_fact]
        while bits:
            low = bits & -bits
            facts.append(low.bit_length() - 1)
            bits ^= low
        return facts

    def explore(self, facts: list[int], cost: list[int],
                stop_at_goal: bool = False) -> tuple[list, list[int], list[int]]:
        """h_max of every fact from `facts` under 0/1 operator costs `cost`, by a bucket queue (one per level).

        Returns (fact values, INF when unreachable; the precondition choice of each operator, -1 if unreached;
        the reached operators in the order they fired). The chosen precondition is one with maximal h_max (the
        last one settled). Each level is a stack: among facts of equal value the one reached last is settled
        first, as in `explore_costs` (and Fast Downward), whose results this equals on 0/1 costs; LM-cut's cuts
        depend on that choice. With `stop_at_goal`, stops once the goal fact's value is known.
        """
        value: list = [INF] * self.num_facts
        unsatisfied = self.pre_count[:]
        choice = [-1] * self.num_ops
        fired: list[int] = []
        pre_of, add, goal = self.pre_of, self.add, self.goal_fact
        for f in facts:
            value[f] = 0
        level = 0
        current = list(facts)
        while current:
            following: list[int] = []
            after = level + 1
            while current:  # zero-cost operators push onto this level's stack
                f = current.pop()
                if value[f] != level:
                    continue
                if stop_at_goal and f == goal:  # (a fact enters a level's stack once: values only decrease)
                    return value, choice, fired
                for op in pre_of[f]:
                    if unsatisfied[op] > 1:
                        unsatisfied[op] -= 1
                        continue
                    unsatisfied[op] = 0
                    choice[op] = f
                    fired.append(op)
                    if cost[op]:
                        for e in add[op]:
                            if value[e] > after:
                                value[e] = after
                                following.append(e)
                    else:
                        for e in add[op]:
                            if value[e] > level:
                                value[e] = level
                                current.append(e)
            current = following
            level = after
        return value, choice, fired

    def explore_costs(self, facts: list[int], cost: list,
                      stop_at_goal: bool = False) -> tuple[list, list[int], list[int]]:
        """`explore` for any non-negative operator costs, by Dijkstra's algorithm on h_max values.

        Same results: facts are settled in order of value, so an operator fires when its last precondition is
        settled, and that precondition (its choice) has maximal h_max. Among facts of equal value the one reached
        last is settled first (as in Fast Downward's bucket queue); LM-cut's cuts depend on that choice.
        """
        value: list = [INF] * self.num_facts
        unsatisfied = self.pre_count[:]
        choice = [-1] * self.num_ops
        fired: list[int] = []
        pre_of, add, goal = self.pre_of, self.add, self.goal_fact
        pop, push = heapq.heappop, heapq.heappush
        heap = []
        order = 0
        for f in facts:
            value[f] = 0
            order -= 1
            heap.append((0, order, f))
        heapq.heapify(heap)
        while heap:
            v, _, f = pop(heap)
            if v != value[f]:
                continue
            if stop_at_goal and f == goal:
                break
            for op in pre_of[f]:
                if unsatisfied[op] > 1:
                    unsatisfied[op] -= 1
                    continue
                unsatisfied[op] = 0
                choice[op] = f
                fired.append(op)
                reach = v + cost[op]
                for e in add[op]:
                    if value[e] > reach:
                        value[e] = reach
                        order -= 1
                        push(heap, (reach, order, e))
        return value, choice, fired


def needed_facts(formula) -> tuple[int, ...]:
    """Facts a ground formula cannot hold without: a positive fact, or the positive fact conjuncts of an and."""
    if formula.kind == "fact":
        return (formula.fid,) if formula.positive and formula.fid >= 0 else ()
    if formula.kind in ("and", "forall"):
        return tuple(c.fid for c in formula.children if c.kind == "fact" and c.positive and c.fid >= 0)
    return ()


def relaxed_task(task: Task, deadline: float | None = None) -> RelaxedTask:
    """The task's RelaxedTask, built on first use (by `deadline`, see RelaxedTask) and cached for the task's
    lifetime."""
    relaxed = _CACHE.get(task)
    if relaxed is None:
        relaxed = RelaxedTask(task, deadline)
        _CACHE[task] = relaxed
    return relaxed


@dataclass
class RelaxedClosure:
    """Fact ids (of the task) reachable under the delete relaxation, the task actions that can fire, and whether
    the goal's positive facts are all reachable."""

    facts: set[int]
    actions: set[int]
    goal: bool


def relaxed_closure(task: Task, state: State, banned_fact: int | None = None) -> RelaxedClosure:
    """The delete-relaxed closure of `state`; with `banned_fact`, no action that adds that fact may fire."""
    relaxed = relaxed_task(task)
    count = relaxed.pre_count[:]
    reached = [False] * relaxed.num_facts
    stack = relaxed.state_facts(state.bits)
    for fact in stack:
        reached[fact] = True
    fired: set[int] = set()
    pre_of, add = relaxed.pre_of, relaxed.add
    while stack:
        fact = stack.pop()
        for op in pre_of[fact]:
            count[op] -= 1
            if count[op]:
                continue
            if banned_fact is not None and banned_fact in add[op]:
                continue
            fired.add(op)
            for new in add[op]:
                if not reached[new]:
                    reached[new] = True
                    stack.append(new)
    n = task.num_facts
    return RelaxedClosure({f for f in range(n) if reached[f]}, {op for op in fired if op < relaxed.goal_op},
                          reached[relaxed.goal_fact])

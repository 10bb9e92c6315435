"""The delete relaxation of a task as flat int lists, built once per task and shared by all heuristics.

Negative preconditions and goals are dropped and delete effects ignored, so every estimate derived from it stays
admissible where the underlying relaxation heuristic is. Two artificial facts make the algorithms uniform: an
`init` fact that holds in every state and is the precondition of operators without one, and a `goal` fact
added by an artificial zero-cost goal operator whose preconditions are the positive goals.
"""

from __future__ import annotations

import math
import weakref

from apb.engine import Task

INF = math.inf

_CACHE: weakref.WeakKeyDictionary[Task, RelaxedTask] = weakref.WeakKeyDictionary()


class RelaxedTask:
    """Operators 0..m-1 are `task.actions` (same index); operator m is the artificial goal operator."""

    def __init__(self, task: Task) -> None:
        n = task.num_facts
        self.init_fact = n
        self.goal_fact = n + 1
        self.num_facts = n + 2
        pre: list[tuple[int, ...]] = []
        add: list[tuple[int, ...]] = []
        for action in task.actions:
            conditions = action.pre or (self.init_fact,)
            pre.append(conditions)
            add.append(tuple(f for f in action.add if f not in conditions))
        pre.append(task.goal_pos or (self.init_fact,))
        add.append((self.goal_fact,))
        self.goal_op = len(task.actions)
        self.num_ops = len(pre)
        self.pre = pre
        self.add = add
        self.pre_count = [len(p) for p in pre]
        self.cost = [1] * len(task.actions) + [0]
        self.pre_of: list[list[int]] = [[] for _ in range(self.num_facts)]
        self.achievers: list[list[int]] = [[] for _ in range(self.num_facts)]
        for op in range(self.num_ops):
            for f in pre[op]:
                self.pre_of[f].append(op)
            for f in add[op]:
                self.achievers[f].append(op)
        # The same operators as bitmasks over facts, for closure tests on whole states.
        self.op_masks = [(sum(1 << f for f in p), sum(1 << f for f in a)) for p, a in zip(pre, add)]
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
        """h_max of every fact from `facts` under 0/1 operator costs `cost`, by breadth-first levels.

        Returns (fact values, INF when unreachable; the precondition choice of each operator, -1 if unreached;
        the reached operators in the order they fired). The chosen precondition is one with maximal h_max (the
        last one reached). With `stop_at_goal`, stops once the goal fact's value is known.
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
            for f in current:  # `current` grows while zero-cost operators fire
                if value[f] != level:
                    continue
                if stop_at_goal and f == goal:
                    return value, choice, fired
                for op in pre_of[f]:
                    if unsatisfied[op] > 1:
                        unsatisfied[op] -= 1
                        continue
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


def relaxed_task(task: Task) -> RelaxedTask:
    """The task's RelaxedTask, built on first use and cached for the task's lifetime."""
    relaxed = _CACHE.get(task)
    if relaxed is None:
        relaxed = RelaxedTask(task)
        _CACHE[task] = relaxed
    return relaxed

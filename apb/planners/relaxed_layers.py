"""FF's relaxed planning graph in numpy: the helpful actions (and h_FF with h_max supporters, as FF's original) of a
state in one vectorised pass per layer, for searches that want them once per expanded state on tasks with many
actions (apb.planners.learned_search's preferred operators).

Layer k holds the operators of apb.planners.relaxed's delete relaxation whose preconditions were all reached by
layer k; the facts they add first are reached at layer k + 1, supported by the first such operator (in operator
order, so the graph is deterministic). The relaxed plan is extracted backwards from the goal operator: each needed
fact's supporter, its preconditions in turn. `helpful(bits)` returns (h, operators): h is the relaxed plan's cost
(INF when the goal is not relaxed-reachable: a dead end), operators are the task actions in it that apply in the
state (layer 0), the preferred operators of Fast Downward's h_FF. The pure-Python h_add version is
apb.planners.heuristics.FF; this one costs a few numpy calls per layer instead of a Python loop per operator.
"""

from __future__ import annotations

import numpy as np

from apb.engine import Task
from apb.planners.relaxed import INF, relaxed_task


class RelaxedLayers:
    """The relaxed planning graph of one task (see the module docstring)."""

    def __init__(self, task: Task) -> None:
        relaxed = relaxed_task(task)
        self.relaxed = relaxed
        self.goal_op, self.goal_fact = relaxed.goal_op, relaxed.goal_fact
        counts = np.array(relaxed.pre_count, dtype=np.int64)
        self._pre_flat = np.array([f for p in relaxed.pre for f in p], dtype=np.int64)
        self._pre_start = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        self._pre_count = counts
        self._add_flat = np.array([f for a in relaxed.add for f in a], dtype=np.int64)
        self._add_op = np.array([op for op, a in enumerate(relaxed.add) for _ in a], dtype=np.int64)
        self._bytes = (task.num_facts + 7) // 8
        self._facts = task.num_facts

    def _state(self, bits: int) -> np.ndarray:
        raw = np.frombuffer(bits.to_bytes(self._bytes, "little"), dtype=np.uint8)
        reached = np.zeros(self.relaxed.num_facts, dtype=bool)
        reached[:self._facts] = np.unpackbits(raw, bitorder="little")[:self._facts].astype(bool)
        reached[self.relaxed.init_fact] = True
        return reached

    def helpful(self, bits: int) -> tuple[float, frozenset[int]]:
        """(h_FF of the relaxed plan, the task actions in it applicable in the state); (INF, empty) at a dead
        end."""
        reached = self._state(bits)
        num_ops = len(self._pre_count)
        op_layer = np.full(num_ops, -1, dtype=np.int64)
        supporter = np.full(len(reached), -1, dtype=np.int64)
        layer = 0
        while not reached[self.goal_fact]:
            satisfied = np.add.reduceat(reached[self._pre_flat].astype(np.int64), self._pre_start)
            ready = (satisfied == self._pre_count) & (op_layer < 0)
            if not ready.any():
                return INF, frozenset()
            op_layer[ready] = layer
            entries = ready[self._add_op]
            facts, ops = self._add_flat[entries], self._add_op[entries]
            fresh = ~reached[facts]
            facts, ops = facts[fresh], ops[fresh]
            if not len(facts):
                return INF, frozenset()
            first_facts, first = np.unique(facts, return_index=True)  # the first operator (lowest index) adding it
            supporter[first_facts] = ops[first]
            reached[first_facts] = True
            layer += 1
        return self._extract(supporter, op_layer)

    def _extract(self, supporter: np.ndarray, op_layer: np.ndarray) -> tuple[float, frozenset[int]]:
        relaxed = self.relaxed
        pre, cost = relaxed.pre, relaxed.cost
        marked: set[int] = set()
        seen: set[int] = set()
        stack = [self.goal_fact]
        total = 0
        sup = supporter.tolist()
        while stack:
            fact = stack.pop()
            op = sup[fact]
            if op < 0 or op in marked:
                continue
            marked.add(op)
            total += cost[op]
            for p in pre[op]:
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        layers = op_layer.tolist()
        return float(total), frozenset(op for op in marked if op < self.goal_op and layers[op] == 0)

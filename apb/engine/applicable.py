"""How a task finds its applicable actions: three finders that give the same answers, and the choice among them.

- `LinearScan`: tests every action's precondition masks in a Python loop; cheapest on small tasks.
- `DenseScan`: the same test for all actions at once, on numpy bit matrices (one row of 64-bit words per fact
  word, one column per action); cheapest on tasks with thousands of actions over few facts where many actions
  are applicable in most states (caldera: 12,146 actions over 312 facts, ~160 applicable).
- the successor tree (`apb.engine.successors.SuccessorGenerator`), which visits only the part of a decision tree
  the state's facts lead to; cheapest on large tasks where few actions are applicable.

`choose(task)` takes the scan up to SCAN_LIMIT actions; above, it measures the tree's work (see
`SuccessorGenerator.work`) on the states of a deterministic walk of PROBE_STEPS steps from the initial state (the
initial state alone misleads: in caldera the tree's work there is 12 units, on the walk 861) and takes the finder
with the lowest estimated time per call; above PROBE_LIMIT actions, when the dense matrices would exceed
DENSE_MAX_WORDS, the tree without a probe. The
estimates use per-unit costs measured on this machine class (CPython 3.11, x86-64; `python benchmarks/
finder_costs.py` re-measures them): a tree work unit TREE_NS, a scanned action SCAN_NS, and DENSE_FIXED_NS plus
DENSE_NS per action and fact word for the dense scan. The choice changes only speed, never an answer.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DENSE_MAX_WORDS", "PROBE_LIMIT", "PROBE_STEPS", "SCAN_LIMIT", "DenseScan", "LinearScan", "choose"]

SCAN_LIMIT = 16  # up to this many actions the linear scan, without a probe
PROBE_STEPS = 64  # states of the probe walk
PROBE_LIMIT = 256  # above this many actions, when the dense matrices would be too large, the tree without a probe
# Per-unit costs in nanoseconds (see the module docstring).
TREE_NS = 200.0
SCAN_NS = 80.0
DENSE_FIXED_NS = 15_000.0
DENSE_NS = 1.5
# The dense scan's matrices hold 2 x actions x words 64-bit words: above this many (32 MB) it is never chosen.
DENSE_MAX_WORDS = 2_000_000


class LinearScan:
    """Every action's masks tested in turn."""

    def __init__(self, actions) -> None:
        self.checks = tuple((a.pre_mask, a.neg_mask, a) for a in actions)

    def applicable_ids(self, bits: int) -> list[int]:
        return [a.index for pre, neg, a in self.checks if bits & pre == pre and not bits & neg]

    def applicable(self, bits: int) -> list:
        return [a for pre, neg, a in self.checks if bits & pre == pre and not bits & neg]


class DenseScan:
    """The masks of all actions as numpy matrices (word w of every action's positive / negative precondition in
    row w); an action is applicable when, in every word, the state has its positive bits and none of its negative
    ones."""

    def __init__(self, actions, num_facts: int) -> None:
        self.words = max(1, (num_facts + 63) // 64)
        self._bytes = 8 * self.words

        def matrix(masks) -> np.ndarray:
            raw = b"".join(m.to_bytes(self._bytes, "little") for m in masks)
            return np.ascontiguousarray(np.frombuffer(raw, dtype="<u8").reshape(len(actions), self.words).T)

        self._pre = matrix(a.pre_mask for a in actions)
        self._neg = matrix(a.neg_mask for a in actions)

    def applicable_ids(self, bits: int) -> list[int]:
        state = np.frombuffer(bits.to_bytes(self._bytes, "little"), dtype="<u8")
        missing = ~state
        pre, neg = self._pre, self._neg
        bad = (pre[0] & missing[0]) | (neg[0] & state[0])
        for w in range(1, self.words):
            bad |= (pre[w] & missing[w]) | (neg[w] & state[w])
        return np.flatnonzero(bad == 0).tolist()


def dense_ns(actions: int, words: int) -> float:
    return DENSE_FIXED_NS + DENSE_NS * actions * words


def choose(task):
    """The finder for an apb.engine.task.Task (see the module docstring); the tree answers its `applicable_ids`
    during the probe walk."""
    actions = task.actions
    if len(actions) <= SCAN_LIMIT:
        return LinearScan(actions)
    tree = task._successors()
    words = max(1, (task.num_facts + 63) // 64)
    others = [(SCAN_NS * len(actions), "scan")]
    if 2 * len(actions) * words <= DENSE_MAX_WORDS:
        others.append((dense_ns(len(actions), words), "dense"))
    elif len(actions) > PROBE_LIMIT:  # the scan alone is left, and it loses to the tree on so many actions
        return tree
    best_other, kind = min(others)
    task._finder = tree  # the probe walk's applicable actions come from the tree
    bits = task.initial_state.bits
    work = seen = 0
    for step in range(PROBE_STEPS):
        work += tree.work(bits)
        seen += 1
        ids = task.applicable_ids(bits)
        if not ids:
            break
        bits = task.successor_bits(bits, actions[ids[(step * 7919) % len(ids)]])
    if TREE_NS * work / seen <= best_other:
        return tree
    return LinearScan(actions) if kind == "scan" else DenseScan(actions, task.num_facts)

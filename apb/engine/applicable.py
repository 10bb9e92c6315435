"""How a task finds its applicable actions: three finders that give the same answers, and the choice among them.

- `LinearScan`: tests every action's precondition masks in a Python loop; cheapest on small tasks.
- `DenseScan`: the same test for all actions at once, on numpy bit matrices (one row of 64-bit words per fact
  word, one column per action); cheapest on tasks with thousands of actions over few facts where many actions
  are applicable in most states (caldera: 12,146 actions over 312 facts, ~160 applicable).
- the successor tree (`apb.engine.successors.SuccessorGenerator`), which visits only the part of a decision tree
  the state's facts lead to; cheapest on large tasks where few actions are applicable.

`choose(task)` takes the scan up to SCAN_LIMIT actions, and the tree without a probe above PROBE_LIMIT actions
when the dense matrices would exceed DENSE_MAX_WORDS. Otherwise a `Probe` answers: the tree answers the first
PROBE_STEPS states the task is asked about while its work on them is measured (`SuccessorGenerator.work`), then
the finder with the lowest estimated time per call answers until the next measurement. The estimates use
per-unit costs measured on this machine class (CPython 3.11, x86-64; `python benchmarks/finder_costs.py`
re-measures them): a tree work unit TREE_NS, a scanned action SCAN_NS, and DENSE_FIXED_NS plus DENSE_NS per action
and fact word for the dense scan. The choice changes only speed, never an answer.
"""

from __future__ import annotations

__all__ = ["DENSE_MAX_WORDS", "PROBE_LIMIT", "PROBE_STEPS", "SCAN_LIMIT", "DenseScan", "LinearScan", "Probe",
           "choose"]

SCAN_LIMIT = 32  # up to this many actions the linear scan, without a probe
PROBE_STEPS = 64  # states the probe measures
REPROBE = 4  # it measures again after this many times the calls answered so far
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
        import numpy as np  # here: most tasks never build one, and the engine loads without numpy

        self._np = np
        self.words = fact_words(num_facts)
        self._bytes = 8 * self.words

        def matrix(masks):
            raw = b"".join(m.to_bytes(self._bytes, "little") for m in masks)
            return np.ascontiguousarray(np.frombuffer(raw, dtype="<u8").reshape(len(actions), self.words).T)

        self._pre = matrix(a.pre_mask for a in actions)
        self._neg = matrix(a.neg_mask for a in actions)

    def applicable_ids(self, bits: int) -> list[int]:
        np = self._np
        state = np.frombuffer(bits.to_bytes(self._bytes, "little"), dtype="<u8")
        missing = ~state
        pre, neg = self._pre, self._neg
        bad = (pre[0] & missing[0]) | (neg[0] & state[0])
        for w in range(1, self.words):
            bad |= (pre[w] & missing[w]) | (neg[w] & state[w])
        return np.flatnonzero(bad == 0).tolist()


def fact_words(num_facts: int) -> int:
    """64-bit words of a state's bits (at least one)."""
    return max(1, (num_facts + 63) // 64)


def dense_ns(actions: int, words: int) -> float:
    return DENSE_FIXED_NS + DENSE_NS * actions * words


def choose(task):
    """The finder for an apb.engine.task.Task (see the module docstring): the scan, the tree, or a `Probe` that
    answers with the tree while it measures and with the finder its measurements choose in between."""
    actions = task.actions
    if len(actions) <= SCAN_LIMIT:
        return LinearScan(actions)
    tree = task._successors()
    words = fact_words(task.num_facts)
    others = [(SCAN_NS * len(actions), "scan")]
    if 2 * len(actions) * words <= DENSE_MAX_WORDS:
        others.append((dense_ns(len(actions), words), "dense"))
    elif len(actions) > PROBE_LIMIT:  # the scan alone is left, and it loses to the tree on so many actions
        return tree
    return Probe(task, tree, *min(others))


class Probe:
    """Answers with the tree while it measures the tree's work on PROBE_STEPS states, then with the cheapest finder
    by the estimates; it measures again after REPROBE times as many calls as it has answered (states change along
    a walk or a search: in caldera the tree's work grows from 12 units on the initial state to ~2,500 after a few
    hundred random steps). The states are the caller's own, so no extra walk or action is spent on the choice."""

    def __init__(self, task, tree, other_ns: float, other: str) -> None:
        self.task, self.tree, self.other_ns, self.other = task, tree, other_ns, other
        self.current = tree
        self.calls = self.work = self.seen = 0
        self.next = 0  # the call at which the next measurement starts
        self._other = None

    def applicable_ids(self, bits: int) -> list[int]:
        self.calls += 1
        if self.calls < self.next:
            return self.current.applicable_ids(bits)
        self.work += self.tree.work(bits)
        self.seen += 1
        if self.seen >= PROBE_STEPS:
            self.current = self.decide()
            self.work = self.seen = 0
            self.next = self.calls * REPROBE
        return self.tree.applicable_ids(bits)

    def decide(self):
        """The finder the measurements so far choose."""
        if TREE_NS * self.work / max(self.seen, 1) <= self.other_ns:
            return self.tree
        if self._other is None:
            actions = self.task.actions
            self._other = LinearScan(actions) if self.other == "scan" else DenseScan(actions, self.task.num_facts)
        return self._other

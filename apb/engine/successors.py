"""A decision tree over precondition facts that finds the applicable actions without testing every action.

Each node holds the actions whose remaining positive preconditions are all decided (checked only against their
negative preconditions) and, for a set of facts, a child node per fact. Going down into a child is allowed only
when its fact is true in the state, so only a small part of the tree is visited. Facts are chosen greedily: the
one needed by most of the node's remaining actions first, ties by lowest fact id (deterministic).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


class _Node:
    __slots__ = ("children", "immediate", "mask")

    def __init__(self) -> None:
        self.immediate: list[tuple[int, int]] = []  # (negative-precondition mask, action index)
        self.mask = 0                               # bits of the facts that have a child
        self.children: dict[int, _Node] = {}        # fact bit -> child


class SuccessorGenerator:
    """`applicable_ids(bits)`: the indices of the applicable actions, ascending."""

    def __init__(self, preconditions: Sequence[tuple[int, ...]], negative_masks: Sequence[int]) -> None:
        entries = [(frozenset(pre), neg, index) for index, (pre, neg) in enumerate(zip(preconditions,
                                                                                           negative_masks))]
        self._root = self._build(entries)

    def _build(self, entries: list[tuple[frozenset, int, int]]) -> _Node:
        node = _Node()
        remaining = []
        for pre, neg, index in entries:
            if pre:
                remaining.append((pre, neg, index))
            else:
                node.immediate.append((neg, index))
        while remaining:
            counts = Counter(f for pre, _, _ in remaining for f in pre)
            fact = min(counts, key=lambda f: (-counts[f], f))
            below = [(pre - {fact}, neg, index) for pre, neg, index in remaining if fact in pre]
            remaining = [entry for entry in remaining if fact not in entry[0]]
            bit = 1 << fact
            node.children[bit] = self._build(below)
            node.mask |= bit
        return node

    def applicable_ids(self, bits: int) -> list[int]:
        found: list[int] = []
        stack = [self._root]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            for neg, index in node.immediate:
                if not bits & neg:
                    found.append(index)
            true = bits & node.mask
            if true:
                children = node.children
                while true:
                    low = true & -true
                    push(children[low])
                    true ^= low
        found.sort()
        return found

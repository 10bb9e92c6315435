"""A decision tree over precondition facts that finds the applicable actions without testing every action.

Each node holds the actions whose remaining positive preconditions are all decided (checked only against their
negative preconditions) and, for a set of facts, a child node per fact. Going down into a child is allowed only
when its fact is true in the state, so only a small part of the tree is visited. Facts are chosen greedily: the
one needed by most of the node's remaining actions first, ties by lowest fact id (deterministic). A node
left with a single action tests that action's remaining facts as one mask, and the facts all actions of a node
share are tested as one mask on entering it, instead of a chain of nodes with one child each.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence


class _Node:
    __slots__ = ("children", "immediate", "mask", "need")

    def __init__(self) -> None:
        self.need = 0  # facts to test on entering the node (the facts all its actions share)
        # (positive facts still to test, negative-precondition mask, action index)
        self.immediate: list[tuple[int, int, int]] = []
        self.mask = 0                               # bits of the facts that have a child
        self.children: dict[int, _Node] = {}        # fact bit -> child


class SuccessorGenerator:
    """`applicable_ids(bits)`: the indices of the applicable actions, ascending."""

    def __init__(self, preconditions: Sequence[tuple[int, ...]], negative_masks: Sequence[int]) -> None:
        entries = [(frozenset(pre), neg, index) for index, (pre, neg) in enumerate(zip(preconditions,
                                                                                           negative_masks))]
        self._root = self._build(entries)

    def _build(self, entries: list[tuple[frozenset, int, int]], path: frozenset = frozenset()) -> _Node:
        """The node for `entries`, which all need the facts of `path` (chosen above): their remaining positive
        preconditions are their facts outside it."""
        node = _Node()
        depth = len(path)
        remaining: list[tuple[frozenset, int, int]] = []
        for entry in entries:
            if len(entry[0]) > depth:
                remaining.append(entry)
            else:
                node.immediate.append((0, entry[1], entry[2]))
        if len(remaining) == 1:  # one action left: test its other facts at once rather than by a chain of nodes
            pre, neg, index = remaining[0]
            node.immediate.append((_mask(f for f in pre if f not in path), neg, index))
            return node
        if not remaining:
            return node
        # The greedy choice, without recounting: the count of each fact over the entries not yet placed, kept up
        # to date as entries go below a chosen fact, in a heap of (-count, fact) whose stale items are skipped.
        counts: dict[int, int] = {}
        holders: dict[int, list[int]] = {}
        for position, (pre, _, _) in enumerate(remaining):
            for f in pre:
                if f not in path:
                    counts[f] = counts.get(f, 0) + 1
                    holders.setdefault(f, []).append(position)
        if not node.immediate:
            # Facts every action here needs: tested at once on entering the node (a chain of one-child nodes
            # otherwise), then left out below.
            shared = [f for f, count in counts.items() if count == len(remaining)]
            if shared:
                node.need = _mask(shared)
                path = path | frozenset(shared)
                for f in shared:
                    del counts[f]
                if not counts:  # every action here needs exactly these facts
                    node.immediate = [(0, neg, index) for _, neg, index in remaining]
                    return node
        heap = [(-count, f) for f, count in counts.items()]
        heapq.heapify(heap)
        placed = [False] * len(remaining)
        while heap:
            negative, fact = heapq.heappop(heap)
            count = counts[fact]
            if count == 0:
                continue
            if count != -negative:
                heapq.heappush(heap, (-count, fact))
                continue
            below = []
            for position in holders[fact]:
                if placed[position]:
                    continue
                placed[position] = True
                entry = remaining[position]
                below.append(entry)
                for f in entry[0]:
                    if f not in path:
                        counts[f] -= 1
            bit = 1 << fact
            node.children[bit] = self._build(below, path | {fact})
            node.mask |= bit
        return node

    def applicable_ids(self, bits: int) -> list[int]:
        found: list[int] = []
        stack = [self._root]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            if bits & node.need != node.need:
                continue
            for pos, neg, index in node.immediate:
                if bits & pos == pos and not bits & neg:
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


def _mask(ids) -> int:
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask

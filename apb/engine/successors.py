"""A decision tree over precondition facts that finds the applicable actions without testing every action.

Each node holds the actions whose remaining positive preconditions are all decided (checked only against their
negative preconditions) and, for a set of facts, a child node per fact. Going down into a child is allowed only
when its fact is true in the state, so only a small part of the tree is visited. Facts are chosen greedily: the
one needed by most of the node's remaining actions first, ties by lowest fact id (deterministic). A node
left with a single action tests that action's remaining facts as one mask, and the facts all actions of a node
share are tested as one mask on entering it, instead of a chain of nodes with one child each.

The tree is built lazily: a node is split into its children the first time a state reaches it (an unbuilt node
holds its actions and fails the `need` test with the sentinel -1, so a lookup pays for the check only on nodes
whose test fails). Building a task with a million actions therefore costs nothing here until states visit it,
and a random walk only ever builds the part of the tree its states reach.
"""

from __future__ import annotations

import gc
import heapq
from collections.abc import Sequence

from apb.engine.bits import bit_mask


class _Node:
    __slots__ = ("children", "immediate", "mask", "need", "pending")

    def __init__(self) -> None:
        self.need = 0  # facts to test on entering the node (the facts all its actions share); -1: not built yet
        self.pending: tuple | None = None  # (entries, path) of a node not built yet
        # (positive facts still to test, negative-precondition mask, action index)
        self.immediate: list[tuple[int, int, int]] = []
        self.mask = 0                               # bits of the facts that have a child
        self.children: dict[int, _Node] = {}        # fact bit -> child


class SuccessorGenerator:
    """`applicable_ids(bits)`: the indices of the applicable actions, ascending."""

    def __init__(self, preconditions: Sequence[tuple[int, ...]], negatives: Sequence[tuple[int, ...]]) -> None:
        """The positive and the negative precondition fact ids of each action (no id twice in one action)."""
        self._root = _lazy(list(zip(preconditions, negatives, range(len(preconditions)))), frozenset())

    def _build(self, node: _Node) -> None:
        """Builds a node from its pending `entries`, which all need the facts of `path` (chosen above): their
        remaining positive preconditions are their facts outside it. Its children are left unbuilt."""
        entries, path = node.pending
        node.pending = None
        node.need = 0
        depth = len(path)
        remaining: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        for entry in entries:
            if len(entry[0]) > depth:
                remaining.append(entry)
            else:
                node.immediate.append((0, bit_mask(entry[1]), entry[2]))
        if len(remaining) == 1:  # one action left: test its other facts at once rather than by a chain of nodes
            pre, neg, index = remaining[0]
            node.immediate.append((bit_mask(f for f in pre if f not in path), bit_mask(neg), index))
            return
        if not remaining:
            return
        # The greedy choice, without recounting: the count of each fact over the entries not yet placed, kept up
        # to date as entries go below a chosen fact, in a heap of (-count, fact) whose stale items are skipped.
        holders: dict[int, list[int]] = {}
        for position, (pre, _, _) in enumerate(remaining):
            for f in pre:
                held = holders.get(f)
                if held is None:
                    holders[f] = [position]
                else:
                    held.append(position)
        for f in path:
            holders.pop(f, None)
        counts: dict[int, int] = {f: len(held) for f, held in holders.items()}
        if not node.immediate:
            # Facts every action here needs: tested at once on entering the node (a chain of one-child nodes
            # otherwise), then left out below.
            shared = [f for f, count in counts.items() if count == len(remaining)]
            if shared:
                node.need = bit_mask(shared)
                path = path | frozenset(shared)
                for f in shared:
                    del counts[f]
                if not counts:  # every action here needs exactly these facts
                    node.immediate = [(0, bit_mask(neg), index) for _, neg, index in remaining]
                    return
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
                    if f in counts:  # the facts of `path` have no count
                        counts[f] -= 1
            bit = 1 << fact
            node.children[bit] = _lazy(below, path | {fact})
            node.mask |= bit

    def _build_now(self, node: _Node) -> None:
        enabled = gc.isenabled()
        gc.disable()  # the objects made are none of them garbage: no collection scanning them all
        try:
            self._build(node)
        finally:
            if enabled:
                gc.enable()

    def applicable_ids(self, bits: int) -> list[int]:
        found: list[int] = []
        stack = [self._root]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            if bits & node.need != node.need:
                if node.pending is None:
                    continue
                self._build_now(node)  # reached for the first time
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


    def work(self, bits: int) -> int:
        """What `applicable_ids(bits)` costs, in units of one precondition test of a linear scan: a visited node
        costs about two (measured: the node test, the child mask walk), an action tested at a node one."""
        visited = tested = 0
        stack = [self._root]
        while stack:
            node = stack.pop()
            visited += 1
            if bits & node.need != node.need:
                if node.pending is None:
                    continue
                self._build_now(node)
                if bits & node.need != node.need:
                    continue
            tested += len(node.immediate)
            true = bits & node.mask
            while true:
                low = true & -true
                stack.append(node.children[low])
                true ^= low
        return 2 * visited + tested


def _lazy(entries: list, path: frozenset) -> _Node:
    """A node not built yet (see `SuccessorGenerator._build`)."""
    node = _Node()
    node.need = -1
    node.pending = (entries, path)
    return node

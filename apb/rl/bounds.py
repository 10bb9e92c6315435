"""Admissible lower bounds on the optimal plan length, for reporting a policy's plan length where optimal search does
not finish: `lower_bound(task, bits)` is the larger of LM-cut and a domain-specific bound where one is known.

`BlocksworldBound` (the 4-operator Blocksworld: pick-up, put-down, stack, unstack) counts the moves the goal
forces. Every action moves exactly one block: a pick (pick-up, unstack) lifts it, a put (put-down, stack) sets it
down; between a pick and the next put the hand holds that block, so no other block is lifted in between. In a
state where `h` is the held block (if any) and above(b) are the blocks stacked above b:

1. P, the blocks that must be put at least once: x with an unsatisfied goal (on x y) or (ontable x) (only a put
   adds them), x with a goal (clear x) while x is held, and h when the goal has (handempty). Each costs 2 (a pick
   and a put), h only 1 (the put).
2. Q, the blocks that must be lifted at least once because a block under them must become clear: above(x) for
   every x of P that is not held, above(y) for every unsatisfied (on x y) (stacking needs y clear) and above(x)
   for every goal (clear x). Each block of Q - P costs 2, less 1 in all when one of them may end held (the goal
   lacks (handempty) and the block is no goal (on _ y) target y, which must end clear of the hand).
3. If h is outside P and any block must be lifted, h must first be put: +1.
4. Blocks of P put at least twice (+2 each: a put elsewhere and a second pick): x not held with an unsatisfied
   (on x y) where y is under x in x's tower (the blocks between must leave y, and lifting them needs the hand
   that lifted x first); x = h with a goal (on x y) while y is not clear or must still be lifted (both need the
   hand, and x cannot stand on y while y is lifted).
5. Deadlocks: for the other blocks x of P with an unsatisfied (on x y), x's final put must come after a lift of
   every block above y or above x now, and of y when y must be lifted. If x is put only once, it is lifted only
   once and nothing is lifted between that lift and that put, so each such block is lifted before x is. A cycle
   x1 -> x2 -> ... -> x1 of these "lifted before" relations among blocks put once would order their lifts in a
   circle: in every cycle some block is put twice (+2). Cycles are counted vertex-disjoint (a greedy pass, so
   a lower bound on their number), which keeps those extra puts on distinct blocks.

Different blocks' moves are different actions, so the sum is a lower bound on any plan's length; other goal atoms
((holding x)) are ignored, which only relaxes the problem. The bound is 0 on goal states. tests/test_rl.py checks
it against the exact optimal distance of every reachable state of small problems.
"""

from __future__ import annotations

from functools import cache

from apb.domains import registry
from apb.engine import Task, load_domain
from apb.planners.heuristics import Heuristic, LMCut


def _literals(items, rename: dict[str, str]) -> frozenset:
    return frozenset((lit.predicate, tuple(rename.get(a, a) for a in lit.args), lit.positive) for lit in items)


def _schemas(domain) -> set:
    """The domain's action schemas with parameters renamed by position (to compare two domains' actions)."""
    out = set()
    for action in domain.actions:
        rename = {p.name: f"?{i}" for i, p in enumerate(action.parameters)}
        out.add((action.name, len(rename), _literals(action.precondition, rename), _literals(action.effects, rename),
                 bool(action.complex_precondition or action.conditional_effects)))
    return out


@cache
def _blocksworld_schemas() -> frozenset:
    return frozenset(_schemas(load_domain(registry.domain_file("blocksworld"))))


def _parts(fact: str) -> list[str]:
    return fact.strip()[1:-1].split()


class BlocksworldBound(Heuristic):
    """The Blocksworld move-counting bound of the module docstring; admissible (unit costs)."""

    name = "blocksworld-bound"
    admissible = True

    @staticmethod
    def applies(task: Task) -> bool:
        """True when the task's actions are the bundled 4-operator Blocksworld's (same names, preconditions and
        effects, parameters renamed by position)."""
        return _schemas(task.domain) == _blocksworld_schemas()

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self._support: dict[int, tuple[str, str | None]] = {}  # fact id -> (block, what it stands on / None held)
        for fid, fact in enumerate(task.fact_names):
            parts = _parts(fact)
            if parts[0] == "on":
                self._support[fid] = (parts[1], parts[2])
            elif parts[0] == "ontable":
                self._support[fid] = (parts[1], "table")
            elif parts[0] == "holding":
                self._support[fid] = (parts[1], None)
        self.goal_on: list[tuple[str, str]] = []
        self.goal_table: list[str] = []
        self.goal_clear: list[str] = []
        self.goal_handempty = False
        for lit in task.goal:
            if not lit.positive:
                continue
            if lit.predicate == "on":
                self.goal_on.append((lit.args[0], lit.args[1]))
            elif lit.predicate == "ontable":
                self.goal_table.append(lit.args[0])
            elif lit.predicate == "clear":
                self.goal_clear.append(lit.args[0])
            elif lit.predicate == "handempty":
                self.goal_handempty = True

    def __call__(self, bits: int) -> int:
        below: dict[str, str] = {}  # block -> the block or "table" it stands on
        held = None
        support = self._support
        while bits:
            low = bits & -bits
            fid = low.bit_length() - 1
            bits ^= low
            entry = support.get(fid)
            if entry is not None:
                if entry[1] is None:
                    held = entry[0]
                else:
                    below[entry[0]] = entry[1]
        on_top: dict[str, str] = {lower: upper for upper, lower in below.items() if lower != "table"}

        def above(block: str) -> list[str]:
            out = []
            while block in on_top:
                block = on_top[block]
                out.append(block)
            return out

        put: set[str] = {x for x, y in self.goal_on if below.get(x) != y}
        put |= {x for x in self.goal_table if below.get(x) != "table"}
        if held is not None and (held in self.goal_clear or self.goal_handempty):
            put.add(held)
        lift: set[str] = set()
        for x in put:
            if x != held:
                lift.update(above(x))
        for x, y in self.goal_on:
            if below.get(x) != y:
                lift.update(above(y))
        for x in self.goal_clear:
            lift.update(above(x))
        moves = 2 * len(put - {held}) + (held in put)
        targets = {y for _, y in self.goal_on}
        twice: set[str] = set()  # blocks of P that must be put at least twice
        waits: dict[str, set[str]] = {}  # x -> blocks that must be lifted before x's final put
        for x, y in self.goal_on:
            if below.get(x) == y:
                continue
            if x == held:
                if y in on_top or (y != held and y in put | lift):
                    twice.add(x)  # x must wait for y to be cleared or lifted, which needs the hand
            elif x in above(y):
                twice.add(x)  # y is under x with other blocks between: x must be set down elsewhere first
            else:
                must = set(above(y)) | set(above(x))
                if y in put | lift and y != held:
                    must.add(y)
                waits[x] = must - {x}
        moves += 2 * len(twice)
        nodes = {x: {z for z in edges if z in waits and z not in twice} for x, edges in waits.items()
                 if x not in twice}
        moves += 2 * _disjoint_cycles(nodes)
        extra = lift - put
        moves += 2 * len(extra) - (1 if extra - targets and not self.goal_handempty else 0)
        if held is not None and held not in put and (put - {held} or lift):
            moves += 1
        return moves


def _disjoint_cycles(graph: dict[str, set[str]]) -> int:
    """How many vertex-disjoint cycles a greedy pass finds in `graph` (shortest cycle through each node in turn,
    its nodes removed once counted): a lower bound on the most vertex-disjoint cycles."""
    graph = {x: set(edges) for x, edges in graph.items()}
    count = 0
    for start in sorted(graph):
        if start not in graph:
            continue
        parent = {start: None}
        frontier = [start]
        cycle = None
        while frontier and cycle is None:
            following = []
            for node in frontier:
                for nxt in sorted(graph.get(node, ())):
                    if nxt == start:
                        cycle = node
                        break
                    if nxt in graph and nxt not in parent:
                        parent[nxt] = node
                        following.append(nxt)
                if cycle is not None:
                    break
            frontier = following
        if cycle is None:
            continue
        count += 1
        node = cycle
        while node is not None:
            graph.pop(node, None)
            node = parent[node]
        for edges in graph.values():
            edges.intersection_update(graph)
    return count


def lower_bound(task: Task, bits: int | None = None) -> tuple[int, str]:
    """(the best admissible lower bound on the optimal plan length from `bits` (default: the initial state), the
    name of the bound that gave it: "lmcut" or a domain-specific one)."""
    bits = task.initial_state.bits if bits is None else bits
    value, name = LMCut(task)(bits), "lmcut"
    if BlocksworldBound.applies(task):
        own = BlocksworldBound(task)(bits)
        if own > value:
            value, name = own, BlocksworldBound.name
    return int(value), name

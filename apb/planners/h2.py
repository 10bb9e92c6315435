"""h^2 reachability: which pairs of facts may hold together in some state reachable from a given one. A pair
missing from the result is a proved mutex (or an unreachable fact), which ACP's proofs and the equivalence
checker's goal closure both rely on. `H2` holds the result from one state (sound: it ignores delete effects'
interplay only in the safe direction, and negative preconditions entirely)."""

from __future__ import annotations

from collections.abc import Iterable

from apb.engine import State, Task
from apb.planners.relaxed import relaxed_closure


def bits_of(ids: Iterable[int]) -> int:
    """The bitmask with the given bit ids set."""
    out = 0
    for i in ids:
        out |= 1 << i
    return out


def reachable_pairs(task: Task, bits: int, actions: Iterable | None = None) -> list[int]:
    """`pairs[p]` has bit q set when facts p and q may be true together in a state reachable from the state
    `bits` (bit p of `pairs[p]` when p is reachable at all); an over-approximation. `actions` (default: all of
    the task's) limits the actions considered. Conditional adds count as possible adds and conditional deletes
    are never relied on; complex preconditions are ignored (both only make the result larger, so it stays
    sound). Derived facts are not modelled: callers must not draw conclusions about them."""
    n = task.num_facts
    rows = []
    for a in task.actions if actions is None else actions:
        add = tuple(dict.fromkeys((*a.add, *(f for e in getattr(a, "effects", ()) for f in e.add))))
        add_mask = bits_of(add)
        rows.append((bits_of(a.pre), tuple(a.pre), add_mask, add, bits_of(a.delete) & ~add_mask))
    pairs = [0] * n
    for fid in range(n):
        if bits >> fid & 1:
            pairs[fid] = bits
    changed = True
    while changed:
        changed = False
        for pre_mask, pre, add_mask, add, del_mask in rows:
            if any(pairs[p] & pre_mask != pre_mask for p in pre):
                continue
            if pre:
                compatible = ~0
                for p in pre:
                    compatible &= pairs[p]
            else:
                compatible = bits_of(i for i in range(n) if pairs[i] >> i & 1)
            gained = add_mask | (compatible & ~del_mask & ~add_mask)
            for p in add:
                if pairs[p] & gained != gained:
                    pairs[p] |= gained
                    changed = True
        for p in range(n):  # keep the relation symmetric
            row = pairs[p]
            while row:
                low = row & -row
                q = low.bit_length() - 1
                if not pairs[q] >> p & 1:
                    pairs[q] |= 1 << p
                    changed = True
                row ^= low
    return pairs


class H2:
    """h^2 reachability from a state: `pair(p, q)` is False when facts p and q (task fact ids; p == q for a single
    fact) can never hold together in a state reachable from it (a mutex, or an unreachable fact)."""

    def __init__(self, task: Task, state: State) -> None:
        n = task.num_facts
        # derived facts come from axioms, which h^2 does not model: then it proves nothing (every pair may hold)
        self.trivial = getattr(task, "axioms", None) is not None
        if self.trivial:
            self.masks = [(1 << n) - 1] * n
            return
        closure = relaxed_closure(task, state)
        self.masks = reachable_pairs(task, state.bits, [task.actions[i] for i in sorted(closure.actions)])

    def pair(self, p: int, q: int) -> bool:
        """Whether {p, q} may hold together (False is a proof that it never does)."""
        return bool(self.masks[p] >> q & 1) and bool(self.masks[q] >> p & 1)

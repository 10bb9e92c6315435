"""Sound over-approximations of what can become true from a state: delete-relaxed reachability (optionally with
the achievers of one fact removed, the landmark test) and h^2 mutexes.

Both ignore delete effects' interplay only in the safe direction (and negative preconditions entirely), so a fact
they call unreachable is unreachable, and a goal they call unreachable without a fact's achievers makes that fact
a landmark.
"""

from __future__ import annotations

from apb.engine import State, Task
from apb.planners.h2 import reachable_pairs
from apb.planners.relaxed import RelaxedClosure, relaxed_closure

__all__ = ["H2", "RelaxedClosure", "relaxed_closure"]


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

"""Sound over-approximations of what can become true from a state: delete-relaxed reachability (optionally with
the achievers of one fact removed, the landmark test) and h^2 mutexes.

Both ignore delete effects' interplay only in the safe direction (and negative preconditions entirely), so a fact
they call unreachable is unreachable, and a goal they call unreachable without a fact's achievers makes that fact
a landmark.
"""

from __future__ import annotations

from dataclasses import dataclass

from apb.engine import State, Task
from apb.planners.h2 import reachable_pairs
from apb.planners.relaxed import relaxed_task


@dataclass
class RelaxedClosure:
    """Fact ids (of the task) reachable under the delete relaxation, the task actions that can fire, and whether
    the goal's positive facts are all reachable."""

    facts: set[int]
    actions: set[int]
    goal: bool


def relaxed_closure(task: Task, state: State, banned_fact: int | None = None) -> RelaxedClosure:
    """The delete-relaxed closure of `state`; with `banned_fact`, no action that adds that fact may fire."""
    relaxed = relaxed_task(task)
    count = relaxed.pre_count[:]
    reached = [False] * relaxed.num_facts
    stack = relaxed.state_facts(state.bits)
    for fact in stack:
        reached[fact] = True
    fired: set[int] = set()
    pre_of, add = relaxed.pre_of, relaxed.add
    while stack:
        fact = stack.pop()
        for op in pre_of[fact]:
            count[op] -= 1
            if count[op]:
                continue
            if banned_fact is not None and banned_fact in add[op]:
                continue
            fired.add(op)
            for new in add[op]:
                if not reached[new]:
                    reached[new] = True
                    stack.append(new)
    n = task.num_facts
    return RelaxedClosure({f for f in range(n) if reached[f]}, {op for op in fired if op < relaxed.goal_op},
                          reached[relaxed.goal_fact])


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

"""Domain rules: exact goal closures where the generic one would need to search (Planetarium's full specification).

Blocksworld (IPC 4-op, untyped; apb's `ontable`/`handempty` naming and Planetarium's `on-table`/`arm-empty`): from
any proper initial state every arrangement of towers with at most one block in the hand is reachable, so a goal's
closure is what every arrangement satisfying it shares. A positive goal never forces `on` or `holding` (a block whose
support is not given can always stand on the table); it forces `clear x` when nothing can end up on x, `on-table x`
when x can stand on nothing else and cannot be held, and `arm-empty` when every block is mentioned (a mentioned block
cannot be in the hand without contradicting the goal). tests/test_equivalence_rules.py checks the rule against an
exhaustive exploration of the state space for every goal over three and four blocks.

A rule returns None when it does not apply (another domain, a negative goal, an initial state that is not a proper
state of the domain); the generic closure takes over then.
"""

from __future__ import annotations

from apb.engine import Domain
from apb.equivalence.closure import EXACT, UNSOLVABLE, Closure
from apb.equivalence.scene import Scene

_BLOCKS_NAMES = ({"on": "on", "ontable": "ontable", "clear": "clear", "holding": "holding", "arm": "handempty"},
                 {"on": "on", "ontable": "on-table", "clear": "clear", "holding": "holding", "arm": "arm-empty"})
_ARITY = {"on": 2, "ontable": 1, "clear": 1, "holding": 1, "arm": 0}


def _blocks_names(domain: Domain) -> dict[str, str] | None:
    """The predicate names when `domain` is 4-op Blocksworld (five predicates, four actions), else None."""
    for names in _BLOCKS_NAMES:
        preds = domain.predicates
        if set(preds) == set(names.values()) and len(domain.actions) == 4 and all(
                preds[names[role]].arity == arity for role, arity in _ARITY.items()):
            return names
    return None


class _Towers:
    """A set of blocksworld facts split by role: support (below), what stands on a block (above), held blocks."""

    def __init__(self, facts, n: dict[str, str]) -> None:
        self.below: dict[str, str] = {}
        self.above: dict[str, str] = {}
        self.ontable: set[str] = set()
        self.clear: set[str] = set()
        self.held: set[str] = set()
        self.arm = False
        self.conflict = ""
        for fact in facts:
            pred, args = fact[0], fact[1:]
            if pred == n["on"]:
                x, y = args
                if x == y or self.below.get(x, y) != y or self.above.get(y, x) != x:
                    self.conflict = f"a block is on two blocks or two blocks on one ({' '.join(fact)})"
                self.below[x], self.above[y] = y, x
            elif pred == n["ontable"]:
                self.ontable.add(args[0])
            elif pred == n["clear"]:
                self.clear.add(args[0])
            elif pred == n["holding"]:
                self.held.add(args[0])
            else:
                self.arm = True
        if not self.conflict:
            self.conflict = self._check()

    def _check(self) -> str:
        if len(self.held) > 1 or (self.held and self.arm):
            return "the hand holds two things, or holds one and is empty"
        for x in self.held:
            if x in self.below or x in self.above or x in self.ontable or x in self.clear:
                return f"{x} is held and also placed or clear"
        if self.ontable & set(self.below):
            return "a block is both on the table and on a block"
        if self.clear & set(self.above):
            return "a block is clear but has a block on it"
        for x in self.below:
            seen = {x}
            while x in self.below:
                x = self.below[x]
                if x in seen:
                    return "the blocks form a cycle"
                seen.add(x)
        return ""

    def bottom(self, x: str) -> str:
        while x in self.below:
            x = self.below[x]
        return x

    def top(self, x: str) -> str:
        while x in self.above:
            x = self.above[x]
        return x

    def is_proper_state(self, blocks) -> bool:
        """Every block placed exactly once, clear exactly when free, the hand empty exactly when nothing is held."""
        if self.conflict:
            return False
        for x in blocks:
            places = (x in self.below) + (x in self.ontable) + (x in self.held)
            if places != 1 or (x in self.clear) != (x not in self.above and x not in self.held):
                return False
        return self.arm != bool(self.held)


def blocksworld_closure(domain: Domain, scene: Scene) -> Closure | None:
    """The exact closure of a Blocksworld goal (see the module docstring), or None if the rule does not apply."""
    n = _blocks_names(domain)
    if n is None or scene.goal_neg or len(set(scene.objects.values())) > 1:
        return None
    blocks = sorted(set(scene.objects) | set(domain.constants))
    if not _Towers(scene.init, n).is_proper_state(blocks):
        return None
    method = "rule:blocksworld"
    goal = _Towers(scene.goal, n)
    if goal.conflict:
        return Closure(UNSOLVABLE, scene.goal, None, method, goal.conflict)
    mentioned = {arg for fact in scene.goal for arg in fact[1:]}
    hand_fixed = goal.arm or bool(goal.held)

    def can_hold(x: str) -> bool:
        return not hand_fixed and x not in mentioned

    free_support = [y for y in blocks if y not in goal.below and y not in goal.ontable and y not in goal.held]
    open_top = [z for z in blocks if z not in goal.above and z not in goal.clear and z not in goal.held]
    implied = set(scene.goal)
    if not goal.held and all(x in mentioned for x in blocks):
        implied.add((n["arm"],))
    for x in blocks:
        if x in goal.held or can_hold(x):
            continue
        if x not in goal.above and all(y in (x, goal.bottom(x)) for y in free_support):
            implied.add((n["clear"], x))
        if x not in goal.below and all(z in (x, goal.top(x)) for z in open_top):
            implied.add((n["ontable"], x))
    closure = frozenset(implied)
    return Closure(EXACT, closure, closure, method, "")


RULES = (blocksworld_closure,)

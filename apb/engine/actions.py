"""The grounded task's building blocks: immutable bitset states, ground actions with their (conditional)
effects and cost, and the result of validating a plan.

A ground action is applicable in a state with bits `b` iff `b & pre_mask == pre_mask`, `not b & neg_mask` and
every formula of `extra` holds (`extra` is empty for STRIPS actions: the masks are then the whole precondition).
Its successor (PDDL semantics, as in Fast Downward): every conditional effect whose condition holds in `b` (the
state *before* the action) contributes its adds and deletes; all deletes are applied first, then all adds; then
the task's axioms recompute the derived facts (see `Task.successor_bits`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from apb.engine.bits import bit_mask
from apb.engine.model import ActionSchema


class State:
    """An immutable, hashable set of true fluent facts, stored as a bitmask over the task's fact ids."""

    __slots__ = ("bits",)

    def __init__(self, bits: int) -> None:
        object.__setattr__(self, "bits", bits)

    def __setattr__(self, name, value):
        raise AttributeError("State is immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and other.bits == self.bits

    def __hash__(self) -> int:
        return hash(self.bits)

    def __repr__(self) -> str:
        return f"State({self.bits:#x})"

    def __reduce__(self):
        return (State, (self.bits,))


# A literal precondition as checked at run time: (fact id or -1 when always unmet, wanted truth, PDDL text).
Condition = tuple[int, bool, str]


class GroundEffect:
    """A conditional effect of a ground action: when `condition` (a ground formula, see apb.engine.formulas)
    holds in the state before the action, the facts `add` are added and `delete` deleted.
    """

    __slots__ = ("add", "add_mask", "condition", "del_mask", "delete")

    def __init__(self, condition, add: tuple[int, ...], delete: tuple[int, ...]) -> None:
        self.condition = condition
        self.add, self.delete = add, delete
        self.add_mask = bit_mask(add)
        self.del_mask = bit_mask(delete)

    def __repr__(self) -> str:
        return f"GroundEffect(when {self.condition.text}: +{self.add} -{self.delete})"


class GroundAction:
    """A ground operator. `str(a) == "(stack a b)"`; ordered and compared by that string.

    - `pre`/`neg` (ids) and `pre_mask`/`neg_mask`: facts that must be true / false (the literal conjuncts of the
      precondition, plus the fact conjuncts of quantified ones); `conditions`: the literal conjuncts as written
      (fact id, wanted truth, PDDL text), for explanations.
    - `parts`: the other (complex) precondition conjuncts as ground formulas, in domain order; `extra` those of
      them the masks do not already decide (empty for STRIPS actions).
    - `add`/`delete` and their masks: the unconditional effects; `effects`: the conditional ones (GroundEffect).
    - `cost`: the step cost (see `Task.cost`).
    """

    __slots__ = ("_conditions", "_key", "_str", "add", "add_mask", "args", "cost", "del_mask", "delete", "effects",
                 "extra", "impossible", "index", "name", "neg", "neg_mask", "parts", "pre", "pre_mask", "schema")

    def __init__(self, schema: ActionSchema, args: tuple[str, ...], pre: tuple[int, ...], neg: tuple[int, ...],
                 add: tuple[int, ...], delete: tuple[int, ...],
                 conditions: tuple[Condition, ...] | Callable[[GroundAction], tuple[Condition, ...]],
                 index: int = -1, *, parts: tuple = (), effects: tuple[GroundEffect, ...] = (),
                 cost: float = 1) -> None:
        """`conditions` may be a function of the action that builds them when first asked for; the action is then
        taken to be possible as far as its literal preconditions go (`impossible` looks only at `parts`)."""
        self.schema = schema
        self.name = schema.name
        self.args = args
        self.pre, self.neg, self.add, self.delete = pre, neg, add, delete
        # pre_mask, neg_mask, add_mask and del_mask are made on first use (`__getattr__`): on a task with a
        # million actions and thousands of facts, each mask is a large integer most actions never need.
        self._conditions = conditions
        self.parts = parts
        if parts:
            self.extra = tuple(p for p in parts if p.const is None and not mask_decided(p))
            # A static or unreachable precondition that can never hold (then the action is not in `task.actions`).
            self.impossible = any(p.const is False for p in parts)
        else:
            self.extra = ()
            self.impossible = False
        if not self.impossible and not callable(conditions):
            self.impossible = any(fid < 0 for fid, _, _ in conditions)
        self.effects = effects
        self.cost = cost
        self.index = index
        self._str = "(" + " ".join((self.name, *args)) + ")"
        self._key = (self.name, args)

    def __getattr__(self, name: str):
        """The masks, made when first asked for (then stored in their slots, so later reads never get here)."""
        ids = _MASK_OF.get(name)
        if ids is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        mask = bit_mask(getattr(self, ids))
        object.__setattr__(self, name, mask)
        return mask

    @property
    def conditions(self) -> tuple[Condition, ...]:
        """The literal preconditions as written: (fact id or -1 when never true, wanted truth, PDDL text)."""
        if callable(self._conditions):
            self._conditions = self._conditions(self)
        return self._conditions

    @property
    def is_strips(self) -> bool:
        """True when the masks are the whole precondition and every effect is unconditional."""
        return not self.extra and not self.effects

    @property
    def never_applicable(self) -> bool:
        """True when a static or unreachable precondition can never hold (the action is not in `task.actions`)."""
        return self.impossible

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"GroundAction{self._str}"

    def __eq__(self, other) -> bool:
        return isinstance(other, GroundAction) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: GroundAction) -> bool:
        return self._str < other._str


_MASK_OF = {"pre_mask": "pre", "neg_mask": "neg", "add_mask": "add", "del_mask": "delete"}


def mask_decided(formula) -> bool:
    """True when a ground formula is a fact or a conjunction of facts (then its masks decide it)."""
    return formula.kind == "fact" or (formula.kind in ("and", "forall") and not formula.complex)


@dataclass
class ValidationResult:
    """Outcome of validating a plan: `failed_step` is the 0-based index of the first failing step.

    `cost` is the summed cost of the steps executed (the plan's cost when valid; see `Task.cost`).
    """

    valid: bool
    steps: int
    final_state: State
    failed_step: int | None = None
    failed_action: str | None = None
    kind: str | None = None  # an ActionError kind, or "goal_not_reached"
    unmet: list[str] = field(default_factory=list)
    reason: str = ""
    line: int | None = None
    cost: float = 0

    def __bool__(self) -> bool:
        return self.valid

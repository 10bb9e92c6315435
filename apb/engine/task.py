"""A grounded planning task: immutable bitset states, applicable/apply/explain, goals and plan validation."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from apb.engine.errors import ActionError, NotApplicableError
from apb.engine.ground import GroundingResult, fact_str, ground
from apb.engine.model import ActionSchema, Domain, Literal, Problem
from apb.engine.plans import parse_plan, read_plan
from apb.engine.successors import SuccessorGenerator

# Up to this many ground actions a linear scan of precondition masks beats the successor generator's tree.
SCAN_LIMIT = 64


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


# A precondition as checked at run time: (fact id or -1 when always unmet, wanted truth, PDDL text).
Condition = tuple[int, bool, str]


class GroundAction:
    """A ground operator. `str(a) == "(stack a b)"`; ordered and compared by that string."""

    __slots__ = ("_key", "_str", "add", "add_mask", "args", "conditions", "del_mask", "delete", "index", "name",
                 "neg", "neg_mask", "pre", "pre_mask", "schema")

    def __init__(self, schema: ActionSchema, args: tuple[str, ...], pre: tuple[int, ...], neg: tuple[int, ...],
                 add: tuple[int, ...], delete: tuple[int, ...], conditions: tuple[Condition, ...],
                 index: int = -1) -> None:
        self.schema = schema
        self.name = schema.name
        self.args = args
        self.pre, self.neg, self.add, self.delete = pre, neg, add, delete
        self.pre_mask = _mask(pre)
        self.neg_mask = _mask(neg)
        self.add_mask = _mask(add)
        self.del_mask = _mask(delete)
        self.conditions = conditions
        self.index = index
        self._str = "(" + " ".join((self.name, *args)) + ")"
        self._key = (self.name, args)

    @property
    def never_applicable(self) -> bool:
        """True when a static or unreachable precondition can never hold (the action is not in `task.actions`)."""
        return any(fid < 0 for fid, _, _ in self.conditions)

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


def _mask(ids: Iterable[int]) -> int:
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


@dataclass
class ValidationResult:
    """Outcome of validating a plan: `failed_step` is the 0-based index of the first failing step."""

    valid: bool
    steps: int
    final_state: State
    failed_step: int | None = None
    failed_action: str | None = None
    kind: str | None = None  # an ActionError kind, or "goal_not_reached"
    unmet: list[str] = field(default_factory=list)
    reason: str = ""
    line: int | None = None

    def __bool__(self) -> bool:
        return self.valid


_ACTION_TEXT = re.compile(r"^\s*\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$|^\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*$")


class Task:
    """A grounded task. Build it with `apb.engine.load_task(domain, problem)`."""

    def __init__(self, domain: Domain, problem: Problem, grounding: GroundingResult | None = None) -> None:
        self.domain = domain
        self.problem = problem
        g = grounding or ground(domain, problem)
        self.objects: dict[str, str] = g.objects
        self._static = g.static_facts
        self._fluent_preds = g.fluent_predicates
        goal_facts = [(lit.predicate, *lit.args) for lit in problem.goal]
        table = {f for f in g.reachable_facts if f[0] in g.fluent_predicates}
        table.update(goal_facts)
        ordered = sorted(table)
        self._fact_ids: dict[tuple, int] = {f: i for i, f in enumerate(ordered)}
        self.fact_names: tuple[str, ...] = tuple(fact_str(f) for f in ordered)
        # Static facts that got an id (only goal facts do): set in every state, hidden from `facts`.
        self._static_bits = _mask(i for i, f in enumerate(ordered) if f in self._static)
        self._cache: dict[tuple[str, tuple[str, ...]], GroundAction] = {}
        actions = [self._make_action(schema, args) for schema, args in g.bindings]
        actions.sort()
        for i, action in enumerate(actions):
            action.index = i
            self._cache[action._key] = action
        self.actions: tuple[GroundAction, ...] = tuple(actions)
        self._checks = tuple((a.pre_mask, a.neg_mask, a) for a in actions)
        self._generator: SuccessorGenerator | None = None
        init_bits = 0
        for lit in problem.init:
            fid = self._fact_ids.get((lit.predicate, *lit.args))
            if fid is not None:
                init_bits |= 1 << fid
        self.initial_state = State(init_bits)
        self.goal: tuple[Literal, ...] = problem.goal
        self.goal_pos: tuple[int, ...] = tuple(self._fact_ids[(lit.predicate, *lit.args)]
                                              for lit in problem.goal if lit.positive)
        self.goal_neg: tuple[int, ...] = tuple(self._fact_ids[(lit.predicate, *lit.args)]
                                              for lit in problem.goal if not lit.positive)
        # The goal as bitmasks: a state is a goal state iff it has every bit of goal_pos_mask and none of
        # goal_neg_mask (search code tests goals on raw bits with these).
        self.goal_pos_mask = _mask(self.goal_pos)
        self.goal_neg_mask = _mask(self.goal_neg)

    # ---- building ground actions -------------------------------------------------------------------------
    def _make_action(self, schema: ActionSchema, args: tuple[str, ...]) -> GroundAction:
        binding = dict(zip((p.name for p in schema.parameters), args))
        pre: list[int] = []
        neg: list[int] = []
        conditions: list[Condition] = []
        for lit in schema.precondition:
            values = tuple(binding.get(a, a) for a in lit.args)
            text = str(Literal(lit.predicate, values, lit.positive))
            if lit.predicate == "=":
                if (values[0] == values[1]) != lit.positive:
                    conditions.append((-1, lit.positive, text))
                continue
            fact = (lit.predicate, *values)
            if lit.predicate not in self._fluent_preds:
                if (fact in self._static) != lit.positive:
                    conditions.append((-1, lit.positive, text))
                continue
            fid = self._fact_ids.get(fact)
            if fid is None:  # a fluent fact that is never true
                if lit.positive:
                    conditions.append((-1, True, text))
                continue
            (pre if lit.positive else neg).append(fid)
            conditions.append((fid, lit.positive, text))
        add: list[int] = []
        delete: list[int] = []
        for eff in schema.effects:
            fid = self._fact_ids.get((eff.predicate, *(binding.get(a, a) for a in eff.args)))
            if fid is not None:
                (add if eff.positive else delete).append(fid)
        return GroundAction(schema, args, tuple(dict.fromkeys(pre)), tuple(dict.fromkeys(neg)),
                            tuple(dict.fromkeys(add)), tuple(dict.fromkeys(delete)), tuple(conditions))

    # ---- the simulation primitives -----------------------------------------------------------------------
    def applicable(self, state: State) -> list[GroundAction]:
        """The ground actions applicable in `state`, sorted by their PDDL string."""
        bits = state.bits
        if len(self._checks) <= SCAN_LIMIT:
            return [a for pre, neg, a in self._checks if bits & pre == pre and not bits & neg]
        actions = self.actions
        return [actions[i] for i in self._successors().applicable_ids(bits)]

    def applicable_ids(self, bits: int) -> list[int]:
        """Indices into `actions` of the actions applicable in the state with these bits, ascending."""
        if len(self._checks) <= SCAN_LIMIT:
            return [a.index for pre, neg, a in self._checks if bits & pre == pre and not bits & neg]
        return self._successors().applicable_ids(bits)

    def _successors(self) -> SuccessorGenerator:
        if self._generator is None:  # built on first use: grounding stays cheap for tasks never simulated
            self._generator = SuccessorGenerator([a.pre for a in self.actions], [a.neg_mask for a in self.actions])
        return self._generator

    def is_applicable(self, state: State, action: GroundAction) -> bool:
        bits = state.bits
        return (not action.never_applicable and bits & action.pre_mask == action.pre_mask
                and not bits & action.neg_mask)

    def explain(self, state: State, action: GroundAction | str) -> list[str]:
        """The unmet preconditions of `action` in `state` as PDDL strings (in domain order); empty iff applicable."""
        action = self._coerce(action)
        bits = state.bits
        unmet = []
        for fid, wanted, text in action.conditions:
            if fid < 0 or bool(bits >> fid & 1) != wanted:
                unmet.append(text)
        return unmet

    def apply(self, state: State, action: GroundAction | str) -> State:
        """The successor state (delete effects first, then add effects); raises NotApplicableError."""
        action = self._coerce(action)
        bits = state.bits
        if action.never_applicable or bits & action.pre_mask != action.pre_mask or bits & action.neg_mask:
            raise NotApplicableError(str(action), self.explain(state, action))
        return State((bits & ~action.del_mask) | action.add_mask)

    def successor(self, state: State, action: GroundAction) -> State:
        """`apply` without the applicability check, for search code that already knows it applies."""
        return State((state.bits & ~action.del_mask) | action.add_mask)

    def facts(self, state: State) -> frozenset[str]:
        """The true fluent facts of `state` as PDDL strings (static facts are not part of states)."""
        return frozenset(self.fact_names[i] for i in self.fact_ids(State(state.bits & ~self._static_bits)))

    def fact_ids(self, state: State) -> list[int]:
        """Ids of the true facts of `state`, ascending."""
        bits = state.bits
        ids = []
        while bits:
            low = bits & -bits
            ids.append(low.bit_length() - 1)
            bits ^= low
        return ids

    @property
    def static_facts(self) -> frozenset[str]:
        """Facts that hold in every state (of predicates no action changes)."""
        return frozenset(fact_str(f) for f in self._static)

    def holds(self, state: State, fact: str) -> bool:
        """Whether a ground atom such as "(on a b)" is true in `state` (static facts included)."""
        key = self._parse_fact(fact)
        if key in self._static:
            return True
        fid = self._fact_ids.get(key)
        return fid is not None and bool(state.bits >> fid & 1)

    def state_from_facts(self, facts: Iterable[str]) -> State:
        """A state with exactly the given fluent facts true (static facts are ignored: they always hold)."""
        bits = self._static_bits
        for fact in facts:
            key = self._parse_fact(fact)
            if key in self._static:
                continue
            fid = self._fact_ids.get(key)
            if fid is None:
                raise ActionError("unknown_object", f"{fact} is not a fact of this task")
            bits |= 1 << fid
        return State(bits)

    def is_goal(self, state: State) -> bool:
        bits = state.bits
        return bits & self.goal_pos_mask == self.goal_pos_mask and not bits & self.goal_neg_mask

    def unsatisfied_goals(self, state: State) -> list[str]:
        """Goal literals that do not hold in `state`, as PDDL strings, in goal order."""
        bits = state.bits
        result = []
        for lit in self.goal:
            fid = self._fact_ids[(lit.predicate, *lit.args)]
            if bool(bits >> fid & 1) != lit.positive:
                result.append(str(lit))
        return result

    # ---- actions from text ---------------------------------------------------------------------------------
    def parse_action(self, text: str) -> GroundAction:
        """A ground action from "(stack a b)" (case and whitespace tolerant, parentheses optional).

        Raises ActionError with kind syntax, unknown_action, wrong_arity, unknown_object or type_mismatch.
        Well-formed actions that can never apply (e.g. a violated static precondition) are returned too, so
        that `explain` can say why.
        """
        if not isinstance(text, str):
            raise ActionError("syntax", f"an action must be a string like '(stack a b)', got {type(text).__name__}")
        match = _ACTION_TEXT.match(text)
        if not match or not text.strip():
            raise ActionError("syntax", f"cannot read {text!r} as an action: write it as '(name arg1 arg2 ...)'",
                              action=text)
        name = (match.group(1) or match.group(3)).lower()
        args = tuple((match.group(2) if match.group(1) else match.group(4)).lower().split())
        cached = self._cache.get((name, args))
        if cached is not None:
            return cached
        schema = self.domain.action(name)
        if schema is None:
            names = [a.name for a in self.domain.actions]
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise ActionError("unknown_action", f"unknown action {name!r}.{hint} Actions: {', '.join(names)}",
                              action=text)
        if len(args) != len(schema.parameters):
            raise ActionError("wrong_arity",
                              f"{name} takes {len(schema.parameters)} argument(s) {schema.pddl_signature()} "
                              f"but {len(args)} were given", action=text)
        for arg, param in zip(args, schema.parameters):
            obj_type = self.objects.get(arg)
            if obj_type is None:
                raise ActionError("unknown_object", f"unknown object {arg!r} in {text.strip()}", action=text)
            if not self.domain.is_subtype(obj_type, param.types):
                raise ActionError("type_mismatch",
                                  f"{arg} is of type {obj_type} but {param.name} of {name} must be of type "
                                  f"{param.type_str}",
                                  action=text)
        action = self._make_action(schema, args)
        self._cache[action._key] = action
        return action

    def _coerce(self, action: GroundAction | str) -> GroundAction:
        return self.parse_action(action) if isinstance(action, str) else action

    def _parse_fact(self, text: str) -> tuple:
        match = _ACTION_TEXT.match(text)
        if not match:
            raise ActionError("syntax", f"cannot read {text!r} as a fact: write it as '(pred arg ...)'")
        name = (match.group(1) or match.group(3)).lower()
        args = (match.group(2) if match.group(1) else match.group(4)).lower().split()
        return (name, *args)

    # ---- plans ---------------------------------------------------------------------------------------------
    def validate(self, plan: Iterable | str | os.PathLike) -> ValidationResult:
        """Executes a plan from the initial state: a plan file path, plan text, a `Plan`, action strings or
        GroundActions. Reports the first failing step with its unmet preconditions, or the unmet goals.
        """
        if isinstance(plan, str | os.PathLike):
            text = os.fspath(plan)
            plan = parse_plan(text) if "(" in text or not text.strip() else read_plan(text)
        steps = getattr(plan, "steps", plan)
        state = self.initial_state
        count = 0
        for i, step in enumerate(steps):
            text = getattr(step, "text", step)
            line = getattr(step, "line", None)
            try:
                action = self._coerce(text)
            except ActionError as err:
                return ValidationResult(False, i, state, i, str(text), err.kind, [], err.message, line)
            unmet = self.explain(state, action)
            if unmet:
                return ValidationResult(False, i, state, i, str(action), "unmet_preconditions", unmet,
                                        f"step {i + 1} {action} is not applicable: unmet "
                                        + ", ".join(unmet), line)
            state = self.successor(state, action)
            count = i + 1
        goals = self.unsatisfied_goals(state)
        if goals:
            return ValidationResult(False, count, state, None, None, "goal_not_reached", goals,
                                    "the plan ends without reaching the goal: unsatisfied " + ", ".join(goals))
        return ValidationResult(True, count, state, reason=f"valid plan of {count} step(s)")

    def run(self, actions: Sequence[GroundAction | str], state: State | None = None) -> State:
        """Applies actions in order (raising on the first inapplicable one) and returns the final state."""
        state = self.initial_state if state is None else state
        for action in actions:
            state = self.apply(state, action)
        return state

    # ---- sizes ---------------------------------------------------------------------------------------------
    @property
    def num_facts(self) -> int:
        return len(self.fact_names)

    def __repr__(self) -> str:
        return (f"Task(domain={self.domain.name!r}, problem={self.problem.name!r}, "
                f"facts={self.num_facts}, actions={len(self.actions)})")

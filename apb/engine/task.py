"""A grounded planning task: immutable bitset states, applicable/apply/explain, goals, costs and plan validation.

This module is the task's runtime API; apb.engine.task_build makes the tables it holds (facts, ground actions,
axioms, goal) from the domain, the problem and their grounding. The grounded representation (for planners,
heuristics and the NL layer):

- facts: `fact_names[i]` is the PDDL of fact id i, a bit of `State.bits`. Fluent facts, derived facts (computed by
  the axioms after every step: `derived_mask`) and goal facts get ids; static facts are folded away.
- `actions`: the reachable `GroundAction`s, sorted by their PDDL string (see apb.engine.actions for masks,
  complex precondition parts and conditional `effects`); `successor_bits(bits, action)` is the transition.
- goal: `goal_pos_mask`/`goal_neg_mask` (the literal conjuncts and the fact conjuncts of quantified goals) and
  `goal_extra` (the ground formulas the masks do not decide); `is_goal_bits(bits)` tests all of it.
- `is_strips`: no conditional effects, no complex preconditions or goals, no axioms: then the masks are the
  whole story and `successor_bits` is `(bits & ~del_mask) | add_mask`.
- `cost(action)`: the step cost; `has_costs` says whether costs come from total-cost (see apb.engine.effects).
- `explain_detail(state, action)` / `goal_detail(state)`: why a precondition / the goal fails, as
  apb.engine.explain.Unmet trees; `explain` / `unsatisfied_goals` give the same as PDDL strings.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable, Sequence

from apb.engine.actions import Condition, GroundAction, State, ValidationResult
from apb.engine.applicable import LinearScan, choose
from apb.engine.axioms import AxiomEvaluator
from apb.engine.bits import bit_ids, bit_mask
from apb.engine.compiled import compile_actions, interpreted_transition
from apb.engine.errors import ActionError, NotApplicableError, PlanError
from apb.engine.explain import Explainer, Unmet
from apb.engine.ground import GroundingProgress, GroundingResult, fact_str, paused_gc
from apb.engine.limits import MAX_ANSWER_CHARS, over_limit
from apb.engine.model import Domain, Literal, Problem
from apb.engine.plan_files import parse_plan, read_plan
from apb.engine.successors import SuccessorGenerator
from apb.engine.task_build import TaskBuilder

__all__ = ["Condition", "GroundAction", "State", "Task", "ValidationResult"]

_ACTION_TEXT = re.compile(r"^\s*\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$|^\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*$")


class Task:
    """A grounded task. Build it with `apb.engine.load_task(domain, problem)`."""

    def __init__(self, domain: Domain, problem: Problem, grounding: GroundingResult | None = None,
                 progress: Callable[[GroundingProgress], None] | None = None, deadline: float | None = None) -> None:
        """`progress`, when given, hears about the grounding after every fixpoint round and once the ground
        actions are built (see apb.engine.ground.GroundingProgress). `deadline` (a time.monotonic() value) stops
        grounding and building with apb.engine.deadline.DeadlineExceeded once it has passed. The tables come from
        apb.engine.task_build.TaskBuilder, which stays to make actions and explanation texts on demand."""
        with paused_gc():  # millions of objects are made here, none of them garbage
            built = self._builder = TaskBuilder(domain, problem, grounding, progress, deadline)
            self.domain = domain
            self.problem = problem
            self.objects: dict[str, str] = built.objects
            self.fact_names: tuple[str, ...] = built.fact_names
            self._fact_ids: dict[tuple, int] = built.fact_ids
            self._static = built.static
            self._static_bits = built.static_bits  # static facts with an id: set in every state, hidden from `facts`
            self.has_costs = built.has_costs
            self.derived_mask = built.derived_mask
            self.axioms: AxiomEvaluator | None = built.axioms
            self._explainer = Explainer(self.axioms)
            self.actions: tuple[GroundAction, ...] = built.actions
            self._cache: dict[tuple[str, tuple[str, ...]], GroundAction] = {a._key: a for a in self.actions}
            # how applicable actions are found (apb.engine.applicable: a scan, numpy matrices or the successor tree)
            self._finder = None
            self._extra_ids = frozenset(a.index for a in self.actions if a.extra)
            self._compiled: tuple[dict, dict] | None = None  # (checks, transitions), see apb.engine.compiled
            self._generator: SuccessorGenerator | None = None
            self.initial_state = State(built.init_bits)
            self.goal: tuple[Literal, ...] = problem.goal
            self._goal_checks = built.goal_checks  # (fact id, wanted, PDDL text) of each goal literal
            self.goal_parts = built.goal_parts
            self.goal_extra = built.goal_extra
            self.goal_pos: tuple[int, ...] = built.goal_pos
            self.goal_neg: tuple[int, ...] = built.goal_neg
            # The goal as bitmasks: a state is a goal state iff it has every bit of goal_pos_mask, none of
            # goal_neg_mask, and every formula of goal_extra holds (search code tests goals with is_goal_bits).
            self.goal_pos_mask = bit_mask(self.goal_pos)
            self.goal_neg_mask = bit_mask(self.goal_neg)
            self.is_strips = built.is_strips

    # ---- the simulation primitives -----------------------------------------------------------------------
    def applicable(self, state: State) -> list[GroundAction]:
        """The ground actions applicable in `state`, sorted by their PDDL string."""
        bits = state.bits
        finder = self._finder or self._choose_finder()
        if finder.__class__ is LinearScan and not self._extra_ids:
            return finder.applicable(bits)
        actions = self.actions
        return [actions[i] for i in self.applicable_ids(bits)]

    def applicable_ids(self, bits: int) -> list[int]:
        """Indices into `actions` of the actions applicable in the state with these bits, ascending."""
        ids = (self._finder or self._choose_finder()).applicable_ids(bits)
        extra = self._extra_ids
        if extra:
            checks = self._compiled_actions()[0]
            ids = [i for i in ids if i not in extra or checks[i](bits)]
        return ids

    def _compiled_actions(self) -> tuple[dict, dict]:
        if self._compiled is None:  # compiled on first use: grounding stays cheap for tasks never simulated
            self._compiled = compile_actions(self.actions)
        return self._compiled

    def _choose_finder(self):
        self._finder = choose(self)
        return self._finder

    def _successors(self) -> SuccessorGenerator:
        if self._generator is None:  # built on first use: grounding stays cheap for tasks never simulated
            with paused_gc():
                self._generator = SuccessorGenerator([a.pre for a in self.actions], [a.neg for a in self.actions])
        return self._generator

    def is_applicable(self, state: State, action: GroundAction) -> bool:
        bits = state.bits
        return (not action.never_applicable and bits & action.pre_mask == action.pre_mask
                and not bits & action.neg_mask and all(f.holds(bits) for f in action.extra))

    def explain(self, state: State, action: GroundAction | str) -> list[str]:
        """The unmet preconditions of `action` in `state` as PDDL strings; empty iff applicable.

        Literal preconditions come first, in domain order, as the atom or "(not atom)"; then complex ones: a
        disjunction or existential that fails as its PDDL, a universal one as its failing instances, a derived
        atom as "<atom> because <what its definition misses>" (see `explain_detail` for the structure).
        """
        return [s for unmet in self.explain_detail(state, action) for s in unmet.strings()]

    def explain_detail(self, state: State, action: GroundAction | str) -> list[Unmet]:
        """Why `action` is not applicable in `state`, as apb.engine.explain.Unmet trees; empty iff applicable."""
        action = self._coerce(action)
        bits = state.bits
        explainer = self._explainer
        unmet: list[Unmet] = []
        for fid, wanted, text in action.conditions:
            if fid < 0 or bool(bits >> fid & 1) != wanted:
                unmet.extend(explainer.literal(fid, wanted, text, bits))
        for part in action.parts:
            unmet.extend(explainer.why(part, bits))
        return unmet

    def apply(self, state: State, action: GroundAction | str) -> State:
        """The successor state (conditional effects, deletes before adds, then axioms); raises
        NotApplicableError when a precondition fails."""
        action = self._coerce(action)
        bits = state.bits
        if (action.never_applicable or bits & action.pre_mask != action.pre_mask or bits & action.neg_mask
                or (action.extra and not self._extra_holds(action, bits))):
            raise NotApplicableError(str(action), self.explain(state, action))
        if self.is_strips:
            return State((bits & ~action.del_mask) | action.add_mask)
        return State(self.successor_bits(bits, action))

    def _extra_holds(self, action: GroundAction, bits: int) -> bool:
        """Whether the complex preconditions of `action` hold: its compiled check where it has one."""
        index = action.index
        if index < len(self.actions) and self.actions[index] is action:
            return self._compiled_actions()[0][index](bits)
        return all(f.holds(bits) for f in action.extra)

    def successor(self, state: State, action: GroundAction) -> State:
        """`apply` without the applicability check, for search code that already knows it applies."""
        if self.is_strips:
            return State((state.bits & ~action.del_mask) | action.add_mask)
        return State(self.successor_bits(state.bits, action))

    def successor_bits(self, bits: int, action: GroundAction) -> int:
        """The successor's bits: effects whose conditions hold in `bits`, deletes first, then the axioms."""
        parent = bits
        if action.effects and action.index < len(self.actions) and self.actions[action.index] is action:
            bits = self._compiled_actions()[1][action.index](bits)
        elif action.effects:  # an action made outside this task's list
            bits = interpreted_transition(action)(bits)
        else:
            bits = (bits & ~action.del_mask) | action.add_mask
        if self.axioms is not None:
            bits = self.axioms.update(parent, bits)
        return bits

    def cost(self, action: GroundAction | str) -> float:
        """The step cost of `action`: its total-cost increase when the problem minimizes total-cost (0 for an
        action without one), else 1 (Fast Downward's convention)."""
        return self._coerce(action).cost

    def facts(self, state: State) -> frozenset[str]:
        """The true fluent and derived facts of `state` as PDDL strings (static facts are not part of states)."""
        return frozenset(self.fact_names[i] for i in self.fact_ids(State(state.bits & ~self._static_bits)))

    def fact_ids(self, state: State) -> list[int]:
        """Ids of the true facts of `state`, ascending."""
        return bit_ids(state.bits)

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
        """A state with exactly the given fluent facts true (static facts are ignored: they always hold; derived
        facts are recomputed from the others)."""
        bits = self._static_bits
        for fact in facts:
            key = self._parse_fact(fact)
            if key in self._static:
                continue
            fid = self._fact_ids.get(key)
            if fid is None:
                raise ActionError("unknown_object", f"{fact} is not a fact of this task")
            bits |= 1 << fid
        if self.axioms is not None:
            bits = self.axioms.closure(bits)
        return State(bits)

    def is_goal(self, state: State) -> bool:
        bits = state.bits
        return (bits & self.goal_pos_mask == self.goal_pos_mask and not bits & self.goal_neg_mask
                and (not self.goal_extra or all(f.holds(bits) for f in self.goal_extra)))

    def is_goal_bits(self, bits: int) -> bool:
        """The goal test on raw state bits."""
        return (bits & self.goal_pos_mask == self.goal_pos_mask and not bits & self.goal_neg_mask
                and (not self.goal_extra or all(f.holds(bits) for f in self.goal_extra)))

    def unsatisfied_goals(self, state: State) -> list[str]:
        """The goal's unmet conditions as PDDL strings: literals in goal order, then complex conditions as
        `explain` renders them."""
        return [s for unmet in self.goal_detail(state) for s in unmet.strings()]

    def goal_detail(self, state: State) -> list[Unmet]:
        """Why `state` is not a goal state, as apb.engine.explain.Unmet trees; empty iff it is."""
        bits = state.bits
        unmet: list[Unmet] = []
        for fid, wanted, text in self._goal_checks:
            if bool(bits >> fid & 1) != wanted:
                unmet.extend(self._explainer.literal(fid, wanted, text, bits))
        for part in self.goal_parts:
            unmet.extend(self._explainer.why(part, bits))
        return unmet

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
        action = self._builder.make_action(schema, args)
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
    def validate(self, plan: Iterable | str) -> ValidationResult:
        """Executes a plan from the initial state: plan text, a `Plan`, action strings or GroundActions. Reports
        the first failing step with its unmet preconditions, or the unmet goals, and the cost of the steps executed.

        Text is only ever read as plan text (never opened as a file: `validate_file` reads plan files), and any
        string gets a verdict, never an exception: text that is not one `(action ...)` per line is invalid with kind
        `syntax`, text over `apb.engine.limits.MAX_ANSWER_CHARS` invalid with kind `too_long`.
        """
        if isinstance(plan, os.PathLike):
            raise TypeError("Task.validate takes plan text, a Plan or actions, never a path: read a plan file with "
                            "Task.validate_file(path)")
        if isinstance(plan, str):
            refused = over_limit(plan, MAX_ANSWER_CHARS, "plan text")
            if refused is not None:
                return ValidationResult(False, 0, self.initial_state, kind="too_long", reason=refused)
            try:
                plan = parse_plan(plan)
            except PlanError as err:
                return ValidationResult(False, 0, self.initial_state, kind="syntax", reason=err.message,
                                        line=err.line)
        return self._execute(plan)

    def validate_file(self, path: str | os.PathLike) -> ValidationResult:
        """`validate` on a plan file (for plans a user gives, never for model output); an unreadable or malformed
        file raises PlanError naming the file and line."""
        return self._execute(read_plan(path))

    def _execute(self, plan: Iterable) -> ValidationResult:
        steps = getattr(plan, "steps", plan)
        state = self.initial_state
        count = 0
        cost = 0
        for i, step in enumerate(steps):
            text = getattr(step, "text", step)
            line = getattr(step, "line", None)
            try:
                action = self._coerce(text)
            except ActionError as err:
                return ValidationResult(False, i, state, i, str(text), err.kind, [], err.message, line, cost)
            if not self.is_applicable(state, action):
                unmet = self.explain(state, action)
                return ValidationResult(False, i, state, i, str(action), "unmet_preconditions", unmet,
                                        f"step {i + 1} {action} is not applicable: unmet "
                                        + ", ".join(unmet), line, cost)
            state = self.successor(state, action)
            cost += action.cost
            count = i + 1
        goals = self.unsatisfied_goals(state)
        if goals:
            return ValidationResult(False, count, state, None, None, "goal_not_reached", goals,
                                    "the plan ends without reaching the goal: unsatisfied " + ", ".join(goals),
                                    cost=cost)
        cost_text = f", cost {cost:g}" if self.has_costs else ""
        return ValidationResult(True, count, state, reason=f"valid plan of {count} step(s){cost_text}", cost=cost)

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

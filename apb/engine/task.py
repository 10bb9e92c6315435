"""A grounded planning task: immutable bitset states, applicable/apply/explain, goals, costs and plan validation.

The grounded representation (for planners, heuristics and the NL layer):

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
import functools
import itertools
import operator
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence

from apb.engine.actions import Condition, GroundAction, State, ValidationResult, mask_decided
from apb.engine.applicable import LinearScan, choose
from apb.engine.axioms import AxiomEvaluator, stratify
from apb.engine.bits import bit_ids, bit_mask
from apb.engine.compiled import compile_actions, interpreted_transition
from apb.engine.effects import EffectGrounder, action_cost, uses_costs
from apb.engine.errors import ActionError, NotApplicableError, PlanError
from apb.engine.explain import Explainer, Unmet
from apb.engine.formulas import FormulaGrounder, make, to_nnf
from apb.engine.ground import GroundingProgress, GroundingResult, fact_str, ground, paused_gc
from apb.engine.instantiation import ActionTemplate, effects_decided, literal_parts
from apb.engine.limits import MAX_ANSWER_CHARS, over_limit
from apb.engine.model import ActionSchema, Domain, Literal, Problem
from apb.engine.plan_files import parse_plan, read_plan
from apb.engine.successors import SuccessorGenerator

__all__ = ["Condition", "GroundAction", "State", "Task", "ValidationResult"]

_BY_TEXT = operator.attrgetter("_str")

# From this many bindings of a STRIPS schema on, its actions are made by one generated loop (compiling it costs
# more than it saves on fewer).
BULK_MIN = 256
# Below this many bindings a schema's template is interpreted (compiling its generated code costs more).
COMPILE_MIN = 48

_ACTION_TEXT = re.compile(r"^\s*\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$|^\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*$")


def _fact_parts(formula) -> tuple[list[int], list[int]]:
    """(positive, negative) fact ids of a mask-decided ground formula (a fact or a conjunction of facts)."""
    children = (formula,) if formula.kind == "fact" else formula.children
    pos = [c.fid for c in children if c.kind == "fact" and c.positive and c.fid >= 0]
    neg = [c.fid for c in children if c.kind == "fact" and not c.positive and c.fid >= 0]
    return pos, neg


class Task:
    """A grounded task. Build it with `apb.engine.load_task(domain, problem)`."""

    def __init__(self, domain: Domain, problem: Problem, grounding: GroundingResult | None = None,
                 progress: Callable[[GroundingProgress], None] | None = None) -> None:
        """`progress`, when given, hears about the grounding after every fixpoint round and once the ground
        actions are built (see apb.engine.ground.GroundingProgress)."""
        with paused_gc():  # millions of objects are made here, none of them garbage
            self._build(domain, problem, grounding, progress)

    def _build(self, domain: Domain, problem: Problem, grounding: GroundingResult | None,
               progress: Callable[[GroundingProgress], None] | None) -> None:
        started = time.perf_counter()
        self.domain = domain
        self.problem = problem
        g = grounding or ground(domain, problem, progress)
        self.objects: dict[str, str] = g.objects
        self._static = g.static_facts
        self._fluent_preds = g.fluent_predicates
        static_preds = frozenset(domain.predicates) - g.fluent_predicates
        goal_facts = [(lit.predicate, *lit.args) for lit in problem.goal if lit.predicate != "="]
        table = {f for f in g.reachable_facts if f[0] in g.fluent_predicates}
        table.update(goal_facts)
        ordered = sorted(table)
        self._fact_ids: dict[tuple, int] = {f: i for i, f in enumerate(ordered)}
        self.fact_names: tuple[str, ...] = tuple(fact_str(f) for f in ordered)
        # Static facts that got an id (only goal facts do): set in every state, hidden from `facts`.
        self._static_bits = bit_mask(i for i, f in enumerate(ordered) if f in self._static)
        objects_of = g.objects_of or self._objects_of
        self._formulas = FormulaGrounder(self._fact_ids.get, static_preds, self._static, objects_of)
        self._effects = EffectGrounder(self._formulas, self._fact_ids.get, objects_of)
        self._complex_nnf: dict[int, list] = {}
        self.has_costs = uses_costs(problem)
        derived = domain.derived_predicates
        self.derived_mask = bit_mask(i for i, f in enumerate(ordered) if f[0] in derived)
        self.axioms: AxiomEvaluator | None = self._ground_axioms(g) if domain.axioms else None
        self._explainer = Explainer(self.axioms)
        self._cache: dict[tuple[str, tuple[str, ...]], GroundAction] = {}
        actions = self._make_actions(g.bindings)
        if progress is not None:
            progress(GroundingProgress(0, len(g.reachable_facts), len(actions), time.perf_counter() - started,
                                       done=True, phase="actions"))
        actions.sort(key=_BY_TEXT)  # = sorted by __lt__ (the PDDL string), without a Python call per comparison
        for i, action in enumerate(actions):
            action.index = i
            self._cache[action._key] = action
        self.actions: tuple[GroundAction, ...] = tuple(actions)
        # how applicable actions are found (apb.engine.applicable: a scan, numpy matrices or the successor tree)
        self._finder = None
        self._extra_ids = frozenset(a.index for a in actions if a.extra)
        self._compiled: tuple[dict, dict] | None = None  # (checks, transitions), see apb.engine.compiled
        self._generator: SuccessorGenerator | None = None
        init_bits = 0
        for lit in problem.init:
            fid = self._fact_ids.get((lit.predicate, *lit.args))
            if fid is not None:
                init_bits |= 1 << fid
        if self.axioms is not None:
            init_bits = self.axioms.closure(init_bits)
        self.initial_state = State(init_bits)
        self.goal: tuple[Literal, ...] = problem.goal
        atoms = [lit for lit in problem.goal if lit.predicate != "="]  # equalities are decided like formulas
        goal_pos = [self._fact_ids[(lit.predicate, *lit.args)] for lit in atoms if lit.positive]
        goal_neg = [self._fact_ids[(lit.predicate, *lit.args)] for lit in atoms if not lit.positive]
        self._goal_atoms = tuple(atoms)
        # (fact id, wanted, PDDL text) of each goal literal, for goal_detail (built once: str() of a literal is slow)
        self._goal_checks = tuple((self._fact_ids[(lit.predicate, *lit.args)], lit.positive, str(lit))
                                  for lit in atoms)
        formulas = [*(lit for lit in problem.goal if lit.predicate == "="), *problem.complex_goal]
        parts = [self._formulas.ground(to_nnf(part), {}) for part in formulas]
        self.goal_parts = tuple(p for p in parts if p.const is not True)
        for part in self.goal_parts:
            if part.const is None and mask_decided(part):
                pos, neg = _fact_parts(part)
                goal_pos.extend(pos)
                goal_neg.extend(neg)
        self.goal_extra = tuple(p for p in self.goal_parts if p.const is False or not mask_decided(p))
        self.goal_pos: tuple[int, ...] = tuple(dict.fromkeys(goal_pos))
        self.goal_neg: tuple[int, ...] = tuple(dict.fromkeys(goal_neg))
        # The goal as bitmasks: a state is a goal state iff it has every bit of goal_pos_mask, none of
        # goal_neg_mask, and every formula of goal_extra holds (search code tests goals with is_goal_bits).
        self.goal_pos_mask = bit_mask(self.goal_pos)
        self.goal_neg_mask = bit_mask(self.goal_neg)
        self.is_strips = self.axioms is None and not self.goal_extra and all(a.is_strips for a in actions)

    def _objects_of(self, types: tuple[str, ...]) -> frozenset[str]:
        return frozenset(o for o, t in self.objects.items() if self.domain.is_subtype(t, types))

    def _ground_axioms(self, g: GroundingResult) -> AxiomEvaluator:
        """The ground axioms by stratum. An axiom that joined as rules (apb.engine.ground: its body's normal form)
        gets, per head, the disjunction of its rule instances' literal conjunctions, which grounding found already;
        the others get their ground bodies. Explanations always see the ground bodies as written (`_axiom_bodies`,
        made when first asked for)."""
        strata = stratify(self.domain)
        layers: list[list] = [[] for _ in range(max(strata.values(), default=0) + 1)]
        nnf: dict[int, object] = {}
        sources: dict[int, list] = {}  # head fact id -> (axiom, head arguments)
        literal = self._formulas.literal
        for position, axiom in enumerate(self.domain.axioms):
            rules = g.axiom_rules.get(position)
            if rules is None:
                continue
            arity = len(axiom.parameters)
            options: dict[int, list] = {}
            for rule, args in rules:
                fid = self._fact_ids.get((axiom.predicate, *args[:arity]))
                if fid is None:
                    continue
                binding = dict(zip((p.name for p in rule.parameters), args))
                conjunction = make("and", tuple(literal(lit, binding) for lit in rule.precondition))
                if conjunction.const is not False:
                    options.setdefault(fid, []).append(conjunction)
            for fid, found in options.items():
                body = make("or", tuple(found))
                if body.const is not False:
                    layers[strata[axiom.predicate]].append((fid, body))
        for axiom, args in g.axiom_bindings:
            fid = self._fact_ids.get((axiom.predicate, *args))
            if fid is None:
                continue
            sources.setdefault(fid, []).append((axiom, args))
            if self.domain.axioms.index(axiom) in g.axiom_rules:
                continue
            key = id(axiom)
            if key not in nnf:
                nnf[key] = to_nnf(axiom.body)
            body = self._formulas.ground(nnf[key], dict(zip((p.name for p in axiom.parameters), args)),
                                         droppable=True)
            if body.const is not False:  # an axiom that can never fire is left out
                layers[strata[axiom.predicate]].append((fid, body))
        self._axiom_sources = sources
        return AxiomEvaluator(layers, self.derived_mask, self._axiom_bodies)

    def _axiom_bodies(self, fid: int) -> list:
        """The ground bodies, as written, of the axioms whose head is fact `fid` (for explanations)."""
        bodies = []
        for axiom, args in self._axiom_sources.get(fid, ()):
            body = self._formulas.ground(to_nnf(axiom.body), dict(zip((p.name for p in axiom.parameters), args)),
                                         droppable=True)
            if body.const is not False:
                bodies.append(body)
        return bodies

    # ---- building ground actions -------------------------------------------------------------------------
    def _make_actions(self, bindings) -> list[GroundAction]:
        """The possible ground actions of reachable bindings: the literal part by a compiled template per schema
        (apb.engine.instantiation), complex preconditions and conditional effects as in `_make_action`."""
        templates: dict[int, ActionTemplate] = {}
        fact_id = self._fact_ids.get
        actions: list[GroundAction] = []
        for schema, group in itertools.groupby(bindings, key=operator.itemgetter(0)):
            found = [args for _, args in group]
            if len(found) < COMPILE_MIN and id(schema) not in templates:  # no template: interpreted
                inline = effects_decided(schema, self._fluent_preds)
                make = functools.partial(literal_parts, schema, fluent=self._fluent_preds, static=self._static,
                                         fid=fact_id, problem=self.problem, has_costs=self.has_costs,
                                         effects_inline=inline)
                actions += self._make_general(schema, make, inline, found)
                continue
            template = templates.get(id(schema))
            if template is None:
                template = templates[id(schema)] = ActionTemplate(schema, self._fluent_preds, self._static, fact_id,
                                                                  self.problem, self.has_costs)
            if template.bulk and len(found) >= BULK_MIN:  # the actions from one generated loop per schema
                actions += template.build_all(found, self._conditions_of, GroundAction)
            else:
                make = template.make if len(found) >= COMPILE_MIN else template.make_interpreted
                actions += self._make_general(schema, make, template.effects_inline, found)
        return actions

    def _make_general(self, schema: ActionSchema, make: Callable, effects_inline: bool,
                      bindings) -> list[GroundAction]:
        """The possible ground actions of these bindings of a schema, one call of its template's `make` each."""
        actions = []
        for args in bindings:
            made = make(args)
            if made is None:  # a static, equality or unreachable precondition fails
                continue
            pre, neg, add, delete, cost = made
            parts: tuple = ()
            effects: tuple = ()
            if schema.complex_precondition or not effects_inline:
                binding = dict(zip((p.name for p in schema.parameters), args))
                if schema.complex_precondition:
                    parts = self._complex_parts(schema, binding, pre, neg)
                if not effects_inline:  # else the template gave the effects
                    add, delete, effects = self._effects.ground(schema, binding)
            action = GroundAction(schema, args, tuple(dict.fromkeys(pre)), tuple(dict.fromkeys(neg)),
                                  tuple(dict.fromkeys(add)), tuple(dict.fromkeys(delete)), self._conditions_of,
                                  parts=parts, effects=effects, cost=cost)
            if not action.impossible:
                actions.append(action)
        return actions

    def _conditions_of(self, action: GroundAction) -> tuple[Condition, ...]:
        binding = dict(zip((p.name for p in action.schema.parameters), action.args))
        return tuple(self._literal_conditions(action.schema, binding, [], []))

    def _complex_parts(self, schema: ActionSchema, binding: dict[str, str], pre: list[int], neg: list[int]) -> tuple:
        """The complex precondition's ground parts that are not always true; the fact conjuncts of those the
        masks decide are added to `pre` / `neg`."""
        key = id(schema)
        if key not in self._complex_nnf:
            self._complex_nnf[key] = [to_nnf(p) for p in schema.complex_precondition]
        grounded = (self._formulas.ground(n, binding) for n in self._complex_nnf[key])
        parts = tuple(p for p in grounded if p.const is not True)
        for part in parts:
            if part.const is None and mask_decided(part):
                pos, negs = _fact_parts(part)
                pre.extend(pos)
                neg.extend(negs)
        return parts

    def _make_action(self, schema: ActionSchema, args: tuple[str, ...]) -> GroundAction:
        binding = dict(zip((p.name for p in schema.parameters), args))
        pre: list[int] = []
        neg: list[int] = []
        conditions = self._literal_conditions(schema, binding, pre, neg)
        parts: tuple = ()
        if schema.complex_precondition:
            parts = self._complex_parts(schema, binding, pre, neg)
        if schema.is_strips:
            add: list[int] = []
            delete: list[int] = []
            for eff in schema.effects:
                fid = self._fact_ids.get((eff.predicate, *(binding.get(a, a) for a in eff.args)))
                if fid is not None:
                    (add if eff.positive else delete).append(fid)
            adds, deletes, effects = tuple(dict.fromkeys(add)), tuple(dict.fromkeys(delete)), ()
        else:
            adds, deletes, effects = self._effects.ground(schema, binding)
        cost = action_cost(schema, binding, self.problem, self.has_costs)
        return GroundAction(schema, args, tuple(dict.fromkeys(pre)), tuple(dict.fromkeys(neg)), adds, deletes,
                            tuple(conditions), parts=parts, effects=effects, cost=cost)

    def _literal_conditions(self, schema: ActionSchema, binding: dict[str, str], pre: list[int],
                            neg: list[int]) -> list[Condition]:
        """The literal preconditions as Conditions; the ids of the fluent ones are added to `pre` / `neg`."""
        conditions: list[Condition] = []
        for lit in schema.precondition:
            values = tuple(binding.get(a, a) for a in lit.args)
            text = "(" + " ".join((lit.predicate, *values)) + ")"
            if not lit.positive:
                text = f"(not {text})"
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
        return conditions

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

"""Building a grounded task: from a domain, a problem and their grounding to the tables an apb.engine.task.Task holds.

`TaskBuilder(domain, problem, grounding, progress)` grounds the task (apb.engine.ground) unless it is given the
grounding, then makes:

- the fact table: an id per fluent, derived and goal fact (`fact_ids`, `fact_names`); static facts are folded away
  (`static`), those that got an id (goal facts) are `static_bits`, set in every state;
- the ground axioms by stratum (`axioms`, an apb.engine.axioms.AxiomEvaluator, or None without axioms);
- the reachable ground actions, sorted by their PDDL string, each with its index (`actions`): the literal part by
  a template per schema (apb.engine.instantiation; one generated loop per STRIPS schema with many bindings,
  compiled with fewer, interpreted with few), complex preconditions and conditional effects by the formula and
  effect grounders;
- the initial state's bits (`init_bits`) and the goal: literal checks, masks and the formulas they do not decide.

The builder stays with its task: it makes the actions `Task.parse_action` meets outside `actions` (`make_action`),
an action's explanation texts when first asked for (`conditions_of`) and the axiom bodies as written that
explanations show (`axiom_bodies`).
"""

from __future__ import annotations

import functools
import itertools
import operator
import time
from collections.abc import Callable

from apb.engine.actions import Condition, GroundAction, mask_decided
from apb.engine.axioms import AxiomEvaluator, stratify
from apb.engine.bits import bit_mask
from apb.engine.deadline import check_deadline, in_chunks
from apb.engine.effects import EffectGrounder, action_cost, uses_costs
from apb.engine.formulas import FormulaGrounder, make, to_nnf
from apb.engine.ground import GroundingProgress, GroundingResult, fact_str, ground
from apb.engine.instantiation import ActionTemplate, effects_decided, literal_parts
from apb.engine.model import ActionSchema, Domain, Problem

__all__ = ["BULK_MIN", "COMPILE_MIN", "TaskBuilder"]

_BY_TEXT = operator.attrgetter("_str")

# From this many bindings of a STRIPS schema on, its actions are made by one generated loop (compiling it costs
# more than it saves on fewer).
BULK_MIN = 256
# Below this many bindings a schema's template is interpreted (compiling its generated code costs more).
COMPILE_MIN = 48
BUILDING = "building the ground actions"  # what a DeadlineExceeded names


def _fact_parts(formula) -> tuple[list[int], list[int]]:
    """(positive, negative) fact ids of a mask-decided ground formula (a fact or a conjunction of facts)."""
    children = (formula,) if formula.kind == "fact" else formula.children
    pos = [c.fid for c in children if c.kind == "fact" and c.positive and c.fid >= 0]
    neg = [c.fid for c in children if c.kind == "fact" and not c.positive and c.fid >= 0]
    return pos, neg


class TaskBuilder:
    """The tables of a grounded task (see the module docstring). Call it inside `apb.engine.ground.paused_gc`:
    millions of objects are made, none of them garbage."""

    def __init__(self, domain: Domain, problem: Problem, grounding: GroundingResult | None = None,
                 progress: Callable[[GroundingProgress], None] | None = None, deadline: float | None = None) -> None:
        started = time.perf_counter()
        self.domain = domain
        self.problem = problem
        self.deadline = deadline  # while the tables are built (apb.engine.deadline)
        g = grounding or ground(domain, problem, progress, deadline)
        self.objects: dict[str, str] = g.objects
        self.static = g.static_facts
        self.fluent_preds = g.fluent_predicates
        static_preds = frozenset(domain.predicates) - g.fluent_predicates
        goal_facts = [(lit.predicate, *lit.args) for lit in problem.goal if lit.predicate != "="]
        table = {f for f in g.reachable_facts if f[0] in g.fluent_predicates}
        table.update(goal_facts)
        ordered = sorted(table)
        self.fact_ids: dict[tuple, int] = {f: i for i, f in enumerate(ordered)}
        self.fact_names: tuple[str, ...] = tuple(fact_str(f) for f in ordered)
        # Static facts that got an id (only goal facts do): set in every state, hidden from `Task.facts`.
        self.static_bits = bit_mask(i for i, f in enumerate(ordered) if f in self.static)
        objects_of = g.objects_of or self._objects_of
        self.formulas = FormulaGrounder(self.fact_ids.get, static_preds, self.static, objects_of)
        self._effects = EffectGrounder(self.formulas, self.fact_ids.get, objects_of)
        self._complex_nnf: dict[int, list] = {}
        self.has_costs = uses_costs(problem)
        derived = domain.derived_predicates
        self.derived_mask = bit_mask(i for i, f in enumerate(ordered) if f[0] in derived)
        self.axiom_sources: dict[int, list] = {}  # head fact id -> (axiom, head arguments)
        self.axioms: AxiomEvaluator | None = self._ground_axioms(g) if domain.axioms else None
        actions = self._make_actions(g.bindings)
        self.deadline = None  # built: later work (actions made on demand) has none
        if progress is not None:
            progress(GroundingProgress(0, len(g.reachable_facts), len(actions), time.perf_counter() - started,
                                       done=True, phase="actions"))
        actions.sort(key=_BY_TEXT)  # = sorted by __lt__ (the PDDL string), without a Python call per comparison
        for i, action in enumerate(actions):
            action.index = i
        self.actions: tuple[GroundAction, ...] = tuple(actions)
        init_bits = 0
        for lit in problem.init:
            fid = self.fact_ids.get((lit.predicate, *lit.args))
            if fid is not None:
                init_bits |= 1 << fid
        self.init_bits = init_bits if self.axioms is None else self.axioms.closure(init_bits)
        self._ground_goal(problem)
        self.is_strips = self.axioms is None and not self.goal_extra and all(a.is_strips for a in actions)

    def _objects_of(self, types: tuple[str, ...]) -> frozenset[str]:
        return frozenset(o for o, t in self.objects.items() if self.domain.is_subtype(t, types))

    def _ground_goal(self, problem: Problem) -> None:
        """The goal's literal checks, masks and the ground formulas the masks do not decide."""
        atoms = [lit for lit in problem.goal if lit.predicate != "="]  # equalities are decided like formulas
        goal_pos = [self.fact_ids[(lit.predicate, *lit.args)] for lit in atoms if lit.positive]
        goal_neg = [self.fact_ids[(lit.predicate, *lit.args)] for lit in atoms if not lit.positive]
        # (fact id, wanted, PDDL text) of each goal literal, for goal_detail (built once: str() of a literal is slow)
        self.goal_checks = tuple((self.fact_ids[(lit.predicate, *lit.args)], lit.positive, str(lit))
                                 for lit in atoms)
        formulas = [*(lit for lit in problem.goal if lit.predicate == "="), *problem.complex_goal]
        parts = [self.formulas.ground(to_nnf(part), {}) for part in formulas]
        self.goal_parts = tuple(p for p in parts if p.const is not True)
        for part in self.goal_parts:
            if part.const is None and mask_decided(part):
                pos, neg = _fact_parts(part)
                goal_pos.extend(pos)
                goal_neg.extend(neg)
        self.goal_extra = tuple(p for p in self.goal_parts if p.const is False or not mask_decided(p))
        self.goal_pos: tuple[int, ...] = tuple(dict.fromkeys(goal_pos))
        self.goal_neg: tuple[int, ...] = tuple(dict.fromkeys(goal_neg))

    # ---- axioms --------------------------------------------------------------------------------------------
    def _ground_axioms(self, g: GroundingResult) -> AxiomEvaluator:
        """The ground axioms by stratum. An axiom that joined as rules (apb.engine.ground: its body's normal form)
        gets, per head, the disjunction of its rule instances' literal conjunctions, which grounding found already;
        the others get their ground bodies. Explanations always see the ground bodies as written (`axiom_bodies`,
        made when first asked for)."""
        strata = stratify(self.domain)
        layers: list[list] = [[] for _ in range(max(strata.values(), default=0) + 1)]
        nnf: dict[int, object] = {}
        sources = self.axiom_sources
        literal = self.formulas.literal
        for position, axiom in enumerate(self.domain.axioms):
            rules = g.axiom_rules.get(position)
            if rules is None:
                continue
            arity = len(axiom.parameters)
            options: dict[int, list] = {}
            for rule, args in rules:
                fid = self.fact_ids.get((axiom.predicate, *args[:arity]))
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
            fid = self.fact_ids.get((axiom.predicate, *args))
            if fid is None:
                continue
            sources.setdefault(fid, []).append((axiom, args))
            if self.domain.axioms.index(axiom) in g.axiom_rules:
                continue
            key = id(axiom)
            if key not in nnf:
                nnf[key] = to_nnf(axiom.body)
            body = self.formulas.ground(nnf[key], dict(zip((p.name for p in axiom.parameters), args)),
                                        droppable=True)
            if body.const is not False:  # an axiom that can never fire is left out
                layers[strata[axiom.predicate]].append((fid, body))
        return AxiomEvaluator(layers, self.derived_mask, self.axiom_bodies)

    def axiom_bodies(self, fid: int) -> list:
        """The ground bodies, as written, of the axioms whose head is fact `fid` (for explanations)."""
        bodies = []
        for axiom, args in self.axiom_sources.get(fid, ()):
            body = self.formulas.ground(to_nnf(axiom.body), dict(zip((p.name for p in axiom.parameters), args)),
                                        droppable=True)
            if body.const is not False:
                bodies.append(body)
        return bodies

    # ---- ground actions ------------------------------------------------------------------------------------
    def _make_actions(self, bindings) -> list[GroundAction]:
        """The possible ground actions of reachable bindings: the literal part by a compiled template per schema
        (apb.engine.instantiation), complex preconditions and conditional effects as in `make_action`."""
        templates: dict[int, ActionTemplate] = {}
        fact_id = self.fact_ids.get
        actions: list[GroundAction] = []
        for schema, group in itertools.groupby(bindings, key=operator.itemgetter(0)):
            check_deadline(self.deadline, BUILDING)
            found = [args for _, args in group]
            if len(found) < COMPILE_MIN and id(schema) not in templates:  # no template: interpreted
                inline = effects_decided(schema, self.fluent_preds)
                make = functools.partial(literal_parts, schema, fluent=self.fluent_preds, static=self.static,
                                         fid=fact_id, problem=self.problem, has_costs=self.has_costs,
                                         effects_inline=inline)
                actions += self._make_general(schema, make, inline, found)
                continue
            template = templates.get(id(schema))
            if template is None:
                template = templates[id(schema)] = ActionTemplate(schema, self.fluent_preds, self.static, fact_id,
                                                                  self.problem, self.has_costs)
            if template.bulk and len(found) >= BULK_MIN:  # the actions from one generated loop per schema
                for part in in_chunks(found, self.deadline, BUILDING):
                    actions += template.build_all(part, self.conditions_of, GroundAction)
            else:
                make = template.make if len(found) >= COMPILE_MIN else template.make_interpreted
                actions += self._make_general(schema, make, template.effects_inline, found)
        return actions

    def _make_general(self, schema: ActionSchema, make: Callable, effects_inline: bool,
                      bindings) -> list[GroundAction]:
        """The possible ground actions of these bindings of a schema, one call of its template's `make` each."""
        actions = []
        for args in itertools.chain.from_iterable(in_chunks(bindings, self.deadline, BUILDING)):
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
                                  tuple(dict.fromkeys(add)), tuple(dict.fromkeys(delete)), self.conditions_of,
                                  parts=parts, effects=effects, cost=cost)
            if not action.impossible:
                actions.append(action)
        return actions

    def conditions_of(self, action: GroundAction) -> tuple[Condition, ...]:
        """The explanation texts of an action's literal preconditions (asked for by `GroundAction.conditions`)."""
        binding = dict(zip((p.name for p in action.schema.parameters), action.args))
        return tuple(self._literal_conditions(action.schema, binding, [], []))

    def _complex_parts(self, schema: ActionSchema, binding: dict[str, str], pre: list[int], neg: list[int]) -> tuple:
        """The complex precondition's ground parts that are not always true; the fact conjuncts of those the
        masks decide are added to `pre` / `neg`."""
        key = id(schema)
        if key not in self._complex_nnf:
            self._complex_nnf[key] = [to_nnf(p) for p in schema.complex_precondition]
        grounded = (self.formulas.ground(n, binding) for n in self._complex_nnf[key])
        parts = tuple(p for p in grounded if p.const is not True)
        for part in parts:
            if part.const is None and mask_decided(part):
                pos, negs = _fact_parts(part)
                pre.extend(pos)
                neg.extend(negs)
        return parts

    def make_action(self, schema: ActionSchema, args: tuple[str, ...]) -> GroundAction:
        """The ground action of `schema` with these arguments, by the general (interpreted) path; it may be one
        that can never apply."""
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
                fid = self.fact_ids.get((eff.predicate, *(binding.get(a, a) for a in eff.args)))
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
            if lit.predicate not in self.fluent_preds:
                if (fact in self.static) != lit.positive:
                    conditions.append((-1, lit.positive, text))
                continue
            fid = self.fact_ids.get(fact)
            if fid is None:  # a fluent fact that is never true
                if lit.positive:
                    conditions.append((-1, True, text))
                continue
            (pre if lit.positive else neg).append(fid)
            conditions.append((fid, lit.positive, text))
        return conditions

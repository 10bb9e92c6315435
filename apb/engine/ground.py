"""Grounds a lifted domain + problem by relaxed reachability: the reachable facts and operator/axiom bindings.

Only operators whose preconditions may hold when deletes are ignored are kept (negated fluent conditions count as
true, static facts are exact); their add effects, conditional ones whose condition may hold, and the heads of
axioms whose bodies may hold are reachable. Static facts (of predicates no action changes and no axiom derives)
are checked during grounding and then folded away. Parameters may bind the same object twice unless a
precondition forbids it.

The fixpoint is semi-naive (`ground`): after a first join of every schema over the initial facts, each round joins
only the facts the previous round reached, each with the facts reached so far (and not with another fresh fact
through an earlier literal: caldera-sat18 p05 found its 7,200 wmic bindings 122,880 times without this rule, 8,640
with it), through a join order compiled per schema and starting literal (`apb.engine.joins`), with the facts indexed
by the argument values already bound; a join plan that runs often is generated as one Python function of nested
loops. No cyclic garbage collection runs meanwhile (`paused_gc`). `progress` hears about every round.
"""

from __future__ import annotations

import gc
import itertools
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from apb.engine.deadline import check_deadline, in_chunks
from apb.engine.formulas import NNF, RelaxedFacts, bindings_of, to_nnf
from apb.engine.joins import _FactIndex, _SchemaGrounder
from apb.engine.model import ActionSchema, And, Axiom, Domain, Literal, Parameter, Problem
from apb.engine.reader import split_conjuncts

Fact = tuple  # (predicate, arg, ...)
GROUNDING = "grounding"  # what a DeadlineExceeded names


def fact_str(fact: Fact) -> str:
    return "(" + " ".join(fact) + ")"


@dataclass
class GroundingResult:
    """Reachable fluent facts and reachable operator bindings, in a deterministic order."""

    objects: dict[str, str]
    static_facts: frozenset
    fluent_predicates: frozenset
    reachable_facts: set
    bindings: list[tuple[ActionSchema, tuple[str, ...]]]
    axiom_bindings: list[tuple[Axiom, tuple[str, ...]]] = field(default_factory=list)
    objects_of: object = None
    # For each axiom whose body joined as rules (all but those with a universal quantifier or too many disjuncts):
    # (axiom, rule, binding of the rule's parameters) of every rule instance whose positive literals were reached.
    axiom_rules: dict[int, list[tuple[ActionSchema, tuple[str, ...]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class GroundingProgress:
    """Where a running grounding is: the fixpoint round, facts reached, bindings kept, seconds so far; `phase` is
    "reachability" (the fixpoint) or "actions" (the task building its ground actions, reported once, when done)."""

    rounds: int
    facts: int
    bindings: int
    seconds: float
    done: bool = False
    phase: str = "reachability"


def object_types(domain: Domain, problem: Problem) -> dict[str, str]:
    """Every object of the task (domain constants first) with its declared type."""
    objects = dict(domain.constants)
    objects.update(problem.objects)
    return objects


def _axiom_schema(axiom: Axiom) -> ActionSchema:
    """An axiom as a pseudo-operator for reachability: body as precondition, head as add effect."""
    literals, rest = split_conjuncts(axiom.body)
    head = Literal(axiom.predicate, tuple(p.name for p in axiom.parameters))
    return ActionSchema(f"(:derived {axiom.predicate})", axiom.parameters, literals, (head,), rest)


MAX_SPLIT = 16


def _variants(schema: ActionSchema) -> list[ActionSchema]:
    """The schema, or one copy per disjunct when its complex precondition is a small disjunction of literal
    conjunctions (as Fast Downward splits operators): each copy's literals then drive the join, instead of every
    binding of the literal part being tested against the whole disjunction."""
    if not schema.complex_precondition:
        return [schema]
    disjuncts = _dnf(to_nnf(And(schema.complex_precondition)))
    if disjuncts is None:
        return [schema]
    return [replace(schema, precondition=(*schema.precondition, *conj), complex_precondition=())
            for conj in disjuncts]


def _dnf(node: NNF) -> list[tuple[Literal, ...]] | None:
    """The disjuncts of an NNF formula without quantifiers, or None when it has quantifiers or too many."""
    if node.kind == "lit":
        return [(node.literal,)]
    if node.kind not in ("and", "or"):
        return None
    parts = [_dnf(p) for p in node.parts]
    if any(p is None for p in parts):
        return None
    if node.kind == "or":
        result = [conj for p in parts for conj in p]
    else:
        result = [()]
        for p in parts:
            result = [(*a, *b) for a in result for b in p]
            if len(result) > MAX_SPLIT:
                return None
    return result if len(result) <= MAX_SPLIT else None


AXIOM_SPLIT = 64


def _axiom_variants(axiom: Axiom) -> list[ActionSchema]:
    """An axiom as rules for the join: one per disjunct of its body's normal form, with the variables of its
    existential quantifiers as extra parameters after the axiom's own (Fast Downward's translator normalizes axioms
    the same way), so that a round joins the facts it reached instead of testing every waiting instance's whole
    body again (psr-middle: ~10,000 relaxed evaluations of quantified bodies). A body with a universal quantifier
    or more than AXIOM_SPLIT disjuncts stays one schema whose body is tested per instance."""
    schema = _axiom_schema(axiom)
    if not schema.complex_precondition:
        return [schema]
    disjuncts = _lifted_dnf(to_nnf(And(schema.complex_precondition)), {}, itertools.count())
    if disjuncts is None:
        return [schema]
    variants = []
    for literals, extra in disjuncts:
        used = {a for lit in literals for a in lit.args}
        variants.append(replace(schema, parameters=(*schema.parameters, *(p for p in extra if p.name in used)),
                                precondition=(*schema.precondition, *literals), complex_precondition=()))
    return variants


def _lifted_dnf(node: NNF, rename: dict[str, str], counter) -> list[tuple[tuple, tuple]] | None:
    """(literals, existential parameters) per disjunct of an NNF formula, each quantified variable renamed apart
    (`?z~3`); None with a universal quantifier or more than AXIOM_SPLIT disjuncts."""
    kind = node.kind
    if kind == "lit":
        lit = node.literal
        if rename:
            lit = Literal(lit.predicate, tuple(rename.get(a, a) for a in lit.args), lit.positive)
        return [((lit,), ())]
    if kind == "exists":
        fresh = {p.name: f"{p.name}~{next(counter)}" for p in node.parameters}
        params = tuple(Parameter(fresh[p.name], p.types) for p in node.parameters)
        inner = _lifted_dnf(node.parts[0], {**rename, **fresh}, counter)
        return None if inner is None else [(lits, (*params, *extra)) for lits, extra in inner]
    if kind not in ("and", "or"):
        return None
    parts = [_lifted_dnf(p, rename, counter) for p in node.parts]
    if any(p is None for p in parts):
        return None
    if kind == "or":
        result = [conj for p in parts for conj in p]
    else:
        result = [((), ())]
        for p in parts:
            result = [(a + b, x + y) for a, x in result for b, y in p]
            if len(result) > AXIOM_SPLIT:
                return None
    return result if len(result) <= AXIOM_SPLIT else None


def fluent_predicates(domain: Domain) -> frozenset[str]:
    """Predicates some action may change (also conditionally) or some axiom derives."""
    preds = {e.predicate for a in domain.actions for e in a.effects}
    preds.update(ce.literal.predicate for a in domain.actions for ce in a.conditional_effects)
    preds.update(domain.derived_predicates)
    return frozenset(preds)


def ground(domain: Domain, problem: Problem, progress: Callable[[GroundingProgress], None] | None = None,
           deadline: float | None = None) -> GroundingResult:
    """Relaxed-reachability grounding; returns reachable facts and operator and axiom bindings.

    Semi-naive: the first round joins every schema over the initial facts; each later round joins only from the
    facts the round before reached (fresh), once per literal that can match one, with the literals before that one
    matching no fresh fact, so a binding whose facts became fresh together is found once, in the round after its
    last fact (facts join the index as they are reached, so a binding may also be found a round early; the rounds
    stay as few as without the rule: holding facts back to the round's end took psr-large from 13 rounds to 23).
    Bindings whose complex precondition, and conditional effects whose condition, do not hold yet wait, and are
    tested again after a round that reached facts of a predicate they mention.
    `progress`, when given, is called after every round with a GroundingProgress. `deadline` (a time.monotonic()
    value) stops the work with apb.engine.deadline.DeadlineExceeded once it has passed (checked every few ms).
    """
    with paused_gc():
        return _ground(domain, problem, progress, deadline)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside: building millions of tuples and objects, none of them garbage, would
    otherwise start collections that scan them all again and again. When the work stops early (Ctrl-C, SIGTERM, a
    deadline), what it made so far is frozen out of later collections (gc.freeze) before collection resumes: else
    the first collection after it scans millions of objects, seconds before the stop takes effect; they are freed
    by reference counting as the exception goes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    except BaseException:
        if enabled:
            gc.freeze()
        raise
    finally:
        if enabled:
            gc.enable()


def _ground(domain: Domain, problem: Problem, progress, deadline: float | None) -> GroundingResult:
    started = time.perf_counter()
    objects = object_types(domain, problem)
    cache: dict[tuple[str, ...], frozenset[str]] = {}

    def objects_of(types: tuple[str, ...]) -> frozenset[str]:
        if types not in cache:
            cache[types] = frozenset(o for o, t in objects.items() if domain.is_subtype(t, types))
        return cache[types]

    fluent_preds = fluent_predicates(domain)
    static_preds = frozenset(domain.predicates) - fluent_preds
    init = [(lit.predicate, *lit.args) for lit in problem.init]
    static_facts = frozenset(f for f in init if f[0] in static_preds)
    index = _FactIndex()
    for fact in init:
        index.add(fact)
    reached = index.facts
    relaxed = RelaxedFacts(static_preds, static_facts, reached, objects_of)
    schemas = [*domain.actions, *(_axiom_schema(axiom) for axiom in domain.axioms)]
    variants = [*(_variants(schema) for schema in domain.actions), *(_axiom_variants(a) for a in domain.axioms)]
    owners: list[int] = []  # the schema each grounder enumerates (a schema may be split by disjunction)
    grounders: list[_SchemaGrounder] = []
    for i, found in enumerate(variants):
        for variant in found:
            owners.append(i)
            grounders.append(_SchemaGrounder(variant, domain, objects_of, static_preds, static_facts))
    n_actions = len(domain.actions)
    seen: list[set] = [set() for _ in grounders]  # bindings found so far (accepted or waiting)
    results: list[list[tuple[str, ...]]] = [[] for _ in grounders]
    waiting: list[list[tuple[str, ...]]] = [[] for _ in grounders]  # complex precondition not (yet) holding
    effects_waiting: list[list] = [[] for _ in grounders]  # (fact, condition, binding) of conditional effects
    delta: dict[str, list[tuple[str, ...]]] = defaultdict(list)  # facts reached in this round, by predicate

    def reach(fact: Fact) -> None:
        if index.add(fact):
            delta[fact[0]].append(fact[1:])

    def complex_holds(k: int, args: tuple[str, ...]) -> bool:
        grounder = grounders[k]
        # An axiom instance whose head is reached already is kept unchecked: a body that can never hold only
        # costs a ground axiom that simplifies away or never fires.
        if owners[k] >= n_actions and (grounder.schema.effects[0].predicate, *args) in reached:
            return True
        binding = dict(zip(grounder.params, args))
        return all(relaxed.holds(c, binding) for c in grounder.complex)

    def accept(k: int, args: tuple[str, ...]) -> None:
        grounder = grounders[k]
        results[k].append(args)
        for fact in grounder.adds(args):
            if fact not in reached:
                reach(fact)
        if grounder.when_adds is not None:
            when(k, grounder, args)
        if not grounder.when_groups:
            return
        binding = dict(zip(grounder.params, args))
        for condition, parameters, literals, static in grounder.when_groups:  # a `when`'s condition once per instance
            for extended in bindings_of(parameters, objects_of, binding):
                if static and not relaxed.holds(condition, extended):
                    continue  # can never hold
                facts = [fact for fact in ((lit.predicate, *(extended.get(a, a) for a in lit.args))
                                           for lit in literals) if fact not in reached]
                if not facts:
                    continue
                if condition is None or static or relaxed.holds(condition, extended):
                    for fact in facts:
                        reach(fact)
                else:
                    effects_waiting[k].extend((fact, condition, extended) for fact in facts)

    def when(k: int, grounder: _SchemaGrounder, args: tuple[str, ...]) -> None:
        """The `when`s without forall variables (`grounder.when_adds`): facts reached, or waiting on a fluent."""
        pending: list[int] = []
        for fact in grounder.when_adds(args, reached, pending):
            if fact not in reached:
                reach(fact)
        if pending:
            binding = dict(zip(grounder.params, args))
            for position in pending:
                condition, literals = grounder.simple_whens[position]
                effects_waiting[k].extend((fact, condition, binding) for fact in
                                          ((lit.predicate, *(binding.get(a, a) for a in lit.args))
                                           for lit in literals) if fact not in reached)

    def consider(k: int, found: list[tuple[str, ...]]) -> None:
        known = seen[k]
        grounder = grounders[k]
        complex_part = grounder.complex
        if not complex_part and not grounder.when_groups:  # `accept` inlined: most bindings of large tasks
            kept, adds, when_adds = results[k], grounder.adds, grounder.when_adds
            for part in in_chunks(found, deadline, GROUNDING):
                for args in part:
                    if args in known:
                        continue
                    known.add(args)
                    kept.append(args)
                    for fact in adds(args):
                        if fact not in reached:
                            reach(fact)
                    if when_adds is not None:
                        when(k, grounder, args)
            return
        for part in in_chunks(found, deadline, GROUNDING):
            for args in part:
                if args in known:
                    continue
                known.add(args)
                if complex_part and not complex_holds(k, args):
                    waiting[k].append(args)
                else:
                    accept(k, args)

    for k, grounder in enumerate(grounders):
        check_deadline(deadline, GROUNDING)
        consider(k, grounder.join(index))
    rounds = 1
    while delta:
        check_deadline(deadline, GROUNDING)
        if progress is not None:
            progress(GroundingProgress(rounds, len(reached), sum(len(r) for r in results),
                                       time.perf_counter() - started))
        current, delta = delta, defaultdict(list)
        fresh = {pred: set(new) for pred, new in current.items()}
        changed = current.keys()
        for k, grounder in enumerate(grounders):
            for j, lit in enumerate(grounder.positives):
                new = current.get(lit.predicate)
                if new:
                    found: list[tuple[str, ...]] = []
                    for part in in_chunks(new, deadline, GROUNDING):
                        for args in part:
                            grounder.join_from(j, args, index, found, fresh)
                    consider(k, found)
            if waiting[k] and not grounder.complex_preds.isdisjoint(changed):
                still = []
                for args in waiting[k]:
                    if complex_holds(k, args):
                        accept(k, args)
                    else:
                        still.append(args)
                waiting[k] = still
            if effects_waiting[k] and not grounder.effect_preds.isdisjoint(changed):
                still = []
                for fact, condition, extended in effects_waiting[k]:
                    if fact in reached:
                        continue
                    if relaxed.holds(condition, extended):
                        reach(fact)
                    else:
                        still.append((fact, condition, extended))
                effects_waiting[k] = still
        rounds += 1
    per_schema: list[dict] = [{} for _ in schemas]
    for k, owner in enumerate(owners):
        arity = len(schemas[owner].parameters)  # an axiom rule's existential variables come after its own
        per_schema[owner].update(dict.fromkeys(results[k] if len(grounders[k].params) == arity
                                               else (args[:arity] for args in results[k])))
    bindings = [(schema, args) for schema, found in zip(domain.actions, per_schema) for args in found]
    axiom_rules: dict[int, list] = {}
    tested = {owner for k, owner in enumerate(owners) if owner >= n_actions and grounders[k].complex}
    for k, owner in enumerate(owners):
        if owner >= n_actions and owner not in tested:
            axiom_rules.setdefault(owner - n_actions, []).extend((grounders[k].schema, args) for args in results[k])
    axiom_bindings = [(axiom, args) for axiom, found in zip(domain.axioms, per_schema[n_actions:])
                      for args in found]
    if progress is not None:
        progress(GroundingProgress(rounds, len(reached), len(bindings) + len(axiom_bindings),
                                   time.perf_counter() - started, done=True))
    return GroundingResult(objects, static_facts, fluent_preds, reached, bindings, axiom_bindings, objects_of,
                           axiom_rules)

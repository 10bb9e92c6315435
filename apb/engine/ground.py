"""Grounds a lifted domain + problem by relaxed reachability: the reachable facts and operator/axiom bindings.

Only operators whose preconditions may hold when deletes are ignored are kept (negated fluent conditions count as
true, static facts are exact); their add effects, conditional ones whose condition may hold, and the heads of
axioms whose bodies may hold are reachable. Static facts (of predicates no action changes and no axiom derives)
are checked during grounding and then folded away. Parameters may bind the same object twice unless a
precondition forbids it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from apb.engine.formulas import NNF, RelaxedFacts, bindings_of, predicates_of, to_nnf
from apb.engine.model import ActionSchema, And, Axiom, Domain, Literal, Problem
from apb.engine.reader import split_conjuncts

Fact = tuple  # (predicate, arg, ...)


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


class _FactIndex:
    """Facts by predicate, and by the values at a given set of argument positions (built on demand)."""

    def __init__(self) -> None:
        self.by_pred: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        self.facts: set[Fact] = set()
        self._lookups: dict[tuple[str, tuple[int, ...]], dict[tuple, list]] = {}

    def add(self, fact: Fact) -> bool:
        if fact in self.facts:
            return False
        self.facts.add(fact)
        pred, args = fact[0], fact[1:]
        self.by_pred[pred].append(args)
        for (lpred, positions), table in self._lookups.items():
            if lpred == pred:
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return True

    def matching(self, pred: str, positions: tuple[int, ...], key: tuple) -> list[tuple[str, ...]]:
        if not positions:
            return self.by_pred.get(pred, [])
        table = self._lookups.get((pred, positions))
        if table is None:
            table = {}
            for args in self.by_pred.get(pred, []):
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
            self._lookups[(pred, positions)] = table
        return table.get(key, [])


class _SchemaGrounder:
    """Enumerates the bindings of one schema whose positive preconditions hold in a fact index."""

    def __init__(self, schema: ActionSchema, domain: Domain, objects_of, static_preds: frozenset,
                 static_facts: frozenset) -> None:
        self.schema = schema
        self.params = [p.name for p in schema.parameters]
        self.allowed = {p.name: objects_of(p.types) for p in schema.parameters}
        positives = [lit for lit in schema.precondition if lit.positive and lit.predicate != "="]
        self.predicates = frozenset(lit.predicate for lit in positives)
        self.order = self._join_order(positives, static_preds)
        bound = {a for lit in positives for a in lit.args if a.startswith("?")}
        self.free = [p for p in self.params if p not in bound]
        filters = [lit for lit in schema.precondition
                   if lit.predicate == "=" or (not lit.positive and lit.predicate in static_preds)]
        # Each filter is tested as soon as the join has bound its variables (`early[depth]`), else at the end.
        self.early: list[list[Literal]] = [[] for _ in self.order]
        self.filters = []
        seen: set[str] = set()
        first_bound: dict[str, int] = {}
        for depth, lit in enumerate(self.order):
            for a in lit.args:
                if a.startswith("?") and a not in seen:
                    seen.add(a)
                    first_bound[a] = depth
        for lit in filters:
            variables = [a for a in lit.args if a.startswith("?")]
            if self.order and all(v in first_bound for v in variables):
                self.early[max((first_bound[v] for v in variables), default=0)].append(lit)
            else:
                self.filters.append(lit)
        self.static_facts = static_facts
        # ADL parts, checked by relaxed evaluation; the schema is re-enumerated when any predicate they use grows.
        self.complex: list[NNF] = [to_nnf(part) for part in schema.complex_precondition]
        self.conditional = [(ce, None if ce.condition is None else to_nnf(ce.condition))
                            for ce in schema.conditional_effects]
        watched = set(self.predicates)
        for node in [*self.complex, *(c for _, c in self.conditional if c is not None)]:
            watched.update(pred for pred, _ in predicates_of(node))
        self.predicates = frozenset(watched)

    @staticmethod
    def _join_order(literals: list[Literal], static_preds: frozenset) -> list[Literal]:
        """Greedy: next the literal with fewest unbound variables, static ones first on ties."""
        order: list[Literal] = []
        bound: set[str] = set()
        remaining = list(literals)
        while remaining:
            def cost(lit: Literal) -> tuple[int, int]:
                unbound = {a for a in lit.args if a.startswith("?") and a not in bound}
                return len(unbound), 0 if lit.predicate in static_preds else 1
            best = min(remaining, key=cost)
            remaining.remove(best)
            order.append(best)
            bound.update(a for a in best.args if a.startswith("?"))
        return order

    def bindings(self, index: _FactIndex) -> Iterator[tuple[str, ...]]:
        for binding in self._join(index, 0, {}):
            yield from self._complete(binding, 0)

    def _join(self, index: _FactIndex, depth: int, binding: dict[str, str]) -> Iterator[dict[str, str]]:
        if depth == len(self.order):
            yield binding
            return
        lit = self.order[depth]
        positions = []
        key = []
        for i, arg in enumerate(lit.args):
            if not arg.startswith("?"):
                positions.append(i)
                key.append(arg)
            elif arg in binding:
                positions.append(i)
                key.append(binding[arg])
        for args in index.matching(lit.predicate, tuple(positions), tuple(key)):
            extended = binding
            ok = True
            for var, value in zip(lit.args, args):
                if not var.startswith("?") or var in binding:
                    continue
                if extended is binding:
                    extended = dict(binding)
                previous = extended.get(var)
                if previous is None:
                    if value not in self.allowed[var]:
                        ok = False
                        break
                    extended[var] = value
                elif previous != value:  # the same variable twice in one literal
                    ok = False
                    break
            if ok and all(self._filter_holds(f, extended) for f in self.early[depth]):
                yield from self._join(index, depth + 1, extended)

    def _complete(self, binding: dict[str, str], depth: int) -> Iterator[tuple[str, ...]]:
        if depth == len(self.free):
            if all(self._filter_holds(lit, binding) for lit in self.filters):
                yield tuple(binding[p] for p in self.params)
            return
        var = self.free[depth]
        for value in self.allowed[var]:
            extended = dict(binding)
            extended[var] = value
            yield from self._complete(extended, depth + 1)

    def _filter_holds(self, lit: Literal, binding: dict[str, str]) -> bool:
        args = tuple(binding.get(a, a) for a in lit.args)
        if lit.predicate == "=":
            return (args[0] == args[1]) == lit.positive
        return (lit.predicate, *args) not in self.static_facts


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


def fluent_predicates(domain: Domain) -> frozenset[str]:
    """Predicates some action may change (also conditionally) or some axiom derives."""
    preds = {e.predicate for a in domain.actions for e in a.effects}
    preds.update(ce.literal.predicate for a in domain.actions for ce in a.conditional_effects)
    preds.update(domain.derived_predicates)
    return frozenset(preds)


def ground(domain: Domain, problem: Problem) -> GroundingResult:
    """Relaxed-reachability grounding; returns reachable facts and operator and axiom bindings."""
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
    relaxed = RelaxedFacts(static_preds, static_facts, index.facts, objects_of)
    schemas = [*domain.actions, *(_axiom_schema(axiom) for axiom in domain.axioms)]
    owners: list[int] = []  # the schema each grounder enumerates (a schema may be split by disjunction)
    grounders = []
    for i, schema in enumerate(schemas):
        for variant in _variants(schema):
            owners.append(i)
            grounders.append(_SchemaGrounder(variant, domain, objects_of, static_preds, static_facts))
    n_actions = len(domain.actions)
    changed_at: dict[str, int] = defaultdict(int)
    enumerated_at: dict[int, int] = {}
    results: dict[int, list[tuple[str, ...]]] = {}
    accepted: dict[int, set] = defaultdict(set)  # bindings whose complex precondition held (stays true: monotone)
    generation = 1
    progress = True
    while progress:
        progress = False
        for k, grounder in enumerate(grounders):
            last = enumerated_at.get(k)
            if last is not None and all(changed_at[p] <= last for p in grounder.predicates):
                continue
            enumerated_at[k] = generation
            found = []
            passed = accepted[k]
            for args in grounder.bindings(index):
                binding = dict(zip(grounder.params, args))
                if grounder.complex and args not in passed:
                    # An axiom instance whose head is reached already is kept unchecked: a body that can never
                    # hold only costs a ground axiom that simplifies away or never fires.
                    head_known = owners[k] >= n_actions and \
                        (grounder.schema.effects[0].predicate, *args) in index.facts
                    if not head_known and not all(relaxed.holds(c, binding) for c in grounder.complex):
                        continue
                    passed.add(args)
                found.append(args)
                new_facts = [(eff.predicate, *(binding.get(a, a) for a in eff.args))
                             for eff in grounder.schema.add_effects]
                for ce, condition in grounder.conditional:
                    if not ce.literal.positive:
                        continue
                    for extended in bindings_of(ce.parameters, objects_of, binding):
                        fact = (ce.literal.predicate, *(extended.get(a, a) for a in ce.literal.args))
                        if fact not in index.facts and (condition is None or relaxed.holds(condition, extended)):
                            new_facts.append(fact)
                for fact in new_facts:
                    if index.add(fact):
                        generation += 1
                        changed_at[fact[0]] = generation
                        progress = True
            results[k] = found
    per_schema: list[dict] = [{} for _ in schemas]
    for k, owner in enumerate(owners):
        per_schema[owner].update(dict.fromkeys(results.get(k, [])))
    bindings = [(schema, args) for schema, found in zip(domain.actions, per_schema) for args in found]
    axiom_bindings = [(axiom, args) for axiom, found in zip(domain.axioms, per_schema[n_actions:])
                      for args in found]
    return GroundingResult(objects, static_facts, fluent_preds, index.facts, bindings, axiom_bindings, objects_of)

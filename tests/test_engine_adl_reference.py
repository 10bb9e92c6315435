"""A brute-force interpreter of the lifted PDDL model, written from the semantics for the engine's tests.

It grounds nothing ahead: every formula is evaluated by substitution on a set of true atoms, every action
tried on every tuple of objects of its parameters' types, every axiom applied to a fixpoint stratum by stratum.
Slow and obviously right, so the engine's grounded, simplified, bit-packed simulation can be checked against it.
"""

from __future__ import annotations

import itertools

from apb.engine.model import And, Exists, Forall, Imply, Literal, Not, Or


class BruteForce:
    """Applicable actions, successors, derived atoms and the goal of a (domain, problem) by brute force."""

    def __init__(self, domain, problem) -> None:
        self.domain = domain
        self.problem = problem
        self.objects = dict(domain.constants)
        self.objects.update(problem.objects)
        changed = {e.predicate for a in domain.actions for e in a.effects}
        changed |= {c.literal.predicate for a in domain.actions for c in a.conditional_effects}
        self.derived = {a.predicate for a in domain.axioms}
        self.static_preds = set(domain.predicates) - changed - self.derived
        self.levels = self._levels()

    # ---- formulas --------------------------------------------------------------------------------------------
    def of_types(self, types) -> list[str]:
        return sorted(o for o, t in self.objects.items() if self.domain.is_subtype(t, types))

    def bindings(self, parameters, binding: dict) -> list[dict]:
        pools = [self.of_types(p.types) for p in parameters]
        return [{**binding, **dict(zip((p.name for p in parameters), values))}
                for values in itertools.product(*pools)]

    def holds(self, f, atoms: set, binding: dict) -> bool:
        if isinstance(f, Literal):
            args = tuple(binding.get(a, a) for a in f.args)
            value = args[0] == args[1] if f.predicate == "=" else (f.predicate, *args) in atoms
            return value == f.positive
        if isinstance(f, And):
            return all(self.holds(p, atoms, binding) for p in f.parts)
        if isinstance(f, Or):
            return any(self.holds(p, atoms, binding) for p in f.parts)
        if isinstance(f, Not):
            return not self.holds(f.part, atoms, binding)
        if isinstance(f, Imply):
            return not self.holds(f.antecedent, atoms, binding) or self.holds(f.consequent, atoms, binding)
        if isinstance(f, Forall):
            return all(self.holds(f.body, atoms, b) for b in self.bindings(f.parameters, binding))
        if isinstance(f, Exists):
            return any(self.holds(f.body, atoms, b) for b in self.bindings(f.parameters, binding))
        raise TypeError(f)

    # ---- axioms ----------------------------------------------------------------------------------------------
    def _levels(self) -> list[list]:
        """Axioms by stratum: a predicate's level exceeds that of every derived predicate it uses negatively."""
        def uses(f, positive=True):
            if isinstance(f, Literal):
                if f.predicate in self.derived:
                    yield f.predicate, positive == f.positive
                return
            if isinstance(f, And | Or):
                for p in f.parts:
                    yield from uses(p, positive)
            elif isinstance(f, Not):
                yield from uses(f.part, not positive)
            elif isinstance(f, Imply):
                yield from uses(f.antecedent, not positive)
                yield from uses(f.consequent, positive)
            else:
                yield from uses(f.body, positive)
        level = dict.fromkeys(self.derived, 0)
        for _ in range(len(self.derived) + 1):
            for axiom in self.domain.axioms:
                for pred, positive in uses(axiom.body):
                    need = level[pred] + (0 if positive else 1)
                    level[axiom.predicate] = max(level[axiom.predicate], need)
        top = max(level.values(), default=-1)
        return [[a for a in self.domain.axioms if level[a.predicate] == k] for k in range(top + 1)]

    def with_derived(self, basic: set) -> set:
        atoms = {a for a in basic if a[0] not in self.derived}
        for layer in self.levels:
            while True:
                new = {(ax.predicate, *(b[p.name] for p in ax.parameters))
                       for ax in layer for b in self.bindings(ax.parameters, {})
                       if self.holds(ax.body, atoms, b)} - atoms
                if not new:
                    break
                atoms |= new
        return atoms

    # ---- states and actions ----------------------------------------------------------------------------------
    def initial(self) -> set:
        return self.with_derived({(lit.predicate, *lit.args) for lit in self.problem.init})

    def applicable(self, atoms: set) -> dict[str, tuple]:
        """PDDL string -> (schema, binding) of every applicable action."""
        found = {}
        for schema in self.domain.actions:
            for b in self.bindings(schema.parameters, {}):
                if self.holds(schema.condition, atoms, b):
                    found["(" + " ".join((schema.name, *(b[p.name] for p in schema.parameters))) + ")"] = (schema, b)
        return found

    def successor(self, atoms: set, schema, binding: dict) -> set:
        adds, deletes = set(), set()
        for lit in schema.effects:
            (adds if lit.positive else deletes).add((lit.predicate, *(binding.get(a, a) for a in lit.args)))
        for effect in schema.conditional_effects:
            for b in self.bindings(effect.parameters, binding):
                if effect.condition is None or self.holds(effect.condition, atoms, b):
                    lit = effect.literal
                    (adds if lit.positive else deletes).add((lit.predicate, *(b.get(a, a) for a in lit.args)))
        return self.with_derived((atoms - deletes) | adds)

    def is_goal(self, atoms: set) -> bool:
        return self.holds(self.problem.goal_formula, atoms, {})

    def cost(self, schema, binding: dict) -> float:
        if self.problem.metric is None:
            return 1
        total = 0
        for term in schema.cost:
            if term.function is None:
                total += term.value
            else:
                total += self.problem.function_values[(term.function, *(binding.get(a, a) for a in term.args))]
        return total

    def visible(self, atoms: set) -> frozenset[str]:
        """The atoms as the engine lists a state's facts: no static ones."""
        return frozenset("(" + " ".join(a) + ")" for a in atoms if a[0] not in self.static_preds)

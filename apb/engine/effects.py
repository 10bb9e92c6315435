"""Grounding of an action's effects and cost: unconditional adds and deletes, conditional effects (one
`GroundEffect` per `when`/`forall` instance whose condition is not decided statically), and the step cost.

Cost convention (Fast Downward's): with `:metric minimize (total-cost)` in the problem an action costs the sum of
its `(increase (total-cost) ...)` terms, so an action without an increase costs 0; without that metric every
action costs 1 and plan cost equals plan length.
"""

from __future__ import annotations

from apb.engine.actions import GroundEffect
from apb.engine.errors import PDDLSemanticError
from apb.engine.formulas import TRUE, FormulaGrounder, bindings_of, to_nnf
from apb.engine.model import ActionSchema, Problem


class EffectGrounder:
    """Grounds effects of schemas (their effect conditions are put in NNF once per schema)."""

    def __init__(self, formulas: FormulaGrounder, fact_id, objects_of) -> None:
        self.formulas = formulas
        self.fact_id = fact_id
        self.objects_of = objects_of
        self._nnf: dict[int, list] = {}

    def _groups(self, schema: ActionSchema) -> tuple[list, bool]:
        """The conditional effects of a schema by `when`: (condition object, its NNF or None, forall parameters,
        [(position among the schema's conditional effects, literal)]), in order of first appearance; and whether
        the ids found group by group need sorting back into the schema's order."""
        key = id(schema)
        if key not in self._nnf:
            groups: dict[tuple, tuple] = {}
            for position, ce in enumerate(schema.conditional_effects):
                names = tuple(p.name for p in ce.parameters)
                group = groups.get((id(ce.condition), names))
                if group is None:
                    nnf = None if ce.condition is None else to_nnf(ce.condition)
                    group = groups[(id(ce.condition), names)] = (ce.condition, nnf, ce.parameters, [])
                group[3].append((position, ce.literal))
            ordered = list(groups.values())
            # Instance-major traversal (see `ground`) changes the order of the ids only when a `when` under a
            # `forall` has several effects, or the effects of two `when`s interleave.
            positions = [position for _, _, _, literals in ordered for position, _ in literals]
            reorder = positions != sorted(positions) or any(params and len(literals) > 1
                                                           for _, _, params, literals in ordered)
            self._nnf[key] = (ordered, reorder)
        return self._nnf[key]

    def ground(self, schema: ActionSchema, binding: dict[str, str]):
        """(add ids, delete ids, conditional GroundEffects) of the schema under `binding`.

        The condition of a `when` is grounded once per instance of its `forall` variables (before its effects:
        a condition that can never hold skips them); the ids come out in the order of the schema's effects."""
        fact_id = self.fact_id
        add: list[int] = []
        delete: list[int] = []
        for eff in schema.effects:
            fid = fact_id((eff.predicate, *(binding.get(a, a) for a in eff.args)))
            if fid is not None:
                (add if eff.positive else delete).append(fid)
        groups: dict[tuple, list] = {}
        always: list[tuple[int, int, bool, int]] = []  # (effect position, instance, positive, id) when TRUE
        ordered, reorder = self._groups(schema)
        for condition, nnf, parameters, literals in ordered:
            for instance, extended in enumerate(bindings_of(parameters, self.objects_of, binding)):
                ground = TRUE if nnf is None else self.formulas.ground(nnf, extended)
                if ground.const is False:
                    continue
                key = None
                for position, lit in literals:
                    fid = fact_id((lit.predicate, *(extended.get(a, a) for a in lit.args)))
                    if fid is None:  # a fact never true: adding it cannot happen, deleting it changes nothing
                        continue
                    if ground.const is True:
                        always.append((position, instance, lit.positive, fid))
                        continue
                    if key is None:
                        key = (id(condition), tuple(extended[p.name] for p in parameters))
                    group = groups.setdefault(key, [ground, [], []])
                    group[1 if lit.positive else 2].append(fid)
        if reorder:
            always.sort(key=lambda item: item[:2])  # effect by effect, instance by instance, as written
        for _, _, positive, fid in always:
            (add if positive else delete).append(fid)
        effects = tuple(GroundEffect(cond, tuple(dict.fromkeys(a)), tuple(dict.fromkeys(d)))
                        for cond, a, d in groups.values())
        return tuple(dict.fromkeys(add)), tuple(dict.fromkeys(delete)), effects


def uses_costs(problem: Problem) -> bool:
    """Whether plan cost is total-cost (the problem minimizes it) rather than plan length."""
    return problem.metric is not None


def action_cost(schema: ActionSchema, binding: dict[str, str], problem: Problem, costs: bool) -> float:
    """The step cost of the schema under `binding` (see the module docstring for the convention)."""
    if not costs:
        return 1
    total = 0.0
    for term in schema.cost:
        if term.function is None:
            total += term.value
            continue
        key = (term.function, *(binding.get(a, a) for a in term.args))
        value = problem.function_values.get(key)
        if value is None:
            raise PDDLSemanticError(f"the cost of ({schema.name} {' '.join(binding.values())}) needs "
                                    f"({' '.join(key)}), which the init does not give", file=problem.source,
                                    hint="add '(= (" + " ".join(key) + ") N)' to the :init")
        total += value
    return int(total) if total.is_integer() else total

"""Why a condition fails in a state, as a small tree the NL layer renders and as PDDL strings.

`Unmet.kind` is one of:

- "fact": a positive atom that is false (`pddl` is the atom, e.g. "(clear b)");
- "not_fact": an atom that should be false but is true (`pddl` is "(not (clear b))");
- "none_of": a disjunction (`or`, `imply`, a negated `and`) none of whose options holds; `children` explain
  each option;
- "forall_fails": a universal condition; `children` explain the instances that fail (the instantiated false
  literals, e.g. "(clear c)" for the object c);
- "no_witness": an existential condition that no object satisfies (no children: every object fails);
- "derived": a derived atom (positive or negated) with the wrong value; `children` are its definition one level
  down: for a false derived atom the unmet parts of its axiom body (a "none_of" per axiom when it has several),
  for a true one that should be false the axiom bodies that hold (kind "holds");
- "holds": a condition that holds although it should not (only under a negated derived atom).

`pddl` is always the condition as written in the domain, instantiated with the action's objects.
"""

from __future__ import annotations

from dataclasses import dataclass

from apb.engine.formulas import GFact

KINDS = ("fact", "not_fact", "none_of", "forall_fails", "no_witness", "derived", "holds")


@dataclass(frozen=True)
class Unmet:
    """One failing condition; see the module docstring for the kinds."""

    kind: str
    pddl: str
    children: tuple[Unmet, ...] = ()

    def strings(self) -> list[str]:
        """The PDDL strings `Task.explain` lists for this failure.

        Facts, disjunctions and existentials give their own PDDL; a universal condition gives its failing
        instances; a derived atom gives "<atom> because <its unmet definition>".
        """
        if self.kind == "forall_fails":
            return [s for child in self.children for s in child.strings()]
        if self.kind == "derived" and self.children:
            reasons = [s for child in self.children for s in child.strings()]
            return [f"{self.pddl} because {' and '.join(reasons)}"]
        return [self.pddl]


class Explainer:
    """Builds `Unmet` trees for ground formulas; `axioms` (an AxiomEvaluator or None) defines derived facts."""

    def __init__(self, axioms=None) -> None:
        self.axioms = axioms
        self.derived_mask = axioms.derived_mask if axioms is not None else 0

    def literal(self, fid: int, wanted: bool, text: str, bits: int, depth: int = 0) -> list[Unmet]:
        """The failure of one literal condition (empty when it holds)."""
        if fid >= 0 and bool(bits >> fid & 1) == wanted:
            return []
        if fid >= 0 and self.derived_mask >> fid & 1:
            return [self._derived(fid, wanted, text, bits, depth)]
        return [Unmet("fact" if wanted else "not_fact", text)]

    def _derived(self, fid: int, wanted: bool, text: str, bits: int, depth: int) -> Unmet:
        if depth > 0:
            return Unmet("derived", text)
        bodies = self.axioms.bodies(fid)
        if wanted:
            if len(bodies) == 1:
                return Unmet("derived", text, tuple(self.why(bodies[0], bits, depth + 1)))
            children = tuple(Unmet("none_of", body.text, tuple(self.why(body, bits, depth + 1)))
                             for body in bodies)
            return Unmet("derived", text, children)
        return Unmet("derived", text, tuple(Unmet("holds", body.text) for body in bodies if body.holds(bits)))

    def why(self, formula, bits: int, depth: int = 0) -> list[Unmet]:
        """The failures that make `formula` false in the state with `bits` (empty when it holds)."""
        if formula.holds(bits):
            return []
        if isinstance(formula, GFact):
            return self.literal(formula.fid, formula.positive, formula.text, bits, depth)
        kind = formula.kind
        if kind == "and":
            return [u for child in formula.children for u in self.why(child, bits, depth)]
        if kind == "forall":
            failing = tuple(u for child in formula.children for u in self.why(child, bits, depth))
            return [Unmet("forall_fails", formula.text, failing)]
        if kind == "or":
            return [Unmet("none_of", formula.text,
                          tuple(u for child in formula.children for u in self.why(child, bits, depth)))]
        return [Unmet("no_witness", formula.text)]

"""Derived predicates: stratification of the axioms and their evaluation to a fixpoint on state bitmasks.

Semantics (as in PDDL 2.2 and Fast Downward): a derived atom is false unless some ground axiom with it as head
has a true body; axioms are evaluated stratum by stratum, each to its least fixpoint, where a stratum may use
derived predicates of its own stratum only positively and those of lower strata in any polarity. A state's bits
hold the basic facts and the derived facts computed from them (`AxiomEvaluator.closure`), so two states are equal
iff their basic facts are.
"""

from __future__ import annotations

from apb.engine.errors import PDDLSemanticError
from apb.engine.formulas import NNF, predicates_of, python_condition, to_nnf
from apb.engine.model import Domain


def stratify(domain: Domain) -> dict[str, int]:
    """The stratum (0, 1, ...) of each derived predicate; raises PDDLSemanticError when negation is cyclic."""
    derived = domain.derived_predicates
    stratum = dict.fromkeys(derived, 0)
    edges: list[tuple[str, str, bool]] = []  # (head, body predicate, strict)
    for axiom in domain.axioms:
        for pred, positive in predicates_of(to_nnf(axiom.body)):
            if pred in derived:
                edges.append((axiom.predicate, pred, not positive))
    limit = len(derived)
    changed = True
    while changed:
        changed = False
        for head, pred, strict in edges:
            need = stratum[pred] + (1 if strict else 0)
            if stratum[head] < need:
                if need > limit:
                    raise PDDLSemanticError(
                        f"the derived predicates are not stratifiable: {head!r} depends negatively on itself "
                        f"through {pred!r}", file=domain.source,
                        hint="a derived predicate may not depend on its own negation")
                stratum[head] = need
                changed = True
    return stratum


class AxiomEvaluator:
    """Ground axioms grouped by stratum: `closure(bits)` recomputes every derived fact of a state.

    The closure is compiled once into one Python function (each body an expression over the bits) and falls back
    to evaluating the ground formulas when the generated code is too large for Python's compiler.
    """

    def __init__(self, strata: list[list[tuple[int, object]]], derived_mask: int) -> None:
        self.strata = [s for s in strata if s]  # each: [(head fact id, ground body formula)]
        self.derived_mask = derived_mask
        self.rules_of: dict[int, list] = {}
        for layer in self.strata:
            for head, body in layer:
                self.rules_of.setdefault(head, []).append(body)
        self._compiled = self._compile()
        if self._compiled is not None:
            self.closure = self._compiled

    def _compile(self):
        lines = ["def closure(b):", f"    b &= ~{self.derived_mask:#x}"]
        for layer in self.strata:
            lines.append("    while True:")
            lines.append("        before = b")
            for head, body in layer:
                mask = f"{1 << head:#x}"
                lines.append(f"        if not b & {mask} and {python_condition(body)}:")
                lines.append(f"            b |= {mask}")
            lines.append("        if b == before:")
            lines.append("            break")
        lines.append("    return b")
        namespace: dict = {}
        try:
            exec(compile("\n".join(lines), "<axioms>", "exec"), namespace)  # the source holds only fact masks
        except (RecursionError, SyntaxError, MemoryError, ValueError):
            return None
        return namespace["closure"]

    def closure(self, bits: int) -> int:
        """`bits` with the derived facts set exactly as the axioms define them from the basic facts."""
        bits &= ~self.derived_mask
        for layer in self.strata:
            pending = layer
            while pending:
                remaining = []
                fired = False
                for head, body in pending:
                    if bits >> head & 1:
                        continue
                    if body.holds(bits):
                        bits |= 1 << head
                        fired = True
                    else:
                        remaining.append((head, body))
                if not fired:
                    break
                pending = remaining
        return bits

    def bodies(self, fid: int) -> list:
        """The ground bodies of the axioms whose head is fact `fid` (the definition, one level down)."""
        return self.rules_of.get(fid, [])


def axiom_nnf(domain: Domain) -> list[tuple[object, NNF]]:
    """(axiom, NNF of its body) for each axiom of the domain."""
    return [(axiom, to_nnf(axiom.body)) for axiom in domain.axioms]

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

    Each ground body is compiled once into a Python function over the bits (the ground formula's `holds` is the
    fallback when the generated code is too large for Python's compiler). A stratum is evaluated semi-naively:
    every axiom once, then, as a derived fact becomes true, only the axioms of the stratum whose bodies mention it
    (within a stratum derived facts occur only positively, so no other body can change its value).
    """

    def __init__(self, strata: list[list[tuple[int, object]]], derived_mask: int) -> None:
        self.strata = [s for s in strata if s]  # each: [(head fact id, ground body formula)]
        self.derived_mask = derived_mask
        self.rules_of: dict[int, list] = {}
        for layer in self.strata:
            for head, body in layer:
                self.rules_of.setdefault(head, []).append(body)
        functions = self._compile()
        # Per stratum: its rules (head, head bit, body test) and, per derived fact of the stratum, the rules whose
        # bodies mention it.
        self._layers: list[tuple[list, dict[int, list]]] = []
        k = 0
        for layer in self.strata:
            rules = []
            heads = 0
            for head, body in layer:
                rules.append((head, 1 << head, functions[k] if functions else body.holds))
                heads |= 1 << head
                k += 1
            dependents: dict[int, list] = {}
            for rule, (_, body) in zip(rules, layer):
                mentioned = fact_mask(body) & heads
                while mentioned:
                    low = mentioned & -mentioned
                    dependents.setdefault(low.bit_length() - 1, []).append(rule)
                    mentioned ^= low
            self._layers.append((rules, dependents))
        self._setup_updates([rule for rules, _ in self._layers for rule in rules],
                            [body for layer in self.strata for _, body in layer])

    def _setup_updates(self, rules: list, bodies: list) -> None:
        """Indexes for `update`: the rules mentioning each fact, the rules of each head, the facts used positively
        and negatively. Updates are incremental only where no body uses a derived fact negatively: then the
        derived facts are monotone in each changed basic fact, the direction its polarity says."""
        self._mentions: dict[int, list] = {}
        self._rules_of_head: dict[int, list] = {}
        self._pos_used = self._neg_used = 0
        required = {}  # id(test) -> the facts its body needs (its top-level positive conjuncts), tested inline
        for rule, body in zip(rules, bodies):
            required[id(rule[2])] = body.pos_mask if body.kind in ("and", "forall") else (
                1 << body.fid if body.kind == "fact" and body.positive and body.fid >= 0 else 0)
            self._rules_of_head.setdefault(rule[0], []).append(rule[2])
            pos, neg = polarity_masks(body)
            self._pos_used |= pos
            self._neg_used |= neg
            mentioned = pos | neg
            while mentioned:
                low = mentioned & -mentioned
                self._mentions.setdefault(low.bit_length() - 1, []).append(rule)
                mentioned ^= low
        # Per fact, the heads of the rules that mention it, as one mask (over-deletion works on masks), and those
        # rules' tests by head (spreading visits only the heads still false).
        self._mention_heads = {fact: sum({rule[1] for rule in found}) for fact, found in self._mentions.items()}
        self._tests_by_head: dict[int, dict[int, list]] = {}
        for fact, found in self._mentions.items():
            by_head = self._tests_by_head[fact] = {}
            for head, _, test in found:
                by_head.setdefault(head, []).append((required[id(test)], test))
        self.incremental = not self._neg_used & self.derived_mask

    def update(self, parent: int, bits: int) -> int:
        """`closure(bits)` for a successor of the state whose closed bits are `parent` (`bits`: the parent's after
        the action's effects). Where `incremental`, only what the changed facts can affect is re-evaluated:
        derived facts that may have lost support are removed and re-derived if they still hold (delete and
        re-derive), then new derivations spread from the facts that became true."""
        if not self.incremental:
            return self.closure(bits)
        derived = self.derived_mask
        changed = (parent ^ bits) & ~derived
        bits = (bits & ~derived) | (parent & derived)
        if not changed:
            return bits
        added, deleted = bits & changed, parent & changed
        weaker = (deleted & self._pos_used) | (added & self._neg_used)
        stronger = (deleted & self._neg_used) | (added & self._pos_used)
        mention_heads = self._mention_heads
        removed = []
        stack = _ids(weaker)
        while stack:  # over-delete: every true derived fact with a rule that mentions a weakened fact
            hit = mention_heads.get(stack.pop(), 0) & bits
            if hit:
                bits ^= hit
                lost = _ids(hit)
                removed += lost
                stack += lost
        queue = []
        rules_of_head = self._rules_of_head
        for head in removed:  # re-derive
            bit = 1 << head
            if not bits & bit and any(test(bits) for test in rules_of_head[head]):
                bits |= bit
                queue.append(head)
        queue += _ids(stronger)
        tests_by_head = self._tests_by_head
        while queue:  # spread from the facts that became true (and those made stronger by the action)
            fact = queue.pop()
            open_heads = mention_heads.get(fact, 0) & ~bits  # the heads of the rules it feeds that are still false
            if not open_heads:
                continue
            by_head = tests_by_head[fact]
            for head in _ids(open_heads):  # distinct heads, each false when the loop starts
                for needed, test in by_head[head]:
                    if bits & needed == needed and test(bits):
                        bits |= 1 << head
                        queue.append(head)
                        break
        return bits

    def _compile(self) -> list | None:
        """One function per ground axiom body, in stratum order; None when Python's compiler refuses the code."""
        lines = []
        k = 0
        for layer in self.strata:
            for _, body in layer:
                lines.append(f"def r{k}(b):")
                lines.append(f"    return {python_condition(body)}")
                k += 1
        namespace: dict = {}
        try:
            exec(compile("\n".join(lines), "<axioms>", "exec"), namespace)  # the source holds only fact masks
        except (RecursionError, SyntaxError, MemoryError, ValueError):
            return None
        return [namespace[f"r{i}"] for i in range(k)]

    def closure(self, bits: int) -> int:
        """`bits` with the derived facts set exactly as the axioms define them from the basic facts."""
        bits &= ~self.derived_mask
        for rules, dependents in self._layers:
            queue = []
            for head, bit, test in rules:
                if not bits & bit and test(bits):
                    bits |= bit
                    queue.append(head)
            while queue:
                for head, bit, test in dependents.get(queue.pop(), ()):
                    if not bits & bit and test(bits):
                        bits |= bit
                        queue.append(head)
        return bits

    def bodies(self, fid: int) -> list:
        """The ground bodies of the axioms whose head is fact `fid` (the definition, one level down)."""
        return self.rules_of.get(fid, [])


def fact_mask(formula) -> int:
    """The bitmask of every fact a ground formula mentions, in either polarity."""
    if formula.const is not None:
        return 0
    if formula.kind == "fact":
        return 1 << formula.fid if formula.fid >= 0 else 0
    mask = formula.pos_mask | formula.neg_mask
    for child in formula.complex:
        mask |= fact_mask(child)
    return mask


def polarity_masks(formula) -> tuple[int, int]:
    """(facts the ground formula uses positively, facts it uses negatively) as bitmasks."""
    if formula.const is not None:
        return 0, 0
    if formula.kind == "fact":
        if formula.fid < 0:
            return 0, 0
        return (1 << formula.fid, 0) if formula.positive else (0, 1 << formula.fid)
    pos, neg = formula.pos_mask, formula.neg_mask
    for child in formula.complex:
        p, n = polarity_masks(child)
        pos |= p
        neg |= n
    return pos, neg


def _ids(mask: int) -> list[int]:
    """The positions of the set bits of `mask`, ascending (string search: fast on wide, sparse masks)."""
    digits = bin(mask)[:1:-1]  # least significant bit first, without "0b"
    ids = []
    i = digits.find("1")
    while i >= 0:
        ids.append(i)
        i = digits.find("1", i + 1)
    return ids


def axiom_nnf(domain: Domain) -> list[tuple[object, NNF]]:
    """(axiom, NNF of its body) for each axiom of the domain."""
    return [(axiom, to_nnf(axiom.body)) for axiom in domain.axioms]

"""Derived predicates: stratification of the axioms and their evaluation to a fixpoint on state bitmasks.

Semantics (as in PDDL 2.2 and Fast Downward): a derived atom is false unless some ground axiom with it as head
has a true body; axioms are evaluated stratum by stratum, each to its least fixpoint, where a stratum may use
derived predicates of its own stratum only positively and those of lower strata in any polarity. A state's bits
hold the basic facts and the derived facts computed from them (`AxiomEvaluator.closure`), so two states are equal
iff their basic facts are. After an action, `AxiomEvaluator.update` re-evaluates only what the changed facts reach
(delete and re-derive over the bodies' disjunctive normal form); tests compare it with `closure` on every step.
"""

from __future__ import annotations

from apb.engine.bits import bit_ids
from apb.engine.errors import PDDLSemanticError
from apb.engine.formulas import predicates_of, python_condition, to_nnf
from apb.engine.model import Domain

# The most disjuncts a ground axiom body may have in disjunctive normal form for incremental updates.
DNF_LIMIT = 512
# States whose derived facts `update` keeps (by their basic facts), like a planner's state registry: a walk or a
# search reaches most states many times (half the steps of 100-step random walks in psr-middle). Cleared when full.
KNOWN_LIMIT = 65_536
# `closure` compiles the axiom bodies to Python functions on its call number COMPILE_CLOSURES (interpreted before).
COMPILE_CLOSURES = 3


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

    def __init__(self, strata: list[list[tuple[int, object]]], derived_mask: int, written=None) -> None:
        """`written(fid)`, when given, returns the bodies as the domain writes them for `bodies` (explanations),
        where `strata` holds an equivalent form (a task's rule-built disjunctions)."""
        self.strata = [s for s in strata if s]  # each: [(head fact id, ground body formula)]
        self.derived_mask = derived_mask
        self._written = written
        self._written_bodies: dict[int, list] = {}
        self.rules_of: dict[int, list] = {}
        for layer in self.strata:
            for head, body in layer:
                self.rules_of.setdefault(head, []).append(body)
        self._known: dict[int, int] = {}  # basic facts -> the closed bits, for states `update` has seen
        self.known_limit = KNOWN_LIMIT  # 0: no memory (every update computed)
        # The body tests are the ground formulas' own `holds` until `closure` has run COMPILE_CLOSURES times (a
        # task whose updates are incremental needs it for its initial state only), then compiled functions.
        self._closures = 0
        self._layers = self._make_layers(None)
        self._setup_updates()

    def _make_layers(self, functions: list | None) -> list[tuple[list, dict[int, list]]]:
        """Per stratum: its rules (head, head bit, body test) and, per derived fact of the stratum, the rules whose
        bodies mention it."""
        layers = []
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
            layers.append((rules, dependents))
        return layers

    def _setup_updates(self) -> None:
        """Indexes for `update`. The ground bodies are rewritten as rules `head <- pos, not neg` (their disjunctive
        normal form, two masks per disjunct), so that a changed fact reaches only the disjuncts that mention it and
        a rule is tested with two mask operations. Updates are incremental where no body uses a derived fact
        negatively (then the derived facts are monotone in each changed basic fact, the direction its polarity
        says) and no body's normal form is larger than DNF_LIMIT; other tasks re-evaluate every axiom."""
        self._rules_of_head: dict[int, list] = {}
        self._pos_users: dict[int, list] = {}  # fact -> the rules with it in `pos`
        self._neg_users: dict[int, list] = {}  # fact -> the rules with it in `neg`
        self.incremental = True
        for layer in self.strata:
            for head, body in layer:
                disjuncts = dnf(body, DNF_LIMIT)
                if disjuncts is None or any(neg & self.derived_mask for _, neg in disjuncts):
                    self.incremental = False
                    return
                for pos, neg in disjuncts:
                    rule = (1 << head, pos, neg, head)
                    self._rules_of_head.setdefault(head, []).append(rule)
                    for fact in bit_ids(pos):
                        self._pos_users.setdefault(fact, []).append(rule)
                    for fact in bit_ids(neg):
                        self._neg_users.setdefault(fact, []).append(rule)

    def update(self, parent: int, bits: int) -> int:
        """`closure(bits)` for a successor of the state whose closed bits are `parent` (`bits`: the parent's after
        the action's effects): the known answer for a state seen before (the derived facts are a function of the
        basic ones), else `_update`'s."""
        basic = bits & ~self.derived_mask
        known = self._known.get(basic)
        if known is None:
            known = self._update(parent, bits) if self.incremental else self.closure(bits)
            if len(self._known) >= self.known_limit:
                self._known.clear()
                if not self.known_limit:
                    return known
            self._known[basic] = known
        return known

    def _update(self, parent: int, bits: int) -> int:
        """`closure(bits)` computed from the parent's: only what the changed facts reach is re-evaluated (delete
        and re-derive): a derived fact is deleted when a rule that held in the parent loses a fact it used (a
        positive fact that became false, a negated basic fact that became true), and so on from what was deleted;
        each deleted fact is kept if another of its rules still holds; then new derivations spread from the facts
        that became true (and the negated basic facts that became false)."""
        derived = self.derived_mask
        changed = (parent ^ bits) & ~derived
        bits = (bits & ~derived) | (parent & derived)
        if not changed:
            return bits
        added, deleted = bits & changed, parent & changed
        pos_users, neg_users = self._pos_users, self._neg_users
        gained, lost = bit_ids(added), bit_ids(deleted)
        removed = []
        stack = list(lost)  # facts that became false: the rules using them positively lose them
        for fact in gained:  # negated basic facts that became true
            for bit, pos, neg, head in neg_users.get(fact, ()):
                if bits & bit and parent & pos == pos and not parent & neg:
                    bits ^= bit
                    removed.append(head)
                    stack.append(head)
        while stack:  # over-delete
            for bit, pos, neg, head in pos_users.get(stack.pop(), ()):
                if bits & bit and parent & pos == pos and not parent & neg:
                    bits ^= bit
                    removed.append(head)
                    stack.append(head)
        queue = []
        rules_of_head = self._rules_of_head
        for head in removed:  # re-derive
            for bit, pos, neg, _ in rules_of_head[head]:
                if bits & pos == pos and not bits & neg:
                    if not bits & bit:
                        bits |= bit
                        queue.append(head)
                    break
        for fact in lost:  # negated basic facts that became false
            for bit, pos, neg, head in neg_users.get(fact, ()):
                if not bits & bit and bits & pos == pos and not bits & neg:
                    bits |= bit
                    queue.append(head)
        queue += gained
        while queue:  # spread from the facts that became true
            for bit, pos, neg, head in pos_users.get(queue.pop(), ()):
                if not bits & bit and bits & pos == pos and not bits & neg:
                    bits |= bit
                    queue.append(head)
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
        self._closures += 1
        if self._closures == COMPILE_CLOSURES:
            self._layers = self._make_layers(self._compile())
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
        """The ground bodies of the axioms whose head is fact `fid` (the definition, one level down), as the domain
        writes them."""
        if self._written is None:
            return self.rules_of.get(fid, [])
        known = self._written_bodies.get(fid)
        if known is None:
            known = self._written_bodies[fid] = self._written(fid)
        return known


def dnf(formula, limit: int) -> list[tuple[int, int]] | None:
    """A ground formula as a disjunction of conjunctions of literals, each (positive facts, negated facts) as
    masks ([] is false, [(0, 0)] true); None when it has more than `limit` disjuncts."""
    if formula.const is not None:
        return [(0, 0)] if formula.const else []
    if formula.kind == "fact":
        if formula.fid < 0:
            return []
        return [(1 << formula.fid, 0)] if formula.positive else [(0, 1 << formula.fid)]
    if formula.kind in ("and", "forall"):
        result = [(formula.pos_mask, formula.neg_mask)]
        for child in formula.complex:
            options = dnf(child, limit)
            if options is None or len(result) * len(options) > limit:
                return None
            result = [(p | q, n | m) for p, n in result for q, m in options if not (p | q) & (n | m)]
        return result if len(result) <= limit else None
    result = [(1 << f, 0) for f in bit_ids(formula.pos_mask)] + [(0, 1 << f) for f in bit_ids(formula.neg_mask)]
    for child in formula.complex:
        options = dnf(child, limit)
        if options is None or len(result) + len(options) > limit:
            return None
        result += options
    return result if len(result) <= limit else None


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

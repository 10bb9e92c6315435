"""Formulas from lifted to ground: negation normal form, relaxed evaluation for grounding, and ground formulas
over fact ids that simulation evaluates on state bitmasks.

Ground formula nodes (the representation planners, heuristics and explanations build on):

- `GFact(fid, positive, text)`: an atom (positive) or its negation; `fid` indexes the task's facts (a bit of
  `State.bits`); `fid == -1` is a condition that can never hold (a violated static fact, an unreachable atom).
- `GAnd(kind, children, ...)`: all children hold; `kind` is "and" or "forall" (its children are the instances,
  one per tuple of objects). `pos_mask`/`neg_mask` are the fact children as bitmasks, `complex` the other
  children. The empty GAnd is TRUE.
- `GOr(kind, children, ...)`: some child holds; `kind` is "or" or "exists". The empty GOr is FALSE.

Static facts are folded away while grounding (a true static conjunct disappears, a false one stays as a
`GFact(-1)` so that explanations can name it); every node has `holds(bits)` and `text` (its PDDL, instantiated).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from apb.engine.model import And, Exists, Forall, Imply, Literal, Not, Or

_VARIABLE = re.compile(r"\?[^\s()]+")


# ---- lifted negation normal form -----------------------------------------------------------------------------
@dataclass(frozen=True)
class NNF:
    """A lifted formula in negation normal form: kind lit | and | or | forall | exists.

    `origin` is the formula as written (for explanation texts), `parameters` the quantified variables.
    """

    kind: str
    literal: Literal | None = None
    parts: tuple = ()
    parameters: tuple = ()
    origin: object = None


def to_nnf(formula, positive: bool = True) -> NNF:
    """Pushes negations down to atoms; `imply` becomes `or`, a negated `forall` an `exists`."""
    if isinstance(formula, Literal):
        lit = formula if positive else Literal(formula.predicate, formula.args, not formula.positive)
        return NNF("lit", lit, origin=lit)
    origin = formula if positive else Not(formula)
    if isinstance(formula, And | Or):
        conjunctive = isinstance(formula, And) == positive
        return NNF("and" if conjunctive else "or", parts=tuple(to_nnf(p, positive) for p in formula.parts),
                   origin=origin)
    if isinstance(formula, Not):
        return to_nnf(formula.part, not positive)
    if isinstance(formula, Imply):
        if positive:
            parts = (to_nnf(formula.antecedent, False), to_nnf(formula.consequent, True))
            return NNF("or", parts=parts, origin=origin)
        parts = (to_nnf(formula.antecedent, True), to_nnf(formula.consequent, False))
        return NNF("and", parts=parts, origin=origin)
    if isinstance(formula, Forall | Exists):
        universal = isinstance(formula, Forall) == positive
        return NNF("forall" if universal else "exists", parts=(to_nnf(formula.body, positive),),
                   parameters=formula.parameters, origin=origin)
    raise TypeError(f"not a formula: {formula!r}")


def predicates_of(node: NNF, polarity: bool = True, out: set | None = None) -> set[tuple[str, bool]]:
    """(predicate, positive) pairs of the atoms of an NNF formula."""
    out = set() if out is None else out
    if node.kind == "lit":
        out.add((node.literal.predicate, node.literal.positive))
    for part in node.parts:
        predicates_of(part, polarity, out)
    return out


def substitute(text: str, binding: dict[str, str]) -> str:
    """`text` with every ?variable bound in `binding` replaced by its object."""
    if not binding:
        return text
    return _VARIABLE.sub(lambda m: binding.get(m.group(), m.group()), text)


_SORTED: dict[frozenset, tuple] = {}


def _sorted(objects: frozenset) -> tuple:
    pool = _SORTED.get(objects)
    if pool is None:
        if len(_SORTED) > 4096:
            _SORTED.clear()
        pool = _SORTED[objects] = tuple(sorted(objects))
    return pool


def bindings_of(parameters: tuple, objects_of: Callable, binding: dict[str, str]):
    """Every extension of `binding` by objects for `parameters` (objects in sorted order)."""
    if not parameters:
        yield binding
        return
    names = [p.name for p in parameters]
    pools = [_sorted(objects_of(p.types)) for p in parameters]
    for values in itertools.product(*pools):
        extended = dict(binding)
        extended.update(zip(names, values))
        yield extended


# ---- relaxed evaluation (grounding) ----------------------------------------------------------------------------
class RelaxedFacts:
    """What grounding knows: static facts exactly, fluent facts reached so far (negated fluents count as true)."""

    def __init__(self, static_preds: frozenset, static_facts: frozenset, reached: set, objects_of: Callable) -> None:
        self._plans: dict[int, tuple] = {}  # id(quantifier node) -> its search plan (see _quantifier_plan)
        self.static_preds = static_preds
        self.static_facts = static_facts
        self.reached = reached
        self.objects_of = objects_of

    def holds(self, node: NNF, binding: dict[str, str]) -> bool:
        """Whether `node` may hold in some reachable state (an over-approximation, exact on static facts)."""
        return self._holds(node, dict(binding))

    def _holds(self, node: NNF, binding: dict[str, str]) -> bool:
        """`holds` on a binding that quantifiers extend in place (and restore), without copies per object."""
        kind = node.kind
        if kind == "lit":
            lit = node.literal
            args = tuple([binding.get(a, a) for a in lit.args])
            if lit.predicate == "=":
                return (args[0] == args[1]) == lit.positive
            fact = (lit.predicate, *args)
            if lit.predicate in self.static_preds:
                return (fact in self.static_facts) == lit.positive
            return not lit.positive or fact in self.reached
        if kind == "and":
            return all(self._holds(part, binding) for part in node.parts)
        if kind == "or":
            return any(self._holds(part, binding) for part in node.parts)
        plan = self._plans.get(id(node))
        if plan is None:
            plan = self._plans[id(node)] = _quantifier_plan(node, self.objects_of)
        names = plan[0]
        saved = [binding.get(name, _UNBOUND) for name in names]
        found = self._search(plan, binding, 0)
        for name, value in zip(names, saved):
            if value is _UNBOUND:
                binding.pop(name, None)
            else:
                binding[name] = value
        return found if kind == "exists" else not found

    def _search(self, plan, binding: dict[str, str], depth: int) -> bool:
        """Backtracking over the quantified variables: a witness (exists: every conjunct holds; forall: every
        disjunct fails) extending `binding`; each part is tested as soon as the variables it mentions are bound."""
        names, pools, checks, wanted = plan
        for part in checks[depth]:
            if self._holds(part, binding) != wanted:
                return False
        if depth == len(names):
            return True
        name = names[depth]
        for value in pools[depth]:
            binding[name] = value
            if self._search(plan, binding, depth + 1):
                return True
        return False


_UNBOUND = object()
_NONE: frozenset = frozenset()


def _quantifier_plan(node: NNF, objects_of: Callable) -> tuple:
    """(variable names, their object pools, the parts to test after binding each prefix of them, the value a
    witness needs of each part) for an exists over a conjunction or a forall over a disjunction; directly nested
    quantifiers of the same kind are merged, so that parts are tested as early as their variables allow."""
    kind = node.kind
    joint = "and" if kind == "exists" else "or"
    parameters = list(node.parameters)
    body = node.parts[0]
    while body.kind == kind and not {p.name for p in body.parameters} & {p.name for p in parameters}:
        parameters += body.parameters
        body = body.parts[0]
    names = [p.name for p in parameters]
    if len(set(names)) < len(names):  # a variable quantified twice: keep the inner one's scope intact
        parameters, body = list(node.parameters), node.parts[0]
        names = [p.name for p in parameters]
    parts = body.parts if body.kind == joint else (body,)
    position = {name: i for i, name in enumerate(names)}
    checks: list[list] = [[] for _ in range(len(names) + 1)]
    for part in parts:
        mentioned = [position[v] for v in _variables(part) if v in position]
        checks[max(mentioned) + 1 if mentioned else 0].append(part)
    pools = [_sorted(objects_of(p.types)) for p in parameters]
    return names, pools, checks, kind == "exists"


def _variables(node: NNF) -> set[str]:
    """Every variable name in a lifted NNF formula (bound ones included: an over-approximation is safe here)."""
    if node.kind == "lit":
        return {a for a in node.literal.args if a.startswith("?")}
    found = {p.name for p in node.parameters}
    for part in node.parts:
        found |= _variables(part)
    return found


# ---- ground formulas -----------------------------------------------------------------------------------------
class GFact:
    """An atom or negated atom over fact id `fid` (-1: never holds); `atom` is (predicate, arg, ...)."""

    __slots__ = ("atom", "fid", "positive")
    kind = "fact"
    children = ()

    def __init__(self, fid: int, positive: bool, atom: tuple) -> None:
        self.fid, self.positive, self.atom = fid, positive, atom

    @property
    def text(self) -> str:
        """"(p a b)" or "(not (p a b))"."""
        text = "(" + " ".join(self.atom) + ")"
        return text if self.positive else f"(not {text})"

    @property
    def const(self) -> bool | None:
        return False if self.fid < 0 else None

    def holds(self, bits: int) -> bool:
        return self.fid >= 0 and bool(bits >> self.fid & 1) == self.positive

    def __repr__(self) -> str:
        return f"GFact({self.text})"


class _GCompound:
    __slots__ = ("binding", "children", "complex", "const", "kind", "neg_mask", "origin", "pos_mask")

    def __init__(self, kind: str, children: tuple, origin, binding: dict[str, str]) -> None:
        self.kind, self.children, self.origin, self.binding = kind, children, origin, binding
        pos = neg = 0
        rest = []
        for child in children:
            if isinstance(child, GFact) and child.fid >= 0:
                if child.positive:
                    pos |= 1 << child.fid
                else:
                    neg |= 1 << child.fid
            elif child.const is None:
                rest.append(child)
        self.pos_mask, self.neg_mask, self.complex = pos, neg, tuple(rest)
        self.const = None

    @property
    def text(self) -> str:
        """The PDDL of this condition as written, with the bound variables replaced by objects."""
        if self.origin is None:
            name = "and" if isinstance(self, GAnd) else "or"
            return f"({name}" + "".join(" " + c.text for c in self.children) + ")"
        return substitute(str(self.origin), self.binding)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.kind}, {self.text})"


class GAnd(_GCompound):
    """All children hold ("and", or "forall" over instances)."""

    __slots__ = ()

    def __init__(self, kind: str, children: tuple, origin=None, binding: dict | None = None) -> None:
        super().__init__(kind, children, origin, binding or {})
        if any(c.const is False for c in children):
            self.const = False
        elif not self.complex and not self.pos_mask and not self.neg_mask:
            self.const = True

    def holds(self, bits: int) -> bool:
        if self.const is not None:
            return self.const
        return (bits & self.pos_mask == self.pos_mask and not bits & self.neg_mask
                and all(c.holds(bits) for c in self.complex))


class GOr(_GCompound):
    """Some child holds ("or", or "exists" over instances)."""

    __slots__ = ()

    def __init__(self, kind: str, children: tuple, origin=None, binding: dict | None = None) -> None:
        super().__init__(kind, children, origin, binding or {})
        if any(c.const is True for c in children):
            self.const = True
        elif not self.complex and not self.pos_mask and not self.neg_mask:
            self.const = False

    def holds(self, bits: int) -> bool:
        if self.const is not None:
            return self.const
        return bool(bits & self.pos_mask or self.neg_mask & ~bits or any(c.holds(bits) for c in self.complex))


TRUE = GAnd("and", ())
# A never-true formula standing in for one whose exact form no one will see (see FormulaGrounder._ground).
_DROPPED = GFact(-1, True, ("dropped",))


class FormulaGrounder:
    """Instantiates NNF formulas under a binding into simplified ground formulas over the task's fact ids.

    `fact_id(fact)` gives a fluent (or derived) fact's id or None when the fact is never true; static facts are
    looked up in `static_facts`.
    """

    def __init__(self, fact_id: Callable, static_preds: frozenset, static_facts: frozenset,
                 objects_of: Callable) -> None:
        self.fact_id = fact_id
        self.static_preds = static_preds
        self.static_facts = static_facts
        self.objects_of = objects_of
        # (predicate, bound argument positions, target position) -> bound values -> the target's values, over the
        # static facts: which objects a quantified variable may take for a static literal to hold (see _instances)
        self._static_index: dict[tuple, dict[tuple, set]] = {}

    def literal(self, lit: Literal, binding: dict[str, str]):
        """A GFact, TRUE, or GFact(-1) for a literal that never holds."""
        fact = (lit.predicate, *(binding.get(a, a) for a in lit.args))
        if lit.predicate == "=":
            return TRUE if (fact[1] == fact[2]) == lit.positive else GFact(-1, lit.positive, fact)
        if lit.predicate in self.static_preds:
            return TRUE if (fact in self.static_facts) == lit.positive else GFact(-1, lit.positive, fact)
        fid = self.fact_id(fact)
        if fid is None:
            return GFact(-1, True, fact) if lit.positive else TRUE
        return GFact(fid, lit.positive, fact)

    def ground(self, node: NNF, binding: dict[str, str], droppable: bool = False):
        """The simplified ground formula of `node` under `binding`. With `droppable`, a formula that can never
        hold may come back as any never-true formula (for callers that discard those, such as axiom bodies)."""
        return self._ground(node, binding, droppable)

    def _ground(self, node: NNF, binding: dict[str, str], droppable: bool):
        """`ground`; with `droppable` (the parent drops a never-true child, or grounds it again without it) a
        formula that can never hold may come back as the placeholder `_DROPPED` as soon as that is known: a
        conjunction stops at its first impossible part (literals first), so most instances of an existential
        over static facts cost a lookup or two. Whatever can hold comes back exactly as without it."""
        kind = node.kind
        if kind == "lit":
            return self.literal(node.literal, binding)
        if kind == "and":
            if not droppable:
                return make(kind, tuple(self._ground(p, binding, False) for p in node.parts), node.origin, binding)
            children = [None] * len(node.parts)
            for i, part in enumerate(node.parts):  # the literals first: they are cheap and usually decide
                if part.kind == "lit":
                    child = children[i] = self.literal(part.literal, binding)
                    if child.const is False:
                        return _DROPPED
            for i, part in enumerate(node.parts):
                if children[i] is None:
                    child = children[i] = self._ground(part, binding, True)
                    if child.const is False:
                        return _DROPPED
            return make(kind, tuple(children), node.origin, binding)
        if kind == "or":
            instances = [binding] * len(node.parts)
            parts = node.parts
        elif kind == "exists":
            instances = self._instances(node, binding)
            parts = [node.parts[0]] * len(instances)
        else:
            instances = list(bindings_of(node.parameters, self.objects_of, binding))
            parts = [node.parts[0]] * len(instances)
        if kind == "forall":
            children = []
            for part, instance in zip(parts, instances):
                child = self._ground(part, instance, droppable)
                if droppable and child.const is False:
                    return _DROPPED
                children.append(child)
            return make(kind, tuple(children), node.origin, binding)
        # or / exists: the options that can never hold are dropped unless none can hold (then all are kept, to
        # explain the failure), so options are first grounded droppable, and again in full only when none holds.
        children = [self._ground(part, instance, True) for part, instance in zip(parts, instances)]
        if all(child.const is False for child in children):
            if droppable:
                return _DROPPED
            if kind == "exists":  # every instance, to explain the failure
                instances = list(bindings_of(node.parameters, self.objects_of, binding))
                parts = [node.parts[0]] * len(instances)
            children = [self._ground(part, instance, False) for part, instance in zip(parts, instances)]
        return make(kind, tuple(children), node.origin, binding)

    def _instances(self, node: NNF, binding: dict[str, str]) -> list[dict[str, str]]:
        """The bindings of an existential's variables that may make its body hold: each variable only over the
        objects that the static literals its body needs allow (psr's `(exists (?z - DEVICE) (and (closed ?z) (or
        (and (con ?z side1 ?y ?sy) ...) ...)))` tries the few devices connected to ?y rather than all of them).
        The objects left out make the body false, so grounding them would only drop them again."""
        names = {p.name for p in node.parameters}
        outer = {k: v for k, v in binding.items() if k not in names} if names & binding.keys() else binding
        pools = []
        for parameter in node.parameters:
            pool = _sorted(self.objects_of(parameter.types))
            allowed = self._candidates(node.parts[0], parameter.name, outer)
            pools.append(pool if allowed is None else [o for o in pool if o in allowed])
        out = []
        names_list = [p.name for p in node.parameters]
        for values in itertools.product(*pools):
            extended = dict(binding)
            extended.update(zip(names_list, values))
            out.append(extended)
        return out

    def _candidates(self, node: NNF, var: str, binding: dict[str, str]) -> set | None:
        """A set of objects outside which `var` makes `node` false (by a positive static literal it needs), or None
        when nothing restricts it. Variables not in `binding` are unknown (they match anything)."""
        kind = node.kind
        if kind == "lit":
            lit = node.literal
            if not lit.positive or lit.predicate not in self.static_preds or var not in lit.args:
                return None
            target = lit.args.index(var)
            positions, key = [], []
            for i, arg in enumerate(lit.args):
                if i == target:
                    continue
                value = binding.get(arg, arg) if arg != var else None
                if value is None or value.startswith("?"):
                    continue  # the variable again, or one bound further in
                positions.append(i)
                key.append(value)
            return self._static_values(lit.predicate, tuple(positions), target).get(tuple(key), _NONE)
        if kind in ("and", "or"):
            found = None
            for part in node.parts:
                allowed = self._candidates(part, var, binding)
                if kind == "or":
                    if allowed is None:
                        return None
                    found = allowed if found is None else found | allowed
                elif allowed is not None:
                    found = allowed if found is None else found & allowed
            return found
        if kind == "exists" and var not in {p.name for p in node.parameters}:
            if {p.name for p in node.parameters} & binding.keys():  # a shadowed variable: leave it unknown
                return None
            return self._candidates(node.parts[0], var, binding)
        return None

    def _static_values(self, predicate: str, positions: tuple, target: int) -> dict[tuple, set]:
        key = (predicate, positions, target)
        index = self._static_index.get(key)
        if index is None:
            index = self._static_index[key] = {}
            for fact in self.static_facts:
                if fact[0] == predicate:
                    args = fact[1:]
                    index.setdefault(tuple(args[i] for i in positions), set()).add(args[target])
        return index


def make(kind: str, children: tuple, origin=None, binding: dict | None = None):
    """A simplified GAnd/GOr: true conjuncts and impossible options dropped, a single child collapsed into it
    (except under forall, whose instances explain a failure)."""
    if kind in ("and", "forall"):
        kept = tuple(c for c in children if c.const is not True)
        flat: list = []
        for child in kept:
            if kind == "and" and isinstance(child, GAnd) and child.kind == "and":
                flat.extend(child.children)
            else:
                flat.append(child)
        if kind == "and" and len(flat) == 1:
            return flat[0]
        if not flat:
            return TRUE
        return GAnd(kind, tuple(flat), origin, binding)
    if any(c.const is True for c in children):
        return TRUE
    possible = tuple(c for c in children if c.const is not False)
    if possible:  # options that can never hold are dropped (all kept when none can, to explain the failure)
        children = possible
    if len(children) == 1:
        return children[0]
    return GOr(kind, children, origin, binding)


def python_condition(formula, var: str = "b") -> str:
    """A Python expression over the state bits `var` that is true iff `formula` holds (masks in hex)."""
    if formula.const is not None:
        return str(formula.const)
    if formula.kind == "fact":
        mask = f"{1 << formula.fid:#x}"
        return f"({var} & {mask} != 0)" if formula.positive else f"({var} & {mask} == 0)"
    parts = []
    pos, neg = formula.pos_mask, formula.neg_mask
    if isinstance(formula, GAnd):
        if pos:
            parts.append(f"{var} & {pos:#x} == {pos:#x}")
        if neg:
            parts.append(f"not {var} & {neg:#x}")
        parts.extend(python_condition(c, var) for c in formula.complex)
        return "(" + " and ".join(parts) + ")"
    if pos:
        parts.append(f"{var} & {pos:#x} != 0")
    if neg:
        parts.append(f"~{var} & {neg:#x} != 0")
    parts.extend(python_condition(c, var) for c in formula.complex)
    return "(" + " or ".join(parts) + ")"

"""The shared reading machinery of the domain and problem parsers: located errors, typed lists, formulas
(and/or/not/imply/forall/exists over atoms) and effects (and/not/forall/when/increase total-cost).

Every error points at the file, line and column of the offending node. Features still unsupported (numeric
fluents beyond total-cost, object fluents, ...) raise `UnsupportedFeatureError` naming the feature.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

from apb.engine.errors import PDDLSemanticError, PDDLSyntaxError, PDDLWarning, UnsupportedFeatureError
from apb.engine.model import (
    ROOT_TYPE,
    And,
    ConditionalEffect,
    CostTerm,
    Exists,
    Forall,
    Imply,
    Literal,
    Not,
    Or,
    Parameter,
)
from apb.engine.sexpr import Atom, SList, Source

SUPPORT_HINT = ("apb supports classical PDDL as Fast Downward does: STRIPS, typing, ADL, action costs and "
                "derived predicates, but no numeric fluents beyond total-cost, durative actions, preferences, "
                "constraints or object fluents")
NUMERIC_COMPARISONS = ("<", ">", "<=", ">=")
NUMERIC_EFFECTS = ("increase", "decrease", "assign", "scale-up", "scale-down")
CONNECTIVES = ("and", "or", "not", "imply", "exists", "forall", "when")

# check(predicate, args, node) validates a predicate use; raises located errors.
AtomCheck = Callable[[Atom, list, SList], None]


def _offset(node) -> int | None:
    return getattr(node, "offset", None)


def _number(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


class Reader:
    """Reads the nodes of one source; `used` collects the requirements the text actually uses."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.used: set[str] = set()

    # ---- errors ---------------------------------------------------------------------------------------------
    def syntax(self, message: str, node, hint: str | None = None) -> PDDLSyntaxError:
        return self.source.error(PDDLSyntaxError, message, _offset(node), hint)

    def semantic(self, message: str, node, hint: str | None = None) -> PDDLSemanticError:
        return self.source.error(PDDLSemanticError, message, _offset(node), hint)

    def unsupported(self, feature: str, node) -> UnsupportedFeatureError:
        return self.source.error(UnsupportedFeatureError, f"unsupported PDDL feature: {feature}",
                                 _offset(node), SUPPORT_HINT)

    def warn(self, message: str, node, collected: list[str]) -> None:
        text = str(self.source.error(PDDLSemanticError, message, _offset(node)))
        collected.append(text)
        warnings.warn(text, PDDLWarning, stacklevel=4)

    def expect_list(self, node, what: str) -> SList:
        if not isinstance(node, SList):
            raise self.syntax(f"expected {what} in parentheses, found {node!r}", node)
        return node

    def expect_atom(self, node, what: str) -> Atom:
        if not isinstance(node, Atom):
            raise self.syntax(f"expected {what}, found a parenthesised list", node)
        return node

    def header(self, root: SList, kind: str) -> str:
        """Checks `(define (KIND name) ...)` and returns the name."""
        if root.head != "define":
            raise self.syntax(f"expected '(define ({kind} NAME) ...)'", root.items[0] if root.items else root)
        if len(root) < 2 or not isinstance(root[1], SList) or len(root[1]) != 2 or root[1].head != kind:
            node = root[1] if len(root) > 1 else root
            other = "problem" if kind == "domain" else "domain"
            if isinstance(node, SList) and node.head == other:
                raise self.syntax(f"expected a {kind} but this is a {other} definition", node,
                                  f"check the order of the {kind} and {other} arguments")
            raise self.syntax(f"expected '({kind} NAME)' after 'define'", node)
        return self.expect_atom(root[1][1], f"the {kind} name")

    # ---- typed lists ----------------------------------------------------------------------------------------
    def typed_list(self, items: list, what: str, *, variables: bool) -> list[tuple[Atom, tuple[str, ...], object]]:
        """Parses `a b - t c - (either u v) d` into [(name, types, type_node)]; untyped names are 'object'."""
        result: list[tuple[Atom, tuple[str, ...], object]] = []
        pending: list[Atom] = []
        i = 0
        while i < len(items):
            item = items[i]
            if isinstance(item, Atom) and item == "-":
                if not pending:
                    raise self.syntax(f"'-' must follow at least one {what} name", item)
                if i + 1 >= len(items):
                    raise self.syntax("expected a type name after '-'", item)
                type_node = items[i + 1]
                types = self.type_spec(type_node)
                result.extend((name, types, type_node) for name in pending)
                pending = []
                i += 2
                continue
            name = self.expect_atom(item, f"a {what} name")
            if variables and not name.startswith("?"):
                raise self.syntax(f"expected a parameter name starting with '?', found {name!r}", name)
            if not variables and name.startswith("?"):
                raise self.syntax(f"expected an object name, found the variable {name!r}", name)
            pending.append(name)
            i += 1
        result.extend((name, (ROOT_TYPE,), None) for name in pending)
        return result

    def type_spec(self, node) -> tuple[str, ...]:
        if isinstance(node, Atom):
            return (str(node),)
        if node.head == "either" and len(node) > 1:
            return tuple(str(self.expect_atom(t, "a type name")) for t in node.items[1:])
        raise self.syntax("expected a type name or '(either TYPE ...)'", node)

    def parameters(self, node, what: str, check_types: Callable, scope: dict[str, tuple[str, ...]] | None = None,
                   ) -> tuple[Parameter, ...]:
        """A parenthesised variable list; `check_types(types, node)` validates the type names."""
        plist = self.expect_list(node, what)
        params: list[Parameter] = []
        for var, var_types, type_node in self.typed_list(plist.items, "parameter", variables=True):
            check_types(var_types, type_node)
            if any(p.name == var for p in params):
                raise self.semantic(f"variable {var} appears twice in {what}", var)
            params.append(Parameter(str(var), var_types))
        return tuple(params)

    # ---- formulas -------------------------------------------------------------------------------------------
    def formula(self, node, scope: set[str], check: AtomCheck, check_types: Callable, context: str):
        """A condition: literal, and, or, not, imply, forall, exists; `scope` holds the variables in scope."""
        node = self.expect_list(node, f"a condition in {context}")
        if not node.items:
            return And(())
        head = node.head
        if head is None:
            raise self.syntax(f"expected a predicate name or connective at the start of this list in {context}",
                              node)
        if head == "and":
            parts = []
            for part in node.items[1:]:
                sub = self.formula(part, scope, check, check_types, context)
                parts.extend(sub.parts if isinstance(sub, And) else (sub,))
            return And(tuple(parts))
        if head == "or":
            self.used.add(":disjunctive-preconditions")
            return Or(tuple(self.formula(p, scope, check, check_types, context) for p in node.items[1:]))
        if head == "not":
            if len(node) != 2:
                raise self.syntax("expected exactly one condition inside 'not'", node)
            inner = self.formula(node[1], scope, check, check_types, context)
            if isinstance(inner, Literal):
                if inner.predicate != "=":
                    self.used.add(":negative-preconditions")
                return Literal(inner.predicate, inner.args, not inner.positive)
            self.used.add(":disjunctive-preconditions")
            return Not(inner)
        if head == "imply":
            if len(node) != 3:
                raise self.syntax("expected '(imply CONDITION CONDITION)'", node)
            self.used.add(":disjunctive-preconditions")
            return Imply(self.formula(node[1], scope, check, check_types, context),
                         self.formula(node[2], scope, check, check_types, context))
        if head in ("forall", "exists"):
            if len(node) != 3:
                raise self.syntax(f"expected '({head} (?VAR - TYPE ...) CONDITION)'", node)
            params = self.parameters(node[1], f"the variables of '{head}'", check_types)
            self.used.add(":universal-preconditions" if head == "forall" else ":existential-preconditions")
            body = self.formula(node[2], scope | {p.name for p in params}, check, check_types, context)
            return (Forall if head == "forall" else Exists)(params, body)
        if head in NUMERIC_COMPARISONS or (head == "=" and any(isinstance(a, SList) for a in node.items[1:])):
            raise self.unsupported(f"numeric fluents ('{head}' comparison)", node)
        if head == "preference":
            raise self.unsupported("preferences ('preference')", node)
        if head == "when":
            raise self.syntax(f"'when' is an effect, not a condition, in {context}", node)
        if head in NUMERIC_EFFECTS:
            raise self.syntax(f"'{head}' is an effect, not a condition, in {context}", node)
        return self.atom(node, scope, check, context)

    def atom(self, node: SList, scope: set[str], check: AtomCheck, context: str) -> Literal:
        """`(pred arg ...)` with arguments that are variables in scope or objects `check` accepts."""
        head = node.head
        if head is None:
            raise self.syntax(f"expected a predicate name at the start of this atom in {context}", node)
        args = [self.expect_atom(arg, f"an argument of {head!r}") for arg in node.items[1:]]
        if head == "=":
            self.used.add(":equality")
            if len(args) != 2:
                raise self.syntax("equality '(= a b)' takes exactly two arguments", node)
        for arg in args:
            if arg.startswith("?") and arg not in scope:
                raise self.semantic(f"unknown variable {arg} in {context}", arg,
                                    "declare it in :parameters or in a forall/exists")
        check(head, args, node)
        return Literal(str(head), tuple(str(a) for a in args))

    # ---- effects --------------------------------------------------------------------------------------------
    def effect(self, node, scope: set[str], check: AtomCheck, check_types: Callable, context: str,
               cost_check: Callable[[SList, set[str]], CostTerm]):
        """(simple literal effects, conditional effects, cost terms) of an effect tree."""
        simple: list[Literal] = []
        conditional: list[ConditionalEffect] = []
        costs: list[CostTerm] = []

        def walk(node, scope: set[str], params: tuple[Parameter, ...], condition) -> None:
            node = self.expect_list(node, f"an effect in {context}")
            if not node.items:
                return
            head = node.head
            if head == "and":
                for part in node.items[1:]:
                    walk(part, scope, params, condition)
                return
            if head == "forall":
                if len(node) != 3:
                    raise self.syntax("expected '(forall (?VAR - TYPE ...) EFFECT)'", node)
                new = self.parameters(node[1], "the variables of 'forall'", check_types)
                self.used.add(":conditional-effects")
                walk(node[2], scope | {p.name for p in new}, params + new, condition)
                return
            if head == "when":
                if len(node) != 3:
                    raise self.syntax("expected '(when CONDITION EFFECT)'", node)
                self.used.add(":conditional-effects")
                cond = self.formula(node[1], scope, check, check_types, f"a 'when' condition in {context}")
                if condition is not None:
                    cond = And((*_conjuncts(condition), *_conjuncts(cond)))
                walk(node[2], scope, params, cond)
                return
            if head in NUMERIC_EFFECTS:
                if head != "increase" or len(node) != 3 or not isinstance(node[1], SList) \
                        or node[1].head != "total-cost" or len(node[1]) != 1:
                    raise self.unsupported(f"numeric fluents ('{head}' of anything but total-cost)", node)
                if params or condition is not None:
                    raise self.unsupported("action costs inside a conditional or quantified effect", node)
                costs.append(cost_check(node, scope))
                return
            literal = self._effect_literal(node, scope, check, context)
            if params or condition is not None:
                conditional.append(ConditionalEffect(params, condition, literal))
            else:
                simple.append(literal)

        walk(node, scope, (), None)
        return simple, conditional, costs

    def _effect_literal(self, node: SList, scope: set[str], check: AtomCheck, context: str) -> Literal:
        positive = True
        if node.head == "not":
            if len(node) != 2:
                raise self.syntax("expected exactly one atom inside 'not'", node)
            inner = self.expect_list(node[1], "an atom inside 'not'")
            if inner.head in CONNECTIVES:
                raise self.syntax(f"an effect cannot negate '({inner.head} ...)': only atoms are deleted", inner)
            node, positive = inner, False
        elif node.head in CONNECTIVES:
            raise self.syntax(f"'{node.head}' is a condition, not an effect, in {context}", node)
        literal = self.atom(node, scope, check, context)
        if literal.predicate == "=":
            raise self.semantic(f"an effect in {context} cannot be an equality", node)
        return literal if positive else Literal(literal.predicate, literal.args, False)

    def cost_value(self, node: SList, scope: set[str], functions: dict, context: str) -> CostTerm:
        """The X of `(increase (total-cost) X)`: a non-negative number or a static function term."""
        value = node[2]
        if isinstance(value, Atom):
            number = _number(value)
            if number is None:
                raise self.syntax(f"expected a number or a function term as the cost in {context}", value)
            if number < 0:
                raise self.semantic(f"negative action cost {value} in {context}", value,
                                    "action costs must be non-negative")
            return CostTerm(value=number)
        name = value.head
        if name is None or name not in functions:
            raise self.semantic(f"unknown function {value.items[:1]!r} in the cost of {context}", value,
                                "declare it in (:functions ...)")
        if name == "total-cost":
            raise self.unsupported("numeric fluents (total-cost increased by itself)", value)
        args = [self.expect_atom(a, f"an argument of {name!r}") for a in value.items[1:]]
        if len(args) != functions[name].arity:
            raise self.semantic(f"function {name!r} takes {functions[name].arity} argument(s) but is given "
                                f"{len(args)} in {context}", value)
        for arg in args:
            if arg.startswith("?") and arg not in scope:
                raise self.semantic(f"unknown variable {arg} in {context}", arg, "declare it in :parameters")
        self.used.add(":action-costs")
        return CostTerm(function=str(name), args=tuple(str(a) for a in args))


def _conjuncts(formula) -> tuple:
    return formula.parts if isinstance(formula, And) else (formula,)


def split_conjuncts(formula) -> tuple[tuple[Literal, ...], tuple]:
    """(top-level literal conjuncts, other conjuncts) of a formula: the model's literal/complex split."""
    literals = []
    rest = []
    for part in _conjuncts(formula):
        (literals if isinstance(part, Literal) else rest).append(part)
    return tuple(literals), tuple(rest)

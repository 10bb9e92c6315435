"""Parses PDDL domain and problem text into the lifted model, with errors that point at file, line and column.

Supported: STRIPS, typing (hierarchy, `either`), constants, negative preconditions, equality. Keywords are
case-insensitive, a type may be declared as `object`, and requirements used but not declared are accepted
with a warning. Everything else is refused with one `UnsupportedFeatureError` naming the feature.
"""

from __future__ import annotations

import warnings

from apb.engine.errors import PDDLSemanticError, PDDLSyntaxError, PDDLWarning, UnsupportedFeatureError
from apb.engine.model import ROOT_TYPE, ActionSchema, Domain, Literal, Parameter, PredicateSchema, Problem
from apb.engine.sexpr import Atom, SList, Source, read

SUPPORTED_REQUIREMENTS = {":strips", ":typing", ":negative-preconditions", ":equality"}
# Requirements that are harmless to declare as long as the features they allow are not used.
TOLERATED_REQUIREMENTS = {
    ":adl", ":disjunctive-preconditions", ":existential-preconditions", ":universal-preconditions",
    ":quantified-preconditions", ":conditional-effects",
}
UNSUPPORTED_REQUIREMENTS = {
    ":fluents": "numeric fluents", ":numeric-fluents": "numeric fluents", ":object-fluents": "object fluents",
    ":durative-actions": "durative actions", ":duration-inequalities": "durative actions",
    ":continuous-effects": "continuous effects", ":derived-predicates": "derived predicates",
    ":timed-initial-literals": "timed initial literals", ":preferences": "preferences",
    ":constraints": "state-trajectory constraints", ":action-costs": "action costs",
}
_UNSUPPORTED_CONDITIONS = {
    "or": "disjunctive preconditions ('or')",
    "imply": "disjunctive preconditions ('imply')",
    "exists": "quantified preconditions ('exists')",
    "forall": "quantified conditions ('forall')",
    "when": "conditional effects ('when')",
    "increase": "numeric fluents ('increase')",
    "decrease": "numeric fluents ('decrease')",
    "assign": "numeric fluents ('assign')",
    "scale-up": "numeric fluents ('scale-up')",
    "scale-down": "numeric fluents ('scale-down')",
    "<": "numeric fluents ('<')",
    ">": "numeric fluents ('>')",
    "<=": "numeric fluents ('<=')",
    ">=": "numeric fluents ('>=')",
}
_UNSUPPORTED_SECTIONS = {
    ":functions": "numeric fluents (':functions')",
    ":derived": "derived predicates (':derived')",
    ":durative-action": "durative actions (':durative-action')",
    ":constraints": "state-trajectory constraints (':constraints')",
    ":metric": "plan metrics (':metric')",
}
SUPPORT_HINT = "apb supports STRIPS with typing, constants, negative preconditions and equality"


class _Reader:
    """Shared helpers of the domain and problem readers: located errors and typed lists."""

    def __init__(self, source: Source) -> None:
        self.source = source

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

    def literal(self, node, check, *, allow_negation: bool, context: str) -> Literal:
        """Parses `(p a b)` or `(not (p a b))`; `check` validates predicate, arity and arguments."""
        node = self.expect_list(node, f"an atom in {context}")
        head = node.head
        if head is None:
            raise self.syntax(f"expected a predicate name at the start of this atom in {context}", node)
        if head == "not":
            if len(node) != 2:
                raise self.syntax("expected exactly one atom inside 'not'", node)
            inner = self.expect_list(node[1], "an atom inside 'not'")
            if inner.head in ("and", "or", "not", "imply", "exists", "forall", "when"):
                raise self.unsupported(f"negated formulas ('not ({inner.head} ...)'); only negated atoms are", inner)
            if not allow_negation:
                raise self.syntax(f"negation is not allowed in {context}", node)
            positive = self.literal(inner, check, allow_negation=False, context=context)
            return Literal(positive.predicate, positive.args, False)
        if head in _UNSUPPORTED_CONDITIONS:
            raise self.unsupported(_UNSUPPORTED_CONDITIONS[head], node)
        args = []
        for arg in node.items[1:]:
            args.append(self.expect_atom(arg, f"an argument of {head!r}"))
        check(head, args, node)
        return Literal(str(head), tuple(str(a) for a in args))

    def conjunction(self, node, check, *, allow_negation: bool, context: str) -> list[Literal]:
        """Parses `()`, a literal, or `(and ...)` (nested ands are flattened)."""
        node = self.expect_list(node, context)
        if not node.items:
            return []
        if node.head == "and":
            literals: list[Literal] = []
            for part in node.items[1:]:
                literals.extend(self.conjunction(part, check, allow_negation=allow_negation, context=context))
            return literals
        return [self.literal(node, check, allow_negation=allow_negation, context=context)]


def _offset(node) -> int | None:
    return getattr(node, "offset", None)


def _sections(reader: _Reader, root: SList, known: tuple[str, ...], kind: str):
    """Yields (keyword, node) for each section after the header, refusing unknown or unsupported ones."""
    for node in root.items[2:]:
        node = reader.expect_list(node, f"a {kind} section such as '({known[0]} ...)'")
        head = node.head
        if head in _UNSUPPORTED_SECTIONS:
            raise reader.unsupported(_UNSUPPORTED_SECTIONS[head], node)
        if head not in known:
            expected = ", ".join(known)
            raise reader.syntax(f"unknown {kind} section {head or node.items[:1]!r}", node,
                                f"expected one of {expected}")
        yield head, node


def parse_domain(text: str, name: str | None = None) -> Domain:
    """Parses domain text; `name` (usually the file path) is used in error messages."""
    source = Source(text, name)
    reader = _Reader(source)
    root = read(source)
    domain_name = reader.header(root, "domain")
    requirements: list[str] = []
    req_node = None
    types: dict[str, str | None] = {ROOT_TYPE: None}
    declared_types = False
    constants: dict[str, str] = {}
    predicates: dict[str, PredicateSchema] = {}
    action_nodes: list[SList] = []
    collected: list[str] = []
    known = (":requirements", ":types", ":constants", ":predicates", ":action")
    for head, node in _sections(reader, root, known, "domain"):
        if head == ":requirements":
            req_node = node
            for req in node.items[1:]:
                req = reader.expect_atom(req, "a requirement such as ':strips'")
                if req in UNSUPPORTED_REQUIREMENTS:
                    raise reader.unsupported(f"{UNSUPPORTED_REQUIREMENTS[req]} ('{req}')", req)
                if req not in SUPPORTED_REQUIREMENTS and req not in TOLERATED_REQUIREMENTS:
                    raise reader.syntax(f"unknown requirement {req!r}", req,
                                        "supported: " + " ".join(sorted(SUPPORTED_REQUIREMENTS)))
                requirements.append(str(req))
        elif head == ":types":
            declared_types = True
            for type_name, parent, type_node in reader.typed_list(node.items[1:], "type", variables=False):
                if len(parent) > 1:
                    raise reader.unsupported("a type whose parent is '(either ...)'", type_node)
                if type_name == ROOT_TYPE:  # `object` declared as a type: it is the root already
                    continue
                if type_name in types and types[type_name] != ROOT_TYPE and types[type_name] != parent[0]:
                    raise reader.semantic(f"type {type_name!r} is declared twice with different parents",
                                          type_name)
                types[str(type_name)] = parent[0]
            for type_name, _parent, type_node in reader.typed_list(node.items[1:], "type", variables=False):
                parent = types.get(str(type_name))
                if parent is not None and parent not in types:
                    types[parent] = ROOT_TYPE  # a parent used but not declared is a subtype of object
                    reader.warn(f"type {parent!r} is used as a parent but never declared", type_node, collected)
            _check_type_cycles(reader, types, node)
        elif head == ":constants":
            for obj, obj_types, type_node in reader.typed_list(node.items[1:], "constant", variables=False):
                if len(obj_types) > 1:
                    raise reader.syntax("a constant has exactly one type, not '(either ...)'", type_node)
                _check_types_declared(reader, types, obj_types, type_node, declared_types)
                constants[str(obj)] = obj_types[0]
        elif head == ":predicates":
            for pred_node in node.items[1:]:
                pred_node = reader.expect_list(pred_node, "a predicate declaration '(name ?arg ...)'")
                pred_name = pred_node.head
                if pred_name is None:
                    raise reader.syntax("expected a predicate name", pred_node)
                if pred_name in predicates:
                    raise reader.semantic(f"predicate {pred_name!r} is declared twice", pred_node)
                params = []
                for var, var_types, type_node in reader.typed_list(pred_node.items[1:], "parameter",
                                                                   variables=True):
                    _check_types_declared(reader, types, var_types, type_node, declared_types)
                    params.append(Parameter(str(var), var_types))
                predicates[str(pred_name)] = PredicateSchema(str(pred_name), tuple(params))
        else:
            action_nodes.append(node)
    domain = Domain(str(domain_name), tuple(requirements), types, constants, predicates, (), name, collected)
    used: set[str] = set()
    if any(t != ROOT_TYPE for t in types) or any(t != ROOT_TYPE for t in constants.values()):
        used.add(":typing")
    actions = []
    for node in action_nodes:
        schema = _parse_action(reader, domain, node, declared_types, used)
        if domain.action(schema.name) is not None or any(a.name == schema.name for a in actions):
            raise reader.semantic(f"action {schema.name!r} is defined twice", node)
        actions.append(schema)
    domain.actions = tuple(actions)
    declared = set(requirements)
    if ":adl" in declared:
        declared |= {":typing", ":negative-preconditions", ":equality"}
    for req in sorted(used - declared - {":strips"}):
        reader.warn(f"domain uses {req} but does not declare it in :requirements", req_node or root, collected)
    return domain


def _check_type_cycles(reader: _Reader, types: dict[str, str | None], node) -> None:
    for start in types:
        seen = {start}
        parent = types[start]
        while parent is not None:
            if parent in seen:
                raise reader.semantic(f"the type hierarchy has a cycle through {start!r}", node)
            seen.add(parent)
            parent = types.get(parent)


def _check_types_declared(reader: _Reader, types: dict, names: tuple[str, ...], node, declared: bool) -> None:
    for type_name in names:
        if type_name not in types:
            hint = "declare it in (:types ...)" if declared else "add a (:types ...) section that declares it"
            raise reader.semantic(f"unknown type {type_name!r}", node, hint)


def _parse_action(reader: _Reader, domain: Domain, node: SList, declared_types: bool,
                  used: set[str]) -> ActionSchema:
    if len(node) < 2 or not isinstance(node[1], Atom):
        raise reader.syntax("expected an action name after ':action'", node)
    name = str(node[1])
    parts: dict[str, object] = {}
    i = 2
    while i < len(node):
        key = reader.expect_atom(node[i], "':parameters', ':precondition' or ':effect'")
        if key not in (":parameters", ":precondition", ":effect"):
            raise reader.syntax(f"unexpected {key!r} in action {name!r}", key,
                                "expected ':parameters', ':precondition' or ':effect'")
        if i + 1 >= len(node):
            raise reader.syntax(f"{key} of action {name!r} has no value", key)
        if key in parts:
            raise reader.syntax(f"{key} given twice in action {name!r}", key)
        parts[str(key)] = node[i + 1]
        i += 2
    params: list[Parameter] = []
    if ":parameters" in parts:
        plist = reader.expect_list(parts[":parameters"], f"the parameter list of action {name!r}")
        for var, var_types, type_node in reader.typed_list(plist.items, "parameter", variables=True):
            _check_types_declared(reader, domain.types, var_types, type_node, declared_types)
            if any(p.name == var for p in params):
                raise reader.semantic(f"parameter {var} appears twice in action {name!r}", var)
            params.append(Parameter(str(var), var_types))
    param_names = {p.name for p in params}

    def check(pred: Atom, args: list[Atom], atom_node: SList) -> None:
        if pred == "=":
            used.add(":equality")
            if len(args) != 2:
                raise reader.syntax("equality '(= a b)' takes exactly two arguments", atom_node)
        else:
            schema = domain.predicates.get(str(pred))
            if schema is None:
                raise reader.semantic(f"unknown predicate {pred!r} in action {name!r}", pred,
                                      "declare it in (:predicates ...)")
            if schema.arity != len(args):
                raise reader.semantic(
                    f"predicate {pred!r} takes {schema.arity} argument(s) but is given {len(args)} "
                    f"in action {name!r}", atom_node)
        for arg in args:
            if arg.startswith("?"):
                if arg not in param_names:
                    raise reader.semantic(f"unknown variable {arg} in action {name!r}", arg,
                                          "declare it in :parameters")
            elif arg not in domain.constants:
                raise reader.semantic(f"unknown constant {arg!r} in action {name!r}", arg,
                                      "declare it in (:constants ...)")

    precondition: list[Literal] = []
    if ":precondition" in parts:
        precondition = reader.conjunction(parts[":precondition"], check, allow_negation=True,
                                          context=f"the precondition of {name!r}")
        if any(not lit.positive and lit.predicate != "=" for lit in precondition):
            used.add(":negative-preconditions")
    effects: list[Literal] = []
    if ":effect" in parts:
        effects = reader.conjunction(parts[":effect"], check, allow_negation=True,
                                     context=f"the effect of {name!r}")
        for lit in effects:
            if lit.predicate == "=":
                raise reader.semantic(f"an effect of action {name!r} cannot be an equality", parts[":effect"])
    return ActionSchema(name, tuple(params), tuple(precondition), tuple(effects))


def parse_problem(text: str, domain: Domain, name: str | None = None) -> Problem:
    """Parses problem text against `domain`; checks objects, types and arities of init and goal."""
    source = Source(text, name)
    reader = _Reader(source)
    root = read(source)
    problem_name = reader.header(root, "problem")
    collected: list[str] = []
    domain_ref = None
    objects: dict[str, str] = {}
    init_node = goal_node = None
    known = (":domain", ":requirements", ":objects", ":init", ":goal")
    for head, node in _sections(reader, root, known, "problem"):
        if head == ":domain":
            if len(node) != 2:
                raise reader.syntax("expected '(:domain NAME)'", node)
            domain_ref = reader.expect_atom(node[1], "the domain name")
            if domain_ref != domain.name:
                reader.warn(f"problem is for domain {str(domain_ref)!r} but the domain is {domain.name!r}",
                            domain_ref, collected)
        elif head == ":requirements":
            continue
        elif head == ":objects":
            for obj, obj_types, type_node in reader.typed_list(node.items[1:], "object", variables=False):
                if len(obj_types) > 1:
                    raise reader.syntax("an object has exactly one type, not '(either ...)'", type_node)
                if obj_types[0] not in domain.types:
                    raise reader.semantic(f"unknown type {obj_types[0]!r} for object {str(obj)!r}", type_node,
                                          f"the domain declares: {', '.join(sorted(domain.types))}")
                if obj in objects and objects[obj] != obj_types[0]:
                    raise reader.semantic(f"object {str(obj)!r} is declared twice with different types", obj)
                if obj in domain.constants and domain.constants[obj] != obj_types[0]:
                    raise reader.semantic(f"object {str(obj)!r} is already a domain constant of type "
                                          f"{domain.constants[obj]!r}", obj)
                objects[str(obj)] = obj_types[0]
        elif head == ":init":
            if init_node is not None:
                raise reader.syntax("the problem has two (:init ...) sections", node, "merge them into one")
            init_node = node
        else:
            if goal_node is not None:
                raise reader.syntax("the problem has two (:goal ...) sections", node, "merge them into one")
            if len(node) != 2:
                raise reader.syntax("expected '(:goal FORMULA)' with exactly one formula", node)
            goal_node = node
    if domain_ref is None:
        reader.warn("problem has no (:domain NAME) section", root, collected)
    if goal_node is None:
        raise reader.syntax("the problem has no (:goal ...) section", root, "add '(:goal (and ...))'")
    all_objects = dict(domain.constants)
    all_objects.update(objects)

    def check(pred: Atom, args: list[Atom], atom_node: SList, context: str) -> None:
        if pred == "=":
            raise reader.unsupported(f"equality in the {context}", atom_node)
        schema = domain.predicates.get(str(pred))
        if schema is None:
            raise reader.semantic(f"unknown predicate {pred!r} in the {context}", pred,
                                  f"the domain declares: {', '.join(sorted(domain.predicates))}")
        if schema.arity != len(args):
            raise reader.semantic(f"predicate {pred!r} takes {schema.arity} argument(s) but is given "
                                  f"{len(args)} in the {context}", atom_node)
        for arg, param in zip(args, schema.parameters):
            if arg.startswith("?"):
                raise reader.syntax(f"unexpected variable {arg} in the {context}", arg,
                                    "the init and goal are ground: use object names")
            obj_type = all_objects.get(str(arg))
            if obj_type is None:
                raise reader.semantic(f"undeclared object {str(arg)!r} in the {context}", arg,
                                      "declare it in (:objects ...)")
            if not domain.is_subtype(obj_type, param.types):
                raise reader.semantic(f"object {str(arg)!r} of type {obj_type!r} cannot be argument "
                                      f"{param.name} of {str(pred)!r}, which needs {param.type_str}", arg)

    init: list[Literal] = []
    if init_node is not None:
        for atom_node in init_node.items[1:]:
            if isinstance(atom_node, SList) and atom_node.head == "=":
                raise reader.unsupported("numeric fluents ('=' in :init)", atom_node)
            init.append(reader.literal(atom_node, lambda p, a, n: check(p, a, n, "init"),
                                       allow_negation=False, context="the init"))
    goal = reader.conjunction(goal_node[1], lambda p, a, n: check(p, a, n, "goal"), allow_negation=True,
                              context="the goal")
    return Problem(str(problem_name), str(domain_ref or domain.name), objects, tuple(dict.fromkeys(init)),
                   tuple(goal), name, collected)

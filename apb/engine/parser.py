"""Parses PDDL domain and problem text into the lifted model, with errors that point at file, line and column.

Supported: classical PDDL as Fast Downward's translator reads it: STRIPS, typing (hierarchy, `either`),
constants, negative preconditions, equality, `or`/`imply`/`not` over any formula, `forall`/`exists` in
preconditions, goals and effect conditions, conditional effects (`when`, nested in `forall`), action costs
(`(increase (total-cost) N)` or a static function term, `:metric minimize (total-cost)`) and derived predicates
(`:derived`). Keywords are case-insensitive, a type may be declared as `object`, a '?' starts a new token
(`(aircraft?a)`), and requirements used but not declared are accepted with a warning. Still refused with one
`UnsupportedFeatureError` naming the feature, file and line: numeric fluents beyond total-cost, durative
actions, preferences, constraints, object fluents.
"""

from __future__ import annotations

from apb.engine.model import (
    ROOT_TYPE,
    ActionSchema,
    Axiom,
    Domain,
    Literal,
    Parameter,
    PredicateSchema,
    Problem,
)
from apb.engine.reader import SUPPORT_HINT, Reader, split_conjuncts
from apb.engine.sexpr import Atom, SList, Source, read

__all__ = ["SUPPORT_HINT", "parse_domain", "parse_problem"]

SUPPORTED_REQUIREMENTS = {
    ":strips", ":typing", ":negative-preconditions", ":equality", ":adl", ":disjunctive-preconditions",
    ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
    ":conditional-effects", ":action-costs", ":derived-predicates",
}
UNSUPPORTED_REQUIREMENTS = {
    ":fluents": "numeric fluents", ":numeric-fluents": "numeric fluents", ":object-fluents": "object fluents",
    ":durative-actions": "durative actions", ":duration-inequalities": "durative actions",
    ":continuous-effects": "continuous effects", ":timed-initial-literals": "timed initial literals",
    ":preferences": "preferences", ":constraints": "state-trajectory constraints",
}
_UNSUPPORTED_SECTIONS = {
    ":durative-action": "durative actions (':durative-action')",
    ":constraints": "state-trajectory constraints (':constraints')",
}
_ADL = {":strips", ":typing", ":negative-preconditions", ":equality", ":disjunctive-preconditions",
        ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
        ":conditional-effects"}


def _sections(reader: Reader, root: SList, known: tuple[str, ...], kind: str):
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


class _DomainBuilder:
    """State of one domain parse: sections read so far and the checks actions and axioms need."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.types: dict[str, str | None] = {ROOT_TYPE: None}
        self.declared_types = False
        self.constants: dict[str, str] = {}
        self.predicates: dict[str, PredicateSchema] = {}
        self.functions: dict[str, PredicateSchema] = {}
        self.collected: list[str] = []

    def check_types(self, names: tuple[str, ...], node) -> None:
        for type_name in names:
            if type_name not in self.types:
                hint = "declare it in (:types ...)" if self.declared_types else \
                    "add a (:types ...) section that declares it"
                raise self.reader.semantic(f"unknown type {type_name!r}", node, hint)

    def atom_check(self, where: str):
        reader = self.reader

        def check(pred: Atom, args: list[Atom], atom_node: SList) -> None:
            if pred != "=":
                schema = self.predicates.get(str(pred))
                if schema is None:
                    if pred in self.functions:
                        raise reader.unsupported(f"numeric fluents (function {str(pred)!r} used as a condition)",
                                                 atom_node)
                    raise reader.semantic(f"unknown predicate {pred!r} in {where}", pred,
                                          "declare it in (:predicates ...)")
                if schema.arity != len(args):
                    raise reader.semantic(
                        f"predicate {pred!r} takes {schema.arity} argument(s) but is given {len(args)} "
                        f"in {where}", atom_node)
            for arg in args:
                if not arg.startswith("?") and arg not in self.constants:
                    raise reader.semantic(f"unknown constant {arg!r} in {where}", arg,
                                          "declare it in (:constants ...)")
        return check

    def read_types(self, node: SList) -> None:
        reader = self.reader
        self.declared_types = True
        types = self.types
        for type_name, parent, type_node in reader.typed_list(node.items[1:], "type", variables=False):
            if len(parent) > 1:
                raise reader.unsupported("a type whose parent is '(either ...)'", type_node)
            if type_name == ROOT_TYPE:  # `object` declared as a type: it is the root already
                continue
            if type_name in types and types[type_name] != ROOT_TYPE and types[type_name] != parent[0]:
                raise reader.semantic(f"type {type_name!r} is declared twice with different parents", type_name)
            types[str(type_name)] = parent[0]
        for type_name, _parent, type_node in reader.typed_list(node.items[1:], "type", variables=False):
            parent = types.get(str(type_name))
            if parent is not None and parent not in types:
                types[parent] = ROOT_TYPE  # a parent used but not declared is a subtype of object
                reader.warn(f"type {parent!r} is used as a parent but never declared", type_node, self.collected)
        for start in types:
            seen = {start}
            parent = types[start]
            while parent is not None:
                if parent in seen:
                    raise reader.semantic(f"the type hierarchy has a cycle through {start!r}", node)
                seen.add(parent)
                parent = types.get(parent)

    def read_declarations(self, node: SList, table: dict, what: str) -> None:
        """`(:predicates (p ?x - t) ...)` or `(:functions (f ?x) - number ...)` into `table`."""
        reader = self.reader
        items = node.items[1:]
        i = 0
        while i < len(items):
            decl = items[i]
            if what == "function" and isinstance(decl, Atom) and decl == "-":
                if i + 1 >= len(items) or items[i + 1] != "number":
                    raise reader.unsupported("object fluents (a function whose type is not 'number')",
                                             items[i + 1] if i + 1 < len(items) else decl)
                i += 2
                continue
            decl = reader.expect_list(decl, f"a {what} declaration '(name ?arg ...)'")
            name = decl.head
            if name is None:
                raise reader.syntax(f"expected a {what} name", decl)
            if name in table:
                raise reader.semantic(f"{what} {name!r} is declared twice", decl)
            params = []
            for var, var_types, type_node in reader.typed_list(decl.items[1:], "parameter", variables=True):
                self.check_types(var_types, type_node)
                params.append(Parameter(str(var), var_types))
            table[str(name)] = PredicateSchema(str(name), tuple(params))
            i += 1

    def read_action(self, domain: Domain, node: SList) -> ActionSchema:
        reader = self.reader
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
        params: tuple[Parameter, ...] = ()
        if ":parameters" in parts:
            params = reader.parameters(parts[":parameters"], f"the parameter list of action {name!r}",
                                       self.check_types)
        scope = {p.name for p in params}
        where = f"action {name!r}"
        check = self.atom_check(where)
        literals: tuple[Literal, ...] = ()
        complex_parts: tuple = ()
        if ":precondition" in parts:
            condition = reader.formula(parts[":precondition"], scope, check, self.check_types,
                                       f"the precondition of {name!r}")
            literals, complex_parts = split_conjuncts(condition)
        simple, conditional, costs = [], [], []
        if ":effect" in parts:
            simple, conditional, costs = reader.effect(
                parts[":effect"], scope, check, self.check_types, f"the effect of {name!r}",
                lambda n, s: reader.cost_value(n, s, self.functions, f"the effect of {name!r}"))
        derived = domain.derived_predicates
        for lit in [*simple, *(c.literal for c in conditional)]:
            if lit.predicate in derived:
                raise reader.semantic(f"action {name!r} changes the derived predicate {lit.predicate!r}",
                                      parts[":effect"], "derived predicates are defined only by their axioms")
        return ActionSchema(name, params, literals, tuple(simple), complex_parts, tuple(conditional), tuple(costs))

    def read_axiom(self, node: SList) -> Axiom:
        reader = self.reader
        if len(node) != 3:
            raise reader.syntax("expected '(:derived (PREDICATE ?x - TYPE ...) CONDITION)'", node)
        head = reader.expect_list(node[1], "the derived atom '(PREDICATE ?x ...)'")
        pred = head.head
        if pred is None or pred not in self.predicates:
            raise reader.semantic(f"unknown derived predicate {head.items[:1]!r}", head,
                                  "declare it in (:predicates ...)")
        params = []
        for var, var_types, type_node in reader.typed_list(head.items[1:], "parameter", variables=True):
            self.check_types(var_types, type_node)
            params.append(Parameter(str(var), var_types))
        schema = self.predicates[pred]
        if len(params) != schema.arity:
            raise reader.semantic(f"predicate {pred!r} takes {schema.arity} argument(s) but the derived atom "
                                  f"has {len(params)}", head)
        if len({p.name for p in params}) != len(params):
            raise reader.semantic(f"a variable appears twice in the derived atom of {pred!r}", head)
        # The head's types are the declared ones where the :derived head leaves them untyped.
        params = [p if p.types != (ROOT_TYPE,) else Parameter(p.name, s.types)
                  for p, s in zip(params, schema.parameters)]
        where = f"the axiom of {str(pred)!r}"
        body = reader.formula(node[2], {p.name for p in params}, self.atom_check(where), self.check_types, where)
        reader.used.add(":derived-predicates")
        return Axiom(str(pred), tuple(params), body)


def parse_domain(text: str, name: str | None = None) -> Domain:
    """Parses domain text; `name` (usually the file path) is used in error messages."""
    source = Source(text, name)
    reader = Reader(source)
    root = read(source)
    domain_name = reader.header(root, "domain")
    builder = _DomainBuilder(reader)
    requirements: list[str] = []
    req_node = None
    action_nodes: list[SList] = []
    axiom_nodes: list[SList] = []
    known = (":requirements", ":types", ":constants", ":predicates", ":functions", ":action", ":derived")
    for head, node in _sections(reader, root, known, "domain"):
        if head == ":requirements":
            req_node = node
            for req in node.items[1:]:
                req = reader.expect_atom(req, "a requirement such as ':strips'")
                if req in UNSUPPORTED_REQUIREMENTS:
                    raise reader.unsupported(f"{UNSUPPORTED_REQUIREMENTS[req]} ('{req}')", req)
                if req not in SUPPORTED_REQUIREMENTS:
                    raise reader.syntax(f"unknown requirement {req!r}", req,
                                        "supported: " + " ".join(sorted(SUPPORTED_REQUIREMENTS)))
                requirements.append(str(req))
        elif head == ":types":
            builder.read_types(node)
        elif head == ":constants":
            for obj, obj_types, type_node in reader.typed_list(node.items[1:], "constant", variables=False):
                if len(obj_types) > 1:
                    raise reader.syntax("a constant has exactly one type, not '(either ...)'", type_node)
                builder.check_types(obj_types, type_node)
                builder.constants[str(obj)] = obj_types[0]
        elif head == ":predicates":
            builder.read_declarations(node, builder.predicates, "predicate")
        elif head == ":functions":
            builder.read_declarations(node, builder.functions, "function")
        elif head == ":derived":
            axiom_nodes.append(node)
        else:
            action_nodes.append(node)
    domain = Domain(str(domain_name), tuple(requirements), builder.types, builder.constants, builder.predicates,
                    (), name, builder.collected, builder.functions)
    if any(t != ROOT_TYPE for t in builder.types) or any(t != ROOT_TYPE for t in builder.constants.values()):
        reader.used.add(":typing")
    domain.axioms = tuple(builder.read_axiom(node) for node in axiom_nodes)
    actions: list[ActionSchema] = []
    for node in action_nodes:
        schema = builder.read_action(domain, node)
        if any(a.name == schema.name for a in actions):
            raise reader.semantic(f"action {schema.name!r} is defined twice", node)
        actions.append(schema)
    domain.actions = tuple(actions)
    _check_function_use(reader, domain, action_nodes)
    declared = set(requirements)
    if ":adl" in declared:
        declared |= _ADL
    if declared & {":existential-preconditions", ":universal-preconditions"}:
        declared.add(":quantified-preconditions")
    if ":quantified-preconditions" in declared:
        declared |= {":existential-preconditions", ":universal-preconditions"}
    for req in sorted(reader.used - declared - {":strips"}):
        reader.warn(f"domain uses {req} but does not declare it in :requirements", req_node or root,
                    builder.collected)
    return domain


def _check_function_use(reader: Reader, domain: Domain, nodes: list[SList]) -> None:
    """total-cost may only be increased; every other function must be static (only read in costs)."""
    if "total-cost" in domain.functions and domain.functions["total-cost"].arity != 0:
        raise reader.semantic("total-cost takes no arguments", nodes[0] if nodes else None)


def parse_problem(text: str, domain: Domain, name: str | None = None) -> Problem:
    """Parses problem text against `domain`; checks objects, types and arities of init and goal."""
    source = Source(text, name)
    reader = Reader(source)
    root = read(source)
    problem_name = reader.header(root, "problem")
    collected: list[str] = []
    domain_ref = None
    objects: dict[str, str] = {}
    init_node = goal_node = None
    metric = None
    known = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")
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
                if obj in objects:
                    kinds = "" if objects[obj] == obj_types[0] else " with different types"
                    raise reader.semantic(f"object {str(obj)!r} is declared twice{kinds}", obj,
                                          "declare each object once")
                if obj in domain.constants and domain.constants[obj] != obj_types[0]:
                    raise reader.semantic(f"object {str(obj)!r} is already a domain constant of type "
                                          f"{domain.constants[obj]!r}", obj)
                objects[str(obj)] = obj_types[0]
        elif head == ":init":
            if init_node is not None:
                raise reader.syntax("the problem has two (:init ...) sections", node, "merge them into one")
            init_node = node
        elif head == ":metric":
            metric = _metric(reader, node)
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
    init, values = _init(reader, domain, init_node, all_objects)
    goal_check = _object_check(reader, domain, all_objects, "goal")
    goal = reader.formula(goal_node[1], set(), goal_check,
                          lambda names, node: _known_types(reader, domain, names, node), "the goal")
    literals, complex_goal = split_conjuncts(goal)
    return Problem(str(problem_name), str(domain_ref or domain.name), objects, tuple(dict.fromkeys(init)),
                   literals, name, collected, complex_goal, values, metric)


def _known_types(reader: Reader, domain: Domain, names: tuple[str, ...], node) -> None:
    for type_name in names:
        if type_name not in domain.types:
            raise reader.semantic(f"unknown type {type_name!r}", node, "declare it in the domain's (:types ...)")


def _metric(reader: Reader, node: SList) -> str:
    if len(node) == 3 and node[1] == "minimize" and isinstance(node[2], SList) and node[2].head == "total-cost" \
            and len(node[2]) == 1:
        return "minimize (total-cost)"
    raise reader.unsupported("plan metrics other than 'minimize (total-cost)'", node)


def _object_check(reader: Reader, domain: Domain, all_objects: dict[str, str], context: str):
    def check(pred: Atom, args: list[Atom], atom_node: SList) -> None:
        if pred == "=":
            for arg in args:
                if not arg.startswith("?") and str(arg) not in all_objects:
                    raise reader.semantic(f"undeclared object {str(arg)!r} in the {context}", arg,
                                          "declare it in (:objects ...)")
            return
        schema = domain.predicates.get(str(pred))
        if schema is None:
            if pred in domain.functions:
                raise reader.unsupported(f"numeric fluents (function {str(pred)!r} in the {context})", atom_node)
            raise reader.semantic(f"unknown predicate {pred!r} in the {context}", pred,
                                  f"the domain declares: {', '.join(sorted(domain.predicates))}")
        if schema.arity != len(args):
            raise reader.semantic(f"predicate {pred!r} takes {schema.arity} argument(s) but is given "
                                  f"{len(args)} in the {context}", atom_node)
        for arg, param in zip(args, schema.parameters):
            if arg.startswith("?"):
                continue
            obj_type = all_objects.get(str(arg))
            if obj_type is None:
                raise reader.semantic(f"undeclared object {str(arg)!r} in the {context}", arg,
                                      "declare it in (:objects ...)")
            if not domain.is_subtype(obj_type, param.types):
                raise reader.semantic(f"object {str(arg)!r} of type {obj_type!r} cannot be argument "
                                      f"{param.name} of {str(pred)!r}, which needs {param.type_str}", arg)
    return check


def _init(reader: Reader, domain: Domain, init_node: SList | None, all_objects: dict[str, str]):
    """(init atoms, function values) of the :init section."""
    init: list[Literal] = []
    values: dict[tuple, float] = {}
    if init_node is None:
        return init, values
    check = _object_check(reader, domain, all_objects, "init")
    derived = domain.derived_predicates
    for atom_node in init_node.items[1:]:
        atom_node = reader.expect_list(atom_node, "an atom in the init")
        if atom_node.head == "=" and len(atom_node) == 3 and isinstance(atom_node[1], SList):
            values.update([_function_value(reader, domain, atom_node, all_objects)])
            continue
        if atom_node.head in ("not", "and", "or", "forall", "exists", "imply", "when"):
            raise reader.syntax(f"expected a ground atom in the init, found '({atom_node.head} ...)'", atom_node,
                                "the init lists the true atoms only")
        literal = reader.atom(atom_node, set(), check, "the init")
        if literal.predicate == "=":
            raise reader.syntax("equality atoms cannot be listed in the init", atom_node)
        if literal.predicate in derived:
            raise reader.semantic(f"the derived predicate {literal.predicate!r} cannot be listed in the init",
                                  atom_node, "its axioms define when it holds")
        for arg in literal.args:
            if arg.startswith("?"):
                raise reader.syntax(f"unexpected variable {arg} in the init", atom_node,
                                    "the init and goal are ground: use object names")
        init.append(literal)
    return init, values


def _function_value(reader: Reader, domain: Domain, node: SList, all_objects: dict[str, str]):
    term = node[1]
    name = term.head
    if name == "total-cost" and name not in domain.functions and len(term) == 1:
        return ("total-cost",), _init_number(reader, node[2])
    if name is None or name not in domain.functions:
        raise reader.semantic(f"unknown function {term.items[:1]!r} in the init", term,
                              "declare it in the domain's (:functions ...)")
    args = tuple(str(reader.expect_atom(a, f"an argument of {name!r}")) for a in term.items[1:])
    if len(args) != domain.functions[name].arity:
        raise reader.semantic(f"function {name!r} takes {domain.functions[name].arity} argument(s) but is given "
                              f"{len(args)} in the init", term)
    for arg in args:
        if arg not in all_objects:
            raise reader.semantic(f"undeclared object {arg!r} in the init", term, "declare it in (:objects ...)")
    return (str(name), *args), _init_number(reader, node[2])


def _init_number(reader: Reader, value) -> float:
    if not isinstance(value, Atom):
        raise reader.unsupported("numeric fluents (a computed value in the init)", value)
    try:
        return float(value)
    except ValueError:
        raise reader.unsupported("object fluents (a function whose value is an object)", value) from None


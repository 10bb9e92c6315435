"""Fast instantiation of the ground actions of one schema, for building a task with many of them.

`ActionTemplate(schema, ...)` generates and compiles one Python function per schema that maps a tuple of objects
(one per parameter) to the ground action's literal part: the fact ids of its positive and negative literal
preconditions, of its unconditional add and delete effects (schemas without conditional effects) and its step
cost; or None when a static or equality precondition fails or a positive fluent precondition is never reachable
(the action can never apply). It computes exactly what the task's general path (`TaskBuilder.make_action`) computes
for those parts, without building a binding dictionary, explanation texts or a tuple per literal; the
explanation texts of an action are built when first asked for (`GroundAction.conditions`). For a STRIPS schema,
`build_all` makes the ground actions of all its bindings in one generated loop (no Python call per binding); so
it does for a schema whose conditional effects static facts decide (no forall, no complex precondition).
"""

from __future__ import annotations

from collections.abc import Callable

from apb.engine.effects import action_cost
from apb.engine.model import ActionSchema, And, ConditionalEffect, Literal, Problem


def _static_test(ce: ConditionalEffect, fluent_preds: frozenset, term: Callable, atom: Callable) -> str | None:
    """A Python test of a conditional effect's condition when static facts and equalities decide it (a literal or
    a conjunction of literals, no forall variables), else None."""
    if ce.parameters:
        return None
    if ce.condition is None:
        return "True"
    literals = ce.condition.parts if isinstance(ce.condition, And) else (ce.condition,)
    tests = []
    for lit in literals:
        if not isinstance(lit, Literal) or lit.predicate in fluent_preds:
            return None
        if lit.predicate == "=":
            a, b = (term(x) for x in lit.args)
            tests.append(f"{a} {'==' if lit.positive else '!='} {b}")
        else:
            tests.append(f"{atom(lit.predicate, lit.args)} {'in' if lit.positive else 'not in'} static")
    return "(" + " and ".join(tests) + ")" if tests else "True"


def _static_holds(ce: ConditionalEffect, binding: dict[str, str], static: frozenset) -> bool:
    """`_static_test`'s verdict for a binding, without generated code (for an effect `_static_test` decides)."""
    if ce.condition is None:
        return True
    literals = ce.condition.parts if isinstance(ce.condition, And) else (ce.condition,)
    for lit in literals:
        args = tuple(binding.get(a, a) for a in lit.args)
        holds = args[0] == args[1] if lit.predicate == "=" else (lit.predicate, *args) in static
        if holds != lit.positive:
            return False
    return True


def effects_decided(schema: ActionSchema, fluent_preds: frozenset) -> bool:
    """Whether every conditional effect of the schema is decided by static facts and equalities (no forall, a
    literal conjunction): then `make` and `literal_parts` give the effects too (`ActionTemplate.effects_inline`)."""
    for ce in schema.conditional_effects:
        if ce.parameters:
            return False
        if ce.condition is None:
            continue
        literals = ce.condition.parts if isinstance(ce.condition, And) else (ce.condition,)
        if any(not isinstance(lit, Literal) or lit.predicate in fluent_preds for lit in literals):
            return False
    return True


def literal_parts(schema: ActionSchema, args: tuple[str, ...], fluent: frozenset, static: frozenset,
                  fid: Callable, problem: Problem, has_costs: bool, effects_inline: bool):
    """What a template's generated `make(args)` returns, computed from the schema without generated code:
    cheaper than compiling for a schema with few bindings (grounded PSR tasks have one schema per action)."""
    binding = dict(zip((p.name for p in schema.parameters), args))

    def fact(lit) -> tuple:
        return (lit.predicate, *(binding.get(a, a) for a in lit.args))

    pre: list[int] = []
    neg: list[int] = []
    for lit in schema.precondition:
        if lit.predicate == "=":
            a, b = (binding.get(x, x) for x in lit.args)
            if (a == b) != lit.positive:
                return None
        elif lit.predicate not in fluent:
            if (fact(lit) in static) != lit.positive:
                return None
        else:
            f = fid(fact(lit))
            if lit.positive:
                if f is None:
                    return None
                pre.append(f)
            elif f is not None:
                neg.append(f)
    add: list[int] = []
    delete: list[int] = []
    if effects_inline:
        effects = list(schema.effects)
        effects += [ce.literal for ce in schema.conditional_effects if _static_holds(ce, binding, static)]
        for lit in effects:
            f = fid(fact(lit))
            if f is not None:
                (add if lit.positive else delete).append(f)
    return pre, neg, add, delete, action_cost(schema, binding, problem, has_costs)


def _cost_lines(schema: ActionSchema, atom: Callable, indent: str) -> list[str]:
    """Generated lines that set `cost` to the schema's cost for the bindings in scope (`values` reads a function's
    value; a missing one returns `cost_error(args)`, the general path's error)."""
    lines = [f"{indent}total = 0"]
    for term_ in schema.cost:
        if term_.function is None:
            lines.append(f"{indent}total += {term_.value!r}")
        else:
            lines += [f"{indent}v = values({atom(term_.function, term_.args)})",
                      f"{indent}if v is None: return cost_error(args)", f"{indent}total += v"]
    lines.append(f"{indent}cost = int(total) if float(total).is_integer() else total")
    return lines


class ActionTemplate:
    """`template(args) -> (pre, neg, add, delete, cost) | None` for one schema (see the module docstring)."""

    def __init__(self, schema: ActionSchema, fluent_preds: frozenset, static_facts: frozenset,
                 fact_id: Callable, problem: Problem, has_costs: bool) -> None:
        self.schema = schema
        names = [p.name for p in schema.parameters]
        var = {name: f"a{i}" for i, name in enumerate(names)}

        def term(arg: str) -> str:
            return var[arg] if arg in var else repr(arg)

        def atom(predicate: str, args: tuple[str, ...]) -> str:
            return "(" + ", ".join([repr(predicate), *(term(a) for a in args)]) + ",)"

        # The effects too, when no effect is conditional or every condition is decided by static facts and
        # equalities alone (no forall): the ids come in the order EffectGrounder gives them.
        tests = [_static_test(ce, fluent_preds, term, atom) for ce in schema.conditional_effects]
        self.effects_inline = all(test is not None for test in tests)
        # `build_all` serves the schemas whose ground actions `make` gives whole: no complex precondition and every
        # effect unconditional or decided by static facts (then no GroundEffect is left)
        self.bulk = self.effects_inline and not schema.complex_precondition
        self._tests = tests

        def source() -> str:
            """The generated `make` (built only when a schema has enough bindings to compile it)."""
            lines = ["def make(args):"]
            if names:
                lines.append(f"    {', '.join(var[n] for n in names)}, = args")
            lines += ["    pre = []", "    neg = []"]
            for lit in schema.precondition:
                if lit.predicate == "=":
                    a, b = (term(x) for x in lit.args)
                    lines.append(f"    if {a} {'!=' if lit.positive else '=='} {b}: return None")
                elif lit.predicate not in fluent_preds:
                    test = "not in" if lit.positive else "in"
                    lines.append(f"    if {atom(lit.predicate, lit.args)} {test} static: return None")
                elif lit.positive:
                    lines += [f"    f = fid({atom(lit.predicate, lit.args)})", "    if f is None: return None",
                              "    pre.append(f)"]
                else:
                    lines += [f"    f = fid({atom(lit.predicate, lit.args)})",
                              "    if f is not None: neg.append(f)"]
            lines += ["    add = []", "    delete = []"]
            if self.effects_inline:
                for eff in schema.effects:
                    target = "add" if eff.positive else "delete"
                    lines += [f"    f = fid({atom(eff.predicate, eff.args)})",
                              f"    if f is not None: {target}.append(f)"]
                for ce, test in zip(schema.conditional_effects, tests):
                    lit = ce.literal
                    lines += [f"    if {test}:", f"        f = fid({atom(lit.predicate, lit.args)})",
                              f"        if f is not None: {'add' if lit.positive else 'delete'}.append(f)"]
            if not has_costs:
                lines.append("    return pre, neg, add, delete, 1")
            else:
                lines += _cost_lines(schema, atom, "    ")
                lines.append("    return pre, neg, add, delete, cost")
            return "\n".join(lines) + "\n"

        def cost_error(args: tuple[str, ...]):  # raises the general path's error naming the missing value
            return action_cost(schema, dict(zip(names, args)), problem, True)

        namespace = {"fid": fact_id, "static": static_facts, "values": problem.function_values.get,
                     "cost_error": cost_error, "fluent": fluent_preds}
        self._source = source
        self._make: Callable | None = None
        self._problem = problem
        self._namespace = namespace
        self._build_all: Callable | None = None
        self._has_costs = has_costs
        self._term, self._atom = term, atom

    @property
    def make(self) -> Callable:
        """The generated function, compiled on first use (a schema with few bindings uses `make_interpreted`)."""
        if self._make is None:
            namespace = self._namespace
            exec(compile(self._source(), f"<template {self.schema.name}>", "exec"), namespace)  # names, reprs
            self._make = namespace["make"]
        return self._make

    def make_interpreted(self, args: tuple[str, ...]):
        """What `make(args)` returns, computed from the schema without generated code (`literal_parts`)."""
        namespace = self._namespace
        return literal_parts(self.schema, args, namespace["fluent"], namespace["static"], namespace["fid"],
                             self._problem, self._has_costs, self.effects_inline)

    def build_all(self, bindings, conditions: Callable, action_class: type) -> list:
        """For a `bulk` schema (STRIPS, or conditional effects that static facts decide): the possible ground
        actions (`action_class(...)`, conditions made on first use by `conditions(action)`) of all these bindings,
        in order, from one generated loop; the same actions `make` and the task's general path give, without a
        Python call per binding to reach them."""
        if self._build_all is None:
            self._build_all = self._compile_all()
        return self._build_all(bindings, conditions, action_class)

    def _compile_all(self) -> Callable:
        schema, term, atom = self.schema, self._term, self._atom
        names = [p.name for p in schema.parameters]
        lines = ["def build_all(bindings, conditions, new):", "    out = []", "    append = out.append",
                 "    for args in bindings:"]
        if names:
            lines.append(f"        {', '.join(term(n) for n in names)}, = args")

        def collect(name: str, literals: list, required: bool, guards: list | None = None) -> None:
            """`name` = the fact ids of these literals in order (duplicates dropped); a missing required one
            skips the binding, a missing optional one is left out, and so is an optional one whose guard (a
            generated test, "True" for none) fails."""
            if not literals:
                lines.append(f"        {name} = ()")
                return
            twice = len({lit.predicate for lit in literals}) < len(literals)  # only then can two ids be equal
            if required:
                for k, lit in enumerate(literals):
                    lines.extend([f"        {name}{k} = fid({atom(lit.predicate, lit.args)})",
                                  f"        if {name}{k} is None: continue"])
                ids = "(" + "".join(f"{name}{k}, " for k in range(len(literals))) + ")"
            else:
                lines.append(f"        {name}l = []")
                for lit, guard in zip(literals, guards or ["True"] * len(literals)):
                    test = "" if guard == "True" else f"{guard} and "
                    lines.extend([f"        f = fid({atom(lit.predicate, lit.args)})",
                                  f"        if {test}f is not None: {name}l.append(f)"])
                ids = f"{name}l"
            if twice:
                lines.append(f"        {name} = tuple(dict.fromkeys({ids}))")
            else:
                lines.append(f"        {name} = {ids}" if required else f"        {name} = tuple({ids})")

        for lit in schema.precondition:
            if lit.predicate == "=":
                a, b = (term(x) for x in lit.args)
                lines.append(f"        if {a} {'!=' if lit.positive else '=='} {b}: continue")
            elif lit.predicate not in self._namespace["fluent"]:
                test = "not in" if lit.positive else "in"
                lines.append(f"        if {atom(lit.predicate, lit.args)} {test} static: continue")
        fluent = [lit for lit in schema.precondition if lit.predicate != "=" and lit.predicate in
                  self._namespace["fluent"]]
        collect("pre", [lit for lit in fluent if lit.positive], True)
        collect("neg", [lit for lit in fluent if not lit.positive], False)
        # the effects, each `when` guarded by its static test, the ids in `make`'s order
        effects = [(e, "True") for e in schema.effects]
        effects += [(ce.literal, test) for ce, test in zip(schema.conditional_effects, self._tests)]
        for name, positive in (("add", True), ("delete", False)):
            mine = [(lit, test) for lit, test in effects if lit.positive == positive]
            collect(name, [lit for lit, _ in mine], False, [test for _, test in mine])
        if not self._has_costs:
            lines.append("        cost = 1")
        else:
            lines += _cost_lines(schema, atom, "        ")
        lines += ["        append(new(schema, args, pre, neg, add, delete, conditions, cost=cost))", "    return out"]
        namespace = dict(self._namespace, schema=schema)
        exec(compile("\n".join(lines) + "\n", f"<all of {schema.name}>", "exec"), namespace)  # names, reprs
        return namespace["build_all"]

    def __call__(self, args: tuple[str, ...]):
        return self.make(args)

"""Prints the lifted model back as PDDL (formulas, conditional effects, costs and axioms included), so that
parsed (or programmatically built) tasks can be handed to external tools such as Fast Downward.
`parse_domain(domain_to_pddl(d))` gives back an equal model.
"""

from __future__ import annotations

from collections.abc import Iterable

from apb.engine.model import ROOT_TYPE, ActionSchema, Domain, Parameter, Problem


def _typed_list(items: Iterable[tuple[str, str]]) -> str:
    """`a b - t c - u`; names are left untyped only when every one of them is an `object`."""
    items = list(items)
    if all(type_str == ROOT_TYPE for _, type_str in items):
        return " ".join(name for name, _ in items)
    parts: list[str] = []
    for i, (name, type_str) in enumerate(items):
        parts.append(name)
        if i + 1 == len(items) or items[i + 1][1] != type_str:
            parts.extend(("-", type_str))
    return " ".join(parts)


def _parameters(parameters: tuple[Parameter, ...]) -> str:
    return _typed_list((p.name, p.type_str) for p in parameters)


def _conjunction(literals: tuple, indent: str) -> str:
    if not literals:
        return "(and)"
    inner = f"\n{indent}  ".join(str(lit) for lit in literals)
    return f"(and\n{indent}  {inner})"


def _action(schema: ActionSchema) -> str:
    lines = [f"  (:action {schema.name}", f"    :parameters ({_parameters(schema.parameters)})"]
    if schema.precondition or schema.complex_precondition:
        lines.append(f"    :precondition {_conjunction((*schema.precondition, *schema.complex_precondition), '    ')}")
    effects = (*schema.effects, *schema.conditional_effects, *schema.cost)
    lines.append(f"    :effect {_conjunction(effects, '    ')})")
    return "\n".join(lines)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def domain_to_pddl(domain: Domain) -> str:
    """The domain as PDDL text: requirements, types, constants, predicates, actions."""
    lines = [f"(define (domain {domain.name})"]
    if domain.requirements:
        lines.append(f"  (:requirements {' '.join(domain.requirements)})")
    declared = [(t, parent) for t, parent in domain.types.items() if t != ROOT_TYPE]
    if declared:
        lines.append(f"  (:types {_typed_list((t, parent or ROOT_TYPE) for t, parent in declared)})")
    if domain.constants:
        lines.append(f"  (:constants {_typed_list(domain.constants.items())})")
    predicates = [f"({' '.join((p.name, _parameters(p.parameters))).strip()})" for p in domain.predicates.values()]
    lines.append("  (:predicates" + "".join(f"\n    {p}" for p in predicates) + ")")
    if domain.functions:
        functions = [f"({' '.join((f.name, _parameters(f.parameters))).strip()}) - number"
                     for f in domain.functions.values()]
        lines.append("  (:functions" + "".join(f"\n    {f}" for f in functions) + ")")
    for axiom in domain.axioms:
        head = "(" + " ".join((axiom.predicate, _parameters(axiom.parameters))).strip() + ")"
        lines.append(f"  (:derived {head}\n    {axiom.body})")
    lines.extend(_action(schema) for schema in domain.actions)
    return "\n".join(lines) + ")\n"


def problem_to_pddl(problem: Problem) -> str:
    """The problem as PDDL text: domain name, objects, init atoms, goal literals."""
    lines = [f"(define (problem {problem.name})", f"  (:domain {problem.domain_name})"]
    if problem.objects:
        lines.append(f"  (:objects {_typed_list(problem.objects.items())})")
    values = [f"(= ({' '.join(key)}) {_number(value)})" for key, value in problem.function_values.items()]
    lines.append("  (:init" + "".join(f"\n    {item}" for item in (*problem.init, *values)) + ")")
    goal = _conjunction((*problem.goal, *problem.complex_goal), '  ')
    if problem.metric:
        lines.append(f"  (:goal {goal})")
        lines.append(f"  (:metric {problem.metric}))")
    else:
        lines.append(f"  (:goal {goal}))")
    return "\n".join(lines) + "\n"

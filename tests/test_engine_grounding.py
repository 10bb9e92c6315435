"""Grounding formulas with early exits (a conjunction stops at its first impossible part; options of an or or
exists are grounded in full only when none can hold) gives exactly the formulas that grounding every part and
instance gives: same structure, masks, constants and texts, on the preconditions, goals and axiom bodies of the
IPC domains with quantifiers, disjunctions and derived predicates; with `droppable`, never-true formulas may
differ, everything else is the same."""

from __future__ import annotations

import warnings

import pytest
from conftest import first_ipc_problem

from apb.engine.formulas import FormulaGrounder, bindings_of, make, to_nnf
from apb.engine.task import Task


def plain_ground(grounder: FormulaGrounder, node, binding):
    """Every part and every instance grounded, then simplified (the definition)."""
    kind = node.kind
    if kind == "lit":
        return grounder.literal(node.literal, binding)
    if kind in ("and", "or"):
        return make(kind, tuple(plain_ground(grounder, p, binding) for p in node.parts), node.origin, binding)
    children = tuple(plain_ground(grounder, node.parts[0], b)
                     for b in bindings_of(node.parameters, grounder.objects_of, binding))
    return make(kind, children, node.origin, binding)


def signature(formula):
    if formula.kind == "fact":
        return ("fact", formula.fid, formula.positive, formula.atom)
    return (type(formula).__name__, formula.kind, formula.const, formula.pos_mask, formula.neg_mask, formula.text,
            tuple(signature(c) for c in formula.children))


@pytest.mark.parametrize("folder", ["optical-telegraphs", "philosophers", "psr-middle", "assembly", "airport-adl",
                                    "miconic-fulladl", "schedule", "trucks"])
def test_grounding_with_early_exits_equals_grounding_everything(folder):
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from apb.engine import load_domain, load_problem
        domain = load_domain(domain_file)
        task = Task(domain, load_problem(problem_file, domain))
    grounder = task._builder.formulas
    cases = []
    for schema in domain.actions:
        if schema.condition is not None:
            names = [p.name for p in schema.parameters]
            for action in task.actions:
                if action.name == schema.name:
                    cases.append((to_nnf(schema.condition), dict(zip(names, action.args))))
    for axiom in domain.axioms:
        node = to_nnf(axiom.body)
        names = [p.name for p in axiom.parameters]
        for args in list(bindings_of(axiom.parameters, grounder.objects_of, {}))[:120]:
            cases.append((node, args))
    assert cases
    dropped = 0
    for node, binding in cases:
        expected = plain_ground(grounder, node, binding)
        assert signature(grounder.ground(node, binding)) == signature(expected)
        quick = grounder.ground(node, binding, droppable=True)
        if expected.const is False:
            assert quick.const is False
            dropped += 1
        else:
            assert signature(quick) == signature(expected)
    assert dropped < len(cases)

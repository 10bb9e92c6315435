"""The fast paths of grounding give exactly what the general, interpreted paths give: the ground actions a
schema's generated loop makes (`ActionTemplate.build_all`), the masks made on first use, the lazily built
successor tree and the join plans compiled to Python, on IPC domains with action costs, negative and equality
preconditions, duplicate literals, conditional effects and derived predicates."""

from __future__ import annotations

import random
import warnings

import pytest
from conftest import first_ipc_problem

import apb.engine.joins as joins_module
import apb.engine.task_build as build_module
from apb.engine.ground import (
    _axiom_schema,
    _FactIndex,
    _SchemaGrounder,
    _variants,
    fluent_predicates,
    ground,
    object_types,
)
from apb.engine.task import Task


def load(folder: str) -> Task:
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from apb.engine import load_domain, load_problem
        domain = load_domain(domain_file)
        return Task(domain, load_problem(problem_file, domain))


def fields(action) -> tuple:
    return (str(action), action.pre, action.neg, action.add, action.delete, action.cost, action.pre_mask,
            action.neg_mask, action.add_mask, action.del_mask, action.conditions, action.is_strips)


def grounders_over_reached(folder: str):
    """(domain, reached facts sorted, static predicates, index of every reached fact, make_grounder(schema)) of the
    first problem of an IPC folder: the join plans' setting after grounding."""
    task = load(folder)
    domain, problem = task.domain, task.problem
    reached = sorted(ground(domain, problem).reachable_facts)
    objects = object_types(domain, problem)

    def objects_of(types):
        return frozenset(o for o, t in objects.items() if domain.is_subtype(t, types))

    static_preds = frozenset(domain.predicates) - fluent_predicates(domain)
    static = frozenset(f for f in reached if f[0] in static_preds)
    index = _FactIndex()
    for fact in reached:
        index.add(fact)
    return domain, reached, static_preds, index, lambda schema: _SchemaGrounder(schema, domain, objects_of,
                                                                                 static_preds, static)


@pytest.mark.parametrize("folder", ["elevators-sat08-strips", "folding-opt23-adl",
                                    "caldera-opt18-adl", "childsnack-sat14-strips", "tidybot-opt11-strips",
                                    "barman-sat11-strips"])
def test_bulk_built_actions_equal_the_general_path(folder, monkeypatch):
    monkeypatch.setattr(build_module, "BULK_MIN", 1)  # every STRIPS schema through its generated loop
    task = load(folder)
    expected = []
    for schema, args in ground(task.domain, task.problem).bindings:
        action = task._builder.make_action(schema, args)
        if not action.never_applicable:
            expected.append(fields(action))
    assert expected
    assert [fields(a) for a in task.actions] == sorted(expected)
    rng = random.Random(3)
    state = task.initial_state
    for _ in range(30):  # the lazy successor tree answers as a scan of the masks does
        ids = task.applicable_ids(state.bits)
        assert ids == [a.index for a in task.actions if task.is_applicable(state, a)]
        state = task.successor(state, task.actions[rng.choice(ids)]) if ids else task.initial_state


@pytest.mark.parametrize("folder", ["elevators-sat08-strips", "caldera-opt18-adl", "psr-small", "assembly",
                                    "woodworking-opt08-strips", "miconic-fulladl"])
def test_interpreted_templates_equal_the_compiled_ones(folder, monkeypatch):
    """A schema with few bindings uses `make_interpreted` (no compile): the same literal parts as `make` for
    every binding, and the same task either way."""
    from apb.engine.instantiation import ActionTemplate, effects_decided

    monkeypatch.setattr(build_module, "BULK_MIN", 10**9)  # every schema through make / make_interpreted
    monkeypatch.setattr(build_module, "COMPILE_MIN", 10**9)  # every schema interpreted
    interpreted = load(folder)
    monkeypatch.setattr(build_module, "COMPILE_MIN", 0)  # every schema compiled
    compiled = load(folder)
    assert [fields(a) for a in interpreted.actions] == [fields(a) for a in compiled.actions]
    task = compiled
    checked = 0
    for schema, args in ground(task.domain, task.problem).bindings:
        template = ActionTemplate(schema, task._builder.fluent_preds, task._static, task._fact_ids.get, task.problem,
                                  task.has_costs)
        assert template.make_interpreted(args) == template.make(args), (schema.name, args)
        assert effects_decided(schema, task._builder.fluent_preds) == template.effects_inline
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("folder", ["caldera-opt18-adl", "folding-opt23-adl", "assembly", "airport-adl",
                                    "childsnack-sat14-strips", "optical-telegraphs"])
def test_compiled_joins_equal_the_interpreted_plans(folder, monkeypatch):
    """Each join plan compiled to nested loops (`_SchemaGrounder._code`) finds the bindings `_step` finds, in the
    same order: over every reached fact, and from single facts (the semi-naive rounds)."""
    monkeypatch.setattr(joins_module, "COMPILE_AFTER", 0)  # compiled from the first run
    domain, _, _, index, grounder_of = grounders_over_reached(folder)
    rng = random.Random(5)
    compared = 0
    for schema in [*domain.actions, *(_axiom_schema(a) for a in domain.axioms)]:
        for variant in _variants(schema):
            grounder = grounder_of(variant)
            interpreted: list = []
            grounder._step(grounder._plan(None), 0, [None] * len(grounder.params), index, interpreted, None)
            assert grounder._code(None) is not None
            assert grounder.join(index) == interpreted
            for j, lit in enumerate(grounder.positives):
                facts = index.by_pred.get(lit.predicate, [])
                for args in rng.sample(facts, min(8, len(facts))):
                    expected: list = []
                    grounder._step(grounder._plan(j), 0, [None] * len(grounder.params), index, expected, args)
                    found: list = []
                    grounder.join_from(j, args, index, found)
                    assert found == expected
                    compared += len(found)
            compared += len(interpreted)
    assert compared


@pytest.mark.parametrize("folder", ["caldera-opt18-adl", "childsnack-sat14-strips", "optical-telegraphs"])
@pytest.mark.parametrize("compile_after", [0, 10**9])
def test_joins_from_a_fact_skip_fresh_facts_before_it(folder, compile_after, monkeypatch):
    """Semi-naive without repeats: with `fresh` facts, `join_from(j, ...)` gives exactly the bindings of the plain
    join whose literals before j match no fresh fact (compiled and interpreted alike), so a binding with several
    fresh facts is found once per round."""
    monkeypatch.setattr(joins_module, "COMPILE_AFTER", compile_after)
    domain, reached, static_preds, index, grounder_of = grounders_over_reached(folder)
    rng = random.Random(11)
    fresh: dict = {}
    for fact in rng.sample(reached, len(reached) // 3):
        if fact[0] not in static_preds:
            fresh.setdefault(fact[0], set()).add(fact[1:])
    skipped = kept = 0
    for schema in domain.actions:
        for variant in _variants(schema):
            grounder = grounder_of(variant)
            slot = grounder.slot
            for j, lit in enumerate(grounder.positives):
                for args in sorted(fresh.get(lit.predicate, ()))[:6]:
                    plain: list = []
                    grounder.join_from(j, args, index, plain)
                    expected = [b for b in plain if not any(
                        tuple(b[slot[a]] if a in slot else a for a in other.args) in fresh.get(other.predicate, ())
                        for other in grounder.positives[:j])]
                    found: list = []
                    grounder.join_from(j, args, index, found, fresh)
                    assert found == expected
                    kept += len(found)
                    skipped += len(plain) - len(found)
    assert kept and skipped


@pytest.mark.parametrize("folder", ["caldera-opt18-adl", "airport-adl", "miconic-fulladl"])
def test_actions_compiled_on_demand_equal_their_formulas(folder, monkeypatch):
    """Each non-STRIPS action's check and transition, compiled the first time it is used, computes what its ground
    formulas compute; so does the interpreted fallback when Python's compiler refuses a source."""
    import apb.engine.compiled as compiled_module

    task = load(folder)
    special = [a for a in task.actions if not a.is_strips]
    assert special
    compiled = compiled_module.compile_actions(task.actions)
    monkeypatch.setattr(compiled_module, "_compiled", lambda source, name: None)
    fallback = compiled_module.compile_actions(task.actions)
    rng = random.Random(9)
    state, compared = task.initial_state, 0
    for _ in range(60):
        bits = state.bits
        for action in special:
            if action.extra:
                expected = all(f.holds(bits) for f in action.extra)
                assert compiled[0][action.index](bits) == expected == fallback[0][action.index](bits)
            if action.effects:
                delete, add = action.del_mask, action.add_mask
                for effect in action.effects:
                    if effect.condition.holds(bits):
                        delete |= effect.del_mask
                        add |= effect.add_mask
                expected = (bits & ~delete) | add
                assert compiled[1][action.index](bits) == expected == fallback[1][action.index](bits)
            compared += 1
        ids = task.applicable_ids(bits)
        state = task.successor(state, task.actions[rng.choice(ids)]) if ids else task.initial_state
    assert compared


def test_add_effects_are_interpreted_then_compiled_once(monkeypatch):
    """A schema's add-effect facts: the interpreted answers equal the generated lambda's, which is made once (also
    for callers that kept the interpreted function, as the semi-naive loop does)."""
    domain, _, _, index, make = grounders_over_reached("caldera-opt18-adl")
    schema = next(s for s in domain.actions if s.add_effects)
    grounder = make(schema)
    bindings = grounder.join(index) or [tuple(f"o{i}" for i in range(len(grounder.params)))]
    kept = grounder.adds
    evals = []
    real_eval = eval
    monkeypatch.setattr(joins_module, "eval", lambda source: evals.append(source) or real_eval(source),
                        raising=False)
    interpreted = [kept(args) for args in bindings * (joins_module.ADDS_COMPILE // len(bindings) + 2)]
    assert len(evals) == 1 and grounder.adds is not kept
    assert [grounder.adds(args) for args in bindings] == interpreted[:len(bindings)] == [kept(a) for a in bindings]

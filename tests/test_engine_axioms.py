"""Derived predicates after an action: the incremental update (delete and re-derive, then spread) gives exactly
the derived facts that evaluating every axiom from scratch gives, on every successor of every reachable state of
small tasks and along random walks of the IPC domains with axioms; tasks whose axioms negate a derived predicate
fall back to the full evaluation. Grounding, which tests quantified parts as soon as their variables are bound,
reaches exactly what enumerating every quantifier instance reaches."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
from conftest import first_ipc_problem

from apb.engine import Task, axioms, load_domain, load_problem, load_task
from apb.engine.axioms import DNF_LIMIT, dnf, fact_mask
from apb.engine.formulas import RelaxedFacts, bindings_of
from apb.engine.ground import ground

ROOT = Path(__file__).resolve().parents[1]
ADL = ROOT / "tests" / "data" / "adl"


def scratch(task: Task, bits: int) -> int:
    """The successor's bits with every derived fact evaluated from the basic facts alone."""
    return task.axioms.closure(bits)


def check_every_successor(task: Task, state) -> int:
    checked = 0
    for action in task.applicable(state):
        successor = task.apply(state, action)
        assert successor.bits == scratch(task, successor.bits), (sorted(task.facts(state)), str(action))
        checked += 1
    return checked


@pytest.fixture(autouse=True)
def computed_updates(monkeypatch):
    """Every update computed from the parent (no answers remembered from earlier visits), so that the tests below
    check the incremental algorithm on every step."""
    monkeypatch.setattr(axioms, "KNOWN_LIMIT", 0)


def test_remembered_updates_equal_full_evaluation_and_stay_bounded(monkeypatch):
    monkeypatch.setattr(axioms, "KNOWN_LIMIT", 8)
    task = load_task(ADL / "reach-domain.pddl", ADL / "reach-p01.pddl")
    rng = random.Random(1)
    state, sizes, revisits, seen = task.initial_state, [], 0, set()
    for _ in range(300):
        options = task.applicable(state)
        state = task.apply(state, rng.choice(options)) if options else task.initial_state
        assert state.bits == scratch(task, state.bits)
        revisits += state in seen
        seen.add(state)
        sizes.append(len(task.axioms._known))
    assert max(sizes) <= 8 and revisits > 100


@pytest.mark.parametrize(("name", "incremental"), [("reach", True), ("grid", False)])
def test_updates_equal_full_evaluation_on_the_whole_state_space(name, incremental):
    task = load_task(ADL / f"{name}-domain.pddl", ADL / f"{name}-p01.pddl")
    assert task.axioms.incremental is incremental
    seen = {task.initial_state}
    frontier = [task.initial_state]
    checked = 0
    while frontier:
        state = frontier.pop()
        checked += check_every_successor(task, state)
        for action in task.applicable(state):
            successor = task.apply(state, action)
            if successor not in seen:
                seen.add(successor)
                frontier.append(successor)
    assert len(seen) > 10 and checked > len(seen)


def test_an_update_removes_what_lost_support_and_keeps_what_has_another():
    task = load_task(ADL / "reach-domain.pddl", ADL / "reach-p01.pddl")
    state = task.initial_state
    for step in ("(open-door home a)", "(open-door a b)", "(disarm b)"):
        state = task.apply(state, step)
    assert {"(reachable b)", "(safe b)"} <= task.facts(state)
    closed = task.apply(state, "(close-door home a)")  # cuts a and b off from home
    assert not {"(reachable a)", "(reachable b)", "(safe b)"} & task.facts(closed)
    assert "(reachable home)" in task.facts(closed)  # its own axiom still holds


@pytest.mark.parametrize("folder", ["psr-middle", "psr-large", "philosophers", "optical-telegraphs"])
def test_updates_equal_full_evaluation_along_random_walks(folder):
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        task = load_task(domain_file, problem_file)
    assert task.axioms is not None and task.axioms.incremental
    rng = random.Random(3)
    state = task.initial_state
    checked = 0
    for _ in range(40):
        checked += check_every_successor(task, state)
        options = task.applicable(state)
        state = task.apply(state, rng.choice(options)) if options else task.initial_state
    assert checked > 40


@pytest.mark.parametrize("folder", ["psr-middle", "philosophers", "optical-telegraphs"])
def test_the_rules_of_a_body_hold_exactly_when_the_body_does(folder):
    """The disjunctive normal form that updates use, against the ground body's own evaluation on random bits."""
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        task = load_task(domain_file, problem_file)
    rng = random.Random(5)
    bodies = [body for layer in task.axioms.strata for _, body in layer]
    both = [0, 0]
    for body in rng.sample(bodies, min(60, len(bodies))):
        rules = dnf(body, DNF_LIMIT)
        assert rules is not None
        mentioned = fact_mask(body)
        for _ in range(40):
            bits = rng.getrandbits(task.num_facts) & mentioned
            if rng.random() < 0.5:  # bias towards satisfying the positive part of some rule
                bits |= rng.choice(rules)[0] if rules else 0
            expected = body.holds(bits)
            assert any(bits & pos == pos and not bits & neg for pos, neg in rules) == expected
            both[expected] += 1
    assert min(both) > 0


def test_a_body_over_the_limit_falls_back_to_full_evaluation(monkeypatch):
    monkeypatch.setattr(axioms, "DNF_LIMIT", 0)
    task = load_task(ADL / "reach-domain.pddl", ADL / "reach-p01.pddl")
    assert not task.axioms.incremental
    state = task.initial_state
    for step in ("(open-door home a)", "(open-door a b)", "(disarm b)"):
        state = task.apply(state, step)
    assert {"(reachable b)", "(safe b)"} <= task.facts(state)


def naive_holds(self, node, binding):
    """RelaxedFacts.holds by plain enumeration of every quantifier instance (the definition)."""
    kind = node.kind
    if kind == "lit":
        lit = node.literal
        args = tuple(binding.get(a, a) for a in lit.args)
        if lit.predicate == "=":
            return (args[0] == args[1]) == lit.positive
        fact = (lit.predicate, *args)
        if lit.predicate in self.static_preds:
            return (fact in self.static_facts) == lit.positive
        return not lit.positive or fact in self.reached
    if kind in ("and", "or"):
        values = (naive_holds(self, p, binding) for p in node.parts)
        return all(values) if kind == "and" else any(values)
    values = (naive_holds(self, node.parts[0], b) for b in bindings_of(node.parameters, self.objects_of, binding))
    return all(values) if kind == "forall" else any(values)


@pytest.mark.parametrize("folder", ["optical-telegraphs", "philosophers", "psr-middle", "assembly", "airport-adl",
                                    "miconic-fulladl", "schedule"])
def test_grounding_with_early_quantifier_tests_reaches_what_enumeration_reaches(folder, monkeypatch):
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        domain = load_domain(domain_file)
        problem = load_problem(problem_file, domain)
        fast = ground(domain, problem)
        monkeypatch.setattr(RelaxedFacts, "holds", naive_holds)
        slow = ground(domain, problem)
    assert fast.reachable_facts == slow.reachable_facts
    assert [(s.name, a) for s, a in fast.bindings] == [(s.name, a) for s, a in slow.bindings]
    assert [(x.predicate, a) for x, a in fast.axiom_bindings] == [(x.predicate, a) for x, a in slow.axiom_bindings]


@pytest.mark.parametrize("folder", ["psr-middle", "psr-large", "philosophers", "optical-telegraphs"])
def test_rule_built_axioms_agree_with_the_written_bodies_on_reachable_states(folder):
    """Axioms that joined as rules get their ground bodies from grounding's rule instances (a disjunction of
    literal conjunctions); on every state of a walk each derived fact's rule-built definition holds exactly when a
    body as the domain writes it does, and explanations still see the written bodies."""
    domain_file, problem_file = first_ipc_problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        task = load_task(domain_file, problem_file)
    built = task.axioms.rules_of
    assert built and task._builder.axiom_sources
    rng = random.Random(11)
    state, compared = task.initial_state, 0
    for _ in range(60):
        for fid in set(built) | set(task._builder.axiom_sources):
            written = task.axioms.bodies(fid)
            assert any(b.holds(state.bits) for b in built.get(fid, ())) == any(b.holds(state.bits) for b in written)
            compared += 1
        options = task.applicable(state)
        state = task.apply(state, rng.choice(options)) if options else task.initial_state
    assert compared > 100
    assert all(task.axioms.bodies(fid) is not built[fid] for fid in built)  # explanations: the written ones

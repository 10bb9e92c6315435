"""Mutex groups of a grounded task: sets of facts of which at most one (or exactly one) is true in every reachable
state, found by checking candidate patterns against every ground action and refining them (after Helmert's
invariant synthesis, on the grounded task rather than the lifted one).

A pattern is a set of (predicate, position): its instance for an object o is every reachable fluent fact whose
argument at that position is o. A pattern whose positions are all None groups every fact of its predicates into
one instance. A pattern is an invariant when no action can make two facts of one instance true: each action that
adds a fact of an instance also deletes one it requires of the same instance. An instance is exactly-one when the
initial state has one of its facts and no action deletes one without adding another.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from apb.engine import Task

Pattern = frozenset  # of (predicate, position or None)
MAX_PATTERN = 4
MAX_CANDIDATES = 400


@dataclass(frozen=True)
class GroundModel:
    """The grounded task as id sets: facts[i] is an atom tuple; actions are (pre, add, effective delete)."""

    facts: tuple[tuple, ...]
    actions: tuple[tuple[frozenset, frozenset, frozenset], ...]
    init: frozenset

    @classmethod
    def of(cls, task: Task) -> GroundModel:
        facts = tuple(tuple(name[1:-1].split()) for name in task.fact_names)
        actions = tuple((frozenset(a.pre), frozenset(a.add), frozenset(a.delete) - frozenset(a.add))
                        for a in task.actions)
        return cls(facts, actions, frozenset(task.fact_ids(task.initial_state)))


@dataclass(frozen=True)
class Group:
    """One instance of an invariant pattern: fact ids of which at most one holds; `exactly_one` when one always does."""

    members: frozenset
    exactly_one: bool


def _keys(fact: tuple, pattern: Pattern) -> set:
    keys = set()
    for pred, pos in pattern:
        if fact[0] == pred:
            if pos is None:
                keys.add(())
            elif pos + 1 < len(fact):
                keys.add(fact[pos + 1])
    return keys


def _check(model: GroundModel, pattern: Pattern, key_cache: dict) -> tuple[bool, set]:
    """(is an invariant, refinement candidates) for one pattern."""
    def keys(fid: int) -> set:
        cached = key_cache.get(fid)
        if cached is None:
            cached = key_cache[fid] = _keys(model.facts[fid], pattern)
        return cached

    counts: dict = defaultdict(int)
    for fid in model.init:
        for key in keys(fid):
            counts[key] += 1
            if counts[key] > 1:
                return False, set()
    for pre, add, delete in model.actions:
        added: dict = defaultdict(set)
        for fid in add:
            if fid in pre:
                continue
            for key in keys(fid):
                added[key].add(fid)
        for key, facts in added.items():
            if len(facts) > 1:
                return False, set()
            if any(key in keys(d) for d in pre & delete):
                continue
            refinements = set()
            for d in pre & delete:
                fact = model.facts[d]
                if key == ():
                    refinements.add((fact[0], None))
                else:
                    refinements.update((fact[0], i) for i, arg in enumerate(fact[1:]) if arg == key)
            return False, refinements
    return True, set()


def find_patterns(model: GroundModel, fluent_preds: frozenset[str]) -> list[Pattern]:
    """Invariant patterns, from one-atom seeds refined breadth-first (at most MAX_PATTERN atoms each)."""
    arity: dict[str, int] = {}
    for fact in model.facts:
        arity.setdefault(fact[0], len(fact) - 1)
    seeds: list[Pattern] = []
    for pred in sorted(p for p in arity if p in fluent_preds):
        seeds.extend(frozenset({(pred, i)}) for i in range(arity[pred]))
        seeds.append(frozenset({(pred, None)}))
    found: list[Pattern] = []
    seen: set[Pattern] = set(seeds)
    queue = list(seeds)
    checked = 0
    while queue and checked < MAX_CANDIDATES:
        pattern = queue.pop(0)
        checked += 1
        ok, refinements = _check(model, pattern, {})
        if ok:
            found.append(pattern)
            continue
        if len(pattern) >= MAX_PATTERN:
            continue
        kind_none = next(iter(pattern))[1] is None
        for ref in sorted(refinements, key=str):
            if (ref[1] is None) != kind_none:
                continue
            bigger = pattern | {ref}
            if bigger not in seen:
                seen.add(bigger)
                queue.append(bigger)
    return found


def mutex_groups(model: GroundModel, fluent_preds: frozenset[str]) -> list[Group]:
    """Every instance (with two or more facts, or exactly-one) of every invariant pattern."""
    groups: list[Group] = []
    for pattern in find_patterns(model, fluent_preds):
        instances: dict = defaultdict(set)
        for fid, fact in enumerate(model.facts):
            for key in _keys(fact, pattern):
                instances[key].add(fid)
        for members in instances.values():
            exact = len(members & model.init) == 1 and all(
                not (delete & members) or (add & members) for _, add, delete in model.actions)
            if len(members) > 1 or exact:
                groups.append(Group(frozenset(members), exact))
    return groups

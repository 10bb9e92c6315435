"""Relational state encodings for the GNN policy (numpy only; the model turns them into tensors).

A state of a task is its objects (with their types) and its atoms grouped by relation: every predicate of arity
>= 1 is a relation of the state ("on", static facts included) and two of the goal: "goal:on" for the goal atoms
the state does not have yet and "done:on" for those it has (the split the GNN general-policy literature uses: it
spares the network matching goal atoms against state atoms); nullary atoms ("handempty") are per-graph flags, split
the same way. The encoding depends on the domain only, never on the problem's size, which is
what lets a policy trained on small problems run on large ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from apb.engine.task import Task


def _parts(fact: str) -> list[str]:
    return fact.strip()[1:-1].split()


class Vocabulary:
    """The relations, nullary flags and object types of one domain."""

    def __init__(self, domain) -> None:
        predicates = sorted(domain.predicates)
        arity = {p: len(domain.predicates[p].parameters) for p in predicates}
        prefixes = ("", "goal:", "done:")
        self.relations: list[str] = [f"{prefix}{p}" for prefix in prefixes for p in predicates if arity[p]]
        self.arities: list[int] = [arity[r.split(":")[-1]] for r in self.relations]
        self.relation_index = {r: i for i, r in enumerate(self.relations)}
        self.flags: list[str] = [f"{prefix}{p}" for prefix in prefixes for p in predicates if not arity[p]]
        self.flag_index = {f: i for i, f in enumerate(self.flags)}
        self.types: list[str] = sorted(set(domain.types) | {"object"})
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self.domain = domain


@dataclass
class StateGraph:
    """One state: `types` (objects x types, float32), `atoms[r]` (n x arity object indices per relation r),
    `flags` (float32 per nullary flag)."""

    types: np.ndarray
    atoms: list[np.ndarray]
    flags: np.ndarray

    @property
    def num_objects(self) -> int:
        return len(self.types)


class TaskEncoder:
    """Encodes states of one task fast: fact ids -> (relation, argument objects) are looked up once."""

    def __init__(self, vocabulary: Vocabulary, task: Task) -> None:
        self.vocabulary = vocabulary
        self.task = task
        self.objects = list(task.objects)
        position = {o: i for i, o in enumerate(self.objects)}
        types = np.zeros((len(self.objects), len(vocabulary.types)), dtype=np.float32)
        for i, name in enumerate(self.objects):
            for t in task.domain.ancestors(task.objects[name]):
                if t in vocabulary.type_index:
                    types[i, vocabulary.type_index[t]] = 1.0
        self.types = types
        self.fact_relation: list[int] = []  # per fact id: relation index, or -1 - flag index for nullary facts
        self.fact_args: list[tuple[int, ...]] = []
        for fact in task.fact_names:
            relation, args = self._lookup(_parts(fact), position)
            self.fact_relation.append(relation)
            self.fact_args.append(args)
        self.fixed = [self._lookup(_parts(fact), position) for fact in sorted(task.static_facts)]
        # per positive goal atom: (its fact's bit, its relation while unmet, its relation once met, its arguments)
        self.goals: list[tuple[int, int, int, tuple[int, ...]]] = []
        for goal in task.goal:
            if goal.positive and goal.predicate != "=":
                unmet, args = self._lookup([goal.predicate, *goal.args], position, "goal:")
                met, _ = self._lookup([goal.predicate, *goal.args], position, "done:")
                self.goals.append((1 << task._fact_ids[(goal.predicate, *goal.args)], unmet, met, args))
        self.static_bits = task._static_bits

    def _lookup(self, parts: list[str], position: dict[str, int], prefix: str = "") -> tuple[int, tuple[int, ...]]:
        name = prefix + parts[0]
        if len(parts) == 1:
            return -1 - self.vocabulary.flag_index[name], ()
        return self.vocabulary.relation_index[name], tuple(position[a] for a in parts[1:])

    def encode(self, bits: int) -> StateGraph:
        vocabulary = self.vocabulary
        grouped: list[list[tuple[int, ...]]] = [[] for _ in vocabulary.relations]
        flags = np.zeros(len(vocabulary.flags), dtype=np.float32)
        for relation, args in self.fixed:
            if relation < 0:
                flags[-1 - relation] = 1.0
            else:
                grouped[relation].append(args)
        for bit, unmet, met, args in self.goals:
            relation = met if bits & bit else unmet
            if relation < 0:
                flags[-1 - relation] = 1.0
            else:
                grouped[relation].append(args)
        bits &= ~self.static_bits
        relations, arguments = self.fact_relation, self.fact_args
        while bits:
            low = bits & -bits
            fid = low.bit_length() - 1
            bits ^= low
            relation = relations[fid]
            if relation < 0:
                flags[-1 - relation] = 1.0
            else:
                grouped[relation].append(arguments[fid])
        atoms = [np.array(g, dtype=np.int64).reshape(len(g), arity) for g, arity in zip(grouped, vocabulary.arities)]
        return StateGraph(self.types, atoms, flags)


@dataclass
class Batch:
    """Disjoint union of StateGraphs: object rows are stacked; `graph` is each object's graph index."""

    types: np.ndarray
    atoms: list[np.ndarray]
    flags: np.ndarray
    graph: np.ndarray
    num_graphs: int


def collate(graphs: list[StateGraph]) -> Batch:
    offsets = np.cumsum([0] + [g.num_objects for g in graphs])
    atoms = []
    for r in range(len(graphs[0].atoms)):
        atoms.append(np.concatenate([g.atoms[r] + offsets[i] for i, g in enumerate(graphs)]))
    return Batch(types=np.concatenate([g.types for g in graphs]), atoms=atoms,
                 flags=np.stack([g.flags for g in graphs]),
                 graph=np.repeat(np.arange(len(graphs)), [g.num_objects for g in graphs]), num_graphs=len(graphs))

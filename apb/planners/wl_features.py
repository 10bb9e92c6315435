"""Weisfeiler-Leman colours of a state and its goal (the WL-GOOSE idea), with numpy only.

A state and the goal make one graph, the instance learning graph: a node per object, a node per true atom (static
ones included) and a node per goal atom not yet true. An atom's first colour is its predicate and its status (true
and not a goal, an achieved goal, an unachieved goal); an object's is its type. An edge joins an atom to each of its
arguments, labelled with the argument's position. Colour refinement then runs `iterations` rounds: a node's next
colour hashes its colour with the multiset of (position, neighbour colour) of its edges. The colours of every round
are the features: a linear model of the cost to go (apb.planners.wl_model) sums one weight per node and round.

Colours are 64-bit hashes (a multiset hashes as the wrapping sum of its elements' mixed hashes), the same in every
process and on every task of a domain, so a colour learned on small training tasks means the same thing on large
test tasks. `colours(bits_list)` refines a batch of states at once: the search evaluates a state's children together.
"""

from __future__ import annotations

import hashlib

import numpy as np

from apb.engine import Task

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW = np.uint64(0xFFFFFFFF)
_POSITION = np.uint64(0x9E3779B97F4A7C15)
STATUSES = ("true", "achieved-goal", "unachieved-goal")
OBJECT = "object"


def name_hash(*parts: str) -> np.uint64:
    """A stable 64-bit hash of a tuple of names (Python's own hash differs between processes)."""
    digest = hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))


def mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on an array of uint64 (wrapping arithmetic)."""
    x = x ^ (x >> _S30)
    x = x * _M1
    x = x ^ (x >> _S27)
    x = x * _M2
    return x ^ (x >> _S31)


def _sum_by(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """The wrapping uint64 sum of `values` grouped by `index` (exact: two 32-bit halves summed as floats)."""
    low = np.bincount(index, weights=(values & _LOW).astype(np.float64), minlength=size)
    high = np.bincount(index, weights=(values >> _S32).astype(np.float64), minlength=size)
    return (high.astype(np.uint64) << _S32) + low.astype(np.uint64)


class WLGraph:
    """The instance learning graphs of one task's states: `colours(bits_list, iterations)` gives, per state, the
    colours of every node in every round (a uint64 array) and which state each colour belongs to."""

    def __init__(self, task: Task) -> None:
        self.task = task
        names = list(task.objects)
        self.objects = len(names)
        position = {name: i for i, name in enumerate(names)}
        self._object_colour = np.array([name_hash(OBJECT, task.objects[n]) for n in names], dtype=np.uint64)
        facts = [_split(text) for text in task.fact_names]
        static = sorted(_split(text) for text in task.static_facts)
        # the universe of atom nodes: every fact id, then the static facts without one (always true)
        atoms = facts + static
        self.fact_count = len(facts)
        self._static_nodes = np.arange(len(facts), len(atoms), dtype=np.int64)
        self._pred = [atom[0] for atom in atoms]
        colour = {(pred, s): name_hash(pred, status) for pred in set(self._pred) for s, status in enumerate(STATUSES)}
        self._atom_colour = np.array([[colour[pred, s] for s in range(3)] for pred in self._pred],
                                     dtype=np.uint64).reshape(len(atoms), 3)
        arity = np.array([len(atom) - 1 for atom in atoms], dtype=np.int64)
        self._arity = arity
        self._edge_start = np.concatenate([[0], np.cumsum(arity)[:-1]]).astype(np.int64) if atoms else arity
        self._edge_object = np.array([position.get(arg, -1) for atom in atoms for arg in atom[1:]], dtype=np.int64)
        self._edge_position = np.array([i for atom in atoms for i in range(len(atom) - 1)], dtype=np.uint64)
        if (self._edge_object < 0).any():  # an argument that is not an object (cannot happen for a grounded task)
            keep = self._edge_object >= 0
            self._edge_object = np.where(keep, self._edge_object, 0)
        self._goal = np.array(sorted(set(task.goal_pos)), dtype=np.int64)
        self._goal_mask = np.zeros(len(atoms), dtype=bool)
        self._goal_mask[self._goal] = True
        self._bytes = (len(facts) + 7) // 8

    def true_facts(self, bits_list: list[int]) -> np.ndarray:
        """A states x facts boolean matrix: which facts (static ones with an id included) each state has."""
        raw = np.frombuffer(b"".join(bits.to_bytes(self._bytes, "little") for bits in bits_list), dtype=np.uint8)
        matrix = np.unpackbits(raw.reshape(len(bits_list), self._bytes), axis=1, bitorder="little")
        return matrix[:, :self.fact_count].astype(bool)

    def colours(self, bits_list: list[int], iterations: int) -> tuple[np.ndarray, np.ndarray]:
        """(colours, owner): every node's colour in every round 0..iterations of each state, and the index in
        `bits_list` of the state each colour belongs to."""
        states = len(bits_list)
        true = self.true_facts(bits_list)
        true_owner, true_atoms = np.nonzero(true)
        missing_owner, missing_goal = np.nonzero(~true[:, self._goal])
        static = len(self._static_nodes)
        atoms = np.concatenate([true_atoms, np.tile(self._static_nodes, states), self._goal[missing_goal]])
        owner_atoms = np.concatenate([true_owner, np.repeat(np.arange(states, dtype=np.int64), static),
                                      missing_owner])
        status = np.where(self._goal_mask[atoms], 1, 0)
        status[len(atoms) - len(missing_goal):] = 2
        n_obj, n_atoms = self.objects, len(atoms)
        # node numbering: the objects of every state (state k's objects at k * n_obj), then the atoms
        arity = self._arity[atoms]
        total_edges = int(arity.sum())
        edge_atom = np.repeat(np.arange(n_atoms, dtype=np.int64), arity)
        offsets = np.arange(total_edges, dtype=np.int64) - np.repeat(np.cumsum(arity) - arity, arity)
        edge_index = np.repeat(self._edge_start[atoms], arity) + offsets
        edge_object = self._edge_object[edge_index] + np.repeat(owner_atoms, arity) * n_obj
        edge_atom_node = edge_atom + states * n_obj
        position = self._edge_position[edge_index] * _POSITION
        colour = np.concatenate([np.tile(self._object_colour, states), self._atom_colour[atoms, status]])
        owner = np.concatenate([np.repeat(np.arange(states, dtype=np.int64), n_obj), owner_atoms])
        size = len(colour)
        rounds = [colour]
        for _ in range(iterations):
            to_object = mix(colour[edge_atom_node] ^ position)
            to_atom = mix(colour[edge_object] ^ position)
            incoming = _sum_by(edge_object, to_object, size) + _sum_by(edge_atom_node, to_atom, size)
            colour = mix(mix(colour) + incoming)
            rounds.append(colour)
        return np.concatenate(rounds), np.tile(owner, iterations + 1)


def _split(fact: str) -> tuple[str, ...]:
    """'(on a b)' -> ('on', 'a', 'b')."""
    return tuple(fact.strip("()").split())

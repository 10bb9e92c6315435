"""Training samples of one training task for the GNN value function, whatever its size (apb.rl.learn).

- A task whose reachable space has at most `state_limit` states is labelled exactly (apb.rl.problems.cost_to_go)
  and sampled as in apb.rl.train: a state with an optimal successor (c+) and a worse sibling (c-).
- A larger task is labelled along a plan (its reference plan, else one found by greedy best-first search with
  h_FF): the i-th state of the plan gets the plan's remaining steps (shortened by the plan's one-step shortcuts,
  apb.rl.wl_train.shortcut_costs), lowered to the optimum where A* (LM-cut) finds it within a small budget (it
  does from states near the goal), and to the next state's label + 1. A sample is (the next state of the plan,
  the state itself) where the plan's next state is one step closer. Where A* gave the state's optimum, siblings
  off the plan are labelled by A* too, and one strictly worse than the plan's next state is a second sample (c+
  the plan's next state, c- that sibling).

Labels count steps (unit costs), as the planners' plan length does.
"""

from __future__ import annotations

import random
import time

from apb.engine import Task
from apb.planners import greedy_best_first
from apb.planners.astar import Optimum
from apb.planners.space import Successors
from apb.rl.graphs import StateGraph, TaskEncoder
from apb.rl.problems import cost_to_go
from apb.rl.wl_train import plan_states, shortcut_costs

EXACT, PLAN, NONE = "exact", "plan", "none"


class SampleSink:
    """The growing sample set: each distinct state's graph and label once (the lowest label given), pairs of
    indices (c+, c-)."""

    def __init__(self) -> None:
        self.graphs: list[StateGraph] = []
        self.labels: list[float] = []
        self.pairs: list[tuple[int, int]] = []
        self._index: dict[tuple[int, int], int] = {}

    def node(self, key: int, encoder: TaskEncoder, bits: int, label: float) -> int:
        """The index of a state (`key` tells tasks apart), added with its label or lowered to it."""
        i = self._index.get((key, bits))
        if i is None:
            i = self._index[(key, bits)] = len(self.graphs)
            self.graphs.append(encoder.encode(bits))
            self.labels.append(float(label))
        elif label < self.labels[i]:
            self.labels[i] = float(label)
        return i


def task_samples(key: int, task: Task, plan: list[str] | None, encoder: TaskEncoder, sink: SampleSink,
                 rng: random.Random, *, states: int = 300, state_limit: int = 20_000, astar_nodes: int = 2_000,
                 astar_seconds: float = 2.0, plan_seconds: float = 10.0) -> str:
    """Adds the samples of one task (see the module docstring); returns how it was labelled: EXACT, PLAN or
    NONE (no plan found). `state_limit` 0 skips the exact labelling (a smaller task's space was too large)."""
    distances = cost_to_go(task, state_limit) if state_limit > 0 else None
    if distances:
        exact_samples(key, task, distances, encoder, sink, states, rng)
        return EXACT
    trace = plan_states(task, plan) if plan is not None else None  # None for a plan that does not solve the task
    if trace is None:
        found = greedy_best_first(task, timeout=plan_seconds)
        if not found.solved:
            return NONE
        trace = plan_states(task, found.plan_strings())
    successors = Successors(task)
    labels = shortcut_costs(trace, successors)  # the steps left, shortened by the plan's one-step shortcuts
    deadline = time.monotonic() + astar_seconds
    optimum = Optimum(task, astar_nodes, deadline=deadline, steps=True)
    exact: set[int] = set()
    for i in reversed(range(len(trace) - 1)):  # from the goal end, while A* finishes
        d = optimum(trace[i])
        if d is None:
            break
        exact.add(i)
        labels[i] = min(labels[i], d)
    for i in range(len(trace) - 2, -1, -1):
        labels[i] = min(labels[i], labels[i + 1] + 1)
    for i in range(len(trace) - 1):
        nxt = sink.node(key, encoder, trace[i + 1], labels[i + 1])
        if labels[i] >= labels[i + 1] + 1:  # not where a shortcut makes the plan's next state no closer
            sink.pairs.append((nxt, sink.node(key, encoder, trace[i], labels[i])))
        if i in exact:
            siblings = [c for _, c in successors(trace[i]) if c != trace[i + 1] and c != trace[i]]
            if siblings:
                sibling = rng.choice(siblings)
                d = optimum(sibling)
                if d is not None and d > labels[i + 1]:
                    sink.pairs.append((nxt, sink.node(key, encoder, sibling, d)))
    return PLAN


def exact_samples(key: int, task: Task, distances: dict[int, int], encoder: TaskEncoder, sink: SampleSink,
                   count: int, rng: random.Random) -> None:
    """`count` states of an exactly labelled space, each with an optimal and a worse successor (apb.rl.train)."""
    successors = Successors(task)
    by_distance: dict[int, list[int]] = {}
    for bits, distance in distances.items():
        if distance > 0:
            by_distance.setdefault(distance, []).append(bits)
    for bits in spread(by_distance, count, rng):
        children = [c for _, c in successors(bits) if c in distances]
        best = min(distances[c] for c in children)
        good = [c for c in children if distances[c] == best]
        bad = [c for c in children if distances[c] > best] or [bits]
        plus, minus = rng.choice(good), rng.choice(bad)
        sink.pairs.append((sink.node(key, encoder, plus, distances[plus]),
                           sink.node(key, encoder, minus, distances[minus])))


def spread(by_distance: dict[int, list[int]], count: int, rng: random.Random) -> list[int]:
    """`count` states (all when fewer) drawn round-robin over the distances, so every distance is represented."""
    pools = [rng.sample(states, len(states)) for _, states in sorted(by_distance.items())]
    chosen: list[int] = []
    while len(chosen) < count and any(pools):
        for pool in pools:
            if pool and len(chosen) < count:
                chosen.append(pool.pop())
    return chosen

"""Training the Weisfeiler-Leman cost-to-go model (apb.planners.wl_model) from a domain's training tasks only.

Samples are the engine's own states: each state along a training task's reference plan, labelled with the cost of
the rest of the plan shortened by the plan's one-step shortcuts (`shortcut_costs`: reference plans are not optimal,
and their detours would teach the model that goals are far), and, on the smallest tasks, the successors of those
states labelled with their optimal cost to go by A* (LM-cut, a node budget per state). Features are colour counts
(apb.planners.wl_features); the model is ridge regression on them, solved by conjugate gradients on the sparse
counts (numpy only).

Tasks are visited from the smallest; after each round of tasks the model is refitted and the knowledge file is
rewritten atomically. The samples go to a sidecar file (`<knowledge>.samples.npz`) so that a second run with the
same `--out` resumes where the first stopped; Ctrl-C or SIGTERM fits what was collected and writes it before
exiting. `training.finished` in the file says whether every task was used.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.astar import Optimum
from apb.planners.space import Successors
from apb.planners.wl_features import WLGraph
from apb.planners.wl_model import WLModel
from apb.rl.training_tasks import TrainingTask

Progress = Callable[[str, int, int], None]


@dataclass
class WLConfig:
    iterations: int = 2
    ridge: float = 1.0  # the L2 penalty of the weights
    astar_nodes: int = 500  # A* expansions per labelled state
    astar_seconds: float = 0.5  # A* seconds per labelled state
    neighbour_tasks: int = 40  # the smallest tasks also teach their plan states' successors ...
    neighbour_share: float = 0.4  # ... within this share of the time limit
    refit_every: int = 10  # tasks between refits (and knowledge file writes)
    time_limit: float | None = None  # seconds of the whole training


@dataclass
class Samples:
    """Sparse colour counts: sample `row[i]` has `count[i]` nodes of colour `colour[i]`; `labels[sample]`."""

    row: list[np.ndarray] = field(default_factory=list)
    colour: list[np.ndarray] = field(default_factory=list)
    count: list[np.ndarray] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    done: list[str] = field(default_factory=list)

    def add(self, colours: np.ndarray, owner: np.ndarray, labels: Sequence[float]) -> None:
        """Adds states whose node colours are `colours` (owner: the state's index among `labels`)."""
        base = len(self.labels)
        order = np.lexsort((colours, owner))
        colours, owner = colours[order], owner[order]
        start = np.flatnonzero(np.concatenate([[True], (colours[1:] != colours[:-1]) | (owner[1:] != owner[:-1])]))
        counts = np.diff(np.concatenate([start, [len(colours)]]))
        self.row.append(owner[start] + base)
        self.colour.append(colours[start])
        self.count.append(counts.astype(np.float64))
        self.labels.extend(float(x) for x in labels)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        def joined(parts, dtype):
            return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
        return (joined(self.row, np.int64), joined(self.colour, np.uint64), joined(self.count, np.float64),
                np.array(self.labels, dtype=np.float64))

    def save(self, path: Path) -> None:
        row, colour, count, labels = self.arrays()
        buffer = io.BytesIO()
        np.savez_compressed(buffer, row=row, colour=colour, count=count, labels=labels,
                            done=np.array(self.done, dtype=str))
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(buffer.getvalue())
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: Path) -> Samples:
        samples = cls()
        try:
            with np.load(path) as data:
                samples.row, samples.colour, samples.count = [data["row"]], [data["colour"]], [data["count"]]
                samples.labels = data["labels"].tolist()
                samples.done = [str(x) for x in data["done"]]
        except (OSError, KeyError, ValueError):
            return cls()  # a damaged sidecar: start over
        return samples


def fit_ridge(samples: Samples, ridge: float, iterations: int = 300) -> tuple[np.ndarray, np.ndarray, float]:
    """(colours, weights, bias) minimising the squared error plus `ridge` times the squared weights (the bias is
    not penalised), by conjugate gradients on the normal equations."""
    row, colour, count, labels = samples.arrays()
    if not len(labels):
        return np.zeros(0, dtype=np.uint64), np.zeros(0), 0.0
    colours, column = np.unique(colour, return_inverse=True)
    features = len(colours)
    n = len(labels)
    bias_column = features  # an extra column of ones
    rows = np.concatenate([row, np.arange(n)])
    columns = np.concatenate([column, np.full(n, bias_column)])
    values = np.concatenate([count, np.ones(n)])
    size = features + 1
    penalty = np.full(size, ridge)
    penalty[bias_column] = 1e-6

    def normal(w: np.ndarray) -> np.ndarray:
        predicted = np.bincount(rows, weights=values * w[columns], minlength=n)
        return np.bincount(columns, weights=values * predicted[rows], minlength=size) + penalty * w

    target = np.bincount(columns, weights=values * labels[rows], minlength=size)
    # Jacobi preconditioner: the diagonal of X^T X + penalty
    diagonal = np.bincount(columns, weights=values * values, minlength=size) + penalty
    w = np.zeros(size)
    residual = target - normal(w)
    z = residual / diagonal
    direction = z.copy()
    rz = residual @ z
    scale = np.linalg.norm(target) or 1.0
    for _ in range(iterations):
        step = normal(direction)
        alpha = rz / (direction @ step)
        w += alpha * direction
        residual -= alpha * step
        if np.linalg.norm(residual) < 1e-6 * scale:
            break
        z = residual / diagonal
        rz_next = residual @ z
        direction = z + (rz_next / rz) * direction
        rz = rz_next
    return colours, w[:features], float(w[bias_column])


def plan_states(task: Task, plan: Sequence[str]) -> list[int] | None:
    """The bits of the states along a reference plan (None when the plan does not reach the goal on the task)."""
    try:
        actions = [task.parse_action(text) for text in plan]
    except ApbError:
        return None
    states = [task.initial_state]
    for action in actions:
        if not task.is_applicable(states[-1], action):
            return None
        states.append(task.successor(states[-1], action))
    return [state.bits for state in states] if task.is_goal(states[-1]) else None


def shortcut_costs(states: list[int], successors: Successors) -> list[float]:
    """The cost to go of each state along a plan, shortened where one action leads from a state to a later state of
    the plan (a reference plan that turns a satellite to B and then to C could have turned it to C at once): the
    shortest path to the goal over the plan's steps and those shortcuts (unit costs)."""
    last = {bits: i for i, bits in enumerate(states)}  # the latest position of each state (plans may revisit)
    cost = [0.0] * len(states)
    for i in range(len(states) - 2, -1, -1):
        best = cost[i + 1] + 1
        for _, child in successors(states[i]):
            j = last.get(child)
            if j is not None and j > i + 1:
                best = min(best, cost[j] + 1)
        cost[i] = best
    return cost


def task_samples(task: Task, plan: Sequence[str], graph: WLGraph, config: WLConfig, neighbours: bool,
                 deadline: float | None) -> tuple[list[int], list[float]]:
    """The labelled states of one training task (see the module docstring)."""
    states = plan_states(task, plan)
    if states is None:
        return [], []
    successors = Successors(task)
    labels: dict[int, float] = {}
    for bits, cost in zip(states, shortcut_costs(states, successors)):
        labels[bits] = min(cost, labels.get(bits, cost))
    if not neighbours:
        return list(labels), list(labels.values())
    optimum = Optimum(task, config.astar_nodes, seconds=config.astar_seconds)
    for bits in states[:-1]:
        for _, child in successors(bits):
            if child in labels or (deadline is not None and time.monotonic() > deadline):
                continue
            cost = optimum(child)
            if cost is not None:
                labels[child] = cost
    return list(labels), list(labels.values())


def train_wl(domain: str, tasks: Sequence[TrainingTask], out: str | os.PathLike, config: WLConfig | None = None,
             progress: Progress | None = None, log: Callable[[str], None] | None = None) -> WLModel:
    """Trains (or resumes) the model of `domain` on `tasks` (smallest first), writing `out` after every round."""
    config = config or WLConfig()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    sidecar = out.with_name(out.name + ".samples.npz")
    start = time.monotonic()
    deadline = None if config.time_limit is None else start + config.time_limit
    neighbour_deadline = None if deadline is None else start + config.neighbour_share * config.time_limit
    samples = Samples.load(sidecar) if sidecar.is_file() and out.is_file() else Samples()
    previous = _previous_seconds(out) if samples.done else 0.0
    done = set(samples.done)
    pending = [t for t in tasks if t.id not in done and t.plan is not None]
    fitted_at = -1

    def refit(finished: bool) -> WLModel:
        nonlocal fitted_at
        colours, weights, bias = fit_ridge(samples, config.ridge)
        model = WLModel(domain, config.iterations, colours, weights, bias, {
            "tasks": len(samples.done), "samples": len(samples.labels), "finished": finished,
            "seconds": round(previous + time.monotonic() - start, 1), "ridge": config.ridge,
            "learner": "wl"})
        samples.save(sidecar)
        model.save(out)
        fitted_at = len(samples.labels)
        if log:
            log(f"wl {domain}: {len(samples.done)} tasks, {len(samples.labels)} states, {len(colours)} colours, "
                f"{model.training['seconds']} s -> {out}")
        return model

    model = None
    try:
        for k, item in enumerate(pending):
            if deadline is not None and time.monotonic() > deadline:
                break
            if progress:
                progress("labelling states", k, len(pending))
            task = item.load()
            graph = WLGraph(task)
            neighbours = len(samples.done) < config.neighbour_tasks and (
                neighbour_deadline is None or time.monotonic() < neighbour_deadline)
            states, labels = task_samples(task, item.plan, graph, config, neighbours, neighbour_deadline)
            if states:
                colours, owner = graph.colours(states, config.iterations)
                samples.add(colours, owner, labels)
            samples.done.append(item.id)
            if (k + 1) % config.refit_every == 0:
                model = refit(False)
        finished = len(samples.done) >= len([t for t in tasks if t.plan is not None])
        if model is None or fitted_at != len(samples.labels) or finished:
            model = refit(finished)
    except KeyboardInterrupt:
        if fitted_at != len(samples.labels) and samples.labels:
            refit(False)
        raise
    return model


def _previous_seconds(out: Path) -> float:
    try:
        return float(WLModel.load(out).training.get("seconds", 0.0))
    except ApbError:
        return 0.0

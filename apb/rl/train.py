"""Training the GNN policy by supervised learning of the optimal cost-to-go on small generated problems.

Every state of each training problem's reachable space is labelled with its exact distance to the goal
(apb.rl.problems.cost_to_go). A training sample is a state s of such a space with two of its successors: c+, an
optimal one (label one lower than s), and c-, a non-optimal sibling (s itself when every successor is optimal). The
loss regresses both labels (smooth L1) and adds a hinge that asks for what the greedy policy needs, c- scored at
least `margin` above c+ (the policy condition; V* meets it with equality or better). Sampled states are spread
evenly over the distances to the goal, so the few states near the goal weigh as much as the many far from it.
A checkpoint is written after every epoch.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from apb.engine.errors import ApbError
from apb.planners.space import Successors
from apb.rl.graphs import StateGraph, TaskEncoder, collate
from apb.rl.policy import GNNPolicy
from apb.rl.problems import cost_to_go, problems, size_rule


@dataclass
class TrainConfig:
    domain: str
    max_objects: int
    problems: int = 40  # training problems, sizes drawn from max_objects - 2 to max_objects
    states_per_problem: int = 300  # sampled states (each with two successors) per problem (all when fewer)
    epochs: int = 10
    batch_size: int = 64
    hidden: int = 32
    iterations: tuple[int, int] = (6, 24)  # drawn per batch: a wide range keeps more iterations stable
    margin: float = 1.0  # the hinge: a non-optimal successor scored at least this much above an optimal one
    ranking_weight: float = 1.0
    learning_rate: float = 2e-3
    seed: int = 0
    state_limit: int = 20_000  # problems with larger reachable spaces are skipped
    threads: int = 1  # torch threads: more only slow a shared 2-core machine down


@dataclass
class TrainResult:
    samples: int
    problems: int
    skipped: int
    epochs: list[dict] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Samples:
    """The training samples: every distinct state's graph and label, and per sample the indices of (c+, c-)."""

    graphs: list[StateGraph]
    labels: list[float]
    pairs: np.ndarray  # samples x 2: c+, c-
    problems: int
    skipped: int


def labelled_states(config: TrainConfig, policy: GNNPolicy,
                    progress: Callable[[str, int, int], None] | None = None) -> Samples:
    """The samples of the training problems (see the module docstring)."""
    rule = size_rule(config.domain)
    if config.max_objects < rule.min_objects:
        raise ApbError(f"--max-objects {config.max_objects}: {config.domain} problems need at least "
                       f"{rule.min_objects} objects ({rule.note})")
    rng = random.Random(config.seed)
    graphs: list[StateGraph] = []
    labels: list[float] = []
    pairs: list[tuple[int, int]] = []
    used = skipped = 0
    # the largest sizes teach the most (tiny problems have a handful of states): the top three sizes only
    low = max(rule.min_objects, config.max_objects - 2)
    generated = problems(config.domain, low, config.max_objects, config.problems, config.seed)
    for k, problem in enumerate(generated):
        if progress:
            progress("labelling states", k, len(generated))
        distances = cost_to_go(problem.task, config.state_limit)
        if not distances:
            skipped += 1
            continue
        used += 1
        _add_samples(problem.task, distances, TaskEncoder(policy.vocabulary, problem.task), config.states_per_problem,
                     rng, graphs, labels, pairs)
    if not pairs:
        raise ApbError(f"no training problem of {config.domain} up to {config.max_objects} objects has at most "
                       f"{config.state_limit} reachable states: lower --max-objects")
    return Samples(graphs, labels, np.array(pairs, dtype=np.int64), used, skipped)


def _add_samples(task, distances: dict[int, int], encoder: TaskEncoder, count: int, rng: random.Random,
                 graphs: list[StateGraph], labels: list[float], pairs: list[tuple[int, int]]) -> None:
    """Appends `count` samples of one task (its states' graphs once each)."""
    successors = Successors(task)
    index: dict[int, int] = {}

    def node(bits: int) -> int:
        i = index.get(bits)
        if i is None:
            i = index[bits] = len(graphs)
            graphs.append(encoder.encode(bits))
            labels.append(float(distances[bits]))
        return i

    by_distance: dict[int, list[int]] = {}
    for bits, distance in distances.items():
        if distance > 0:
            by_distance.setdefault(distance, []).append(bits)
    for bits in _spread(by_distance, count, rng):
        children = [c for _, c in successors(bits) if c in distances]
        best = min(distances[c] for c in children)
        good = [c for c in children if distances[c] == best]
        bad = [c for c in children if distances[c] > best] or [bits]
        pairs.append((node(rng.choice(good)), node(rng.choice(bad))))


def _spread(by_distance: dict[int, list[int]], count: int, rng: random.Random) -> list[int]:
    """`count` states (all when fewer) drawn round-robin over the distances, so every distance is represented."""
    pools = [rng.sample(states, len(states)) for _, states in sorted(by_distance.items())]
    chosen: list[int] = []
    while len(chosen) < count and any(pools):
        for pool in pools:
            if pool and len(chosen) < count:
                chosen.append(pool.pop())
    return chosen


def train(config: TrainConfig, out: str | os.PathLike | None = None,
          progress: Callable[[str, int, int], None] | None = None) -> tuple[GNNPolicy, TrainResult]:
    """Trains a policy for `config`; with `out`, saves a checkpoint there after every epoch."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, config.threads))
    start = time.perf_counter()
    policy = GNNPolicy.create(config.domain, config.hidden, config.iterations)
    data = labelled_states(config, policy, progress)
    graphs, pairs = data.graphs, data.pairs
    result = TrainResult(samples=len(pairs), problems=data.problems, skipped=data.skipped)
    model = policy.model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng(config.seed)
    targets = torch.tensor(data.labels)
    batches = max(1, (len(pairs) + config.batch_size - 1) // config.batch_size)
    total = config.epochs * batches
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.learning_rate, total_steps=total)
    low, high = config.iterations
    for epoch in range(config.epochs):
        order = rng.permutation(len(pairs))
        losses = []
        for b in range(batches):
            if progress:
                progress(f"epoch {epoch + 1}/{config.epochs}", epoch * batches + b, total)
            chosen = pairs[order[b * config.batch_size:(b + 1) * config.batch_size]]
            ids = np.concatenate([chosen[:, 0], chosen[:, 1]])
            predicted = model(collate([graphs[i] for i in ids]), int(rng.integers(low, high + 1)))
            loss = torch.nn.functional.smooth_l1_loss(predicted, targets[ids])
            good, bad = predicted[:len(chosen)], predicted[len(chosen):]
            loss = loss + config.ranking_weight * torch.relu(config.margin - (bad - good)).mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
        result.epochs.append({"epoch": epoch + 1, "loss": round(float(np.mean(losses)), 4)})
        if out is not None:
            model.eval()
            policy.save(out, max_objects=config.max_objects, epochs_done=epoch + 1, samples=len(pairs),
                        train_seed=config.seed, losses=[e["loss"] for e in result.epochs])
            model.train()
    model.eval()
    result.seconds = time.perf_counter() - start
    return policy, result

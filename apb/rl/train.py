"""Training the GNN policy by supervised learning of the optimal cost-to-go on small generated problems.

Every state of each training problem's reachable space is labelled with its exact distance to the goal
(apb.rl.problems.cost_to_go). A training sample is a state s of such a space with two of its successors: c+, an
optimal one (label one lower than s), and c-, a non-optimal sibling (s itself when every successor is optimal). The
loss regresses both labels (smooth L1) and adds a hinge that asks for what the greedy policy needs, c- scored at
least `margin` above c+ (the policy condition; V* meets it with equality or better). Sampled states are spread
evenly over the distances to the goal, so the few states near the goal weigh as much as the many far from it.
A checkpoint is written after every epoch, marked unfinished until the last one (`finished`, `stop_reason`,
`epochs_done` of `epochs_planned` in policy.json). `fit_epoch` is the training pass apb.rl.learn shares.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from apb.engine.errors import ApbError
from apb.rl.graphs import StateGraph, TaskEncoder, collate
from apb.rl.labels import SampleSink, exact_samples
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
    sink = SampleSink()
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
        exact_samples(k, problem.task, distances, TaskEncoder(policy.vocabulary, problem.task), sink,
                      config.states_per_problem, rng)
    if not sink.pairs:
        raise ApbError(f"no training problem of {config.domain} up to {config.max_objects} objects has at most "
                       f"{config.state_limit} reachable states: lower --max-objects")
    return Samples(sink.graphs, sink.labels, np.array(sink.pairs, dtype=np.int64), used, skipped)


def fit_epoch(model, optimizer, data: Samples, settings: TrainConfig, rng: np.random.Generator,
              schedule=None, progress: Callable[[str, int, int], None] | None = None, stage: str = "epoch",
              step: tuple[int, int] = (0, 0), deadline: float | None = None) -> float:
    """One pass over the samples in batches (the loss of the module docstring); the mean loss. `step` is (batches
    done before this epoch, batches in all) for the progress callback; at `deadline` (time.monotonic()) the pass
    stops after the batch in progress."""
    graphs, pairs = data.graphs, data.pairs
    targets = torch.tensor(data.labels)
    batches = max(1, (len(pairs) + settings.batch_size - 1) // settings.batch_size)
    low, high = settings.iterations
    order = rng.permutation(len(pairs))
    losses = []
    for b in range(batches):
        if deadline is not None and b and time.monotonic() >= deadline:
            break
        if progress:
            progress(stage, step[0] + b, step[1] or batches)
        chosen = pairs[order[b * settings.batch_size:(b + 1) * settings.batch_size]]
        ids = np.concatenate([chosen[:, 0], chosen[:, 1]])
        predicted = model(collate([graphs[i] for i in ids]), int(rng.integers(low, high + 1)))
        loss = torch.nn.functional.smooth_l1_loss(predicted, targets[ids])
        good, bad = predicted[:len(chosen)], predicted[len(chosen):]
        loss = loss + settings.ranking_weight * torch.relu(settings.margin - (bad - good)).mean()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if schedule is not None:
            schedule.step()
        losses.append(float(loss.detach()))
    return round(float(np.mean(losses)), 4)


def batches_per_epoch(data: Samples, settings: TrainConfig) -> int:
    return max(1, (len(data.pairs) + settings.batch_size - 1) // settings.batch_size)


def train(config: TrainConfig, out: str | os.PathLike | None = None,
          progress: Callable[[str, int, int], None] | None = None) -> tuple[GNNPolicy, TrainResult]:
    """Trains a policy for `config`; with `out`, saves a checkpoint there after every epoch (marked unfinished until
    the last, and when Ctrl-C or SIGTERM stops the training: then the last epoch's is kept and the interruption
    propagates)."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, config.threads))
    start = time.perf_counter()
    policy = GNNPolicy.create(config.domain, config.hidden, config.iterations)
    data = labelled_states(config, policy, progress)
    result = TrainResult(samples=len(data.pairs), problems=data.problems, skipped=data.skipped)
    model = policy.model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng(config.seed)
    batches = batches_per_epoch(data, config)
    total = config.epochs * batches
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.learning_rate, total_steps=total)

    def save(done: int, reason: str) -> None:
        if out is not None:
            model.eval()
            policy.save(out, max_objects=config.max_objects, epochs_done=done, epochs_planned=config.epochs,
                        finished=reason == "epochs", stop_reason=reason, samples=len(data.pairs),
                        train_seed=config.seed, losses=[e["loss"] for e in result.epochs])
            model.train()

    try:
        for epoch in range(config.epochs):
            loss = fit_epoch(model, optimizer, data, config, rng, schedule, progress,
                             f"epoch {epoch + 1}/{config.epochs}", (epoch * batches, total))
            result.epochs.append({"epoch": epoch + 1, "loss": loss})
            save(epoch + 1, "epochs" if epoch + 1 == config.epochs else "running")
    except KeyboardInterrupt:
        if result.epochs:  # the epoch in progress is lost; the last whole one is kept, marked unfinished
            _save_interrupted(policy, out, len(result.epochs))
        raise
    model.eval()
    result.seconds = time.perf_counter() - start
    return policy, result


def _save_interrupted(policy: GNNPolicy, out, done: int) -> None:
    """Marks the checkpoint of the last whole epoch unfinished (its weights are already on disk)."""
    if out is None:
        return
    from apb.planners.knowledge_files import atomic_write
    from apb.rl.policy import SETTINGS

    settings = {**policy.settings, "epochs_done": done, "finished": False, "stop_reason": "interrupted"}
    atomic_write(Path(out) / SETTINGS, (json.dumps(settings, indent=2) + "\n").encode("utf-8"))

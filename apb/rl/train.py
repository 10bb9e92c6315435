"""Training the GNN policy by supervised learning of the optimal cost-to-go on small generated problems.

Every state of each training problem's reachable space is labelled with its exact distance to the goal
(apb.rl.problems.cost_to_go); the model regresses those labels, so the greedy policy imitates optimal plans
(every optimal successor has the label one lower). A checkpoint is written after every epoch.
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
from apb.rl.graphs import StateGraph, TaskEncoder, collate
from apb.rl.policy import GNNPolicy
from apb.rl.problems import cost_to_go, problems, size_rule


@dataclass
class TrainConfig:
    domain: str
    max_objects: int
    problems: int = 24  # training problems, sizes drawn from max_objects - 2 to max_objects
    states_per_problem: int = 1000  # labelled states kept per problem (all when fewer)
    epochs: int = 10
    batch_size: int = 64
    hidden: int = 32
    iterations: tuple[int, int] = (6, 24)  # drawn per batch: a wide range keeps more iterations stable
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


def labelled_states(config: TrainConfig, policy: GNNPolicy,
                    progress: Callable[[str, int, int], None] | None = None) -> tuple[list, list, int, int]:
    """(state graphs, cost-to-go labels, problems used, problems skipped) of the training problems."""
    rule = size_rule(config.domain)
    if config.max_objects < rule.min_objects:
        raise ApbError(f"--max-objects {config.max_objects}: {config.domain} problems need at least "
                       f"{rule.min_objects} objects ({rule.note})")
    rng = random.Random(config.seed)
    graphs: list[StateGraph] = []
    labels: list[float] = []
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
        encoder = TaskEncoder(policy.vocabulary, problem.task)
        items = list(distances.items())
        if len(items) > config.states_per_problem:
            items = rng.sample(items, config.states_per_problem)
        for bits, distance in items:
            graphs.append(encoder.encode(bits))
            labels.append(float(distance))
    if not graphs:
        raise ApbError(f"no training problem of {config.domain} up to {config.max_objects} objects has at most "
                       f"{config.state_limit} reachable states: lower --max-objects")
    return graphs, labels, used, skipped


def train(config: TrainConfig, out: str | os.PathLike | None = None,
          progress: Callable[[str, int, int], None] | None = None) -> tuple[GNNPolicy, TrainResult]:
    """Trains a policy for `config`; with `out`, saves a checkpoint there after every epoch."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, config.threads))
    start = time.perf_counter()
    policy = GNNPolicy.create(config.domain, config.hidden, config.iterations)
    graphs, labels, used, skipped = labelled_states(config, policy, progress)
    result = TrainResult(samples=len(graphs), problems=used, skipped=skipped)
    model = policy.model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng(config.seed)
    targets = torch.tensor(labels)
    batches = max(1, (len(graphs) + config.batch_size - 1) // config.batch_size)
    total = config.epochs * batches
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.learning_rate, total_steps=total)
    low, high = config.iterations
    for epoch in range(config.epochs):
        order = rng.permutation(len(graphs))
        losses = []
        for b in range(batches):
            if progress:
                progress(f"epoch {epoch + 1}/{config.epochs}", epoch * batches + b, total)
            chosen = order[b * config.batch_size:(b + 1) * config.batch_size]
            batch = collate([graphs[i] for i in chosen])
            predicted = model(batch, int(rng.integers(low, high + 1)))
            loss = torch.nn.functional.smooth_l1_loss(predicted, targets[chosen])
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            losses.append(float(loss.detach()))
        result.epochs.append({"epoch": epoch + 1, "loss": round(float(np.mean(losses)), 4)})
        if out is not None:
            model.eval()
            policy.save(out, max_objects=config.max_objects, epochs_done=epoch + 1, samples=len(graphs),
                        train_seed=config.seed, losses=[e["loss"] for e in result.epochs])
            model.train()
    model.eval()
    result.seconds = time.perf_counter() - start
    return policy, result

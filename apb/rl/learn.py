"""Learning the GNN value function of any PDDL domain from its training tasks (the IPC 2023 Learning Track's
protocol): `apb rl train SOURCE --learner gnn --out FILE [--time-limit S]`.

1. Tasks: every problem of the source's training split with its reference plan where the source has one. Up to
   `validation` of them (one in five at most, spread over the smaller two thirds of the sizes) are held out to
   choose the model.
2. Labels (apb.rl.labels): small tasks exactly (every reachable state's optimal distance), larger ones along their
   plan, refined by A* near the goal. At most `label_share` of the time limit goes to labelling; tasks left are
   skipped (and counted).
3. Epochs (apb.rl.train.fit_epoch, the loss of apb.rl.train) until `epochs` or the time limit. After each, the
   greedy policy (apb.planners.learned_policy, no backtracking, 2x the reference plan + 10 steps) runs on the
   validation tasks: the score is the track's quality, the sum of reference length / plan length over the solved ones;
   ties go to the lower training loss. Without validation tasks the lowest training loss wins.
4. The knowledge file (apb.planners.knowledge_files) holds the best model so far: written after labelling
   (untrained) and whenever the score improves, marked `finished: false` ("running"); at the end `finished: true`
   ("epochs" or "time-limit"). Ctrl-C or SIGTERM writes the best so far marked "interrupted" and re-raises.
   `resume=True` continues from the file: its weights, optimizer state, epochs done and best score.
"""

from __future__ import annotations

import copy
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from apb.engine.errors import ApbError
from apb.planners.knowledge_files import DEFAULT_EPOCHS, load_knowledge, write_knowledge
from apb.planners.learned_policy import greedy_policy
from apb.rl.graphs import TaskEncoder
from apb.rl.labels import EXACT, NONE, SampleSink, task_samples
from apb.rl.policy import GNNPolicy
from apb.rl.train import Samples, TrainConfig, batches_per_epoch, fit_epoch
from apb.rl.training_tasks import TrainingTask

MAX_EPOCHS = 10_000  # with a time limit and no --epochs, epochs run until the limit (this is only a backstop)


@dataclass
class LearnConfig(TrainConfig):
    """TrainConfig's model and loss settings, for training tasks instead of generated problems."""

    domain: str = ""
    max_objects: int = 0
    epochs: int | None = None  # None: until the time limit (DEFAULT_EPOCHS without one)
    learning_rate: float = 1e-3
    time_limit: float | None = None  # seconds, labelling included
    validation: int = 4  # held-out tasks (at most one in five)
    label_share: float = 0.4  # of the time limit, at most, for labelling
    astar_nodes: int = 2_000
    astar_seconds: float = 2.0  # per task, for the A* refinement of plan labels
    resume: bool = False


@dataclass
class LearnResult:
    out: str
    samples: int = 0
    tasks: int = 0
    exact: int = 0
    along_plans: int = 0
    unlabelled: int = 0
    skipped: int = 0  # not labelled for lack of time
    validation: list[str] = field(default_factory=list)
    epochs: list[dict] = field(default_factory=list)
    epochs_done: int = 0
    best_epoch: int = 0
    best_score: float | None = None
    stop_reason: str = "running"
    seconds: float = 0.0

    def summary(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


def split_validation(tasks: list[TrainingTask], wanted: int) -> tuple[list[TrainingTask], list[TrainingTask]]:
    """(training, validation): up to `wanted` validation tasks, at most one in five, evenly spread over the
    smaller two thirds of the tasks ordered by size (objects): the policy runs on each after every epoch, and on the
    largest tasks that would cost more than the epoch."""
    count = min(wanted, len(tasks) // 5)
    if count <= 0:
        return list(tasks), []
    ordered = sorted(tasks, key=lambda t: (len(t.task.objects), t.name))
    ordered = ordered[:max(count, (2 * len(ordered)) // 3)]
    step = len(ordered) / count
    chosen = {id(ordered[int(step * (i + 0.5))]) for i in range(count)}
    return [t for t in tasks if id(t) not in chosen], [t for t in tasks if id(t) in chosen]


def learn(domain_pddl: str, domain_name: str, tasks: list[TrainingTask], config: LearnConfig,
          out: str | os.PathLike, progress: Callable[[str, int, int], None] | None = None,
          note: Callable[[str], None] | None = None) -> tuple[GNNPolicy, LearnResult]:
    """Trains the GNN on `tasks` and writes the knowledge file `out` (see the module docstring)."""
    start = time.monotonic()
    deadline = None if config.time_limit is None else start + config.time_limit
    torch.manual_seed(config.seed)
    torch.set_num_threads(max(1, config.threads))
    out = Path(out)
    result = LearnResult(str(out))
    state = _Best()
    if config.resume:
        policy = _resumed(out, domain_name, state, result)
    else:
        policy = GNNPolicy.create(domain_name, config.hidden, config.iterations, domain_pddl)
    epochs = config.epochs if config.epochs is not None else (MAX_EPOCHS if deadline else DEFAULT_EPOCHS)
    train_tasks, validation = split_validation(tasks, config.validation)
    result.tasks, result.validation = len(train_tasks), [t.name for t in validation]
    model = policy.model
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    if config.resume and getattr(policy, "optimizer_state", None):
        optimizer.load_state_dict(policy.optimizer_state)

    def knowledge(finished: bool, reason: str) -> dict:
        training = {"finished": finished, "stop_reason": reason, "epochs_done": result.epochs_done,
                    "epochs_planned": config.epochs, "best_epoch": result.best_epoch, "best_score": result.best_score,
                    "time_limit": config.time_limit, "seed": config.seed, "tasks": result.tasks,
                    "validation_tasks": result.validation, "samples": result.samples,
                    "seconds": round(state.seconds + time.monotonic() - start, 1),
                    "losses": [e["loss"] for e in result.epochs]}
        return {"kind": "gnn", "domain": domain_name, "training": training,
                "model": policy.model_data(optimizer.state_dict())}

    def write(finished: bool, reason: str) -> None:
        weights = state.best if state.best is not None else model.state_dict()
        live = copy.deepcopy(model.state_dict())
        model.load_state_dict(weights)
        try:
            write_knowledge(out, knowledge(finished, reason))
        finally:
            model.load_state_dict(live)

    try:
        data = _label(policy, train_tasks, config, start, deadline, result, progress)
        result.samples = len(data.pairs)
        if note:
            note(f"{result.samples} samples of {result.exact + result.along_plans} tasks ({result.exact} labelled "
                 f"exactly, {result.along_plans} along plans, {result.unlabelled} without a plan, {result.skipped} "
                 f"skipped for time); {len(validation)} validation tasks")
        if not config.resume:
            write(False, "running")
        rng = np.random.default_rng(config.seed + result.epochs_done)
        batches = batches_per_epoch(data, config)
        result.stop_reason = "epochs"
        while result.epochs_done < epochs:
            if deadline is not None and time.monotonic() >= deadline:
                result.stop_reason = "time-limit"
                break
            model.train()
            label = f"epoch {result.epochs_done + 1}" + (f"/{config.epochs}" if config.epochs else "")
            loss = fit_epoch(model, optimizer, data, config, rng, None, progress, label, (0, batches), deadline)
            model.eval()
            result.epochs_done += 1
            score = _validate(policy, validation, progress) if validation else -loss
            result.epochs.append({"epoch": result.epochs_done, "loss": loss,
                                  **({"score": round(score, 3)} if validation else {})})
            if note:
                note(f"epoch {result.epochs_done}: loss {loss}" +
                     (f", validation quality {score:.2f} of {len(validation)}" if validation else ""))
            if state.better(score, loss):
                state.best = copy.deepcopy(model.state_dict())
                result.best_epoch, result.best_score = result.epochs_done, round(score, 4)
                write(False, "running")
    except KeyboardInterrupt:
        result.stop_reason = "interrupted"
        write(False, "interrupted")
        raise
    write(True, result.stop_reason)
    if state.best is not None:
        model.load_state_dict(state.best)
    model.eval()
    result.seconds = round(time.monotonic() - start, 1)
    return policy, result


class _Best:
    """The best model so far: its weights, score and loss; seconds of earlier runs (resume)."""

    def __init__(self) -> None:
        self.best: dict | None = None
        self.score: float | None = None
        self.loss: float | None = None
        self.seconds = 0.0

    def better(self, score: float, loss: float) -> bool:
        if self.score is None or score > self.score or (score == self.score and loss < self.loss):
            self.score, self.loss = score, loss
            return True
        return False


def _resumed(out: Path, domain_name: str, state: _Best, result: LearnResult) -> GNNPolicy:
    """The policy of the knowledge file to resume, with the progress it records."""
    knowledge = load_knowledge(out, warn=False)
    if knowledge.learner != "gnn" or knowledge.domain != domain_name:
        raise ApbError(f"{out} holds {knowledge.learner} knowledge of {knowledge.domain!r}: cannot resume gnn "
                       f"training of {domain_name!r} from it (use --overwrite to start again)")
    policy = GNNPolicy.from_knowledge(knowledge)
    training = knowledge.training
    result.epochs_done = int(training.get("epochs_done") or 0)
    result.best_epoch = int(training.get("best_epoch") or 0)
    result.epochs = [{"epoch": i + 1, "loss": loss} for i, loss in enumerate(training.get("losses") or [])]
    if training.get("best_score") is not None:
        state.score = result.best_score = float(training["best_score"])
        state.loss = float("inf")
        state.best = copy.deepcopy(policy.model.state_dict())
    state.seconds = float(training.get("seconds") or 0.0)
    return policy


def _label(policy: GNNPolicy, tasks: list[TrainingTask], config: LearnConfig, start: float, deadline: float | None,
           result: LearnResult, progress) -> Samples:
    sink = SampleSink()
    rng = random.Random(config.seed)
    stop = None if deadline is None else start + config.label_share * (deadline - start)
    too_big = None  # the fewest objects of a task whose space exceeded the state limit: larger ones are not tried
    for k, item in enumerate(sorted(tasks, key=lambda t: len(t.task.objects))):
        if stop is not None and time.monotonic() >= stop:
            result.skipped = len(tasks) - k
            break
        if progress:
            progress("labelling states", k, len(tasks))
        size = len(item.task.objects)
        limit = config.state_limit if too_big is None or size < too_big else 0
        how = task_samples(k, item.task, item.plan, TaskEncoder(policy.vocabulary, item.task), sink, rng,
                           states=config.states_per_problem, state_limit=limit,
                           astar_nodes=config.astar_nodes, astar_seconds=config.astar_seconds)
        if how != EXACT and limit:
            too_big = size
        if how == EXACT:
            result.exact += 1
        elif how == NONE:
            result.unlabelled += 1
        else:
            result.along_plans += 1
    if not sink.pairs:
        raise ApbError("no training sample: no training task could be labelled (no reachable goal, no plan found)")
    return Samples(sink.graphs, sink.labels, np.array(sink.pairs, dtype=np.int64), result.exact + result.along_plans,
                   result.unlabelled + result.skipped)


def _validate(policy: GNNPolicy, tasks: list[TrainingTask], progress) -> float:
    """The track's quality of the greedy policy on the validation tasks: sum of reference / plan length."""
    from apb.rl.gnn_knowledge import GNNHeuristic

    score = 0.0
    for k, item in enumerate(tasks):
        if progress:
            progress("validating", k, len(tasks))
        reference = len(item.plan) if item.plan else None
        budget = 2 * (reference or 25) + 10
        found = greedy_policy(item.task, GNNHeuristic(policy, item.task), max_steps=budget, backtrack=False)
        if found.solved:
            score += min(1.0, (reference or len(found.plan)) / max(1, len(found.plan)))
    return score

"""The `gnn` learner's side of apb.planners.knowledge_files: a knowledge file's GNN as a StateHeuristic (needs
PyTorch)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from apb.engine.task import Task
from apb.planners.knowledge_files import Knowledge, state_bits
from apb.rl.policy import GNNPolicy


class GNNHeuristic:
    """The GNN's estimated cost to go of a batch of states of one task (one forward pass per call)."""

    name = "gnn"

    def __init__(self, policy: GNNPolicy, task: Task) -> None:
        self.policy = policy
        self.task = task

    def __call__(self, states: Sequence[Any]) -> list[float]:
        bits = state_bits(states)
        if not bits:
            return []
        return [float(v) for v in self.policy.values(self.task, bits)]


def heuristic(knowledge: Knowledge, task: Task) -> GNNHeuristic:
    """apb.planners.knowledge_files' hook (LEARNERS["gnn"]): the heuristic of a `gnn` knowledge file for `task`.
    PyTorch runs on one thread (the track's one core; more threads only slow the small forward passes down on a shared
    machine)."""
    torch.set_num_threads(1)
    return GNNHeuristic(GNNPolicy.from_knowledge(knowledge), task)

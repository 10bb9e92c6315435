"""The learned general policy: a trained RelationalGNN, its vocabulary and settings, saved to and loaded from a
checkpoint folder; `choose` picks the successor with the lowest estimated cost-to-go (states already visited in
the episode are avoided while another successor exists), so the policy needs no search and no planner."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch

from apb.domains import registry
from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.engine.task import Task
from apb.rl.graphs import TaskEncoder, Vocabulary, collate
from apb.rl.model import RelationalGNN, default_iterations

CHECKPOINT = "policy.pt"
SETTINGS = "policy.json"
ENCODING = 2  # apb.rl.graphs' state encoding (2: goal atoms split into goal:/done:); older checkpoints need retraining


class GNNPolicy:
    """A value-greedy policy over a domain's states (see the module docstring)."""

    def __init__(self, domain: str, model: RelationalGNN, settings: dict) -> None:
        self.domain = domain
        self.model = model.eval()
        self.settings = settings
        self.vocabulary = Vocabulary(load_domain(registry.domain_file(domain)))
        self._encoders: dict[int, TaskEncoder] = {}

    @classmethod
    def create(cls, domain: str, hidden: int = 32, iterations: tuple[int, int] = (6, 24)) -> GNNPolicy:
        vocabulary = Vocabulary(load_domain(registry.domain_file(domain)))
        model = RelationalGNN(vocabulary.arities, len(vocabulary.types), len(vocabulary.flags), hidden)
        return cls(domain, model, {"domain": domain, "hidden": hidden, "iterations": list(iterations),
                                   "encoding": ENCODING})

    # ---- checkpoints ------------------------------------------------------------------------------------------
    def save(self, folder: str | os.PathLike, **extra: Any) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        torch.save(self.model.state_dict(), folder / CHECKPOINT)
        self.settings.update(extra)
        (folder / SETTINGS).write_text(json.dumps(self.settings, indent=2) + "\n")
        return folder

    @classmethod
    def load(cls, folder: str | os.PathLike) -> GNNPolicy:
        folder = Path(folder)
        if not (folder / SETTINGS).is_file() or not (folder / CHECKPOINT).is_file():
            raise ApbError(f"{folder} is not a trained policy: it needs {SETTINGS} and {CHECKPOINT} "
                           "(write one with apb rl train DOMAIN --out DIR)")
        settings = json.loads((folder / SETTINGS).read_text())
        if settings.get("encoding") != ENCODING:
            raise ApbError(f"{folder} was trained with an older state encoding of apb.rl: train it again with "
                           "apb rl train DOMAIN --out DIR")
        policy = cls.create(settings["domain"], settings["hidden"], tuple(settings["iterations"]))
        policy.model.load_state_dict(torch.load(folder / CHECKPOINT, weights_only=True))
        policy.model.eval()
        policy.settings = settings
        return policy

    # ---- acting -----------------------------------------------------------------------------------------------
    def encoder(self, task: Task) -> TaskEncoder:
        encoder = self._encoders.get(id(task))
        if encoder is None or encoder.task is not task:
            if len(self._encoders) > 64:
                self._encoders.clear()
            encoder = self._encoders[id(task)] = TaskEncoder(self.vocabulary, task)
        return encoder

    def values(self, task: Task, states: list[int]) -> np.ndarray:
        """The estimated cost-to-go of each state (bits) of `task`."""
        encoder = self.encoder(task)
        batch = collate([encoder.encode(bits) for bits in states])
        iterations = default_iterations(len(task.objects), tuple(self.settings["iterations"]))
        with torch.inference_mode():
            return self.model(batch, iterations).numpy()

    def choose(self, task: Task, bits: int, visited: set[int] | None = None) -> int | None:
        """The index (into task.actions) of the action to take in the state with these bits; None in a dead end."""
        ids = task.applicable_ids(bits)
        if not ids:
            return None
        children = [task.successor_bits(bits, task.actions[i]) for i in ids]
        for i, child in zip(ids, children):
            if task.is_goal_bits(child):
                return i
        values = self.values(task, children)
        if visited:
            fresh = [j for j, child in enumerate(children) if child not in visited]
            if fresh:
                return ids[min(fresh, key=lambda j: (values[j], j))]
        return ids[int(np.argmin(values))]

    def solve(self, task: Task, max_steps: int) -> list[str] | None:
        """The plan the policy follows from the initial state (None when it fails within max_steps)."""
        bits = task.initial_state.bits
        visited = {bits}
        plan: list[str] = []
        while not task.is_goal_bits(bits):
            if len(plan) >= max_steps:
                return None
            index = self.choose(task, bits, visited)
            if index is None:
                return None
            action = task.actions[index]
            plan.append(str(action))
            bits = task.successor_bits(bits, action)
            visited.add(bits)
        return plan

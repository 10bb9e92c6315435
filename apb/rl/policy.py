"""The learned general policy: a trained RelationalGNN, its vocabulary and settings, saved to and loaded from a
checkpoint folder (`apb rl train DOMAIN --max-objects K`) or a knowledge file (apb.planners.knowledge_files: `apb
rl train SOURCE --out FILE`); `choose` picks the successor with the lowest estimated cost-to-go (states already
visited in the episode are avoided while another successor exists), so the policy needs no search and no planner.

The domain is a bundled one (by name) or any PDDL domain, whose text the settings keep (`domain_pddl`): the
vocabulary of relations, flags and types is rebuilt from it, so a policy runs on every problem of its domain."""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
import pickle
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from apb.domains import registry
from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.engine.task import Task
from apb.planners.knowledge_files import Knowledge, KnowledgeWarning, atomic_write, load_knowledge
from apb.rl.graphs import TaskEncoder, Vocabulary, collate
from apb.rl.model import RelationalGNN, default_iterations

CHECKPOINT = "policy.pt"
SETTINGS = "policy.json"
ENCODING = 2  # apb.rl.graphs' state encoding (2: goal atoms split into goal:/done:); older checkpoints need retraining


class GNNPolicy:
    """A value-greedy policy over a domain's states (see the module docstring)."""

    def __init__(self, domain: str, model: RelationalGNN, settings: dict, vocabulary: Vocabulary | None = None) -> None:
        self.domain = domain
        self.model = model.eval()
        self.settings = settings
        self.vocabulary = vocabulary or _vocabulary(domain, settings.get("domain_pddl"))
        self._encoders: dict[int, TaskEncoder] = {}

    @classmethod
    def create(cls, domain: str, hidden: int = 32, iterations: tuple[int, int] = (6, 24),
               domain_pddl: str | None = None) -> GNNPolicy:
        """An untrained policy for a bundled domain (by name) or, with `domain_pddl`, for any domain."""
        vocabulary = _vocabulary(domain, domain_pddl)
        model = RelationalGNN(vocabulary.arities, len(vocabulary.types), len(vocabulary.flags), hidden)
        settings = {"domain": domain, "hidden": hidden, "iterations": list(iterations), "encoding": ENCODING}
        if domain_pddl is not None:
            settings["domain_pddl"] = domain_pddl
        return cls(domain, model, settings, vocabulary)

    # ---- checkpoints ------------------------------------------------------------------------------------------
    def save(self, folder: str | os.PathLike, **extra: Any) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        torch.save(self.model.state_dict(), buffer)
        self.settings.update(extra)
        atomic_write(folder / CHECKPOINT, buffer.getvalue())
        atomic_write(folder / SETTINGS, (json.dumps(self.settings, indent=2) + "\n").encode("utf-8"))
        return folder

    def model_data(self, optimizer: dict | None = None) -> dict:
        """The `model` of a gnn knowledge file: the settings and the weights (and an optimizer's state, to resume
        training), torch.save'd and base64-encoded."""
        buffer = io.BytesIO()
        torch.save({"model": self.model.state_dict(), "optimizer": optimizer}, buffer)
        keep = ("hidden", "iterations", "encoding", "domain_pddl")
        return {**{k: self.settings[k] for k in keep if k in self.settings},
                "weights": base64.b64encode(buffer.getvalue()).decode("ascii")}

    @classmethod
    def load(cls, path: str | os.PathLike, *, warn: bool = True) -> GNNPolicy:
        """A policy from a checkpoint folder or a knowledge file; warns (KnowledgeWarning) when its training did
        not finish."""
        folder = Path(path)
        if folder.is_file():
            return cls.from_knowledge(load_knowledge(folder, warn=warn))
        if not (folder / SETTINGS).is_file() or not (folder / CHECKPOINT).is_file():
            raise ApbError(f"{folder} is not a trained policy: it needs {SETTINGS} and {CHECKPOINT} "
                           "(write one with apb rl train DOMAIN --out DIR)")
        settings = json.loads((folder / SETTINGS).read_text())
        if settings.get("encoding") != ENCODING:
            raise ApbError(f"{folder} was trained with an older state encoding of apb.rl: train it again with "
                           "apb rl train DOMAIN --out DIR")
        policy = cls.create(settings["domain"], settings["hidden"], tuple(settings["iterations"]),
                            settings.get("domain_pddl"))
        policy.model.load_state_dict(torch.load(folder / CHECKPOINT, weights_only=True))
        policy.model.eval()
        policy.settings = settings
        if warn and settings.get("finished") is False:
            warnings.warn(f"{folder}: gnn policy of {settings['domain']}, training unfinished "
                          f"({settings.get('stop_reason', 'running')}) after {settings.get('epochs_done')} of "
                          f"{settings.get('epochs_planned')} epochs: using it as it is", KnowledgeWarning,
                          stacklevel=2)
        return policy

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge) -> GNNPolicy:
        """The policy of a `gnn` knowledge file."""
        if knowledge.learner != "gnn":
            raise ApbError(f"{knowledge.path} holds {knowledge.learner} knowledge, not a gnn policy")
        model = knowledge.data.get("model")
        if not isinstance(model, dict) or model.get("encoding") != ENCODING:
            raise ApbError(f"{knowledge.path} was trained with another state encoding of apb.rl: train it again")
        try:
            policy = cls.create(knowledge.domain, int(model["hidden"]), tuple(model["iterations"]),
                                model.get("domain_pddl"))
            state = torch.load(io.BytesIO(base64.b64decode(model["weights"])), weights_only=True)
            policy.model.load_state_dict(state["model"])
        except (KeyError, TypeError, ValueError, RuntimeError, EOFError, binascii.Error, pickle.UnpicklingError) as err:
            raise ApbError(f"{knowledge.path}: a damaged gnn knowledge file ({type(err).__name__}): train it "
                           "again") from None
        policy.model.eval()
        policy.settings.update(knowledge.training)
        policy.optimizer_state = state.get("optimizer")
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


def _vocabulary(domain: str, domain_pddl: str | None) -> Vocabulary:
    return Vocabulary(load_domain(domain_pddl if domain_pddl is not None else registry.domain_file(domain)))

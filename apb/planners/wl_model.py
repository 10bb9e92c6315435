"""The Weisfeiler-Leman cost-to-go model and its knowledge file: a weight per colour (apb.planners.wl_features), and
the heuristic it gives on a task (`WLHeuristic`, batched: `h(bits_list)` -> values).

The knowledge file is JSON: `{"kind": "wl", "domain", "iterations", "colours": [...], "weights": [...], "bias",
"training": {...}}`. `save` writes a temporary file beside it and renames it over the old one, so a reader (or a
training run stopped at any moment) always sees a whole file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import numpy as np

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.knowledge_files import FORMAT, Knowledge, atomic_write, load_knowledge
from apb.planners.wl_features import WLGraph

KIND = "wl"


@dataclass
class WLModel:
    """h(s) = bias + the sum over the nodes and rounds of the state's graph of the weight of the node's colour
    (colours never seen in training weigh 0). `colours` is sorted, `weights` aligned with it."""

    domain: str
    iterations: int
    colours: np.ndarray  # uint64, sorted
    weights: np.ndarray  # float64
    bias: float = 0.0
    training: dict = field(default_factory=dict)

    def heuristic(self, task: Task) -> WLHeuristic:
        """The model as a batched heuristic on `task`."""
        return WLHeuristic(self, task)

    def to_json(self) -> dict:
        return {"kind": KIND, "format": FORMAT, "domain": self.domain, "iterations": self.iterations,
                "bias": float(self.bias), "colours": [int(c) for c in self.colours],
                "weights": [float(w) for w in self.weights], "training": self.training}

    @classmethod
    def from_json(cls, data: dict, source: str = "<knowledge>") -> WLModel:
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ApbError(f"{source}: not a Weisfeiler-Leman knowledge file (kind {data.get('kind')!r}, "
                           f"expected {KIND!r})" if isinstance(data, dict) else f"{source}: not a knowledge file")
        try:
            colours = np.array([int(c) for c in data["colours"]], dtype=np.uint64)
            weights = np.array(data["weights"], dtype=np.float64)
            model = cls(str(data["domain"]), int(data["iterations"]), colours, weights, float(data.get("bias", 0.0)),
                        dict(data.get("training") or {}))
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise ApbError(f"{source}: a damaged Weisfeiler-Leman knowledge file ({err}): train it again") from None
        if len(colours) != len(weights) or (len(colours) > 1 and not (colours[1:] > colours[:-1]).all()):
            raise ApbError(f"{source}: a damaged Weisfeiler-Leman knowledge file (colours and weights do not "
                           "match): train it again")
        return model

    def save(self, path: str | os.PathLike) -> None:
        """Writes the knowledge file atomically (a temporary file renamed over it)."""
        atomic_write(path, json.dumps(self.to_json()).encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike) -> WLModel:
        return cls.from_json(load_knowledge(path, warn=False).data, str(path))


class WLHeuristic:
    """The model's estimate of the cost to go on one task: `h(bits_list)` returns one float per state."""

    name = "wl"

    def __init__(self, model: WLModel, task: Task) -> None:
        self.model = model
        self.graph = WLGraph(task)

    def __call__(self, bits_list: list[int]) -> list[float]:
        if not bits_list:
            return []
        colours, owner = self.graph.colours(bits_list, self.model.iterations)
        known = self.model.colours
        if len(known) == 0:
            return [self.model.bias] * len(bits_list)
        index = np.minimum(np.searchsorted(known, colours), len(known) - 1)
        weight = np.where(known[index] == colours, self.model.weights[index], 0.0)
        return (np.bincount(owner, weights=weight, minlength=len(bits_list)) + self.model.bias).tolist()


def heuristic(knowledge: Knowledge, task: Task) -> WLHeuristic:
    """apb.planners.knowledge_files' hook (LEARNERS["wl"]): the heuristic of a `wl` knowledge file for `task`."""
    return WLModel.from_json(knowledge.data, str(knowledge.path)).heuristic(task)

"""The `wl` learner's side of apb.rl.knowledge: a Weisfeiler-Leman knowledge file (apb.planners.wl_model) as a
StateHeuristic."""

from __future__ import annotations

from apb.engine.task import Task
from apb.planners.wl_model import WLHeuristic, WLModel
from apb.rl.knowledge import Knowledge


def heuristic(knowledge: Knowledge, task: Task) -> WLHeuristic:
    """apb.rl.knowledge's hook: the heuristic of a `wl` knowledge file for `task`."""
    return WLModel.from_json(knowledge.data, str(knowledge.path)).heuristic(task)

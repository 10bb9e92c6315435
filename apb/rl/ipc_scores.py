"""The IPC 2023 Learning Track's scores of one planner on one domain: coverage, quality (C*/C), agile
(1 - log T / log 1800, 1 within a second) and invalid plans (one voids the domain).

A run is a dict with `solved` (a valid plan was returned), `cost`, `seconds` and `valid` (False for a returned plan
the engine rejects). The quality of a solved task is best/C, best being the smaller of the reference cost C* and the
cheapest plan any planner of the benchmark found for the task (the track's rule: the best known cost).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

TRACK_SECONDS = 1800.0  # the track's time limit, in the agile score's formula


def quality(cost: float, best: float | None) -> float:
    """C_best / C of a solved task (1.0 when no better cost is known; a zero-cost plan scores 1)."""
    if best is None or cost <= 0:
        return 1.0
    return min(1.0, best / cost)


def agile(seconds: float, track_seconds: float = TRACK_SECONDS) -> float:
    """1 for a task solved within a second, else 1 - log(T) / log(track_seconds), at least 0."""
    if seconds <= 1.0:
        return 1.0
    return max(0.0, 1.0 - math.log(seconds) / math.log(track_seconds))


def domain_scores(runs: Iterable[dict], best_costs: dict[str, float | None]) -> dict:
    """The track's row of one planner on one domain: `runs` have `task`, `solved`, `valid`, `cost`, `seconds`;
    `best_costs` maps a task to its best known cost. An invalid plan voids the domain (every score 0)."""
    runs = list(runs)
    invalid = sum(1 for r in runs if r.get("valid") is False)
    solved = [r for r in runs if r.get("solved") and r.get("valid") is not False]
    row = {"tasks": len(runs), "coverage": len(solved),
           "quality": round(sum(quality(r["cost"], best_costs.get(r["task"])) for r in solved), 3),
           "agile": round(sum(agile(r["seconds"]) for r in solved), 3), "invalid": invalid, "voided": invalid > 0}
    if invalid:
        row.update(coverage=0, quality=0.0, agile=0.0)
    return row


def best_known_costs(runs: Iterable[dict], reference: dict[str, float]) -> dict[str, float | None]:
    """Per task, the smaller of its reference cost and every valid plan's cost in `runs`."""
    best: dict[str, float | None] = dict(reference)
    for run in runs:
        if run.get("solved") and run.get("valid") is not False and run.get("cost") is not None:
            known = best.get(run["task"])
            best[run["task"]] = run["cost"] if known is None else min(known, run["cost"])
    return best


def common_quality(runs: dict[str, list[dict]], best_costs: dict[str, float | None]) -> dict:
    """Quality where every planner solves: {"tasks": the tasks every planner solved with a valid plan, "quality":
    {planner: the sum of C_best/C over those tasks}} (the track's quality compared on the same tasks)."""
    solved = [{r["task"] for r in rs if r.get("solved") and r.get("valid") is not False} for rs in runs.values()]
    common = set.intersection(*solved) if solved else set()
    return {"tasks": len(common),
            "quality": {p: round(sum(quality(r["cost"], best_costs.get(r["task"])) for r in rs if r["task"] in common),
                                 3) for p, rs in runs.items()}}

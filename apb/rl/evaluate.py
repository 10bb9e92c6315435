"""Evaluating a trained policy on larger held-out generated problems, against a random walk and breadth-first
search at the same budget, with plan lengths relative to the optimum or, where optimal search does not finish in
time, to a lower bound.

Per problem: the policy's plan (at most `max_steps` actions, default 4x the lower bound plus 20); a random walk of
the same number of steps; BrFS with as many generated states as the policy scored (each policy step evaluates every
successor); an admissible lower bound on the optimal length of the initial state (apb.rl.bounds.lower_bound: the
larger of LM-cut and, on Blocksworld, the move-counting BlocksworldBound); and, with `optimal_timeout` > 0, A* for
the optimal length (with BlocksworldBound on Blocksworld, LM-cut elsewhere). `length_ratio` is the policy's plan
length over the optimum when known, else over the lower bound (an upper bound on the true ratio).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from apb.planners import astar, breadth_first_search, random_walk
from apb.rl.bounds import BlocksworldBound, lower_bound
from apb.rl.policy import GNNPolicy
from apb.rl.problems import problems

HELD_OUT_SEED = 7_919  # evaluation problems use seeds apart from the training ones


def evaluate(policy: GNNPolicy, low: int, high: int, count: int, *, seed: int = HELD_OUT_SEED,
             optimal_timeout: float = 60.0, baselines: bool = True, max_steps: int | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> dict[str, Any]:
    """The report of `policy` on `count` generated problems with low..high objects (see the module docstring)."""
    rows = []
    generated = problems(policy.domain, low, high, count, seed)
    for k, problem in enumerate(generated):
        if progress:
            progress("evaluating", k, len(generated))
        task = problem.task
        bound, bound_name = lower_bound(task)
        budget = max_steps or int(4 * bound + 20)
        start = time.perf_counter()
        evaluations = _Counter(policy)
        plan = evaluations.solve(task, budget)
        seconds = time.perf_counter() - start
        row: dict[str, Any] = {"objects": len(task.objects), "seed": problem.seed, "solved": plan is not None,
                               "length": len(plan) if plan is not None else None, "lower_bound": bound,
                               "bound": bound_name,
                               "optimal": None, "seconds": round(seconds, 3), "step_budget": budget}
        if optimal_timeout > 0:
            heuristic = BlocksworldBound(task) if BlocksworldBound.applies(task) else "lmcut"
            result = astar(task, heuristic=heuristic, timeout=optimal_timeout)
            if result.solved:
                row["optimal"] = len(result.plan)
        reference = row["optimal"] if row["optimal"] is not None else bound
        row["length_ratio"] = round(row["length"] / reference, 3) if plan is not None and reference else None
        if baselines:
            walk = random_walk(task, max_steps=budget, seed=problem.seed)
            row["random_solved"] = walk.solved
            search = breadth_first_search(task, timeout=None, max_nodes=max(1, evaluations.generated))
            row["bfs_solved"] = search.solved
        rows.append(row)
    return summarize(policy, rows, low, high)


class _Counter:
    """Counts the successor states the policy scores (BrFS gets as many)."""

    def __init__(self, policy: GNNPolicy) -> None:
        self.policy = policy
        self.generated = 0

    def solve(self, task, budget: int):
        values = self.policy.values

        def counted(task_, states):
            self.generated += len(states)
            return values(task_, states)

        self.policy.values = counted
        try:
            return self.policy.solve(task, budget)
        finally:
            del self.policy.values


def summarize(policy: GNNPolicy, rows: list[dict], low: int, high: int) -> dict[str, Any]:
    """Coverage and mean length ratio overall and per size."""
    def block(part: list[dict]) -> dict[str, Any]:
        solved = [r for r in part if r["solved"]]
        ratios = [r["length_ratio"] for r in solved if r["length_ratio"] is not None]
        out = {"problems": len(part), "solved": len(solved), "coverage": round(len(solved) / len(part), 3),
               "mean_length_ratio": round(statistics.mean(ratios), 3) if ratios else None,
               "ratio_to_optimal": sum(r["optimal"] is not None for r in solved)}
        if part and "random_solved" in part[0]:
            out["random_coverage"] = round(sum(r["random_solved"] for r in part) / len(part), 3)
            out["bfs_coverage"] = round(sum(r["bfs_solved"] for r in part) / len(part), 3)
        return out

    sizes = sorted({r["objects"] for r in rows})
    return {"domain": policy.domain, "objects": [low, high], "trained_max_objects": policy.settings.get("max_objects"),
            **block(rows), "sizes": [{"objects": n, **block([r for r in rows if r["objects"] == n])} for n in sizes],
            "problems_detail": rows}

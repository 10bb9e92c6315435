"""The random baseline: apply uniformly random applicable actions until the goal or the step limit.

AutoPlanBench's random baseline walks 24 steps. There are no restarts; the same seed gives the same walk.
"""

from __future__ import annotations

import random

from apb.engine import Task
from apb.planners.result import SOLVED, STEP_LIMIT, Budget, SearchResult
from apb.planners.space import Successors, goal_test

DEFAULT_STEPS = 24


def random_walk(task: Task, *, max_steps: int | None = DEFAULT_STEPS, seed: int = 0,
                timeout: float | None = 60.0) -> SearchResult:
    """One walk of at most `max_steps` uniformly random applicable actions; solved iff it reaches the goal."""
    steps_allowed = DEFAULT_STEPS if max_steps is None else max_steps
    budget = Budget(timeout)
    rng = random.Random(seed)
    successors = Successors(task)
    is_goal = goal_test(task)
    bits = task.initial_state.bits
    walk: list[int] = []
    expanded = generated = 0

    def finish(status: str, message: str = "") -> SearchResult:
        plan = [task.actions[i] for i in walk] if status == SOLVED else None
        return SearchResult(status, "random", plan, expanded, generated, 0, budget.elapsed(), None, message,
                            {"seed": seed, "walk": [str(task.actions[i]) for i in walk]})

    while not is_goal(bits):
        if len(walk) >= steps_allowed:
            return finish(STEP_LIMIT, f"goal not reached in {steps_allowed} random steps")
        stop = budget.exceeded(len(walk))
        if stop:
            return finish(stop, budget.limit_message(stop))
        options = successors(bits)
        expanded += 1
        generated += len(options)
        if not options:
            return finish(STEP_LIMIT, f"no applicable action after {len(walk)} random steps")
        action, bits = options[rng.randrange(len(options))]
        walk.append(action)
    return finish(SOLVED)

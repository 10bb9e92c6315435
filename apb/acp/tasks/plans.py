"""Plans from a situation that val and just questions are built on: the states along a plan, and a plan with a
detour inserted (an action and its inverse, or an action whose effects nothing needs).
"""

from __future__ import annotations

import random

from apb.acp.tasks.common import Situation, pick
from apb.acp.truth import first_failure
from apb.engine import State, Task

TRIES = 12
DETOUR_CHECKS = 400  # plans with one more action replayed when TRIES random tries find no detour


def states_along(task: Task, state: State, plan: list[str]) -> list[State]:
    states = [state]
    for text in plan:
        states.append(task.apply(states[-1], task.parse_action(text)))
    return states


def detour(sit: Situation, rng: random.Random, plan: list[str]) -> tuple[list[str], list[int]] | None:
    """`plan` with one unnecessary action or an action and its inverse inserted (and the inserted steps)."""
    task = sit.task
    states = states_along(task, sit.state, plan)
    for _ in range(TRIES):
        i = rng.randrange(len(plan) + 1)
        here = states[i]
        first = pick(rng, task.applicable(here), 1)
        if not first:
            continue
        a = first[0]
        there = task.apply(here, a)
        back = [b for b in task.applicable(there) if task.apply(there, b) == here]
        if back and rng.random() < 0.6:
            return [*plan[:i], str(a), str(pick(rng, back, 1)[0]), *plan[i:]], [i, i + 1]
        candidate = [*plan[:i], str(a), *plan[i:]]
        failed, reached = first_failure(task, sit.state, candidate)
        if failed is None and reached:
            return candidate, [i]
    return _any_detour(sit, rng, plan, states)


def _any_detour(sit: Situation, rng: random.Random, plan: list[str], states: list[State]
                ) -> tuple[list[str], list[int]] | None:
    """Where random tries find no detour (few actions are ever unnecessary, as in Peg Solitaire): every position and
    applicable action in a seeded order, at most DETOUR_CHECKS plans replayed."""
    task = sit.task
    positions = list(range(len(plan) + 1))
    rng.shuffle(positions)
    checks = 0
    for i in positions:
        here = states[i]
        actions = sorted(task.applicable(here), key=str)
        rng.shuffle(actions)
        for a in actions:
            there = task.apply(here, a)
            back = sorted((b for b in task.applicable(there) if task.apply(there, b) == here), key=str)
            if back:
                return [*plan[:i], str(a), str(back[0]), *plan[i:]], [i, i + 1]
            if checks >= DETOUR_CHECKS:
                return None
            checks += 1
            candidate = [*plan[:i], str(a), *plan[i:]]
            failed, reached = first_failure(task, sit.state, candidate)
            if failed is None and reached:
                return candidate, [i]
    return None


NEAR_GOAL = 6  # beyond the enumerated space: questions at most this many steps before the end of a plan


def near_goal(sit: Situation, rng: random.Random) -> Situation | None:
    """Beyond the enumerated space, where A* rarely decides h* of every successor of a state far from the goal and
    landmarks stay open: a state on the state's plan (`Situation.plan`) 1 to NEAR_GOAL steps before its end (the
    release samples its states along plans too)."""
    plan = sit.plan()
    if not plan:
        return None
    back = rng.randint(1, min(NEAR_GOAL, len(plan)))
    key = ("near-goal", back)
    if key not in sit.cache:
        state = states_along(sit.task, sit.state, plan[:len(plan) - back])[-1]
        sit.cache[key] = Situation(sit.info, state, sit.origin)
    return sit.cache[key]


def along_plan(sit: Situation, rng: random.Random) -> list[Situation]:
    """Beyond the enumerated space: the other non-goal states on the state's plan (`Situation.plan`), in a seeded
    order, each with the rest of that plan as its known plan (more states to ask about where the state itself gives
    no such question, as the release samples its states along plans)."""
    plan = sit.plan()
    if not plan:
        return []
    if "along-plan" not in sit.cache:
        states = states_along(sit.task, sit.state, plan)
        sit.cache["along-plan"] = [Situation(sit.info, state, sit.origin, known_plan=plan[i:])
                                   for i, state in enumerate(states[1:-1], start=1)]
    found = list(sit.cache["along-plan"])
    rng.shuffle(found)
    return found

"""Question states: sampled along optimal plans, along non-optimal plans (a random detour, then an optimal
completion) and on random rollouts from a problem's initial state, as ACPBench does. Goal states are left out:
most tasks ask about the way to the goal; so are dead ends where no action applies (the release has none: its
scorer divides by zero on an empty applicable list, and its grounding fails on such states)."""

from __future__ import annotations

import random

from apb.acp.space import StateSpace
from apb.engine import State, Task
from apb.planners import solve
from apb.planners.lazy_gbfs import lazy_greedy

ROLLOUT_STEPS = 12
ASTAR_PLAN_NODES = 5000  # expansions of A* for an optimal plan to sample along (LM-cut in Python: slow per node)
PLAN_NODES = 100_000  # expansions of the lazy greedy search (h_FF, preferred operators) for the plan whose states are
# sampled when A* finds none (no time limit; Parking's problems take up to 51,000)


def _walk(task: Task, state: State, rng: random.Random, steps: int) -> list[State]:
    visited = [state]
    for _ in range(steps):
        actions = task.applicable(state)
        if not actions:
            break
        state = task.apply(state, rng.choice(actions))
        visited.append(state)
    return visited


def _optimal_states(task: Task, space: StateSpace, node: int) -> list[State] | None:
    path = space.path(node, lambda n: task.is_goal(space.states[n]))
    if path is None:
        return None
    states = [space.states[node]]
    for action in path:
        states.append(task.apply(states[-1], action))
    return states


def _planned_states(task: Task, plans: dict | None = None) -> tuple[list[State], str]:
    """States along an optimal plan (A*), else along a greedy plan (lazy GBFS, h_FF with preferred operators),
    within the planning budget; `plans` (when given) gets the rest of the plan from each of them."""
    result = solve(task, "astar", timeout=None, max_nodes=ASTAR_PLAN_NODES)
    origin = "optimal"
    if not result.solved:
        result = lazy_greedy(task, timeout=None, max_nodes=PLAN_NODES)
        origin = "non-optimal"
    states = [task.initial_state]
    for action in result.plan or []:
        states.append(task.apply(states[-1], action))
    if plans is not None and result.solved:
        steps = [str(a) for a in result.plan]
        for i, state in enumerate(states):
            plans.setdefault(state, steps[i:])
    return states, origin


def rollout_states(task: Task, rng: random.Random, count: int, known: set[State]) -> list[State]:
    """Up to `count` new non-goal states with an applicable action (not in `known`), found on seeded random rollouts
    from the initial state (at most 4 * count rollouts of ROLLOUT_STEPS steps), for a group the first states cannot
    fill (`apb.acp.generate.Generator`)."""
    found: dict[State, None] = {}
    for _ in range(4 * count):
        for state in _walk(task, task.initial_state, rng, ROLLOUT_STEPS)[1:]:
            if state not in known and state not in found and not task.is_goal(state) and task.applicable(state):
                found[state] = None
        if len(found) >= count:
            break
    states = sorted(found, key=lambda s: s.bits)
    rng.shuffle(states)
    return states[:count]


def sample_states(task: Task, space: StateSpace, rng: random.Random, count: int, plans: dict | None = None
                  ) -> list[tuple[State, str]]:
    """Up to `count` distinct non-goal states with their origin: `optimal`, `non-optimal` or `random`. Beyond the
    enumerated space the states along the plan found from the initial state are sampled, and `plans` (when given)
    gets the rest of that plan from each of them."""
    found: dict[State, str] = {}
    optimal, origin = _optimal_states(task, space, 0), "optimal"
    if not optimal and not space.complete:
        optimal, origin = _planned_states(task, plans)
    for state in optimal or []:
        found.setdefault(state, origin)
    for _ in range(2):
        detour = _walk(task, task.initial_state, rng, rng.randint(1, 4))
        node = space.index.get(detour[-1])
        rest = _optimal_states(task, space, node) if node is not None else None
        for state in detour + (rest or []):
            found.setdefault(state, "non-optimal")
    for _ in range(2):
        for state in _walk(task, task.initial_state, rng, ROLLOUT_STEPS):
            found.setdefault(state, "random")
    states = [(s, origin) for s, origin in found.items() if not task.is_goal(s) and task.applicable(s)]
    states.sort(key=lambda pair: pair[0].bits)
    rng.shuffle(states)
    # keep the origins mixed: optimal, non-optimal and random states in turn
    by_origin: dict[str, list] = {}
    for pair in states:
        by_origin.setdefault(pair[1], []).append(pair)
    mixed = []
    while any(by_origin.values()) and len(mixed) < count:
        for origin in ("optimal", "non-optimal", "random"):
            if by_origin.get(origin):
                mixed.append(by_origin[origin].pop())
    return mixed[:count]

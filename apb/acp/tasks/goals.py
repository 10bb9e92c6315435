"""Landmarks and optimal distances from a situation, which land and nexta questions rest on.

Landmarks: a fact false in the state is a landmark when it is a goal, when the goal is delete-relaxed unreachable
without its achievers, or when exhaustive search finds no plan avoiding it; it is not one when a plan avoids it
(one shortest plan witnesses every fact it never makes true). Distances: h* of every successor, from the enumerated
space (breadth-first, exact for unit costs) or by optimal A*.
"""

from __future__ import annotations

import math

from apb.acp.space import replay
from apb.acp.tasks.common import Situation, task_at
from apb.engine import State, Task
from apb.planners import solve

ASTAR_NODES = 5000  # expansions per successor; beyond that the nexta question is not generated
PATIENT_NODES = 100_000  # expansions per successor when answering or auditing a given question (no time limit)


def goal_atoms(task: Task) -> set[str]:
    """The positive goal atoms: the trivial landmarks ACPBench's land questions leave out."""
    return {str(lit) for lit in task.goal if lit.positive}


def classify_landmarks(sit: Situation, h2: bool = True) -> tuple[dict, dict, bool] | None:
    """(landmarks {atom: proof}, non-landmarks {atom: proof}, all decided) for the facts false in the state;
    None when there is no plan from the state (or none within the budget). `h2`: also the h^m landmark test (one
    h^2 computation per fact: generation leaves it out, answering a given question uses it)."""
    if "landmarks" in sit.cache:
        return sit.cache["landmarks"]
    plan = sit.plan()
    result = None
    if plan is not None:
        task = sit.task
        visited = replay(task, sit.state, plan) or []
        along = 0
        for state in visited:
            along |= state.bits
        static = task.static_facts
        yes, no, decided = {}, {}, True
        shared = {"method": "plan", "plan": plan}
        for i, atom in enumerate(task.fact_names):
            if atom in static or sit.state.bits >> i & 1:
                continue
            if not along >> i & 1:
                no[atom] = shared
                continue
            verdict = sit.prover.landmark(atom, plan, h2)
            if verdict.value is None:
                decided = False
            else:
                (yes if verdict.value else no)[atom] = verdict.proof
        result = (yes, no, decided)
    sit.cache["landmarks"] = result
    return result


def backchained_landmarks(task: Task, state: State) -> set[str]:
    """Landmarks found by backchaining from the goal (as landmark generators such as Zhu & Givan's or RHW's do): the
    preconditions shared by every first achiever of a landmark (an achiever applicable in the delete relaxation
    without the landmark) are landmarks. Sound and incomplete; goal facts themselves are left out."""
    from apb.acp.proofs import fact_key
    from apb.planners.relaxed import relaxed_closure

    goals = {fact_key(task, str(lit)) for lit in task.goal if lit.positive}
    goals = {g for g in goals if g is not None and not state.bits >> g & 1}
    adders: dict[int, list] = {}
    for action in task.actions:
        for fact in action.add:
            adders.setdefault(fact, []).append(action)
    found, queue = set(goals), list(goals)
    while queue:
        landmark = queue.pop()
        reachable = relaxed_closure(task, state, banned_fact=landmark).facts
        first = [a for a in adders.get(landmark, []) if all(p in reachable for p in a.pre)]
        if not first or any(a.effects or a.extra for a in first):  # conditional effects: no backchaining
            continue
        shared = set(first[0].pre).intersection(*(set(a.pre) for a in first[1:]))
        for fact in shared - found:
            if not state.bits >> fact & 1:
                found.add(fact)
                queue.append(fact)
    return {task.fact_names[f] for f in found - goals}


def astar_distance(task: Task, state: State, nodes: int = ASTAR_NODES) -> float | None:
    """h* of `state` by optimal A* (LM-cut); inf for a dead end, None when the budget of `nodes` expansions runs
    out (never a time limit: the same question gets the same answer under any load)."""
    result = solve(task_at(task, state), "astar", timeout=None, max_nodes=nodes)
    if result.solved:
        return sum(task.cost(a) for a in result.plan)
    return math.inf if result.status == "unsolvable" else None


def successor_distances(sit: Situation, *, patient: bool = False) -> tuple[float, dict[str, float], str] | None:
    """(h* of the state, h* after each applicable action, method), or None when some value is unknown. `patient`:
    when generation's A* budget does not decide them, A* with PATIENT_NODES expansions per state (for a question
    that exists already: answering and auditing it)."""
    if "distances" not in sit.cache:
        sit.cache["distances"] = _distances(sit, ASTAR_NODES)
    if sit.cache["distances"] is None and patient:
        if "patient_distances" not in sit.cache:
            sit.cache["patient_distances"] = _distances(sit, PATIENT_NODES)
        return sit.cache["patient_distances"]
    return sit.cache["distances"]


def _distances(sit: Situation, nodes: int) -> tuple[float, dict[str, float], str] | None:
    task, prover = sit.task, sit.prover
    actions = task.applicable(sit.state)
    if prover.exhaustive:
        space = prover.space
        dist = space.goal_distances()
        return dist[prover.node], {str(a): dist[space.index[task.apply(sit.state, a)]] for a in actions}, \
            "exhaustive"
    here = astar_distance(task, sit.state, nodes)
    if here is None:
        return None
    values = {}
    for action in actions:
        value = astar_distance(task, task.apply(sit.state, action), nodes)
        if value is None:
            return None
        values[str(action)] = value
    return here, values, "astar"


def optimal_actions(task: Task, here: float, values: dict[str, float]) -> list[str]:
    """The actions that start an optimal plan: cost(a) + h*(successor) = h*(state)."""
    if here == math.inf:
        return []
    return sorted(a for a, v in values.items() if v != math.inf and abs(task.cost(a) + v - here) < 1e-9)

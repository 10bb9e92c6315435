"""nexta: the first action of an optimal plan (generative only). Gold: h* of every successor, from the enumerated
space (breadth-first, exact for unit costs) or by optimal A*.

Official check: yes is right, no and unlisted actions wrong; a `maybe` action is right when h*(successor) + 1
equals the gold's `opt` (the official code asks an optimal planner; apb uses its exhaustive space or optimal A*).
The solver answers with an action whose successor's h* is one less (h* of every successor, else the first action
of one optimal A* plan).
"""

from __future__ import annotations

import math
import random

from apb.acp.records import Question
from apb.acp.space import DEFAULT_BUDGET
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, question_situation
from apb.acp.tasks.goals import astar_distance, optimal_actions, successor_distances
from apb.acp.tasks.plans import near_goal
from apb.acp.truth import (
    Check,
    canonical_action,
    lowered,
    question_task,
)
from apb.engine import ApbError
from apb.planners import solve as plan_search

NEXTA_NODES = 200_000  # expansions of the optimal A* whose plan's first action answers nexta when some h* is
# unknown, at the default budget (times budget / DEFAULT_BUDGET at a larger one: `apb acp answer --escalate`)




def nexta(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    if fmt != "gen":
        return None
    if not sit.prover.exhaustive:  # beyond the enumerated space: near the end of the state's plan
        sit = near_goal(sit, rng)
        if sit is None:
            return None
    found = successor_distances(sit)
    if found is None:
        return None
    here, values, method = found
    if here == math.inf or here <= 0:
        return None
    yes = optimal_actions(sit.task, here, values)
    no = sorted(a for a in values if a not in yes)
    h = {a: (None if v == math.inf else v) for a, v in values.items()}
    proof = {"method": method, "states": len(sit.prover.nodes)}
    opt = str(int(here)) if float(here).is_integer() else str(here)  # the release writes opt as a string
    return sit.question("nexta", fmt, {}, {"yes": yes, "no": no, "maybe": [], "opt": opt},
                        {"yes": yes, "no": no, "opt": here, "h": h}, proof)


def solve(q: Question):
    sit = question_situation(q)
    found = successor_distances(sit, patient=True)
    if found is None:  # some successor's h* is beyond the budget: the first action of one optimal plan answers
        return _nexta_from_plan(sit.task, NEXTA_NODES * max(1, q.budget // DEFAULT_BUDGET))
    here, values, _ = found
    best = optimal_actions(sit.task, here, values)
    if not best:
        return None
    others = sorted(a for a in values if a not in best)
    opt = None if here == math.inf else here
    return {"yes": best, "no": others, "maybe": [], "opt": str(int(opt)) if opt is not None else None}, best[0]


def _nexta_from_plan(task, max_nodes: int):
    """nexta's answer from one cost-optimal plan (A* with an admissible heuristic, at most max_nodes expansions):
    its first action starts an optimal plan; the other actions are left unclassified."""
    result = plan_search(task, "astar", timeout=None, max_nodes=max_nodes)
    if not result.solved or not result.plan:
        return None
    first = str(result.plan[0])
    cost = sum(task.cost(a) for a in result.plan)
    return {"yes": [first], "no": [], "maybe": [], "opt": str(int(cost))}, first


def official(q: Question, parsed: str) -> Check:
    gold = q.answer if isinstance(q.answer, dict) else {}
    answer = parsed.strip().lower()
    if answer in lowered(gold.get("yes")):
        return Check(True, f"{answer} starts an optimal plan (listed)")
    if answer in lowered(gold.get("no")):
        return Check(False, f"{answer} does not start an optimal plan (listed)")
    if answer not in lowered(gold.get("maybe")):
        return Check(False, f"{answer} is not one of the state's listed actions")
    task, state = question_task(q)
    action = canonical_action(task, answer)
    if action is None or task.explain(state, action):
        return Check(False, f"{answer} is not applicable")
    opt = gold.get("opt")
    here = _distance(task, state) if opt is None else float(opt)
    after = _distance(task, task.apply(state, action))
    if here is None or after is None:
        return Check(False, f"h* of {answer}'s successor is undecided (a planner time-out)")
    ok = after != math.inf and after + 1 == here
    return Check(ok, f"h* after {answer} is {after}, h* here is {here}")


def _distance(task, state) -> float | None:
    try:
        return astar_distance(task, state)
    except ApbError:
        return None


def sound(q: Question, answer) -> Check:
    task, state = question_task(q)
    action = canonical_action(task, answer) if answer is not None else None
    if action is None or task.explain(state, action):
        return Check(False, "not an applicable action")
    if q.source == "apb" and "h" in q.gold:
        ok = action in q.gold["yes"]
        return Check(ok, f"h* after it is {q.gold['h'].get(action)}, h* here is {q.gold['opt']}")
    found = successor_distances(question_situation(q))
    if found is None:
        return Check(False, "h* is undecided within the search budget")
    here, values, method = found
    ok = action in optimal_actions(task, here, values)
    return Check(ok, f"h* after it is {values.get(action)}, h* here is {here}", {"method": method})


def audit(q, found, official_verdict):
    """The yes list must hold optimal first actions only, the no list none; an optimal action the gold does not
    list at all is rejected by the official scorer. `maybe` actions are no claim (the official scorer asks a
    planner)."""
    distances = successor_distances(question_situation(q), patient=True)
    if distances is None:
        return [found("unchecked", "h* is undecided within the search budget")]
    here, values, method = distances
    task, _ = question_task(q)
    truth = set(optimal_actions(task, here, values))
    gold = q.answer if isinstance(q.answer, dict) else {}

    def listed(key):
        return {canonical_action(task, a) or str(a).lower() for a in gold.get(key) or []}

    yes, no, maybe = listed("yes"), listed("no"), listed("maybe")
    proof = {"method": method, "h_star": here, "optimal": sorted(truth),
             "h_after": {a: (None if v == math.inf else v) for a, v in values.items()}}
    problems = [f"{a} is listed as optimal but is not" for a in sorted(yes - truth)]
    problems += [f"{a} is listed as not optimal but is" for a in sorted(no & truth)]
    problems += [f"{a} is optimal but not listed (the official scorer rejects it)"
                 for a in sorted(truth - yes - no - maybe)]
    if gold.get("opt") is not None and here != math.inf and float(gold["opt"]) != here:
        problems.append(f"the gold's opt is {gold['opt']}, h* is {here:g}")
    return [found("wrong", problem, proof) for problem in problems]


def oracle(q: Question):
    yes = q.answer.get("yes") if isinstance(q.answer, dict) else q.answer
    return yes[0] if yes else None


def tarski_check(q: Question) -> str | None:
    """The official evaluator plans with tarski's view of the problem for an answer in the gold's `maybe` list."""
    return "its check of a 'maybe' answer" if isinstance(q.answer, dict) and q.answer.get("maybe") else None


TASK = ACPTask("nexta", "one", "name", nexta, solve, official, sound, audit, oracle=oracle, tarski_check=tarski_check,
               gen_gold=("yes", "no", "opt"))

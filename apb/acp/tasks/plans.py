"""val (where does a sequence of actions first fail) and just (which plan steps are unnecessary).

val sequences are plans from the state, optimal or with a detour, corrupted ACPBench's way: two steps swapped,
a step replaced by an inapplicable action, a step dropped, or the plan truncated. just plans are optimal plans
with a detour inserted (an action and its inverse, or an action whose effects nothing needs); the gold is every
single-step and consecutive-pair removal that leaves a valid plan, each checked by the engine.
"""

from __future__ import annotations

import random

from apb.acp.records import Question
from apb.acp.tasks.common import Situation, arrange, pick
from apb.acp.truth import first_failure
from apb.engine import State, Task

TRIES = 12


def _states(task: Task, state: State, plan: list[str]) -> list[State]:
    states = [state]
    for text in plan:
        states.append(task.apply(states[-1], task.parse_action(text)))
    return states


def _corrupt(sit: Situation, rng: random.Random, plan: list[str], kind: str) -> list[str] | None:
    """A sequence derived from `plan` whose first failure is a step (kind 'step') or that misses the goal."""
    task = sit.task
    if kind == "no_goal":
        return plan[: rng.randrange(len(plan))] if len(plan) > 1 else None
    for _ in range(TRIES):
        seq = list(plan)
        how = rng.choice(("swap", "replace", "drop"))
        i = rng.randrange(len(seq))
        if how == "swap" and len(seq) > 1:
            i = min(i, len(seq) - 2)
            seq[i], seq[i + 1] = seq[i + 1], seq[i]
        elif how == "drop" and len(seq) > 1:
            del seq[i]
        else:
            here = _states(task, sit.state, seq[:i])[-1]
            misses = [str(a) for a in task.actions if task.explain(here, a)]
            if not misses:
                continue
            seq[i] = pick(rng, misses, 1)[0]
        failed, _ = first_failure(task, sit.state, seq)
        if failed is not None:
            return seq
    return None


def _base_plan(sit: Situation, rng: random.Random) -> list[str] | None:
    """An optimal plan from the state, or (half of the time) one with a detour inserted."""
    plan = sit.plan()
    if not plan:
        return None
    if rng.random() < 0.5:
        detoured = detour(sit, rng, plan)
        if detoured:
            return detoured[0]
    return plan


def val(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    plan = _base_plan(sit, rng)
    if plan is None:
        return None
    if fmt == "gen":
        kind = "step"
    elif fmt == "bool":
        kind = "valid" if want else rng.choice(("step", "step", "no_goal"))
    else:
        kind = rng.choice(("step", "step", "no_goal", "valid"))
    seq = plan if kind == "valid" else _corrupt(sit, rng, plan, kind)
    if not seq:
        return None
    failed, reached = first_failure(sit.task, sit.state, seq)
    claim = "step" if failed is not None else "valid" if reached else "no_goal"
    gold = {"first_failure": failed, "goal_reached": reached, "claim": claim}
    proof = {"method": "engine"}
    if fmt == "gen":
        return sit.question("val", fmt, {"plan": seq}, failed, gold, proof) if failed is not None else None
    if fmt == "bool":
        return sit.question("val", fmt, {"plan": seq}, "yes" if claim == "valid" else "no", gold, proof)
    correct = {"claim": claim} if claim != "step" else {"claim": "step", "step": failed}
    others = [{"claim": "valid"}, {"claim": "no_goal"}] + [{"claim": "step", "step": i} for i in range(len(seq))]
    others = [o for o in others if o != correct]
    if len(others) < 3:
        return None
    options, label = arrange(rng, correct, pick(rng, others, 3))
    return sit.question("val", fmt, {"plan": seq}, label, gold, proof, options)


def detour(sit: Situation, rng: random.Random, plan: list[str]) -> tuple[list[str], list[int]] | None:
    """`plan` with one unnecessary action or an action and its inverse inserted (and the inserted steps)."""
    task = sit.task
    states = _states(task, sit.state, plan)
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
    return None


def removals(task: Task, state: State, plan: list[str]) -> list[tuple[list[int], bool]]:
    """Every single-step and consecutive-pair removal, and whether what remains is a valid plan."""
    result = []
    for size in (1, 2):
        for i in range(len(plan) - size + 1):
            steps = list(range(i, i + size))
            rest = plan[:i] + plan[i + size:]
            failed, reached = first_failure(task, state, rest)
            result.append((steps, failed is None and reached))
    return result


def release_removals(plan: list[str], removable: list[list[int]]) -> list[list[str]]:
    """The removals in the release's gold shape: [a1, a2, "-1"] for a consecutive pair, [a, "k"] for the k-th
    occurrence (1-based) of a single action in the plan."""
    out = []
    for steps in removable:
        if len(steps) == 2:
            out.append([plan[steps[0]], plan[steps[1]], "-1"])
        else:
            i = steps[0]
            out.append([plan[i], str(plan[:i + 1].count(plan[i]))])
    return out


def just(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    plan = sit.plan()
    if not plan:
        return None
    made = detour(sit, rng, plan)
    if made is None:
        return None
    plan = made[0]
    table = removals(sit.task, sit.state, plan)
    valid = [steps for steps, ok in table if ok]
    simplified = []
    for steps in valid:
        rest = [a for i, a in enumerate(plan) if i not in steps]
        if rest not in simplified:
            simplified.append(rest)
    gold = {"removable": valid, "simplified": simplified}
    proof = {"method": "engine"}
    if fmt == "gen":
        return sit.question("just", fmt, {"plan": plan}, release_removals(plan, valid), gold, proof)
    if fmt == "bool":
        pool = [steps for steps, ok in table if ok == want]
        if not pool:
            return None
        steps = pick(rng, pool, 1)[0]
        return sit.question("just", fmt, {"plan": plan, "steps": steps}, "yes" if want else "no", gold, proof)
    singles_ok = [steps for steps, ok in table if ok and len(steps) == 1]
    singles_bad = [steps for steps, ok in table if not ok and len(steps) == 1]
    if not singles_ok or len(singles_bad) < 3:
        return None
    correct = pick(rng, singles_ok, 1)[0]
    options, label = arrange(rng, {"steps": correct}, [{"steps": s} for s in pick(rng, singles_bad, 3)])
    return sit.question("just", fmt, {"plan": plan}, label, gold, proof, options)

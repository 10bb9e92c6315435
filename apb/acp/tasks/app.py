"""app: which actions are applicable in the state. Gold straight from the engine; distractors are inapplicable
actions, preferring near misses (one unmet precondition, among actions reachable in the problem).

Official check: the set of actions (lower-cased) equals the lower-cased gold set; an empty gold and an empty answer
make the official code divide by zero (wrong). Sound check: exactly the applicable actions.
Solver: the applicable actions; bool/MCQ: the action applies.
"""

from __future__ import annotations

import random

from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, pick
from apb.acp.truth import (
    Check,
    action_or_none,
    canonical_action,
    expect,
    labels_where,
    list_text,
    lowered,
    question_task,
)


def _near_misses(sit: Situation, rng: random.Random, count: int) -> list[str]:
    """Inapplicable reachable actions, those with fewest unmet preconditions first (ties in seeded order)."""
    task, state = sit.task, sit.state
    ranked = []
    for action in task.actions:
        unmet = task.explain(state, action)
        if unmet:
            ranked.append((len(unmet), rng.random(), str(action)))
    ranked.sort()
    return [text for _, _, text in ranked[:count]]


def app(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    task, state = sit.task, sit.state
    applicable = [str(a) for a in task.applicable(state)]
    proof = {"method": "engine"}
    if fmt == "gen":
        if not applicable:  # a dead end: the official code divides by zero on an empty list
            return None
        return sit.question("app", fmt, {}, sorted(applicable), {"applicable": sorted(applicable)}, proof)
    misses = _near_misses(sit, rng, 12)
    if fmt == "bool":
        pool = applicable if want else misses
        if not pool:
            return None
        action = pick(rng, pool, 1)[0]
        unmet = task.explain(state, task.parse_action(action))
        return sit.question("app", fmt, {"action": action}, "no" if unmet else "yes",
                            {"applicable": not unmet, "unmet": unmet}, proof)
    if not applicable or len(misses) < 3:
        return None
    correct = pick(rng, applicable, 1)[0]
    options, label = arrange(rng, {"action": correct}, [{"action": a} for a in pick(rng, misses[:6], 3)], want)
    return sit.question("app", fmt, {}, label, {"correct": correct, "applicable": sorted(applicable)}, proof,
                        options)


def solve(q: Question):
    task, state = question_task(q)
    actions = sorted(str(a) for a in task.applicable(state))
    return actions, list_text(actions)


def decide(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    action = action_or_none(task, option["action"])
    return action is not None and not task.explain(state, action)


def official(q: Question, parsed: list[str]) -> Check:
    gold = set(lowered(q.answer))
    given = {a.lower() for a in parsed}
    if not gold and not given:
        return Check(False, "the official code divides by zero on an empty gold and an empty answer")
    if given == gold:
        return Check(True, "the set of applicable actions")
    return Check(False, f"missing {sorted(gold - given)}, extra {sorted(given - gold)}")


def sound(q: Question, answer) -> Check:
    task, state = question_task(q)
    if not isinstance(answer, list):
        return Check(False, "expected a list of actions")
    given = {canonical_action(task, a) for a in answer}
    truth = {str(a) for a in task.applicable(state)}
    if None in given:
        return Check(False, "the answer names something that is not an action of the task")
    return Check(given == truth, f"missing {sorted(truth - given)}, extra {sorted(given - truth)}"
                 if given != truth else "exactly the applicable actions")


def audit(q, found, official_verdict):
    task, state = question_task(q)
    truth = {str(a) for a in task.applicable(state)}
    gold = {canonical_action(task, a) or str(a) for a in q.answer or []}
    if gold == truth:
        return []
    return [found("wrong", "the gold is not the set of applicable actions",
                  {"missing": sorted(truth - gold), "extra": {a: task.explain(state, a) if canonical_action(task, a)
                                                             else ["not an action"] for a in sorted(gold - truth)}})]


def verify(q):
    task, state = question_task(q)
    if q.format == "bool":
        return expect(q, "no" if task.explain(state, q.item["action"]) else "yes")
    good = labels_where(q, lambda o: not task.explain(state, o["action"]))
    return expect(q, "".join(good))


TASK = ACPTask("app", "list", "list", app, solve, official, sound, audit, decide, verify)

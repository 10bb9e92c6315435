"""app (which actions are applicable) and prog (what an action changes): gold straight from the engine.

Distractors (ACPBench's recipe): app uses inapplicable actions, preferring near misses (one unmet precondition,
among actions that are reachable in the problem); prog uses the four progression sets: facts that become true,
become false, stay true and stay false.
"""

from __future__ import annotations

import random

from apb.acp.records import Question
from apb.acp.tasks.common import Situation, arrange, pick


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


def app(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    task, state = sit.task, sit.state
    applicable = [str(a) for a in task.applicable(state)]
    proof = {"method": "engine"}
    if fmt == "gen":
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
    options, label = arrange(rng, {"action": correct}, [{"action": a} for a in pick(rng, misses[:6], 3)])
    return sit.question("app", fmt, {}, label, {"correct": correct, "applicable": sorted(applicable)}, proof,
                        options)


def progression_sets(sit: Situation, action: str) -> dict[str, list[str]]:
    """The four progression sets of applying `action`: pos, neg, stay_true, stay_false (reachable facts only)."""
    task = sit.task
    before = task.facts(sit.state)
    after = task.facts(task.apply(sit.state, task.parse_action(action)))
    static = task.static_facts
    false_both = [f for f in task.fact_names if f not in before and f not in after and f not in static]
    return {"pos": sorted(after - before), "neg": sorted(before - after), "stay_true": sorted(before & after),
            "stay_false": sorted(false_both)}


def prog(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    task, state = sit.task, sit.state
    candidates = [str(a) for a in task.applicable(state)]
    if not candidates:
        return None
    action = pick(rng, candidates, 1)[0]
    sets = progression_sets(sit, action)
    gold = {"pos": sets["pos"], "neg": sets["neg"]}
    proof = {"method": "engine"}
    if fmt == "gen":
        return sit.question("prog", fmt, {"action": action}, gold, dict(gold), proof)
    true_after = [("pos", f) for f in sets["pos"]] + [("stay_true", f) for f in sets["stay_true"]]
    false_after = [("neg", f) for f in sets["neg"]] + [("stay_false", f) for f in sets["stay_false"]]
    if fmt == "bool":
        pool = true_after if want else false_after
        # half of the time from the changed facts (pos / neg), which are the harder ones
        changed = [x for x in pool if x[0] in ("pos", "neg")]
        if changed and rng.random() < 0.5:
            pool = changed
        if not pool:
            return None
        kind, atom = pick(rng, pool, 1)[0]
        return sit.question("prog", fmt, {"action": action, "atom": atom}, "yes" if want else "no",
                            {**gold, "set": kind}, proof)
    if not true_after or len(false_after) < 3:
        return None
    changed = [x for x in true_after if x[0] == "pos"]
    kind, correct = pick(rng, changed if changed and rng.random() < 0.5 else true_after, 1)[0]
    negs = [x for x in false_after if x[0] == "neg"]
    distractors = pick(rng, negs, 1) + pick(rng, [x for x in false_after if x not in negs[:1]], 3)
    distractors = list(dict.fromkeys(distractors))[:3]
    if len(distractors) < 3:
        return None
    options, label = arrange(rng, {"atom": correct}, [{"atom": a} for _, a in distractors])
    return sit.question("prog", fmt, {"action": action}, label, {**gold, "correct": correct, "set": kind}, proof,
                        options)

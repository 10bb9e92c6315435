"""prog: what an action changes (its positive and negative effects in the state). Distractors are drawn from
the four progression sets: facts that become true, become false, stay true and stay false.

Official check: one or two lists; the lower-cased positive and negative sets equal the gold's ("[(a)] [(a)]" reads
as one list, the negative list then being empty); the release scorer first rewrites "Positive effects: ...
Negative effects: ..." into two lists. Sound check: the effects the engine computes.
Solver: the effects of the one applicable action the question's quoted description names (its objects, in
order); bool/MCQ: the fact holds after the action.
"""

from __future__ import annotations

import random
import re

from apb.acp.english import ContextError, domain_of
from apb.acp.english.generated import domain_reader
from apb.acp.english.questions import read_action
from apb.acp.proofs import normal_atom
from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, pick
from apb.acp.truth import (
    Check,
    atoms_set,
    canonical_action,
    expect,
    labels_where,
    list_text,
    lowered,
    option_atoms,
    progression,
    question_action,
    question_task,
)

_QUOTED = re.compile(r'"([^"]+)"')

def progression_sets(sit: Situation, action: str) -> dict[str, list[str]]:
    """The four progression sets of applying `action`: pos, neg, stay_true, stay_false (reachable facts only)."""
    task = sit.task
    before = task.facts(sit.state)
    after = task.facts(task.apply(sit.state, task.parse_action(action)))
    static = task.static_facts
    false_both = [f for f in task.fact_names if f not in before and f not in after and f not in static]
    return {"pos": sorted(after - before), "neg": sorted(before - after), "stay_true": sorted(before & after),
            "stay_false": sorted(false_both)}


def prog(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
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
    options, label = arrange(rng, {"atom": correct}, [{"atom": a} for _, a in distractors], want)
    return sit.question("prog", fmt, {"action": action}, label, {**gold, "correct": correct, "set": kind}, proof,
                        options)


def identify_action(q: Question) -> str | None:
    """The applicable action a prog question's quoted description names: the one the domain's English phrasings
    read it as, else the one whose arguments are the objects the description mentions, in order (None when no
    single action's effects fit)."""
    task, state = question_task(q)
    if q.item.get("action"):  # apb's own questions name the action they are about
        return question_action(q, task)
    quoted = _QUOTED.findall(q.question)
    if not quoted or quoted[0].strip().startswith("("):  # the action written in PDDL
        return question_action(q, task)
    named = _english_action(q, task, quoted[0])
    if named is not None:
        return named
    words = re.findall(r"[\w\-]+", quoted[0].lower())
    mentioned = [w for w in words if w in task.objects]
    candidates = []
    for action in task.applicable(state):
        args = str(action).strip("()").split()[1:]
        if sorted(args) == sorted(mentioned):
            candidates.append(action)
    if len(candidates) > 1:
        ordered = [a for a in candidates if str(a).strip("()").split()[1:] == mentioned]
        candidates = ordered or candidates
    effects = {str(a): progression(task, state, a) for a in candidates}
    distinct = {repr(e) for e in effects.values()}
    if len(distinct) != 1:
        return None
    return str(candidates[0])


def _english_action(q: Question, task, text: str) -> str | None:
    """The applicable action the domain's English phrasings (`apb.acp.english`) read the description as, or None
    (no reader for the context's domain, no phrasing fits, or the action is not applicable)."""
    dom = domain_of(q.context) or domain_reader(q.domain_pddl)
    if dom is None:
        return None
    state = question_task(q)[1]
    known = task.facts(state) | task.static_facts  # the state's facts, which `when` phrasings consult
    try:
        action = canonical_action(task, read_action(dom, text, known))
    except ContextError:
        return None
    if action is None or task.explain(state, task.parse_action(action)):
        return None
    return action


def solve(q: Question):
    task, state = question_task(q)
    action = identify_action(q)
    if action is None:
        return None
    effects = progression(task, state, action)
    return effects, f"{list_text(effects['pos'])} {list_text(effects['neg'])}"


def decide(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    after = task.apply(state, task.parse_action(item["action"]))
    return all(task.holds(after, atom) for atom in option_atoms(option))


def official_text(text: str) -> str:
    """The release scorer's rewrite of "Positive effects: ... Negative effects: ..." into its two lists."""
    low = text.lower()
    if "positive effects" in low and "negative effects" in low and "[" not in text:
        return low.replace("*", "").replace("positive effects", "[").replace("negative effects", "] [") + "]"
    return text


def official(q: Question, parsed: list[list[str]]) -> Check:
    gold = q.answer if isinstance(q.answer, dict) else {}
    pos, neg = set(lowered(gold.get("pos"))), set(lowered(gold.get("neg")))
    given_pos = {a.lower() for a in parsed[0]}
    given_neg = {a.lower() for a in parsed[1]} if len(parsed) == 2 else set()
    if given_pos == pos and given_neg == neg:
        return Check(True, "the positive and negative effects")
    return Check(False, f"the effects are positive {sorted(pos)}, negative {sorted(neg)}; read positive "
                        f"{sorted(given_pos)}, negative {sorted(given_neg)}")


def sound(q: Question, answer) -> Check:
    task, state = question_task(q)
    action = question_action(q, task)
    if action is None:
        return Check(False, "the question's action cannot be identified")
    if not isinstance(answer, dict):
        return Check(False, "expected {\"pos\": [...], \"neg\": [...]}")
    truth = progression(task, state, action)
    ok = atoms_set(answer.get("pos")) == set(truth["pos"]) and atoms_set(answer.get("neg")) == set(truth["neg"])
    return Check(ok, "the effects of the action" if ok else f"the effects are {truth}")


def audit(q, found, official_verdict):
    task, state = question_task(q)
    action = question_action(q, task) if q.source == "apb" else identify_action(q)
    if action is None:
        return [found("unchecked", "the question's action cannot be identified in its text")]
    truth = progression(task, state, action)
    gold = q.answer if isinstance(q.answer, dict) else {}
    pos = {normal_atom(a) for a in gold.get("pos") or []}
    neg = {normal_atom(a) for a in gold.get("neg") or []}
    if pos == set(truth["pos"]) and neg == set(truth["neg"]):
        return []
    return [found("wrong", f"the effects of {action} differ from the gold", {"engine": truth})]


def verify(q):
    task, state = question_task(q)
    after = task.facts(task.apply(state, q.item["action"]))
    if q.format == "bool":
        return expect(q, "yes" if q.item["atom"] in after else "no")
    effects = progression(task, state, q.item["action"])
    problems = [] if q.gold["pos"] == effects["pos"] and q.gold["neg"] == effects["neg"] else ["effects differ"]
    return problems + expect(q, "".join(labels_where(q, lambda o: o["atom"] in after)))


TASK = ACPTask("prog", "effects", "lists", prog, solve, official, sound, audit, decide, verify,
               official_text=official_text, gen_gold=("pos", "neg"))

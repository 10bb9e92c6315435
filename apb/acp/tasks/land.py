"""land: facts every plan from the state must make true. A fact false in the state is a landmark when it is a
goal, when the goal is delete-relaxed unreachable without its achievers, or when exhaustive search finds no plan
avoiding it; it is not one when a plan avoids it (one shortest plan witnesses every fact it never makes true).
Distractors are proved non-landmarks. Beyond the enumerated space the solver disproves a landmark with a plan on
which the atom never holds (a greedy plan, else a greedy search that prunes the states where it holds), which the
prover replays before it answers no.

The generative question asks, as ACPBench's does, for a non-trivial landmark: one false in the state and not a goal;
its gold lists those ("yes", empty where there is none: the answer is then "None") and proved non-landmarks ("no",
never empty, as in the release); bool and MCQ questions ask about such landmarks too.

Official check: "None" when the gold's yes list is empty, else an atom of the yes list (a "(dummy val1)" gold
scores 0). Sound check: a proved landmark false in the state and not a goal; "None" when there is none.
Solver: a proved landmark false in the state and not a goal (one that backchaining from the goal finds first, as
landmark generators do), else "None"; bool/MCQ: the fact is a landmark.
"""

from __future__ import annotations

import random

from apb.acp.proofs import fact_key, normal_atom
from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, greedy_plan, pick, question_situation
from apb.acp.tasks.goals import backchained_landmarks, classify_landmarks, goal_atoms
from apb.acp.tasks.plans import along_plan, near_goal
from apb.acp.truth import (
    Check,
    first_failure,
    lowered,
    question_prover,
    replay_claims,
    verdict_check,
)
from apb.engine import State

AVOID_NODES = 300  # expansions of each such search while generating
ALONG = 12  # other states on a state's plan tried for a question that needs a non-trivial landmark
LAND_NODES = 200_000  # expansions of the greedy searches that find witness plans beyond the enumerated space


def land(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    question = _land_at(sit, fmt, rng, want)
    if question is not None or (fmt == "bool" and want is not True):
        return question
    # the question needs a non-trivial landmark (a generative gold one the relaxation proves, where the state's facts
    # stay open) and the state gives none: another state on its plan that has one
    for other in along_plan(sit, rng)[:ALONG]:
        found = classify_landmarks(other, h2=False)
        subtle = _subtle(other, found[0]) if found is not None else []
        if subtle and fmt == "gen" and not found[2]:
            subtle = [a for a in subtle if found[0][a].get("method") == "relaxed-achievers"]
        if subtle:
            question = _land_at(other, fmt, rng, want, near=False)
            if question is not None:
                return question
    return None


def _land_at(sit: Situation, fmt: str, rng: random.Random, want: bool | str, near: bool = True) -> Question | None:
    found = classify_landmarks(sit, h2=False)
    if near and found is not None and not found[2] and not sit.prover.exhaustive:
        close = near_goal(sit, rng)  # a state near the end of its plan, whose closure may be enumerated
        if close is not None and close.prover.exhaustive:
            sit, found = close, classify_landmarks(close, h2=False)
    if found is None:
        return None
    yes, no, decided = found
    if not decided:  # beyond the enumerated space: plans from the state that avoid each open fact, if found
        if "avoided" not in sit.cache:
            sit.cache["avoided"] = _avoid_the_rest(sit, yes, no, AVOID_NODES)
        decided = sit.cache["avoided"]
    subtle_yes = _subtle(sit, yes)
    if fmt == "gen":
        proved = any(yes[a].get("method") == "relaxed-achievers" for a in subtle_yes)
        if not no or not (decided or proved):  # the release never has an empty "no" list
            # beyond the enumerated space some facts may stay open: the gold then lists the proved landmarks, among
            # them those the delete relaxation proves (the solver's first choice), and never says "None"
            return None
        gold = {"yes": subtle_yes, "no": sorted(no)}
        proof = {"landmarks": {a: yes[a] for a in subtle_yes},
                 "non_landmarks": {a: p for a, p in no.items() if p.get("plan") != sit.plan()},
                 "witness": sit.plan()}
        return sit.question("land", fmt, {}, gold, dict(gold), proof)
    subtle_no = [a for a, p in no.items() if p.get("plan") != sit.plan()]
    if fmt == "bool":
        pool = subtle_yes if want else (subtle_no if subtle_no and rng.random() < 0.5 else list(no))
        if not pool:
            return None
        atom = pick(rng, pool, 1)[0]
        proof = (yes if want else no)[atom]
        return sit.question("land", fmt, {"atom": atom}, "yes" if want else "no", {"landmark": want}, proof)
    if not subtle_yes or len(no) < 3:
        return None
    correct = pick(rng, subtle_yes, 1)[0]
    wrong = pick(rng, subtle_no, 1) + pick(rng, list(no), 6)
    wrong = list(dict.fromkeys(wrong))[:3]
    options, label = arrange(rng, {"atom": correct}, [{"atom": a} for a in wrong], want)
    proof = {"options": [{"atom": correct, "landmark": True, "proof": yes[correct]}]
             + [{"atom": a, "landmark": False, "proof": no[a]} for a in wrong]}
    return sit.question("land", fmt, {}, label, {"correct": correct}, proof, options)


def _subtle(sit: Situation, yes: dict) -> list[str]:
    """ACPBench's landmarks are non-trivial: false in the state (as every classified fact is) and not a goal."""
    goals = goal_atoms(sit.task)
    return sorted(a for a in yes if a not in goals)


def solve(q: Question):
    sit = question_situation(q)
    if sit.plan() is None:  # beyond the enumerated space the plan is greedy search's (`Situation.plan`)
        return None
    found = classify_landmarks(sit)
    if found is None:
        return None
    yes, no, decided = found
    task = sit.task
    goals = goal_atoms(task)
    # proved landmarks that backchaining from the goal finds first (what landmark generators find), then those of the
    # relaxed achiever test, then the others
    chained = backchained_landmarks(task, sit.state)
    landmarks = sorted((a not in chained, yes[a].get("method") != "relaxed-achievers", a) for a in yes
                       if a not in goals and fact_key(task, a) is not None)
    landmarks = [a for *_, a in landmarks]
    if landmarks:
        return {"yes": landmarks, "no": sorted(no)}, landmarks[0]
    if decided or _avoid_the_rest(sit, yes, no):
        return {"yes": [], "no": sorted(no)}, "None"
    return None


def _avoid_the_rest(sit: Situation, yes: dict, no: dict, max_nodes: int = LAND_NODES) -> bool:
    """Decides the facts the classification left open by a plan from the state that avoids each (greedy search that
    prunes the fact, at most max_nodes expansions, replayed by the prover); False at the first one without such a
    plan."""
    task = sit.task
    for i, atom in enumerate(task.fact_names):
        if atom in yes or atom in no or atom in task.static_facts or sit.state.bits >> i & 1:
            continue
        plan = _avoiding_plan(task, atom, max_nodes, sit.state.bits)
        verdict = sit.prover.landmark(atom, plan) if plan is not None else None
        if verdict is None or verdict.value is not False:
            return False
        no[atom] = verdict.proof
    return True


def decide(q: Question, item: dict, option: dict) -> bool | None:
    prover = question_prover(q)
    atom = option["atom"]
    if prover.task.holds(prover.state, atom):
        return False  # a landmark question asks about facts false in the state
    value = prover.landmark(atom).value
    if value is None:  # beyond the enumerated space: a plan that never makes the atom true disproves it
        plan = _witness_plan(q, prover.task)
        if plan is not None:
            value = prover.landmark(atom, plan).value
    if value is None and fact_key(prover.task, atom) is None:  # outside the grounded facts: it never holds, so
        plan = _witness_plan(q, prover.task)  # any plan avoids it (a plan that reaches the goal, replayed)
        if plan is not None and first_failure(prover.task, prover.state, plan) == (None, True):
            value = False
    if value is None:
        plan = _avoiding_plan(prover.task, atom)
        if plan is not None:
            value = prover.landmark(atom, plan).value  # the prover replays the plan before it says no
    return value


def _avoiding_plan(task, atom: str, max_nodes: int = LAND_NODES, start: int | None = None) -> list[str] | None:
    """A plan from the initial state (or the state `start`, its bits) on which `atom` never holds: lazy greedy
    best-first search (h_FF, preferred operators) that prunes every state where it holds; None when none is found
    within max_nodes expansions."""
    fid = fact_key(task, atom)
    start = task.initial_state.bits if start is None else start
    if fid is None or start >> fid & 1:
        return None
    return greedy_plan(task, State(start), max_nodes, avoid=1 << fid)


_PLANS: dict = {}


def _witness_plan(q: Question, task) -> list[str] | None:
    """One plan from the question's state (greedy best-first search, cached per question PDDL), None when none is
    found within LAND_NODES expansions."""
    key = (q.domain_pddl, q.problem_pddl)
    if key not in _PLANS:
        if len(_PLANS) > 32:
            _PLANS.clear()
        _PLANS[key] = greedy_plan(task, task.initial_state, LAND_NODES)
    return _PLANS[key]


def official(q: Question, parsed: str) -> Check:
    yes = lowered((q.answer or {}).get("yes") if isinstance(q.answer, dict) else [])
    if "(dummy val1)" in yes:
        return Check(False, "the gold holds the placeholder (dummy val1), which the official scorer scores 0")
    answer = parsed.strip().lower()
    if answer in yes:
        return Check(True, f"{answer} is a listed landmark")
    if answer == "none":
        return Check(not yes, "no listed landmark and the answer is None" if not yes else
                     f"the answer is None but {yes[0]} is a landmark")
    return Check(False, f"{answer} is not a listed landmark")


def sound(q: Question, answer) -> Check:
    gold = q.gold if q.source == "apb" and "yes" in q.gold else None
    if answer is None:
        if gold is None:
            sit = question_situation(q)
            found = classify_landmarks(sit)
            if found is None or not found[2]:
                return Check(False, "whether a landmark exists is undecided")
            goals = goal_atoms(sit.task)
            gold = {"yes": sorted(a for a in found[0] if a not in goals)}
        return Check(not gold["yes"], "no fact is a non-trivial landmark" if not gold["yes"] else
                     f"{gold['yes'][0]} is one")
    atom = normal_atom(str(answer))
    if gold is not None and atom in gold["yes"]:
        return Check(True, "proved a landmark when the question was generated")
    prover = question_prover(q)
    if prover.task.holds(prover.state, atom):
        return Check(False, f"{atom} is already true")
    if atom in goal_atoms(prover.task):
        return Check(False, f"{atom} is a goal: a trivial landmark, which the question excludes")
    return verdict_check(prover.landmark(atom), True, f"{atom} is a landmark", f"{atom} is not a landmark")


def audit(q, found, official_verdict):
    prover = question_prover(q)
    gold = q.answer if isinstance(q.answer, dict) else {}
    findings = []
    for atom in gold.get("yes") or []:
        verdict = prover.landmark(atom)
        if verdict.value is False:
            findings.append(found("wrong", f"{atom} is listed as a landmark but a plan avoids it", verdict.proof,
                                  ("landmark", normal_atom(atom), False)))
    for atom in gold.get("no") or []:
        verdict = prover.landmark(atom)
        if verdict.value is True:
            findings.append(found("wrong", f"{atom} is listed as a non-landmark but is a landmark", verdict.proof,
                                  ("landmark", normal_atom(atom), True)))
    classified = classify_landmarks(question_situation(q))
    # goal facts are landmarks trivially; a gold that leaves them out may mean to, so only others are reported
    landmarks = {a: p for a, p in (classified[0] if classified else {}).items() if p.get("method") != "goal"}
    listed = {normal_atom(a) for a in [*(gold.get("yes") or []), *(gold.get("no") or [])]}
    missing = sorted(a for a in landmarks if a not in listed)
    if not gold.get("yes") and landmarks:
        atom = sorted(landmarks)[0]
        findings.append(found("wrong", f"the gold lists no landmark (None), but {atom} is one "
                              f"({len(landmarks)} landmarks)", landmarks[atom], ("landmark", atom, True)))
    else:
        findings += [found("wrong", f"the gold lists neither as a landmark nor as a non-landmark {atom}, a landmark",
                           landmarks[atom], ("landmark", atom, True)) for atom in missing]
    return findings


def verify(q: Question) -> list[str]:
    return replay_claims(q, "landmark", "atom")


def oracle(q: Question):
    yes = q.answer.get("yes") if isinstance(q.answer, dict) else None
    return yes[0] if yes else None


def claim(task, answer) -> tuple:
    return "landmark", normal_atom(str(answer)), True


def gold_denies(q: Question, item: str) -> bool:
    """Whether the gold denies a proved landmark: "None" (an empty yes list), or the atom listed as a
    non-landmark."""
    gold = q.answer if isinstance(q.answer, dict) else {}
    return not gold.get("yes") or item in {normal_atom(str(a)) for a in gold.get("no") or []}


TASK = ACPTask("land", "one", "act", land, solve, official, sound, audit, decide, verify, oracle=oracle,
               claim=claim, gold_denies=gold_denies, gen_gold=("yes", "no"))

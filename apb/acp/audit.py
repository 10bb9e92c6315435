"""Audit of generative gold answers with the engine: lists every gold answer that is provably wrong, with the proof.

Works on ACPBench's released generative files (their PDDL_problem's :init is the question's state) and on apb's
own questions (where it must find nothing). What it checks per task:
app: the gold set is exactly the applicable actions; prog: the gold effects are the action's effects;
reach / areach: every listed atom (action) can never hold (apply), and "None" only when nothing is unreachable;
val: the index of the first inapplicable step; just: every released removal ([a1, a2, "-1"] or [a, "k"]) leaves
a valid plan; land: listed landmarks are landmarks, listed non-landmarks are not, "None" only without landmarks;
nexta: the yes list holds only optimal first actions, the no list none, every optimal one is listed somewhere
(`maybe` actions are resolved by the official scorer's planner), opt is h*.
A finding's proof replays (plans, h* values, relaxed/exhaustive proofs) and, where it names an answer, carries the
official scorer's verdict on it (`official`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from apb.acp.official import official_verdict, question_plan_text
from apb.acp.proofs import Verdict, check_proof, normal_atom
from apb.acp.records import Question
from apb.acp.scorers import not_a_proposition, question_situation
from apb.acp.solver import identify_action
from apb.acp.tasks.common import action_universe, atom_universe
from apb.acp.tasks.goals import classify_landmarks, optimal_actions, successor_distances
from apb.acp.tasks.reachability import distinct_first, unreachable_actions, unreachable_atoms
from apb.acp.truth import (
    QuestionPDDLError,
    canonical_action,
    first_failure,
    progression,
    question_action,
    question_plan,
    question_prover,
    question_task,
)
from apb.engine import ApbError


@dataclass
class Finding:
    """One provably wrong gold answer (kind 'wrong') or a record that cannot be checked (kind 'unchecked')."""

    id: int
    group: str
    domain: str
    kind: str
    message: str
    proof: dict = field(default_factory=dict)
    claim: dict | None = None  # what the proof establishes: {"kind": atoms|action|landmark, "item": ..., "value": ...}

    def to_dict(self) -> dict:
        return asdict(self)


def audit_question(q: Question) -> list[Finding]:
    """Findings about one generative question's gold (bool and MCQ records carry no PDDL to check)."""
    if q.format != "gen":
        return []

    def found(kind: str, message: str, proof: dict | None = None, claim: tuple | None = None) -> Finding:
        what = dict(zip(("kind", "item", "value"), claim)) if claim else None
        return Finding(q.id, q.group, q.domain, kind, message, proof or {}, what)

    try:
        return _AUDITS[q.task](q, found)
    except QuestionPDDLError as error:
        return [found("unchecked", str(error))]
    except ApbError as error:
        return [found("unchecked", f"the gold cannot be checked: {error}")]


def _app(q, found):
    task, state = question_task(q)
    truth = {str(a) for a in task.applicable(state)}
    gold = {canonical_action(task, a) or str(a) for a in q.answer or []}
    if gold == truth:
        return []
    return [found("wrong", "the gold is not the set of applicable actions",
                  {"missing": sorted(truth - gold), "extra": {a: task.explain(state, a) if canonical_action(task, a)
                                                             else ["not an action"] for a in sorted(gold - truth)}})]


def _prog(q, found):
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


def _reach_like(q, found, kind: str):
    prover = question_prover(q)
    task = prover.task
    findings = []
    gold = q.answer if isinstance(q.answer, list) else []
    for item in gold:
        if kind == "atoms":
            atom = str(item) if str(item).startswith("(") else f"({item})"
            reason = not_a_proposition(task, atom)
            if reason is not None:  # a static or ill-typed atom is no answer to "which proposition never holds"
                findings.append(found("wrong", f"{atom} is in the gold but is not a proposition of the task: {reason}",
                                      {"method": "type", "reason": reason}, ("atoms", atom, False)))
                continue
            verdict = prover.atoms([atom])
        else:
            action = canonical_action(task, item)
            if action is None:
                continue  # not a ground action of the task: it can never apply either
            verdict = prover.action(task.parse_action(action))
        if verdict.value is True:
            findings.append(found("wrong", f"{item} is in the gold but can become "
                                  + ("true" if kind == "atoms" else "applicable"), verdict.proof,
                                  ("atoms", atom, True) if kind == "atoms" else ("action", action, True)))
    universe = atom_universe(task) if kind == "atoms" else action_universe(task)
    unreachable = (unreachable_atoms(prover, universe) if kind == "atoms"
                   else unreachable_actions(prover, universe)) if universe else {}
    if gold and kind == "actions":
        listed = {normal_atom(str(a)) for a in gold}
        others = sorted((a for a, how in unreachable.items() if a not in listed and how in ("ungrounded", "relaxed")),
                        key=distinct_first)
        if others:
            findings.append(found("note", f"{len(others)} more never-applicable action(s) than the gold lists that the "
                                  "official scorer rejects (its grounding drops them), e.g. " + others[0],
                                  {others[0]: unreachable[others[0]],
                                   "official": official_verdict(q, others[0]).correct}))
    if not gold and unreachable:
        item = sorted(unreachable)[0]
        verdict = prover.atoms([item]) if kind == "atoms" else prover.action(task.parse_action(item))
        findings.append(found("wrong", f"the gold says None, but {item} can never "
                              + ("hold" if kind == "atoms" else "apply")
                              + f" ({len(unreachable)} such); the official scorer rejects it",
                              {**verdict.proof, "answer": item, "official": official_verdict(q, item).correct},
                              ("atoms" if kind == "atoms" else "action", item, False)))
    return findings


def _val(q, found):
    task, state = question_task(q)
    failed, _ = first_failure(task, state, question_plan(q, task))
    if failed == q.answer:
        return []
    return [found("wrong", f"the first inapplicable step is {failed}, the gold says {q.answer}")]


def _just(q, found):
    """Each released removal ([a1, a2, "-1"]: a consecutive pair; [a, "k"]: the k-th occurrence of a) applied to
    the question's plan must leave a valid plan somewhere it applies."""
    task, state = question_task(q)
    written = question_plan_text(q) if q.source != "apb" else question_plan(q, task)
    gold = q.answer or []
    findings = []
    for removal in gold if gold and isinstance(gold[0], list) else [gold]:
        short_plans = _removed(written, [str(a) for a in removal])
        checks = ((short, first_failure(task, state, [a.lower() for a in short])) for short in short_plans)
        first = None
        for short, (failed, reached) in checks:
            if failed is None and reached:
                break
            first = first or (short, (failed, reached))
        else:
            short, (failed, reached) = first or ([], (None, False))
            findings.append(found("wrong", f"removing {removal} does not leave a valid plan",
                                  {"removal": removal, "plan": short, "first_failure": failed, "goal_reached": reached,
                                   "official": official_verdict(q, "[" + ", ".join(short) + "]").correct}))
    return findings


def _removed(plan: list[str], removal: list[str]) -> list[list[str]]:
    """The plans a released removal leaves (a shortened plan itself, from apb's own questions, is kept as is)."""
    if removal and removal[-1] == "-1":
        pair = removal[:-1]
        return [plan[:i] + plan[i + len(pair):] for i in range(len(plan)) if plan[i:i + len(pair)] == pair]
    if len(removal) == 2 and removal[1].lstrip("-").isdigit():
        places = [i for i, a in enumerate(plan) if a == removal[0]]
        k = int(removal[1]) - 1
        return [plan[:i] + plan[i + 1:] for i in places[k:k + 1]]
    return [removal]


def _land(q, found):
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


def _nexta(q, found):
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


_AUDITS = {"app": _app, "prog": _prog, "reach": lambda q, f: _reach_like(q, f, "atoms"),
           "areach": lambda q, f: _reach_like(q, f, "actions"), "val": _val, "just": _just, "land": _land,
           "nexta": _nexta}


def replays(q: Question, finding: Finding) -> bool | None:
    """Whether the finding's proof, replayed on the question's own PDDL, establishes its claim (a witness plan is
    run, a relaxation, h^2 or exhaustive argument is derived again); None for a finding without a claim (app, prog,
    val, just and nexta findings are the engine's direct computation, which the audit already is)."""
    if not finding.claim:
        return None
    task, state = question_task(q)
    kind, item, value = finding.claim["kind"], finding.claim["item"], finding.claim["value"]
    claim = [item] if kind == "atoms" else item
    return check_proof(task, state, kind, claim, Verdict(value, finding.proof), budget=q.budget)


def audit(questions: list[Question]) -> list[Finding]:
    """Findings for every generative question."""
    return [finding for q in questions for finding in audit_question(q)]

"""Audit of generative gold answers with the engine: lists every gold answer that is provably wrong, with the proof.

Works on ACPBench's released generative files (their PDDL_problem's :init is the question's state) and on apb's
own questions (where it must find nothing). What it checks per task:
app: the gold set is exactly the applicable actions; prog: the gold effects are the action's effects;
reach / areach: every listed atom (action) can never hold (apply), and "None" only when nothing is unreachable;
val: the index of the first inapplicable step; just: every gold plan is a shorter subsequence that is valid;
land: listed landmarks are landmarks, listed non-landmarks are not, "None" only without landmarks;
nexta: the yes list is exactly the actions whose successor has h* one less.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from apb.acp.proofs import normal_atom
from apb.acp.records import Question
from apb.acp.scorers import question_situation
from apb.acp.tasks.common import action_universe, atom_universe
from apb.acp.tasks.goals import classify_landmarks, optimal_actions, successor_distances
from apb.acp.tasks.reachability import unreachable_actions, unreachable_atoms
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

    def to_dict(self) -> dict:
        return asdict(self)


def audit_question(q: Question) -> list[Finding]:
    """Findings about one generative question's gold (bool and MCQ records carry no PDDL to check)."""
    if q.format != "gen":
        return []

    def found(kind: str, message: str, proof: dict | None = None) -> Finding:
        return Finding(q.id, q.group, q.domain, kind, message, proof or {})

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
    action = question_action(q, task)
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
            verdict = prover.atoms([str(item)])
        else:
            action = canonical_action(task, item)
            if action is None:
                continue  # not a ground action of the task: it can never apply either
            verdict = prover.action(task.parse_action(action))
        if verdict.value is True:
            findings.append(found("wrong", f"{item} is in the gold but can become "
                                  + ("true" if kind == "atoms" else "applicable"), verdict.proof))
    universe = atom_universe(task) if kind == "atoms" else action_universe(task)
    unreachable = (unreachable_atoms(prover, universe) if kind == "atoms"
                   else unreachable_actions(prover, universe)) if universe else {}
    if gold:
        listed = {normal_atom(str(a)) for a in gold}
        others = sorted(a for a in unreachable if a not in listed)
        if others:
            findings.append(found("note", f"{len(others)} more correct answer(s) than the gold lists, which the "
                                  f"official scorer rejects, e.g. {others[0]}", {others[0]: unreachable[others[0]]}))
    else:
        if unreachable:
            item = sorted(unreachable)[0]
            verdict = prover.atoms([item]) if kind == "atoms" else prover.action(task.parse_action(item))
            findings.append(found("wrong", f"the gold says None, but {item} can never "
                                  + ("hold" if kind == "atoms" else "apply")
                                  + f" ({len(unreachable)} such)", verdict.proof))
    return findings


def _val(q, found):
    task, state = question_task(q)
    failed, _ = first_failure(task, state, question_plan(q, task))
    if failed == q.answer:
        return []
    return [found("wrong", f"the first inapplicable step is {failed}, the gold says {q.answer}")]


def _just(q, found):
    task, state = question_task(q)
    plan = question_plan(q, task)
    gold = q.answer or []
    plans = gold if gold and isinstance(gold[0], list) else [gold]
    findings = []
    for candidate in plans:
        steps = [canonical_action(task, a) for a in candidate]
        failed, reached = first_failure(task, state, [s or "" for s in steps])
        if None in steps or len(steps) >= len(plan) or failed is not None or not reached:
            findings.append(found("wrong", "a gold plan is not a shorter valid plan",
                                  {"plan": candidate, "first_failure": failed, "goal_reached": reached}))
    return findings


def _land(q, found):
    prover = question_prover(q)
    gold = q.answer if isinstance(q.answer, dict) else {}
    findings = []
    for atom in gold.get("yes") or []:
        verdict = prover.landmark(atom)
        if verdict.value is False:
            findings.append(found("wrong", f"{atom} is listed as a landmark but a plan avoids it", verdict.proof))
    for atom in gold.get("no") or []:
        verdict = prover.landmark(atom)
        if verdict.value is True:
            findings.append(found("wrong", f"{atom} is listed as a non-landmark but is a landmark", verdict.proof))
    classified = classify_landmarks(question_situation(q))
    # goal facts are landmarks trivially; a gold that leaves them out may mean to, so only others are reported
    landmarks = {a: p for a, p in (classified[0] if classified else {}).items() if p.get("method") != "goal"}
    listed = {normal_atom(a) for a in [*(gold.get("yes") or []), *(gold.get("no") or [])]}
    missing = sorted(a for a in landmarks if a not in listed)
    if not gold.get("yes") and landmarks:
        atom = sorted(landmarks)[0]
        findings.append(found("wrong", f"the gold lists no landmark (None), but {atom} is one "
                              f"({len(landmarks)} landmarks)", landmarks[atom]))
    elif missing:
        findings.append(found("wrong", f"the gold's landmarks miss {', '.join(missing)}",
                              {a: landmarks[a] for a in missing}))
    return findings


def _nexta(q, found):
    distances = successor_distances(question_situation(q))
    if distances is None:
        return [found("unchecked", "h* is undecided within the search budget")]
    here, values, method = distances
    task, _ = question_task(q)
    truth = optimal_actions(task, here, values)
    gold = q.answer.get("yes", []) if isinstance(q.answer, dict) else []
    gold = sorted(canonical_action(task, a) or str(a) for a in gold)
    if gold == truth:
        return []
    return [found("wrong", "the gold's optimal next actions differ from the engine's",
                  {"method": method, "h_star": here, "optimal": truth,
                   "h_after": {a: (None if v == math.inf else v) for a, v in values.items()}})]


_AUDITS = {"app": _app, "prog": _prog, "reach": lambda q, f: _reach_like(q, f, "atoms"),
           "areach": lambda q, f: _reach_like(q, f, "actions"), "val": _val, "just": _just, "land": _land,
           "nexta": _nexta}


def audit(questions: list[Question]) -> list[Finding]:
    """Findings for every generative question."""
    return [finding for q in questions for finding in audit_question(q)]

"""Replays the gold and proofs of apb's generated questions from the questions' own PDDL: every boolean and MCQ
gold is re-derived with the engine or its recorded proof is re-checked, and generative gold goes through the audit.
`verify(q)` returns the problems found (an empty list when everything replays)."""

from __future__ import annotations

from apb.acp.audit import audit_question
from apb.acp.proofs import Verdict, check_proof
from apb.acp.records import LABELS, Question
from apb.acp.truth import first_failure, progression, question_task
from apb.engine import ApbError


def _label_of(q: Question, predicate) -> list[str]:
    """Labels of the options for which `predicate(option)` holds."""
    return [label for label, option in zip(LABELS, q.options or []) if predicate(option)]


def verify(q: Question) -> list[str]:
    """Problems with a generated question's gold or proofs (empty when they all replay)."""
    try:
        if q.format == "gen":
            return [f.message for f in audit_question(q)]
        return _VERIFY[q.task](q)
    except ApbError as error:
        return [f"cannot replay: {error}"]


def _expect(q: Question, truth: str) -> list[str]:
    return [] if str(q.answer) == truth else [f"gold {q.answer} but the engine says {truth}"]


def _app(q):
    task, state = question_task(q)
    if q.format == "bool":
        return _expect(q, "no" if task.explain(state, q.item["action"]) else "yes")
    good = _label_of(q, lambda o: not task.explain(state, o["action"]))
    return _expect(q, "".join(good))


def _prog(q):
    task, state = question_task(q)
    after = task.facts(task.apply(state, q.item["action"]))
    if q.format == "bool":
        return _expect(q, "yes" if q.item["atom"] in after else "no")
    effects = progression(task, state, q.item["action"])
    problems = [] if q.gold["pos"] == effects["pos"] and q.gold["neg"] == effects["neg"] else ["effects differ"]
    return problems + _expect(q, "".join(_label_of(q, lambda o: o["atom"] in after)))


def _proved(q: Question, kind: str, key: str) -> list[str]:
    """Replays the proof of each claim (the item for bool, every option for MCQ)."""
    task, state = question_task(q)
    claims = ([(q.item[key], q.answer == "yes", q.proof)] if q.format == "bool"
              else [(entry[key], entry[_FLAG[kind]], entry["proof"]) for entry in q.proof["options"]])
    problems = []
    for claim, value, proof in claims:
        if not check_proof(task, state, kind, claim, Verdict(value, proof)):
            problems.append(f"the proof that {claim} is {value} does not replay: {proof.get('method')}")
    if q.format == "mcq":
        truth = [label for label, option in zip(LABELS, q.options) for claim, value, _ in claims
                 if option[key] == claim and value is (kind != "action")]
        problems += _expect(q, "".join(truth))
    return problems


_FLAG = {"atoms": "reachable", "action": "reachable", "landmark": "landmark"}


def _val(q):
    task, state = question_task(q)
    failed, reached = first_failure(task, state, q.item["plan"])
    if q.format == "bool":
        return _expect(q, "yes" if failed is None and reached else "no")
    claim = {"claim": "step", "step": failed} if failed is not None else {"claim": "valid" if reached else "no_goal"}
    return _expect(q, "".join(_label_of(q, lambda o: o == claim)))


def _just(q):
    task, state = question_task(q)
    plan = q.item["plan"]

    def removable(steps: list[int]) -> bool:
        failed, reached = first_failure(task, state, [a for i, a in enumerate(plan) if i not in steps])
        return failed is None and reached

    if q.format == "bool":
        return _expect(q, "yes" if removable(q.item["steps"]) else "no")
    return _expect(q, "".join(_label_of(q, lambda o: removable(o["steps"]))))


_VERIFY = {"app": _app, "prog": _prog, "reach": lambda q: _proved(q, "atoms", "atoms"),
           "areach": lambda q: _proved(q, "action", "action"), "val": _val, "just": _just,
           "land": lambda q: _proved(q, "landmark", "atom")}

"""Why ACPBench's official scorer accepts or rejects an answer: `judge(q, text)` sorts a response into

- `accepted`: the official verdict (`apb.acp.official`) accepts it;
- `gold-wrong`: rejected, but the answer is correct by a proof that replays on the question's own PDDL, and the
  gold contradicts that proof (each task's `gold_denies`: it says "None" while the answer never holds / never
  applies / is a landmark, or it lists the answer as a non-landmark); a yes/no answer of reach or areach when the
  prover decides the question's statement as the answer does by a proof that replays (the task's `bool_claim`), on
  every reading of a released record's English;
- `official-incomplete`: rejected, the answer is correct by a proof that replays, the gold is right but lists one
  answer of many, and a second proof (the task's `only_gold`) shows the official check accepts no answer outside
  the gold's own list (areach: every action tarski's relaxed grounding keeps applies in a reachable state, so the
  official planner rejects each, and every never-applicable action is left out of that grounding);
- `rejected`: wrong, or correct without those proofs (a bug to fix, a claim undecided in the budget, or a correct
  answer where the official check would have accepted another one).

The proofs are the sound scorer's (`apb.acp.scorers.sound`), replayed with `apb.acp.proofs.check_proof`; the claim
an answer makes is its task's `claim` (reach, areach and land make one).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apb.acp.english import ContextError
from apb.acp.english.generated import reader_of
from apb.acp.english.questions import read_question_readings
from apb.acp.official import official_verdict
from apb.acp.proofs import Verdict, check_proof
from apb.acp.records import Question
from apb.acp.scorers import MISSING, extract, sound
from apb.acp.tasks import TASKS
from apb.acp.truth import question_task

OUTCOMES = ("accepted", "gold-wrong", "official-incomplete", "rejected")


@dataclass
class Outcome:
    """One answer's outcome (one of OUTCOMES), the reason, and the replayed proof behind a correct rejected one."""

    kind: str
    reason: str
    proof: dict = field(default_factory=dict)


def judge(q: Question, text: str) -> Outcome:
    """The outcome of a response text to question `q` (never raises on a bad answer)."""
    verdict = official_verdict(q, text)
    if verdict.correct:
        return Outcome("accepted", verdict.reason)
    spec = TASKS.get(q.task)
    if q.format == "bool" and spec is not None and spec.bool_claim is not None:
        return _bool_outcome(q, text, verdict.reason, spec)
    if q.format != "gen" or spec is None or spec.claim is None:
        return Outcome("rejected", verdict.reason)
    answer = extract(text, q.task, q.format, None)
    if answer is MISSING or answer is None:
        return Outcome("rejected", verdict.reason)
    check = sound(q, answer)
    if not check.correct or not check.proof:
        return Outcome("rejected", f"{verdict.reason}; sound scorer: {check.reason}")
    task, state = question_task(q)
    kind, item, value = spec.claim(task, answer)
    claim = [item] if kind == "atoms" else item
    if not check_proof(task, state, kind, claim, Verdict(value, check.proof), budget=q.budget):
        return Outcome("rejected", f"{verdict.reason}; the sound scorer's proof does not replay")
    reason = f"official: {verdict.reason}; proved: {check.reason}"
    if spec.gold_denies(q, item):
        return Outcome("gold-wrong", reason, check.proof)
    only = spec.only_gold(q) if spec.only_gold else None
    if only is None:
        return Outcome("rejected", f"{reason}; but the official check may accept another answer")
    return Outcome("official-incomplete", f"{reason}; {only}", check.proof)


def _bool_outcome(q: Question, text: str, official: str, spec) -> Outcome:
    """A rejected yes/no answer: gold-wrong when, on the question's PDDL (or every reading of its English), the
    prover decides the statement as the answer says, by a proof that replays."""
    said = extract(text, q.task, "bool", None)
    if said not in ("yes", "no"):
        return Outcome("rejected", official)
    try:
        readings = [q] if q.domain_pddl and q.problem_pddl else (read_question_readings(q, reader_of(q)) or [])
    except ContextError:
        readings = []
    proofs = []
    for reading in readings:
        found = spec.bool_claim(reading)
        if found is None:
            return Outcome("rejected", official)
        kind, claim, verdict = found
        task, state = question_task(reading)
        if verdict.value is not (said == "yes") or not check_proof(task, state, kind, claim, verdict,
                                                                      budget=reading.budget):
            return Outcome("rejected", official)
        proofs.append(verdict.proof)
    if not proofs:
        return Outcome("rejected", official)
    return Outcome("gold-wrong", f"official: {official}; proved: the answer is {said} ({proofs[0].get('method')})",
                   proofs[0])

"""Why ACPBench's official scorer accepts or rejects an answer: `judge(q, text)` sorts a response into

- `accepted`: the official verdict (`apb.acp.official`) accepts it;
- `gold-wrong`: rejected, but the answer is correct by a proof that replays on the question's own PDDL, and the
  gold contradicts that proof (it says "None" while the answer never holds / never applies / is a landmark, or it
  lists the answer as a non-landmark);
- `official-incomplete`: rejected, the answer is correct by a proof that replays, and the gold is right but lists
  one answer of many, which the official check cannot extend (areach: every other never-applicable action is left
  out by tarski's relaxed grounding, so the official code never asks its planner about it);
- `rejected`: wrong, or correct without a proof that replays (a bug to fix, or a claim undecided in the budget).

The proofs are the sound scorer's (`apb.acp.scorers.sound`), replayed with `apb.acp.proofs.check_proof`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apb.acp.extract import MISSING, extract
from apb.acp.official import official_verdict
from apb.acp.proofs import Verdict, check_proof, normal_atom
from apb.acp.records import Question
from apb.acp.scorers import sound
from apb.acp.truth import canonical_action, question_task

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
    if q.format != "gen" or q.task not in _CLAIMS:
        return Outcome("rejected", verdict.reason)
    answer = extract(text, q.task, q.format, None)
    if answer is MISSING or answer is None:
        return Outcome("rejected", verdict.reason)
    check = sound(q, answer)
    if not check.correct or not check.proof:
        return Outcome("rejected", f"{verdict.reason}; sound scorer: {check.reason}")
    task, state = question_task(q)
    kind, item, value = _CLAIMS[q.task](task, answer)
    claim = [item] if kind == "atoms" else item
    if not check_proof(task, state, kind, claim, Verdict(value, check.proof), budget=q.budget):
        return Outcome("rejected", f"{verdict.reason}; the sound scorer's proof does not replay")
    reason = f"official: {verdict.reason}; proved: {check.reason}"
    return Outcome("gold-wrong" if _gold_contradicts(q, item) else "official-incomplete", reason, check.proof)


def _gold_contradicts(q: Question, item: str) -> bool:
    """Whether the gold denies the proved claim: "None" (an empty list) for reach/areach/land, or the answer listed
    among land's non-landmarks."""
    gold = q.answer
    if q.task == "land":
        gold = gold if isinstance(gold, dict) else {}
        return not gold.get("yes") or item in {normal_atom(str(a)) for a in gold.get("no") or []}
    return not gold


_CLAIMS = {
    "reach": lambda task, answer: ("atoms", normal_atom(str(answer)), False),
    "areach": lambda task, answer: ("action", canonical_action(task, answer) or str(answer), False),
    "land": lambda task, answer: ("landmark", normal_atom(str(answer)), True),
}

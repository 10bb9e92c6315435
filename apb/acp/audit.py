"""Audit of generative gold answers with the engine: lists every gold answer that is provably wrong, with the proof.

Works on ACPBench's released generative files (their PDDL_problem's :init is the question's state) and on apb's
own questions (where it must find nothing). What it checks per task (each task's `audit`, `apb.acp.tasks`):
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

from dataclasses import asdict, dataclass, field

from apb.acp.official import official_verdict
from apb.acp.proofs import Verdict, check_proof
from apb.acp.records import Question
from apb.acp.tasks import TASKS
from apb.acp.truth import QuestionPDDLError, question_task
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
        return TASKS[q.task].audit(q, found, official_verdict)
    except QuestionPDDLError as error:
        return [found("unchecked", str(error))]
    except ApbError as error:
        return [found("unchecked", f"the gold cannot be checked: {error}")]


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

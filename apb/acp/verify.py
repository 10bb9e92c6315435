"""Replays the gold and proofs of apb's generated questions from the questions' own PDDL: every boolean and MCQ
gold is re-derived with the engine or its recorded proof is re-checked (each task's `verify`, `apb.acp.tasks`), and
generative gold goes through the audit. `verify(q)` returns the problems found (an empty list when everything
replays)."""

from __future__ import annotations

from apb.acp.audit import audit_question
from apb.acp.records import Question
from apb.acp.tasks import TASKS
from apb.engine import ApbError


def verify(q: Question) -> list[str]:
    """Problems with a generated question's gold or proofs (empty when they all replay)."""
    try:
        if q.format == "gen":
            return [f.message for f in audit_question(q)]
        return TASKS[q.task].verify(q)
    except ApbError as error:
        return [f"cannot replay: {error}"]

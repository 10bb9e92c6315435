"""The check of one question record from a file, before any work: its task, format, id, question text, choices and
the shape of its gold. Every reader of question files (apb JSONL, ACPBench's arrays) calls `check_question` with the
record's place (`FILE:LINE` or `FILE: record N`), so a bad record is one line naming the record and the field,
never a KeyError halfway through a run."""

from __future__ import annotations

from apb.acp.errors import ACPError
from apb.acp.records import FORMATS, TASKS, Question, task_formats
from apb.acp.tasks import TASKS as REGISTRY

YES_NO = ("yes", "no")


def _refuse(where: str, field: str, problem: str) -> ACPError:
    return ACPError(f"{where}: field {field!r} {problem}; fix the record or regenerate the file (apb acp generate)")


def check_question(q: Question, where: str, *, gold_needed: str | None = None) -> Question:
    """The question, or ACPError naming `where` and the field: task and format (one the task has), id, question
    and context text, MCQ choices ({label, text}: lists of strings of one length), and the gold's shape when the
    record has one; `gold_needed` (the command that scores) refuses a record without gold."""
    if q.task not in TASKS:
        raise _refuse(where, "task", f"is {q.task!r}, not an ACP task ({', '.join(TASKS)})")
    if q.format not in task_formats(q.task):
        raise _refuse(where, "format", f"is {q.format!r}, not a format of {q.task} ({', '.join(task_formats(q.task))}"
                      f"; all formats: {', '.join(FORMATS)})")
    if isinstance(q.id, bool) or not isinstance(q.id, int | str) or q.id == "":
        raise _refuse(where, "id", f"is {q.id!r}: an integer or a string is needed")
    for field in ("question", "context"):
        value = getattr(q, field)
        if not isinstance(value, str) or (field == "question" and not value.strip()):
            raise _refuse(where, field, "is missing or not text" if field == "context" else
                          "is missing or empty: the question's text is needed")
    labels = _labels(q, where) if q.format == "mcq" else None
    if q.held_out:
        if gold_needed:
            raise _refuse(where, "answer", f"is missing: {gold_needed} scores answers against the gold (`apb acp "
                          "answer FILE --agent solver` answers a file without gold)")
        return q
    _check_gold(q, where, labels)
    return q


def _labels(q: Question, where: str) -> list[str]:
    choices = q.choices
    if not isinstance(choices, dict) or not isinstance(choices.get("label"), list) \
            or not isinstance(choices.get("text"), list):
        raise _refuse(where, "choices", f"is {str(choices)[:60]!r}: an MCQ needs {{\"label\": [...], \"text\": [...]}}")
    labels, texts = choices["label"], choices["text"]
    if len(labels) != len(texts) or len(labels) < 2 or not all(isinstance(x, str) for x in labels + texts) \
            or len(set(labels)) != len(labels):
        raise _refuse(where, "choices", "needs two or more distinct labels, each with a text (strings)")
    return labels


def _check_gold(q: Question, where: str, labels: list[str] | None) -> None:
    answer = q.answer
    if q.format == "bool":
        if not isinstance(answer, str) or answer.strip().lower() not in YES_NO:
            raise _refuse(where, "answer", f"is {answer!r}: a yes/no question's gold is yes or no")
    elif q.format == "mcq":
        if not isinstance(answer, str) or answer.strip() not in labels:
            raise _refuse(where, "answer", f"is {answer!r}: an MCQ's gold is one of its labels ({', '.join(labels)})")
    elif answer is not None:  # a null generative gold is a wrong gold, not a malformed record: `apb acp audit` says so
        shape = REGISTRY[q.task].gen_gold  # the type of its generative gold is the task's own fact
        if isinstance(shape, tuple):
            if not isinstance(answer, dict) or not set(shape) <= set(answer):
                raise _refuse(where, "answer", f"is {str(answer)[:60]!r}: a {q.task} gold is an object with "
                              f"{', '.join(shape)}")
        elif isinstance(answer, bool) or not isinstance(answer, shape):
            raise _refuse(where, "answer", f"is {str(answer)[:60]!r}: a {q.task} gold is a "
                          f"{'list' if shape is list else 'whole number'}")

"""The solver agent of `apb acp answer --agent solver`: computes an answer from the question's own PDDL with the
engine, the prover and the planners; it never reads the gold (`q.answer`, `q.gold`, `q.proof`).

`solve_question(q)` returns (answer in the release's answer shape, text as a model would write it, which the
official reader reads) or None when the question carries no PDDL or the answer is undecided within the budget.
Generative answers are each task's `solve` (`apb.acp.tasks.<task>`, which says how); a bool or MCQ question is
answered by deciding each statement with the task's `decide`: a bool question asks one statement (yes or no), an
MCQ question has exactly one true option (its letter; where the release's English names two removable just
options, the task's `several_true` picks one). A statement the prover leaves undecided within the budget leaves
the question unanswered (None).

Released bool/MCQ records carry only English: `apb.acp.english.questions.read_question_readings` reads them into
the same PDDL and items first (domains with a data file in `apb/acp/english/`); where a domain's English leaves out
facts its problems differ on, every reading of the context must give the same answer, except that an MCQ rules out
a reading under which not exactly one of its options is true (its generator wrote one right option for its problem).
"""

from __future__ import annotations

from apb.acp.english.generated import reader_of
from apb.acp.english.phrases import ContextError
from apb.acp.english.questions import read_question_readings
from apb.acp.records import LABELS, Question
from apb.acp.tasks import TASKS
from apb.acp.truth import QuestionPDDLError
from apb.engine import ApbError


def solve_question(q: Question) -> tuple[object, str] | None:
    """(answer, text) for a question, None when it cannot be computed."""
    if q.format != "gen":
        return solve_choice(q)
    try:
        return TASKS[q.task].solve(q)
    except (QuestionPDDLError, ApbError):
        return None


def solve_choice(q: Question) -> tuple[str, str] | None:
    """(answer, text) for a bool or MCQ question with PDDL items, None when it has none or a statement is
    undecided. The text is what the declared lm-eval filters read: "The answer is yes." / "The answer is B."."""
    if q.format not in ("bool", "mcq"):
        return None
    if not q.domain_pddl or not q.problem_pddl:
        found = _read_english(q)
        if not found:
            return None
        answers = {_decide(one) for one in found}  # every reading of the English must give the same answer,
        if len(answers) > 1:  # but one under which the MCQ has no single true option is not the question's problem
            answers.discard(RULED_OUT)
        return answers.pop() if len(answers) == 1 and RULED_OUT not in answers else None
    found = _decide(q)
    return None if found is RULED_OUT else found


RULED_OUT = ("ruled out", "")  # _decide's verdict on an MCQ none or several of whose options are true


def _decide(q: Question) -> tuple[str, str] | None:
    """(answer, text) for a question with PDDL and PDDL items; RULED_OUT for an MCQ whose options are all decided
    and not exactly one of them true (the release's MCQs have one right option, so a reading of the English
    under which there is none, or several the task cannot choose between, is not the problem the question is
    about)."""
    spec = TASKS.get(q.task)
    if spec is None or spec.decide is None:
        return None
    try:
        if q.format == "bool":
            if not q.item:
                return None
            value = spec.decide(q, q.item, q.item)
            if value is None:
                return None
            answer = "yes" if value else "no"
        else:
            if not q.options:
                return None
            values = [spec.decide(q, q.item or {}, option) for option in q.options]
            if any(v is None for v in values):
                return None
            if not values.count(True):
                return RULED_OUT
            if values.count(True) > 1:
                if spec.several_true is None:
                    return RULED_OUT
                values = spec.several_true(q, values)
            answer = LABELS[values.index(True)]
    except (QuestionPDDLError, ApbError, KeyError):
        return None
    return answer, f"The answer is {answer}."


def _read_english(q: Question) -> list[Question] | None:
    """A released record read from its English, one question per reading of it (None when its domain has no data
    file or a phrase is not read); a record `apb.acp.english.generated.attach_domains` paired with a PDDL domain is
    read in apb's own wording of that domain."""
    try:
        return read_question_readings(q, reader_of(q))
    except ContextError:
        return None

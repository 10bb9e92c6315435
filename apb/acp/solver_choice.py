"""The solver's bool and MCQ answers: each statement decided with the engine and the prover from the question's PDDL
and its items in PDDL (apb's own questions carry both); the gold is never read.

A bool question asks one statement (app: the action applies; prog: the fact holds after the action; reach: the
facts can hold together; areach: the action can become applicable; val: the sequence is a plan; just: the plan
without the named steps is still a plan; land: the fact is a landmark); the answer is yes or no. An MCQ question
has exactly one true option (app: applicable; prog: holds after the action; reach: can hold; areach: can never
apply; val: the claim about the sequence; just: removable; land: a landmark); the answer is its letter. A statement
the prover leaves undecided within the budget leaves the question unanswered (None).

Released bool/MCQ records carry neither PDDL nor PDDL items (only English), so they are not answered here.
"""

from __future__ import annotations

from apb.acp.records import LABELS, Question
from apb.acp.truth import QuestionPDDLError, first_failure, question_prover, question_task
from apb.engine import ApbError


def solve_choice(q: Question) -> tuple[str, str] | None:
    """(answer, text) for a bool or MCQ question with PDDL items, None when it has none or a statement is
    undecided. The text is what the declared lm-eval filters read: "The answer is yes." / "The answer is B."."""
    if q.format not in ("bool", "mcq") or not q.domain_pddl or not q.problem_pddl:
        return None
    try:
        if q.format == "bool":
            if not q.item:
                return None
            value = _STATEMENTS[q.task](q, q.item, q.item)
            if value is None:
                return None
            answer = "yes" if value else "no"
        else:
            if not q.options:
                return None
            values = [_STATEMENTS[q.task](q, q.item or {}, option) for option in q.options]
            if any(v is None for v in values) or values.count(True) != 1:
                return None
            answer = LABELS[values.index(True)]
    except (QuestionPDDLError, ApbError, KeyError):
        return None
    return answer, f"The answer is {answer}."


def _app(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    return not task.explain(state, task.parse_action(option["action"]))


def _prog(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    after = task.apply(state, task.parse_action(item["action"]))
    return all(task.holds(after, atom) for atom in _atoms(option))


def _atoms(option: dict) -> list[str]:
    return list(option["atoms"]) if "atoms" in option else [option["atom"]]


def _reach(q: Question, item: dict, option: dict) -> bool | None:
    return question_prover(q).atoms(_atoms(option)).value


def _areach(q: Question, item: dict, option: dict) -> bool | None:
    prover = question_prover(q)
    value = prover.action(prover.task.parse_action(option["action"])).value
    if value is None or q.format == "bool":
        return value
    return not value  # the MCQ asks which action can never become applicable


def _val(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    failed, reached = first_failure(task, state, list(item["plan"]))
    if q.format == "bool":
        return failed is None and reached
    claim = option["claim"]
    if claim == "step":
        return failed == option["step"]
    return failed is None and reached == (claim == "valid")


def _just(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    steps = set(option["steps"])
    rest = [a for i, a in enumerate(item["plan"]) if i not in steps]
    failed, reached = first_failure(task, state, rest)
    return failed is None and reached


def _land(q: Question, item: dict, option: dict) -> bool | None:
    prover = question_prover(q)
    atom = option["atom"]
    if prover.task.holds(prover.state, atom):
        return False  # a landmark question asks about facts false in the state
    return prover.landmark(atom).value


_STATEMENTS = {"app": _app, "prog": _prog, "reach": _reach, "areach": _areach, "val": _val, "just": _just,
               "land": _land}

"""The agents of `apb acp answer`: `oracle` echoes each question's gold in ACPBench's answer format (for `just`
the release's gold is a removal, which no scorer accepts as an answer); `solver` (`apb.acp.solver`) computes the
answer from the question's PDDL and never reads the gold. Under apb's sound scorer the oracle scores 100% on
generated questions."""

from __future__ import annotations

from apb.acp.records import Question
from apb.acp.tasks import TASKS


def oracle_answer(q: Question):
    """The gold answer in ACPBench's answer format: yes/no, a letter, or the generative answer of the task
    (app: actions; prog: {"pos", "neg"}; val: an index; reach: an atom or None; areach: an action or None;
    just: the shortened plan; land: an atom or None; nexta: an action): each task's `oracle`."""
    if q.format in ("bool", "mcq"):
        return q.answer
    return TASKS[q.task].oracle(q)


def agent_answer(agent: str, q: Question) -> tuple[object, str] | None:
    """(answer, text as a model would write it) from the named agent, None when it has no answer."""
    from apb.acp.scorers import release_text
    from apb.acp.solver import solve_question

    if agent == "solver":
        return solve_question(q)
    answer = oracle_answer(q)
    return answer, release_text(q, answer)


AGENTS = ("oracle", "solver")

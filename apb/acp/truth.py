"""The engine's view of a question: its task and state rebuilt from the question's own PDDL (the problem's :init
is the question's state), the actions the question is about, and per-task checks of a claimed answer.

The sound scorer, the audit and the proof replay all use these checks, so they agree on what is correct.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

from apb.acp.proofs import Prover, Verdict, normal_atom
from apb.acp.records import Question
from apb.engine import ApbError, State, Task, load_task

_TASKS: OrderedDict[tuple[str, str], Task] = OrderedDict()
_PROVERS: OrderedDict[tuple[str, str, int], Prover] = OrderedDict()
_CACHED = 32
PDDL_ACTION = re.compile(r"\(\s*[A-Za-z][\w\-]*(?:\s+[\w\-@.]+)*\s*\)")


class QuestionPDDLError(ApbError):
    """A question without PDDL, or with PDDL apb cannot load."""


@dataclass
class Check:
    """Whether an answer is correct, why, and the proof behind the verdict (when one was needed)."""

    correct: bool
    reason: str = ""
    proof: dict | None = None


def question_task(q: Question) -> tuple[Task, State]:
    """The task whose initial state is the question's state (cached by PDDL text)."""
    if not q.domain_pddl or not q.problem_pddl:
        raise QuestionPDDLError(f"question {q.id} ({q.group}) carries no PDDL, so its answers cannot be checked "
                                "with the engine")
    key = (q.domain_pddl, q.problem_pddl)
    task = _TASKS.get(key)
    if task is None:
        try:
            task = load_task(q.domain_pddl, q.problem_pddl)
        except ApbError as error:
            raise QuestionPDDLError(f"question {q.id} ({q.group}): apb cannot load its PDDL: {error}") from None
        _TASKS[key] = task
        if len(_TASKS) > _CACHED:
            _TASKS.popitem(last=False)
    return task, task.initial_state


def question_prover(q: Question) -> Prover:
    """A prover for the question's state within the question's budget (cached with the task)."""
    task, state = question_task(q)
    key = (q.domain_pddl, q.problem_pddl, q.budget)  # a larger budget is another prover (`apb.acp.budget`)
    prover = _PROVERS.get(key)
    if prover is None or prover.task is not task:
        prover = _PROVERS[key] = Prover(task, state, budget=q.budget)
        if len(_PROVERS) > _CACHED:
            _PROVERS.popitem(last=False)
    return prover


def canonical_action(task: Task, text) -> str | None:
    """'(Board C1 L0)' -> '(board c1 l0)' when it names a ground action of the task, else None."""
    try:
        return str(task.parse_action(str(text)))
    except ApbError:
        return None


def question_plan(q: Question, task: Task) -> list[str]:
    """The action sequence a val/just question is about: its item, else the PDDL actions in its text."""
    if q.item.get("plan") is not None:
        return list(q.item["plan"])
    found = [canonical_action(task, m.group(0)) for m in PDDL_ACTION.finditer(q.question)]
    return [a for a in found if a is not None]


def question_action(q: Question, task: Task) -> str | None:
    """The action a prog question is about: its item, else the one PDDL action in its text."""
    if q.item.get("action"):
        return q.item["action"]
    plan = question_plan(q, task)
    return plan[0] if len(set(plan)) == 1 else None


def first_failure(task: Task, state: State, plan: list[str]) -> tuple[int | None, bool]:
    """(index of the first inapplicable step or None, goal reached at the end)."""
    for i, text in enumerate(plan):
        action = canonical_action(task, text)
        if action is None or task.explain(state, action):
            return i, False
        state = task.apply(state, action)
    return None, task.is_goal(state)


def progression(task: Task, state: State, action: str) -> dict[str, list[str]]:
    after = task.apply(state, action)
    before_facts, after_facts = task.facts(state), task.facts(after)
    return {"pos": sorted(after_facts - before_facts), "neg": sorted(before_facts - after_facts)}


def verdict_check(verdict: Verdict, want: bool, when_true: str, when_false: str) -> Check:
    """The check of a claim decided by `verdict`: correct when the verdict is `want`. The reason is written from the
    same decision: `when_true` when the verdict is True, `when_false` when it is False."""
    if verdict.value is None:
        return Check(False, f"{when_true if want else when_false}: undecided within the search budget", verdict.proof)
    return Check(verdict.value is want, when_true if verdict.value else when_false, verdict.proof)


def atoms_set(items) -> set[str]:
    return {normal_atom(str(a)) for a in items or []}

"""The engine's view of a question: its task and state rebuilt from the question's own PDDL (the problem's :init
is the question's state), the actions the question is about, and per-task checks of a claimed answer.

The sound scorer, the audit and the proof replay all use these checks, so they agree on what is correct.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

from apb.acp.proofs import Prover, Verdict, check_proof, normal_atom, static_problem
from apb.acp.records import LABELS, Question
from apb.engine import ApbError, State, Task, load_task
from apb.engine.errors import ActionError
from apb.engine.ground import fluent_predicates

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


def paren(item) -> str:
    """An atom or action as one parenthesised line: 'at c1 l0' -> '(at c1 l0)'."""
    text = " ".join(str(item).split())
    return text if text.startswith("(") else f"({text})"


def lowered(items) -> list[str]:
    return [str(a).lower() for a in items or []]


def not_a_proposition(task: Task, atom: str) -> str | None:
    """Why an atom is not one of the task's propositions (a reach question asks about those), else None: an
    unknown predicate, a wrong arity or type, or a static predicate (no action changes it)."""
    problem = static_problem(task, paren(atom))
    if problem is not None and problem["method"] == "type":
        return problem["reason"]
    name = normal_atom(paren(atom)).strip("()").split()[0]
    if name not in fluent_predicates(task.domain):
        return f"{name} is a static predicate (no action changes it)"
    return None


def action_or_none(task: Task, text: str):
    """The ground action, None when it names an unknown object or an ill-typed argument (it never applies)."""
    try:
        return task.parse_action(text)
    except ActionError:
        return None


def option_atoms(option: dict) -> list[str]:
    """The atoms a bool item or MCQ option is about (`atoms`, or the one `atom`)."""
    return list(option["atoms"]) if "atoms" in option else [option["atom"]]


# ---- replaying a generated bool/MCQ gold --------------------------------------------------------------------------
def labels_where(q: Question, predicate) -> list[str]:
    """Labels of the options for which `predicate(option)` holds."""
    return [label for label, option in zip(LABELS, q.options or []) if predicate(option)]


def expect(q: Question, truth: str) -> list[str]:
    """No problem when the gold is `truth`, else the one problem."""
    return [] if str(q.answer) == truth else [f"gold {q.answer} but the engine says {truth}"]


_FLAG = {"atoms": "reachable", "action": "reachable", "landmark": "landmark"}


def replay_claims(q: Question, kind: str, key: str) -> list[str]:
    """Replays the proof of each claim (the item for bool, every option for MCQ) of kind atoms, action or
    landmark, `key` naming the claim in an item."""
    task, state = question_task(q)
    claims = ([(q.item[key], q.answer == "yes", q.proof)] if q.format == "bool"
              else [(entry[key], entry[_FLAG[kind]], entry["proof"]) for entry in q.proof["options"]])
    problems = []
    for claim, value, proof in claims:
        if not check_proof(task, state, kind, claim, Verdict(value, proof)):
            problems.append(f"the proof that {claim} is {value} does not replay: {proof.get('method')}")
    if q.format == "mcq":
        truth = [label for label, option in zip(LABELS, q.options) for claim, value, _ in claims
                 if option[key] == claim and value is True]
        problems += expect(q, "".join(truth))
    return problems


def list_text(actions: list[str]) -> str:
    """A list of actions written as the release writes one: `[(a), (b)]`."""
    return "[" + ", ".join(actions) + "]"

"""ACPBench's official verdict on an answer text, reproduced: the declared lm-eval filters for bool/MCQ and the
released generative scorer (`evaluate_gen.py` with its evaluators), its planner calls decided with apb's engine.

`official_verdict(q, text)` returns a `Check` whose reason is written from the same decision as the verdict.
What the official code does, per generative task (after `official_read.read_generative`; a parser error is wrong):

- app: the set of actions (lower-cased) equals the lower-cased gold set.
- prog: one or two lists; the lower-cased positive and negative sets equal the gold's ("[(a)] [(a)]" reads as
  one list, the negative list then being empty).
- reach: gold atoms are stored without parentheses and compared as "(atom)", lower-cased; an empty gold accepts
  only "None"; another answer is right when a planner proves the atom unsolvable as a goal: an unknown predicate
  or a wrong arity is a planner error (wrong), an unknown object or a mistyped atom can never hold (right).
  apb decides unsolvability with its prover (relaxed reachability, exhaustive search, h^2).
- areach: "None" only for an empty gold; an answer in the gold (compared case-sensitively with the lower-cased
  answer) is right; otherwise the action must be ground by tarski's relaxed-reachability grounding (an action with
  a relaxed-unreachable precondition is not, and is wrong) and its preconditions unsolvable as a goal.
- val: the digits equal the gold index (a gold of -1, "None", is never matched by the digits the grammar reads).
- just: the answer (fixed-up action names) is shorter than the question's plan (its text sliced as the official
  code slices it), a subsequence of it compared case-sensitively, and a valid plan (case-insensitive).
- land: "None" when the gold's yes list is empty, else an atom of the yes list (a "(dummy val1)" gold scores 0).
- nexta: yes is right, no and unlisted actions wrong; a `maybe` action is right when h*(successor) + 1 equals the
  gold's `opt` (the official code asks an optimal planner; apb uses its exhaustive space or optimal A*).
Where the official code crashes (app with an empty gold and an empty answer divides by zero) the verdict is wrong.
"""

from __future__ import annotations

import math

from apb.acp.official_read import choice_answer, choice_correct, read_generative
from apb.acp.proofs import Verdict
from apb.acp.records import Question
from apb.acp.truth import Check, QuestionPDDLError, canonical_action, question_prover, question_task
from apb.engine import ApbError

JUST_PREFIX, JUST_SUFFIX = 19, 147  # where the official scorer cuts the plan out of a just question's text


def official_verdict(q: Question, text) -> Check:
    """The official verdict on one response text to question `q` (never raises on a bad answer)."""
    text = text if isinstance(text, str) else ""
    if q.format in ("bool", "mcq"):
        read = choice_answer(text, q.format, q.choices)
        ok = choice_correct(text, q.format, str(q.answer), q.choices)
        return Check(ok, f"read {read!r}, the gold is {q.answer!r}")
    parsed = read_generative(text, q.task)
    if parsed is None:
        return Check(False, "the official parser cannot read the answer (a parser error)")
    try:
        return _GEN[q.task](q, parsed)
    except QuestionPDDLError as error:
        return Check(False, str(error))


def _lower(items) -> list[str]:
    return [str(a).lower() for a in items or []]


def _app(q: Question, parsed: list[str]) -> Check:
    gold = set(_lower(q.answer))
    given = {a.lower() for a in parsed}
    if not gold and not given:
        return Check(False, "the official code divides by zero on an empty gold and an empty answer")
    if given == gold:
        return Check(True, "the set of applicable actions")
    return Check(False, f"missing {sorted(gold - given)}, extra {sorted(given - gold)}")


def _prog(q: Question, parsed: list[list[str]]) -> Check:
    gold = q.answer if isinstance(q.answer, dict) else {}
    pos, neg = set(_lower(gold.get("pos"))), set(_lower(gold.get("neg")))
    given_pos = {a.lower() for a in parsed[0]}
    given_neg = {a.lower() for a in parsed[1]} if len(parsed) == 2 else set()
    if given_pos == pos and given_neg == neg:
        return Check(True, "the positive and negative effects")
    return Check(False, f"the effects are positive {sorted(pos)}, negative {sorted(neg)}; read positive "
                        f"{sorted(given_pos)}, negative {sorted(given_neg)}")


def _atom_parts(text: str) -> tuple[str, list[str]]:
    name, *args = text.strip().lower().strip("()").split() or [""]
    return name, args


def unsolvable_atom(q: Question, atom: str) -> Check:
    """Whether the official planner call proves `atom` (lower-cased) unsolvable as the problem's goal."""
    task = question_task(q)[0]
    name, args = _atom_parts(atom)
    schema = task.domain.predicates.get(name)
    if schema is None:
        return Check(False, f"{atom}: no predicate {name} (a planner error)")
    if len(args) != len(schema.parameters):
        return Check(False, f"{atom}: {name} takes {len(schema.parameters)} arguments (a planner error)")
    verdict = question_prover(q).atoms([atom])
    return _unsolvable(verdict, atom, "can never hold", "can hold")


def _unsolvable(verdict: Verdict, what: str, never: str, can: str) -> Check:
    if verdict.value is False:
        return Check(True, f"{what} {never}", verdict.proof)
    if verdict.value is True:
        return Check(False, f"{what} {can}", verdict.proof)
    return Check(False, f"{what}: undecided within the search budget (a planner time-out)", verdict.proof)


def _reach(q: Question, parsed: str) -> Check:
    gold = [f"({str(x).strip().lower()})" for x in q.answer or []]
    answer = parsed.strip().lower()
    if not gold:
        ok = answer == "none"
        return Check(ok, "nothing is unreachable and the answer is None" if ok else
                     "the gold is None (every listed atom can hold) and the answer names an atom")
    if answer in gold:
        return Check(True, f"{answer} is a listed unreachable atom")
    return unsolvable_atom(q, answer)


def _areach(q: Question, parsed: str) -> Check:
    gold = list(q.answer or [])
    answer = parsed.strip().lower()
    if not gold:
        ok = answer == "none"
        return Check(ok, "every action can apply and the answer is None" if ok else
                     "the gold is None and the answer names an action")
    if answer in gold:
        return Check(True, f"{answer} is a listed never-applicable action")
    prover = question_prover(q)
    action = canonical_action(prover.task, answer)
    if action is None:
        return Check(False, f"{answer} is not a ground action of the task")
    verdict = prover.action(prover.task.parse_action(action))
    if verdict.value is False and verdict.proof.get("method") in ("static", "relaxed"):
        return Check(False, f"{answer} is not ground by the official relaxed-reachability grounding", verdict.proof)
    return _unsolvable(verdict, answer, "can never apply", "can apply")


def _val(q: Question, parsed: str) -> Check:
    gold = int(q.answer)
    want = "none" if gold == -1 else str(gold)
    ok = want == parsed.strip().lower()
    return Check(ok, f"the first inapplicable step is {want}, read {parsed}")


def question_plan_text(q: Question) -> list[str]:
    """The plan of a just question as the official scorer cuts it out of the question's text."""
    return q.question[JUST_PREFIX:-JUST_SUFFIX].replace(") (", ")######(").split("######")


def _fix(action: str) -> str:
    return "(" + " ".join(part for part in action[1:-1].split(" ") if part) + ")"


def _just(q: Question, parsed: list[str]) -> Check:
    steps = [_fix(a) for a in parsed]
    if not steps:
        return Check(False, "an empty plan")
    plan = question_plan_text(q)
    if len(plan) <= len(steps):
        return Check(False, "not shorter than the plan")
    i = 0
    for action in plan:
        if action == steps[i]:
            i += 1
            if i == len(steps):
                break
    else:
        return Check(False, "not a subsequence of the plan (actions compared case-sensitively)")
    task, state = question_task(q)
    for n, text in enumerate(steps):
        action = canonical_action(task, text.lower())
        if action is None or task.explain(state, action):
            return Check(False, f"step {n} {text} is not applicable")
        state = task.apply(state, action)
    if not task.is_goal(state):
        return Check(False, "the shortened plan does not reach the goal")
    return Check(True, "a shorter subsequence that is a valid plan")


def _land(q: Question, parsed: str) -> Check:
    yes = _lower((q.answer or {}).get("yes") if isinstance(q.answer, dict) else [])
    if "(dummy val1)" in yes:
        return Check(False, "the gold holds the placeholder (dummy val1), which the official scorer scores 0")
    answer = parsed.strip().lower()
    if answer in yes:
        return Check(True, f"{answer} is a listed landmark")
    if answer == "none":
        return Check(not yes, "no listed landmark and the answer is None" if not yes else
                     f"the answer is None but {yes[0]} is a landmark")
    return Check(False, f"{answer} is not a listed landmark")


def _nexta(q: Question, parsed: str) -> Check:
    gold = q.answer if isinstance(q.answer, dict) else {}
    answer = parsed.strip().lower()
    if answer in _lower(gold.get("yes")):
        return Check(True, f"{answer} starts an optimal plan (listed)")
    if answer in _lower(gold.get("no")):
        return Check(False, f"{answer} does not start an optimal plan (listed)")
    if answer not in _lower(gold.get("maybe")):
        return Check(False, f"{answer} is not one of the state's listed actions")
    task, state = question_task(q)
    action = canonical_action(task, answer)
    if action is None or task.explain(state, action):
        return Check(False, f"{answer} is not applicable")
    opt = gold.get("opt")
    here = _distance(task, state) if opt is None else float(opt)
    after = _distance(task, task.apply(state, action))
    if here is None or after is None:
        return Check(False, f"h* of {answer}'s successor is undecided (a planner time-out)")
    ok = after != math.inf and after + 1 == here
    return Check(ok, f"h* after {answer} is {after}, h* here is {here}")


def _distance(task, state) -> float | None:
    from apb.acp.tasks.goals import astar_distance
    try:
        return astar_distance(task, state)
    except ApbError:
        return None


_GEN = {"app": _app, "prog": _prog, "reach": _reach, "areach": _areach, "val": _val, "just": _just, "land": _land,
        "nexta": _nexta}

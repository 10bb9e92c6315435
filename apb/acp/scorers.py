"""Two scorers for ACP answers: ACPBench-Hard's official semantics (reproduced, quirks kept) and apb's sound
scorer, which accepts every correct answer and checks it with the engine.

Boolean and MCQ answers are compared with the gold by both (apb's generated gold is proved; imported gold is
taken as given). For generative answers the official scorer compares with the gold lists, as the released
scorers do; the sound scorer decides the claim itself. `score(q, answer)` returns both verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass

from apb.acp.extract import MISSING, extract
from apb.acp.official import official_verdict
from apb.acp.proofs import normal_atom, static_problem
from apb.acp.records import Question
from apb.acp.tasks import ProblemInfo, Situation
from apb.acp.tasks.common import action_universe, atom_universe
from apb.acp.tasks.goals import classify_landmarks, optimal_actions, successor_distances
from apb.acp.tasks.reachability import unreachable_actions, unreachable_atoms
from apb.acp.truth import (
    Check,
    QuestionPDDLError,
    atoms_set,
    canonical_action,
    first_failure,
    progression,
    question_action,
    question_plan,
    question_prover,
    question_task,
    verdict_check,
)
from apb.engine import ApbError
from apb.engine.ground import fluent_predicates
from apb.engine.limits import MAX_ANSWER_CHARS

OFFICIAL_MAX_CHARS = 65_536  # responses the official reading reads (its Lark parser is slow on long text)


@dataclass
class Score:
    """The verdicts of both scorers on one answer."""

    official: bool
    sound: bool
    reason: str = ""


# ---- the official semantics ----------------------------------------------------------------------------------------
def answer_text(q: Question, answer) -> str:
    """An answer in apb's answer shapes written as the release's answer text, which the official readers read:
    yes/no, a letter, `[(a), (b)]` (app, just), `[(p), ...] [(n), ...]` (prog), `(atom)` / `(action)` or `None`,
    an index."""
    if answer is MISSING:
        return ""
    if q.format in ("bool", "mcq") or q.task == "val":
        return str(answer)
    if q.task in ("app", "just"):
        return "[" + ", ".join(_paren(a) for a in answer or []) + "]" if isinstance(answer, list) else str(answer)
    if q.task == "prog":
        if not isinstance(answer, dict):
            return str(answer)
        return (f"[{', '.join(_paren(a) for a in answer.get('pos') or [])}] "
                f"[{', '.join(_paren(a) for a in answer.get('neg') or [])}]")
    return "None" if answer is None else _paren(answer)


def _paren(item) -> str:
    text = " ".join(str(item).split())
    return text if text.startswith("(") else f"({text})"


def official(q: Question, answer) -> bool:
    """ACPBench's official verdict (`apb.acp.official`) on an answer in apb's shapes, written as its text."""
    if answer is MISSING:
        return False
    return official_verdict(q, answer_text(q, answer)).correct


# ---- apb's sound scorer ----------------------------------------------------------------------------------------------
def sound(q: Question, answer) -> Check:
    """Whether the answer is correct, decided with the engine (every correct answer is accepted)."""
    if answer is MISSING:
        return Check(False, "no answer could be read")
    if q.format in ("bool", "mcq"):
        ok = str(answer).strip().lower() == str(q.answer).strip().lower()
        return Check(ok, "matches the gold" if ok else f"the gold is {q.answer}")
    try:
        return _SOUND[q.task](q, answer)
    except QuestionPDDLError as error:
        return Check(False, str(error))
    except ApbError as error:
        return Check(False, f"the answer cannot be checked: {error}")


def _sound_app(q: Question, answer) -> Check:
    task, state = question_task(q)
    if not isinstance(answer, list):
        return Check(False, "expected a list of actions")
    given = {canonical_action(task, a) for a in answer}
    truth = {str(a) for a in task.applicable(state)}
    if None in given:
        return Check(False, "the answer names something that is not an action of the task")
    return Check(given == truth, f"missing {sorted(truth - given)}, extra {sorted(given - truth)}"
                 if given != truth else "exactly the applicable actions")


def _sound_prog(q: Question, answer) -> Check:
    task, state = question_task(q)
    action = question_action(q, task)
    if action is None:
        return Check(False, "the question's action cannot be identified")
    if not isinstance(answer, dict):
        return Check(False, "expected {\"pos\": [...], \"neg\": [...]}")
    truth = progression(task, state, action)
    ok = atoms_set(answer.get("pos")) == set(truth["pos"]) and atoms_set(answer.get("neg")) == set(truth["neg"])
    return Check(ok, "the effects of the action" if ok else f"the effects are {truth}")


def _classification(q: Question, kind: str) -> list[str] | None:
    """Every unreachable atom (kind 'atoms') or action of the question's state; None when not decidable."""
    if q.source == "apb" and "unreachable" in q.gold:
        return list(q.gold["unreachable"])
    prover = question_prover(q)
    universe = atom_universe(prover.task) if kind == "atoms" else action_universe(prover.task)
    if universe is None or not prover.exhaustive:
        return None
    found = unreachable_atoms(prover, universe) if kind == "atoms" else unreachable_actions(prover, universe)
    return sorted(found)


def _proved_unreachable(q: Question, kind: str) -> tuple[str, dict] | None:
    """An item the gold lists (or, without a list, any of the task's) that the engine proves unreachable."""
    prover = question_prover(q)
    task = prover.task
    listed = [str(a) for a in (q.answer if isinstance(q.answer, list) else [])]
    for item in listed:
        if kind == "atoms":
            if not_a_proposition(task, item) is None:
                verdict = prover.atoms([_paren(item)])
                if verdict.value is False:
                    return _paren(item), verdict.proof
        else:
            action = canonical_action(task, item)
            if action is not None:
                verdict = prover.action(task.parse_action(action))
                if verdict.value is False:
                    return action, verdict.proof
    return None


def _none_check(q: Question, kind: str) -> Check:
    """Whether "None" (nothing is unreachable) is right for a reach (atoms) or areach (actions) question: wrong as
    soon as the engine proves one item unreachable."""
    what = "hold" if kind == "atoms" else "apply"
    witness = _proved_unreachable(q, kind)
    if witness is not None:
        return Check(False, f"{witness[0]} can never {what}, so None is wrong", witness[1])
    found = _classification(q, kind)
    if found is None:
        return Check(False, f"whether every one of the {kind} can {what} is undecided within the budget")
    if found:
        return Check(False, f"{found[0]} can never {what}, so None is wrong")
    return Check(True, f"every one of the {kind} can {what}")


def not_a_proposition(task, atom: str) -> str | None:
    """Why an atom is not one of the task's propositions (a reach question asks about those), else None: an
    unknown predicate, a wrong arity or type, or a static predicate (no action changes it)."""
    problem = static_problem(task, _paren(atom))
    if problem is not None and problem["method"] == "type":
        return problem["reason"]
    name = normal_atom(_paren(atom)).strip("()").split()[0]
    if name not in fluent_predicates(task.domain):
        return f"{name} is a static predicate (no action changes it)"
    return None


def _sound_reach(q: Question, answer) -> Check:
    if answer is None:
        return _none_check(q, "atoms")
    atom = normal_atom(_paren(answer))
    task = question_task(q)[0]
    reason = not_a_proposition(task, atom)
    if reason is not None:
        return Check(False, f"{atom} is not a proposition the question asks about: {reason}")
    if q.source == "apb" and atom in q.gold.get("unreachable", ()):
        return Check(True, "proved unreachable when the question was generated")
    return verdict_check(question_prover(q).atoms([atom]), False, f"{atom} can hold", f"{atom} can never hold")


def _sound_areach(q: Question, answer) -> Check:
    if answer is None:
        return _none_check(q, "actions")
    prover = question_prover(q)
    action = canonical_action(prover.task, answer)
    if action is None:
        return Check(False, f"{answer} is not a ground action of the task")
    if q.source == "apb" and action in q.gold.get("unreachable", ()):
        return Check(True, "proved never applicable when the question was generated")
    verdict = prover.action(prover.task.parse_action(action))
    outside = " (outside the official grounding: ACPBench's code accepts it only as the gold's pick)" if \
        verdict.proof.get("method") in ("static", "relaxed") else ""
    return verdict_check(verdict, False, f"{action} can apply", f"{action} never applies{outside}")


def _sound_val(q: Question, answer) -> Check:
    task, state = question_task(q)
    if not isinstance(answer, int) or isinstance(answer, bool):
        return Check(False, "expected an integer index")
    failed, _ = first_failure(task, state, question_plan(q, task))
    return Check(answer == failed, f"the first inapplicable step is {failed}")


def _sound_just(q: Question, answer) -> Check:
    task, state = question_task(q)
    if not isinstance(answer, list):
        return Check(False, "expected a list of actions")
    plan = question_plan(q, task)
    steps = [canonical_action(task, a) for a in answer]
    canonical_plan = [canonical_action(task, a) for a in plan]
    if None in steps:
        return Check(False, "the answer names something that is not an action of the task")
    if len(steps) >= len(plan) or not _is_subsequence(steps, canonical_plan):
        return Check(False, "not a shorter subsequence of the plan")
    failed, reached = first_failure(task, state, steps)
    ok = failed is None and reached
    return Check(ok, "a shorter valid plan" if ok else "the shortened plan is not valid")


def _is_subsequence(short: list, long: list) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def question_situation(q: Question) -> Situation:
    """A generation situation for the question's own state (for landmark and h* analyses)."""
    prover = question_prover(q)
    info = ProblemInfo(q.domain or "question", q.problem or str(q.id), prover.task, prover.space, q.domain_pddl)
    info.provers[prover.state] = prover
    return Situation(info, prover.state, "question")


def _sound_land(q: Question, answer) -> Check:
    gold = q.gold if q.source == "apb" and "yes" in q.gold else None
    if answer is None:
        if gold is None:
            found = classify_landmarks(question_situation(q))
            if found is None or not found[2]:
                return Check(False, "whether a landmark exists is undecided")
            gold = {"yes": sorted(found[0])}
        return Check(not gold["yes"], "no fact is a landmark" if not gold["yes"] else f"{gold['yes'][0]} is one")
    atom = normal_atom(str(answer))
    if gold is not None and atom in gold["yes"]:
        return Check(True, "proved a landmark when the question was generated")
    prover = question_prover(q)
    if prover.task.holds(prover.state, atom):
        return Check(False, f"{atom} is already true")
    return verdict_check(prover.landmark(atom), True, f"{atom} is a landmark", f"{atom} is not a landmark")


def _sound_nexta(q: Question, answer) -> Check:
    task, state = question_task(q)
    action = canonical_action(task, answer) if answer is not None else None
    if action is None or task.explain(state, action):
        return Check(False, "not an applicable action")
    if q.source == "apb" and "h" in q.gold:
        ok = action in q.gold["yes"]
        return Check(ok, f"h* after it is {q.gold['h'].get(action)}, h* here is {q.gold['opt']}")
    found = successor_distances(question_situation(q))
    if found is None:
        return Check(False, "h* is undecided within the search budget")
    here, values, method = found
    ok = action in optimal_actions(task, here, values)
    return Check(ok, f"h* after it is {values.get(action)}, h* here is {here}", {"method": method})


_SOUND = {"app": _sound_app, "prog": _sound_prog, "reach": _sound_reach, "areach": _sound_areach,
          "val": _sound_val, "just": _sound_just, "land": _sound_land, "nexta": _sound_nexta}


def score(q: Question, answer) -> Score:
    """Both verdicts on an extracted answer (MISSING scores wrong under both)."""
    check = sound(q, answer)
    return Score(official(q, answer), check.correct, check.reason)


def score_response(q: Question, text: str) -> tuple[object, Score]:
    """A model's response scored by both: the official verdict reads the raw text as the official code does (lm-eval
    filters, the Lark grammar), the sound scorer reads it with apb's tolerant `extract`. Returns (the extracted
    answer or MISSING, the Score). Never raises: a response that is not a string or is over
    `apb.engine.limits.MAX_ANSWER_CHARS` is no answer; the official reading, whose parser takes seconds on long
    text, reads responses up to `OFFICIAL_MAX_CHARS` (longer ones are wrong under it)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return MISSING, Score(False, False, "the response is not read: not text, or over the length limit")
    answer = extract(text, q.task, q.format, (q.choices or {}).get("text"))
    official_ok = len(text) <= OFFICIAL_MAX_CHARS and official_verdict(q, text).correct
    check = sound(q, answer)
    return answer, Score(official_ok, check.correct, check.reason)


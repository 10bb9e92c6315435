"""The solver's bool and MCQ answers: each statement decided with the engine and the prover from the question's PDDL
and its items in PDDL (apb's own questions carry both); the gold is never read.

A bool question asks one statement (app: the action applies; prog: the fact holds after the action; reach: the
facts can hold together; areach: the action can become applicable; val: the sequence is a plan; just: the plan
without the named steps is still a plan; land: the fact is a landmark); the answer is yes or no. An MCQ question
has exactly one true option (app: applicable; prog: holds after the action; reach: can hold; areach: can never
apply; val: the claim about the sequence; just: removable; land: a landmark); the answer is its letter. A statement
the prover leaves undecided within the budget leaves the question unanswered (None).

Released bool/MCQ records carry only English: `apb.acp.english.questions.read_question` reads them into the same
PDDL and items first (domains with a data file in `apb/acp/english/`). Their wordings add a few senses, which an
item's `asks` names: a val bool question asking only whether the sequence applies (`applicable`), the areach MCQ
asking for the action that CAN become applicable (`reachable`), val MCQ claims "not valid" (a step is no action of
the domain: another domain's action, an unknown object, an ill-typed argument) and "not applicable" (every step is
an action, one does not apply in its state; this reading of the two claims agrees with every dev record), and
just items naming an action (or pair) that occurs several times (`steps_any`: it can be removed when removing one
of its occurrences leaves a plan), and val plans with a step the English leaves ambiguous (`plans_any`: answered
when every reading agrees; a just MCQ where two options are removable, each at one of its occurrences, is answered
with the one removable latest in the plan; where a domain's English leaves out facts its problems differ on, every
reading of the context must give the same answer). An action that names an unknown object or has an ill-typed
argument never applies. Landmarks beyond the prover's enumerated space are disproved by a plan on which the atom
never holds (a greedy plan, else a greedy search that prunes the states where it holds); the prover replays the plan
before it answers no.
"""

from __future__ import annotations

import heapq

from apb.acp.english import ContextError
from apb.acp.english.questions import read_question_readings
from apb.acp.proofs import fact_key
from apb.acp.records import LABELS, Question
from apb.acp.truth import QuestionPDDLError, canonical_action, first_failure, question_prover, question_task
from apb.engine import ApbError
from apb.engine.errors import ActionError
from apb.planners import solve
from apb.planners.heuristics import INF, make_heuristic
from apb.planners.space import Successors, goal_test

LAND_NODES = 200_000  # expansions of the greedy search whose plan disproves landmarks beyond the enumerated space


def solve_choice(q: Question) -> tuple[str, str] | None:
    """(answer, text) for a bool or MCQ question with PDDL items, None when it has none or a statement is
    undecided. The text is what the declared lm-eval filters read: "The answer is yes." / "The answer is B."."""
    if q.format not in ("bool", "mcq"):
        return None
    if not q.domain_pddl or not q.problem_pddl:
        found = _read_english(q)
        if not found:
            return None
        answers = {_decide(one) for one in found}  # every reading of the English must give the same answer
        return answers.pop() if len(answers) == 1 else None
    return _decide(q)


def _decide(q: Question) -> tuple[str, str] | None:
    """(answer, text) for a question with PDDL and PDDL items."""
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
            if any(v is None for v in values) or not values.count(True):
                return None
            if values.count(True) > 1:
                if q.task != "just":
                    return None
                values = _latest_removal(q, values)
            answer = LABELS[values.index(True)]
    except (QuestionPDDLError, ApbError, KeyError):
        return None
    return answer, f"The answer is {answer}."


def _read_english(q: Question) -> list[Question] | None:
    """A released record read from its English, one question per reading of it (None when its domain has no data
    file or a phrase is not read)."""
    try:
        return read_question_readings(q)
    except ContextError:
        return None


def _parse(task, text: str):
    """The ground action, None when it names an unknown object or an ill-typed argument (it never applies)."""
    try:
        return task.parse_action(text)
    except ActionError:
        return None


def _app(q: Question, item: dict, option: dict) -> bool:
    task, state = question_task(q)
    action = _parse(task, option["action"])
    return action is not None and not task.explain(state, action)


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
    action = _parse(prover.task, option["action"])
    value = False if action is None else prover.action(action).value
    if value is None or q.format == "bool" or item.get("asks") == "reachable":
        return value
    return not value  # apb's MCQ asks which action can never become applicable


def _val(q: Question, item: dict, option: dict) -> bool | None:
    values = {_val_one(q, item, plan, option) for plan in item.get("plans_any") or [item["plan"]]}
    return values.pop() if len(values) == 1 else None  # every reading of an ambiguous step must agree


def _val_one(q: Question, item: dict, plan: list[str], option: dict) -> bool:
    task, state = question_task(q)
    failed, reached = first_failure(task, state, list(plan))
    if q.format == "bool":
        return failed is None and (reached or item.get("asks") == "applicable")
    claim = option["claim"]
    if claim == "step":
        return failed == option["step"]
    if claim in ("not_applicable", "not_valid"):  # "not valid": some step is no action of the domain at all
        invalid = any(canonical_action(task, step) is None for step in plan)
        return invalid if claim == "not_valid" else failed is not None and not invalid
    return failed is None and reached == (claim == "valid")


def _just(q: Question, item: dict, option: dict) -> bool | None:
    return bool(_removals(q, item, option))  # an action named in English: removable at any of its occurrences


def _removals(q: Question, item: dict, option: dict) -> list[int]:
    """The occurrences (first step index) of a just option whose removal leaves a plan."""
    task, state = question_task(q)
    out = []
    for steps in option.get("steps_any") or [option["steps"]]:
        rest = [a for i, a in enumerate(item["plan"]) if i not in set(steps)]
        if first_failure(task, state, rest) == (None, True):
            out.append(min(steps))
    return out


def _latest_removal(q: Question, values: list[bool]) -> list[bool]:
    """A just MCQ whose English names two removable actions (each at one of its occurrences, the others not): the
    question's own plan position decides, the option removable latest in the plan (the release's generator names a
    removable step and draws its distractors from steps whose removal breaks the plan; a repeated action is both).
    Both options are correct by the engine's replay; the release's gold names one of them."""
    item = q.item or {}
    latest = {i: max(_removals(q, item, q.options[i])) for i, v in enumerate(values) if v}
    best = max(latest, key=latest.get)
    return [i == best for i in range(len(values))]


def _land(q: Question, item: dict, option: dict) -> bool | None:
    prover = question_prover(q)
    atom = option["atom"]
    if prover.task.holds(prover.state, atom):
        return False  # a landmark question asks about facts false in the state
    value = prover.landmark(atom).value
    if value is None:  # beyond the enumerated space: a plan that never makes the atom true disproves it
        plan = _witness_plan(q, prover.task)
        if plan is not None:
            value = prover.landmark(atom, plan).value
    if value is None and fact_key(prover.task, atom) is None:  # outside the grounded facts: it never holds, so
        plan = _witness_plan(q, prover.task)  # any plan avoids it (a plan that reaches the goal, replayed)
        if plan is not None and first_failure(prover.task, prover.state, plan) == (None, True):
            value = False
    if value is None:
        plan = _avoiding_plan(prover.task, atom)
        if plan is not None:
            value = prover.landmark(atom, plan).value  # the prover replays the plan before it says no
    return value


def _avoiding_plan(task, atom: str, max_nodes: int = LAND_NODES) -> list[str] | None:
    """A plan from the initial state on which `atom` never holds: greedy best-first search (h_FF) that prunes every
    state where it holds; None when none is found within max_nodes expansions."""
    fid = fact_key(task, atom)
    start = task.initial_state.bits
    if fid is None or start >> fid & 1:
        return None
    successors, h, is_goal = Successors(task), make_heuristic("ff", task), goal_test(task)
    parent: dict[int, tuple[int, int] | None] = {start: None}
    heap, seq, expanded = [(h(start), 0, start)], 1, 0
    while heap and expanded < max_nodes:
        _, _, bits = heapq.heappop(heap)
        expanded += 1
        for index, succ in successors(bits):
            if succ in parent or succ >> fid & 1:
                continue
            parent[succ] = (bits, index)
            if is_goal(succ):
                plan = []
                while parent[succ] is not None:
                    succ, index = parent[succ]
                    plan.append(str(task.actions[index]))
                return plan[::-1]
            value = h(succ)
            if value != INF:
                heapq.heappush(heap, (value, seq, succ))
                seq += 1
    return None


_PLANS: dict = {}


def _witness_plan(q: Question, task) -> list[str] | None:
    """One plan from the question's state (greedy best-first search, cached per question PDDL), None when none is
    found within LAND_NODES expansions."""
    key = (q.domain_pddl, q.problem_pddl)
    if key not in _PLANS:
        if len(_PLANS) > 32:
            _PLANS.clear()
        result = solve(task, "gbfs", timeout=None, max_nodes=LAND_NODES)
        _PLANS[key] = [str(a) for a in result.plan] if result.solved else None
    return _PLANS[key]


_STATEMENTS = {"app": _app, "prog": _prog, "reach": _reach, "areach": _areach, "val": _val, "just": _just,
               "land": _land}

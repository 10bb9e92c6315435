"""The solver agent of `apb acp answer --agent solver`: computes a generative answer from the question's own PDDL
with the engine, the prover and the planners; it never reads the gold (`q.answer`, `q.gold`, `q.proof`).

`solve_question(q)` returns (answer in the release's answer shape, text as a model would write it, which the
official reader reads) or None when the question carries no PDDL or the answer is undecided within the budget.
Per task: app, the applicable actions; prog, the effects of the one applicable action the question's quoted
description names (its objects, in order); reach, an atom the prover proves unreachable (else "None" when every
atom is proved reachable); areach, likewise for actions (one of the official grounding, whose preconditions are
relaxed-reachable from the state, is preferred, as the official planner check only accepts those beyond the gold's
list; else one binding distinct objects, as the release's gold picks are); val, the first inapplicable
step (-1 when none); just, the question's plan (as written) without the first removable action or pair; land, a
proved landmark false in the state and not a goal (one that backchaining from the goal finds first, as landmark
generators do), else "None"; nexta, an action that starts an optimal plan (h* of every successor, else the first
action of one optimal A* plan).
Bool and MCQ questions are answered by `apb.acp.solver_choice`: apb's own carry PDDL items; the released ones carry
only English, which `apb.acp.english` reads back into PDDL first (the eight released domains).
"""

from __future__ import annotations

import math
import re

from apb.acp.official import question_plan_text
from apb.acp.proofs import fact_key
from apb.acp.records import Question
from apb.acp.solver_choice import solve_choice
from apb.acp.tasks.common import action_universe, atom_universe
from apb.acp.tasks.goals import (
    backchained_landmarks,
    classify_landmarks,
    optimal_actions,
    successor_distances,
)
from apb.acp.tasks.reachability import (
    distinct_first,
    grounded_actions,
    reachable_actions,
    unreachable_actions,
    unreachable_atoms,
)
from apb.acp.truth import (
    QuestionPDDLError,
    first_failure,
    progression,
    question_action,
    question_plan,
    question_prover,
    question_task,
)
from apb.engine import ApbError
from apb.planners import solve

LAND_NODES = 200_000  # expansions of the greedy search that finds a witness plan beyond the enumerated space
NEXTA_NODES = 100_000  # expansions of the optimal A* whose plan's first action answers nexta when some h* is unknown
_QUOTED = re.compile(r'"([^"]+)"')


def solve_question(q: Question) -> tuple[object, str] | None:
    """(answer, text) for a question, None when it cannot be computed (bool/MCQ: `apb.acp.solver_choice`)."""
    if q.format != "gen":
        return solve_choice(q)
    try:
        return _SOLVERS[q.task](q)
    except (QuestionPDDLError, ApbError):
        return None


def _list_text(actions: list[str]) -> str:
    return "[" + ", ".join(actions) + "]"


def _app(q: Question):
    task, state = question_task(q)
    actions = sorted(str(a) for a in task.applicable(state))
    return actions, _list_text(actions)


def identify_action(q: Question) -> str | None:
    """The applicable action a prog question's quoted description names: the one whose arguments are the
    objects the description mentions, in order (None when no single action's effects fit)."""
    task, state = question_task(q)
    if q.item.get("action"):  # apb's own questions name the action they are about
        return question_action(q, task)
    quoted = _QUOTED.findall(q.question)
    if not quoted or quoted[0].strip().startswith("("):  # the action written in PDDL
        return question_action(q, task)
    words = re.findall(r"[\w\-]+", quoted[0].lower())
    mentioned = [w for w in words if w in task.objects]
    candidates = []
    for action in task.applicable(state):
        args = str(action).strip("()").split()[1:]
        if sorted(args) == sorted(mentioned):
            candidates.append(action)
    if len(candidates) > 1:
        ordered = [a for a in candidates if str(a).strip("()").split()[1:] == mentioned]
        candidates = ordered or candidates
    effects = {str(a): progression(task, state, a) for a in candidates}
    distinct = {repr(e) for e in effects.values()}
    if len(distinct) != 1:
        return None
    return str(candidates[0])


def _prog(q: Question):
    task, state = question_task(q)
    action = identify_action(q)
    if action is None:
        return None
    effects = progression(task, state, action)
    return effects, f"{_list_text(effects['pos'])} {_list_text(effects['neg'])}"


def _reach(q: Question):
    prover = question_prover(q)
    universe = atom_universe(prover.task) or list(prover.task.fact_names)
    found = unreachable_atoms(prover, universe)
    if found:
        atom = sorted(found)[0]
        return [atom.strip("()")], atom
    if prover.exhaustive or all(prover.atoms([a]).value is True for a in universe):  # each one has a witness plan
        return [], "None"
    return None


def _areach(q: Question):
    prover = question_prover(q)
    universe = action_universe(prover.task)
    if universe is None:
        return None
    found = unreachable_actions(prover, universe)
    task = prover.task
    preferred = sorted(a for a, how in found.items() if how == "exhaustive") or _h2_unreachable(prover, found)
    if preferred or found:
        choice = (preferred or sorted(found, key=distinct_first))[0]
        return [choice], choice
    if prover.exhaustive or all(prover.action(task.parse_action(a)).value is True for a in universe):
        return [], "None"
    return None


def _h2_unreachable(prover, found: dict) -> list[str]:
    """Ground actions whose preconditions are each relaxed-reachable but which the prover shows never apply (h^2
    mutexes): the ones the official planner check accepts beyond the gold's list."""
    reachable = reachable_actions(prover)
    out = []
    for text, action in grounded_actions(prover.task).items():
        if text in found or text in reachable or any(f not in prover.relaxed.facts for f in action.pre):
            continue
        if prover.action(action).value is False:
            out.append(text)
            break
    return out


def _val(q: Question):
    task, state = question_task(q)
    failed, _ = first_failure(task, state, question_plan(q, task))
    index = -1 if failed is None else failed
    return index, "None" if index == -1 else str(index)


def _just(q: Question):
    task, state = question_task(q)
    written = question_plan_text(q)
    for size in (1, 2):
        for i in range(len(written) - size + 1):
            short = written[:i] + written[i + size:]
            failed, reached = first_failure(task, state, [s.lower() for s in short])
            if failed is None and reached and short:
                removal = [*written[i:i + size], "-1"]
                return [removal], _list_text(short)
    return None


def _land(q: Question):
    from apb.acp.scorers import question_situation

    sit = question_situation(q)
    if sit.plan() is None:  # beyond the enumerated space: a plan from greedy search serves as the witness
        result = solve(sit.task, "gbfs", timeout=None, max_nodes=LAND_NODES)
        if not result.solved:
            return None
        sit._plan = [str(a) for a in result.plan]
    found = classify_landmarks(sit)
    if found is None:
        return None
    yes, no, decided = found
    task = sit.task
    goals = {str(lit) for lit in task.goal if lit.positive}
    # proved landmarks that backchaining from the goal finds first (what landmark generators find), then those of the
    # relaxed achiever test, then the others
    chained = backchained_landmarks(task, sit.state)
    landmarks = sorted((a not in chained, yes[a].get("method") != "relaxed-achievers", a) for a in yes
                       if a not in goals and fact_key(task, a) is not None)
    landmarks = [a for *_, a in landmarks]
    if landmarks:
        return {"yes": landmarks, "no": sorted(no)}, landmarks[0]
    if decided:
        return {"yes": [], "no": sorted(no)}, "None"
    return None


def _nexta(q: Question):
    from apb.acp.scorers import question_situation

    sit = question_situation(q)
    found = successor_distances(sit, patient=True)
    if found is None:  # some successor's h* is beyond the budget: the first action of one optimal plan answers
        return _nexta_from_plan(sit.task)
    here, values, _ = found
    best = optimal_actions(sit.task, here, values)
    if not best:
        return None
    others = sorted(a for a in values if a not in best)
    opt = None if here == math.inf else here
    return {"yes": best, "no": others, "maybe": [], "opt": str(int(opt)) if opt is not None else None}, best[0]


_SOLVERS = {"app": _app, "prog": _prog, "reach": _reach, "areach": _areach, "val": _val, "just": _just,
            "land": _land, "nexta": _nexta}


def _nexta_from_plan(task):
    """nexta's answer from one cost-optimal plan (A* with an admissible heuristic): its first action starts an
    optimal plan; the other actions are left unclassified."""
    result = solve(task, "astar", timeout=None, max_nodes=NEXTA_NODES)
    if not result.solved or not result.plan:
        return None
    first = str(result.plan[0])
    cost = sum(task.cost(a) for a in result.plan)
    return {"yes": [first], "no": [], "maybe": [], "opt": str(int(cost))}, first

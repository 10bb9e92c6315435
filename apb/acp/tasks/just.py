"""just: which plan steps are unnecessary. Plans are optimal plans with a detour inserted (an action and its
inverse, or an action whose effects nothing needs); the gold is every single-step and consecutive-pair removal
that leaves a valid plan, each checked by the engine, written as the release writes removals ([a1, a2, "-1"] for
a pair, [a, "k"] for the k-th occurrence of a).

Official check: the answer (fixed-up action names, after the release's rewrite of the text following
"simplified plan:") is shorter than the question's plan (its text sliced as the official code slices it), a
subsequence of it compared case-sensitively, and a valid plan (case-insensitive). Sound check: a shorter
subsequence of the plan that is a valid plan.
Solver: the question's plan (as written) without the first removable action or pair; bool/MCQ: the plan without
the named steps is still a plan. Released items naming an action (or pair) that occurs several times
(`steps_any`) are removable when removing one occurrence leaves a plan; an MCQ where two options are removable is
answered with the one removable latest in the plan (`several_true`).
"""

from __future__ import annotations

import random

from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, pick
from apb.acp.tasks.plans import detour
from apb.acp.truth import (
    Check,
    canonical_action,
    expect,
    first_failure,
    labels_where,
    list_text,
    question_plan,
    question_task,
)
from apb.engine import State, Task

JUST_PREFIX, JUST_SUFFIX = 19, 147  # where the official scorer cuts the plan out of a just question's text


def removals(task: Task, state: State, plan: list[str]) -> list[tuple[list[int], bool]]:
    """Every single-step and consecutive-pair removal, and whether what remains is a valid plan."""
    result = []
    for size in (1, 2):
        for i in range(len(plan) - size + 1):
            steps = list(range(i, i + size))
            rest = plan[:i] + plan[i + size:]
            failed, reached = first_failure(task, state, rest)
            result.append((steps, failed is None and reached))
    return result


def release_removals(plan: list[str], removable: list[list[int]]) -> list[list[str]]:
    """The removals in the release's gold shape: [a1, a2, "-1"] for a consecutive pair, [a, "k"] for the k-th
    occurrence (1-based) of a single action in the plan."""
    out = []
    for steps in removable:
        if len(steps) == 2:
            out.append([plan[steps[0]], plan[steps[1]], "-1"])
        else:
            i = steps[0]
            out.append([plan[i], str(plan[:i + 1].count(plan[i]))])
    return out


def just(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    plan = sit.plan()
    if not plan:
        return None
    made = detour(sit, rng, plan)
    if made is None:
        return None
    plan = made[0]
    table = removals(sit.task, sit.state, plan)
    valid = [steps for steps, ok in table if ok]
    simplified = []
    for steps in valid:
        rest = [a for i, a in enumerate(plan) if i not in steps]
        if rest not in simplified:
            simplified.append(rest)
    gold = {"removable": valid, "simplified": simplified}
    proof = {"method": "engine"}
    if fmt == "gen":
        return sit.question("just", fmt, {"plan": plan}, release_removals(plan, valid), gold, proof)
    # the release names the removed action (or pair) by its words only: ask about those that occur once in the plan
    size = rng.choice((1, 2)) if fmt == "bool" else rng.choice((1, 2, 2))
    named = [(steps, ok) for steps, ok in table if len(steps) == size and _occurrences(plan, steps) == 1]
    if fmt == "bool":
        pool = [steps for steps, ok in named if ok == want]
        if not pool:
            return None
        steps = pick(rng, pool, 1)[0]
        return sit.question("just", fmt, {"plan": plan, "steps": steps}, "yes" if want else "no", gold, proof)
    good = [steps for steps, ok in named if ok]
    bad = [steps for steps, ok in named if not ok]
    if not good or len(bad) < 3:
        return None
    correct = pick(rng, good, 1)[0]
    options, label = arrange(rng, {"steps": correct}, [{"steps": s} for s in pick(rng, bad, 3)], want)
    return sit.question("just", fmt, {"plan": plan, "size": size}, label, gold, proof, options)


def _occurrences(plan: list[str], steps: list[int]) -> int:
    """How often the actions at `steps` (one, or two consecutive ones) occur in the plan in that order."""
    named = plan[steps[0]:steps[-1] + 1]
    return sum(plan[i:i + len(named)] == named for i in range(len(plan) - len(named) + 1))


def question_plan_text(q: Question) -> list[str]:
    """The plan of a just question as the official scorer cuts it out of the question's text."""
    return q.question[JUST_PREFIX:-JUST_SUFFIX].replace(") (", ")######(").split("######")


def solve(q: Question):
    task, state = question_task(q)
    written = question_plan_text(q)
    for size in (1, 2):
        for i in range(len(written) - size + 1):
            short = written[:i] + written[i + size:]
            failed, reached = first_failure(task, state, [s.lower() for s in short])
            if failed is None and reached and short:
                removal = [*written[i:i + size], "-1"]
                return [removal], list_text(short)
    return None


def decide(q: Question, item: dict, option: dict) -> bool | None:
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


def several_true(q: Question, values: list[bool]) -> list[bool]:
    """A just MCQ whose English names two removable actions (each at one of its occurrences, the others not): the
    question's own plan position decides, the option removable latest in the plan (the release's generator names a
    removable step and draws its distractors from steps whose removal breaks the plan; a repeated action is both).
    Both options are correct by the engine's replay; the release's gold names one of them."""
    item = q.item or {}
    latest = {i: max(_removals(q, item, q.options[i])) for i, v in enumerate(values) if v}
    best = max(latest, key=latest.get)
    return [i == best for i in range(len(values))]


def official_text(text: str) -> str:
    """The release scorer reads only what follows "simplified plan:" when the answer has it."""
    low = text.lower()
    return low.replace("*", "").split("simplified plan:")[1] if "simplified plan:" in low else text


def _fix(action: str) -> str:
    return "(" + " ".join(part for part in action[1:-1].split(" ") if part) + ")"


def official(q: Question, parsed: list[str]) -> Check:
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


def sound(q: Question, answer) -> Check:
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


def audit(q, found, official_verdict):
    """Each released removal ([a1, a2, "-1"]: a consecutive pair; [a, "k"]: the k-th occurrence of a) applied to
    the question's plan must leave a valid plan somewhere it applies."""
    task, state = question_task(q)
    written = question_plan_text(q) if q.source != "apb" else question_plan(q, task)
    gold = q.answer or []
    findings = []
    for removal in gold if gold and isinstance(gold[0], list) else [gold]:
        short_plans = _removed(written, [str(a) for a in removal])
        checks = ((short, first_failure(task, state, [a.lower() for a in short])) for short in short_plans)
        first = None
        for short, (failed, reached) in checks:
            if failed is None and reached:
                break
            first = first or (short, (failed, reached))
        else:
            short, (failed, reached) = first or ([], (None, False))
            findings.append(found("wrong", f"removing {removal} does not leave a valid plan",
                                  {"removal": removal, "plan": short, "first_failure": failed, "goal_reached": reached,
                                   "official": official_verdict(q, "[" + ", ".join(short) + "]").correct}))
    return findings


def _removed(plan: list[str], removal: list[str]) -> list[list[str]]:
    """The plans a released removal leaves (a shortened plan itself, from apb's own questions, is kept as is)."""
    if removal and removal[-1] == "-1":
        pair = removal[:-1]
        return [plan[:i] + plan[i + len(pair):] for i in range(len(plan)) if plan[i:i + len(pair)] == pair]
    if len(removal) == 2 and removal[1].lstrip("-").isdigit():
        places = [i for i, a in enumerate(plan) if a == removal[0]]
        k = int(removal[1]) - 1
        return [plan[:i] + plan[i + 1:] for i in places[k:k + 1]]
    return [removal]


def verify(q):
    task, state = question_task(q)
    plan = q.item["plan"]

    def removable(steps: list[int]) -> bool:
        failed, reached = first_failure(task, state, [a for i, a in enumerate(plan) if i not in steps])
        return failed is None and reached

    if q.format == "bool":
        return expect(q, "yes" if removable(q.item["steps"]) else "no")
    return expect(q, "".join(labels_where(q, lambda o: removable(o["steps"]))))


def oracle(q: Question):
    """The shortened plan: apb's full gold holds the shortened plans; the release's gold is a removal, which no
    scorer accepts as an answer, and is echoed as is."""
    gold = q.answer
    if q.source == "apb" and q.gold.get("simplified"):
        return q.gold["simplified"][0]
    if gold and isinstance(gold[0], list):
        return gold[0]
    return gold


def tarski_check(q: Question) -> str:
    return "its plan check"  # the official evaluator checks every answer as a plan with tarski


TASK = ACPTask("just", "list", "list", just, solve, official, sound, audit, decide, verify, several_true,
               oracle=oracle, official_text=official_text, tarski_check=tarski_check)

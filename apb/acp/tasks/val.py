"""val: where a sequence of actions first fails. Sequences are plans from the state, optimal or with a detour,
corrupted ACPBench's way: two steps swapped, a step replaced by an inapplicable action (or, for "not valid", by an
action of the domain with an ill-typed argument, no action of the problem), a step dropped, or the plan truncated.
Bool questions come in the release's three wordings (two ask whether the sequence is a plan, one whether it
applies); MCQ options are the release's four claims.

Official check: the digits the grammar reads equal the gold index (a gold of -1, "None", is never matched).
Sound check: the index of the first inapplicable step, replayed with the engine.
Solver: the first inapplicable step (-1 when none); bool/MCQ: the sequence is a plan, or the claim about it. The
release's wordings add senses: a bool question asking only whether the sequence applies (`asks: applicable`), the
MCQ claims "not valid" (a step is no action of the domain) and "not applicable" (every step is an action, one does
not apply in its state), and plans with a step the English leaves ambiguous (`plans_any`: answered when every
reading agrees).
"""

from __future__ import annotations

import random

from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, pick
from apb.acp.tasks.plans import TRIES, detour, states_along
from apb.acp.truth import (
    Check,
    canonical_action,
    expect,
    first_failure,
    labels_where,
    question_plan,
    question_task,
)

CLAIMS = ("valid", "no_goal", "not_applicable", "not_valid")  # the release's four MCQ options, in its words:
# a plan; applicable, but does not achieve the goal; not applicable; not valid (a step is no action of the problem)
BOOL_ASKS = ("plan", "plan", "applicable")  # what each of the release's bool wordings asks: a plan, or applicable


def _corrupt(sit: Situation, rng: random.Random, plan: list[str], kind: str) -> list[str] | None:
    """A sequence derived from `plan` whose first failure is a step (kind 'step') or that misses the goal."""
    task = sit.task
    if kind == "no_goal":
        return plan[: rng.randrange(len(plan))] if len(plan) > 1 else None
    for _ in range(TRIES):
        seq = list(plan)
        how = rng.choice(("swap", "replace", "drop"))
        i = rng.randrange(len(seq))
        if how == "swap" and len(seq) > 1:
            i = min(i, len(seq) - 2)
            seq[i], seq[i + 1] = seq[i + 1], seq[i]
        elif how == "drop" and len(seq) > 1:
            del seq[i]
        else:
            here = states_along(task, sit.state, seq[:i])[-1]
            misses = [str(a) for a in task.actions if task.explain(here, a)]
            if not misses:
                continue
            seq[i] = pick(rng, misses, 1)[0]
        failed, _ = first_failure(task, sit.state, seq)
        if failed is not None:
            return seq
    return None


def _base_plan(sit: Situation, rng: random.Random) -> list[str] | None:
    """An optimal plan from the state, or (half of the time) one with a detour inserted."""
    plan = sit.plan()
    if not plan:
        return None
    if rng.random() < 0.5:
        detoured = detour(sit, rng, plan)
        if detoured:
            return detoured[0]
    return plan


def _ill_typed(sit: Situation, rng: random.Random) -> str | None:
    """An action of the domain with an argument of the wrong type: no action of the problem ("not valid")."""
    task = sit.task
    domain = task.domain
    schemas = [a for a in domain.actions if a.parameters]
    for _ in range(TRIES):
        if not schemas:
            return None
        schema = rng.choice(schemas)
        args = []
        for param in schema.parameters:
            fits = sorted(n for n, kind in task.objects.items() if domain.is_subtype(kind, param.types))
            args.append(pick(rng, fits, 1)[0] if fits else None)
        wrong = rng.randrange(len(args))
        misfits = sorted(n for n, kind in task.objects.items()
                         if not domain.is_subtype(kind, schema.parameters[wrong].types))
        if not misfits or None in args[:wrong] + args[wrong + 1:]:
            continue
        args[wrong] = pick(rng, misfits, 1)[0]
        text = "(" + " ".join((schema.name, *args)) + ")"
        if canonical_action(task, text) is None:
            return text
    return None


def _claim(task, state, seq: list[str]) -> tuple[str, int | None, bool]:
    """ACPBench's claim about a sequence (valid, no_goal, not_applicable, not_valid: a step is no action of the
    problem), its first failing step and whether it reaches the goal."""
    failed, reached = first_failure(task, state, seq)
    if failed is None:
        return ("valid" if reached else "no_goal"), failed, reached
    invalid = any(canonical_action(task, step) is None for step in seq)
    return ("not_valid" if invalid else "not_applicable"), failed, reached


def val(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    plan = _base_plan(sit, rng)
    if plan is None:
        return None
    item: dict = {}
    if fmt == "gen":
        kind = "step"
    elif fmt == "bool":
        item["wording"] = rng.randrange(len(BOOL_ASKS))  # the release words bool questions three ways
        item["asks"] = BOOL_ASKS[item["wording"]]
        if item["asks"] == "applicable":
            kind = rng.choice(("valid", "no_goal")) if want else rng.choice(("step", "step", "invalid"))
        else:
            kind = "valid" if want else rng.choice(("step", "no_goal", "invalid"))
    else:
        kind = rng.choice(("valid", "valid", "no_goal", "step", "invalid"))
    if kind == "valid":
        seq = plan
    elif kind == "invalid":
        wrong = _ill_typed(sit, rng)
        seq = None
        if wrong is not None:
            seq = list(plan)
            seq[rng.randrange(len(seq))] = wrong
    else:
        seq = _corrupt(sit, rng, plan, kind)
    if not seq:
        return None
    claim, failed, reached = _claim(sit.task, sit.state, seq)
    gold = {"first_failure": failed, "goal_reached": reached, "claim": claim}
    proof = {"method": "engine"}
    item["plan"] = seq
    if fmt == "gen":
        return sit.question("val", fmt, item, failed, gold, proof) if claim == "not_applicable" else None
    if fmt == "bool":
        yes = failed is None and (reached or item["asks"] == "applicable")
        return sit.question("val", fmt, item, "yes" if yes else "no", gold, proof) if yes == want else None
    options, label = arrange(rng, {"claim": claim}, [{"claim": c} for c in CLAIMS if c != claim], want)
    return sit.question("val", fmt, item, label, gold, proof, options)


def solve(q: Question):
    task, state = question_task(q)
    failed, _ = first_failure(task, state, question_plan(q, task))
    index = -1 if failed is None else failed
    return index, "None" if index == -1 else str(index)


def decide(q: Question, item: dict, option: dict) -> bool | None:
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


def official(q: Question, parsed: str) -> Check:
    gold = int(q.answer)
    want = "none" if gold == -1 else str(gold)
    ok = want == parsed.strip().lower()
    return Check(ok, f"the first inapplicable step is {want}, read {parsed}")


def sound(q: Question, answer) -> Check:
    task, state = question_task(q)
    if not isinstance(answer, int) or isinstance(answer, bool):
        return Check(False, "expected an integer index")
    failed, _ = first_failure(task, state, question_plan(q, task))
    return Check(answer == failed, f"the first inapplicable step is {failed}")


def audit(q, found, official_verdict):
    task, state = question_task(q)
    failed, _ = first_failure(task, state, question_plan(q, task))
    if failed == q.answer:
        return []
    return [found("wrong", f"the first inapplicable step is {failed}, the gold says {q.answer}")]


def verify(q):
    task, state = question_task(q)
    claim, failed, reached = _claim(task, state, q.item["plan"])
    if q.format == "bool":
        return expect(q, "yes" if failed is None and (reached or q.item.get("asks") == "applicable") else "no")
    return expect(q, "".join(labels_where(q, lambda o: o == {"claim": claim})))


TASK = ACPTask("val", "index", "index", val, solve, official, sound, audit, decide, verify, gen_gold=int)

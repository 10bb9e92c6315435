"""areach: can an action ever become applicable; the generative question asks for an action that never applies,
or "None". Distractors: actions that can never apply, preferring those grounding keeps (reachable in the problem).

Official check: "None" only for an empty gold; an answer in the gold (compared case-sensitively with the
lower-cased answer) is right; otherwise the action must be ground by tarski's relaxed-reachability grounding (an
action with a relaxed-unreachable precondition is not, and is wrong) and its preconditions unsolvable as a goal.
Solver: a never-applicable action (one of the official grounding, whose preconditions are relaxed-reachable
from the state, is preferred, as the official planner check only accepts those beyond the gold's list; else one
binding distinct objects, as the release's gold picks are), else "None"; bool: the action can become applicable;
MCQ (apb's as the release's): which action can eventually be applied (one option can, three never can). An action
that names an unknown object or has an ill-typed argument never applies.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from apb.acp.budget import FACTOR
from apb.acp.proofs import H2_LIMIT
from apb.acp.records import Question
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, action_schemas, action_universe, arrange, bindings, pick
from apb.acp.tasks.reachability import (
    action_candidates,
    audit_unreachable,
    distinct_first,
    first_listed,
    grounded_actions,
    listed_or_none,
    none_check,
    reachable_actions,
    state_h2,
    ungrounded_sample,
    unreachable_actions,
    unsolvable,
)
from apb.acp.truth import (
    Check,
    action_or_none,
    canonical_action,
    question_prover,
    replay_claims,
    verdict_check,
)

WALKS, WALK_LENGTH = 3000, 300  # seeded random walks that look for the official grounding's actions applying
SCAN_LIMIT = 1_000_000  # type-consistent actions scanned for one grounding drops, when there are too many to list
GOLD_SCAN = 100  # actions grounding drops that a generative gold lists when there are too many to classify


def areach(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    task, prover = sit.task, sit.prover
    universe = action_universe(task)
    if fmt == "gen":
        if not prover.exhaustive:
            return _beyond(sit, universe)
        if universe is None:
            return None
        found = unreachable_actions(prover, universe)
        proof = {"method": "classification", "ungrounded": sorted(a for a, m in found.items() if m == "ungrounded"),
                 "relaxed": sorted(a for a, m in found.items() if m == "relaxed"), "exhaustive": len(prover.nodes)}
        return sit.question("areach", fmt, {}, sorted(found), {"unreachable": sorted(found)}, proof)
    reachable = sorted(reachable_actions(prover))
    applicable = {str(a) for a in task.applicable(sit.state)}
    later = [a for a in reachable if a not in applicable] or reachable
    # never-applicable actions among those grounding keeps (reachable in the problem) are the harder distractors
    found = unreachable_actions(prover, action_candidates(task))
    if not found and not prover.exhaustive:  # beyond the enumerated space: those h^2 proves never apply
        found = dict.fromkeys(h2_never(sit), "h2")
    if universe is None and len(found) < 3:  # too many to list, and the grounded ones (nearly) all apply somewhere
        found.update(dict.fromkeys(ungrounded_sample(task, rng), "ungrounded"))
    unreachable = {action: found[action] for action in pick(rng, list(found), 400)}
    hard = [a for a, m in unreachable.items() if m != "ungrounded"]
    never = hard if hard and rng.random() < 0.9 else list(unreachable)
    if fmt == "bool":
        pool = later if want else never
        if not pool:
            return None
        action = pick(rng, pool, 1)[0]
        verdict = prover.action(task.parse_action(action))
        if verdict.value is not want:
            return None
        return sit.question("areach", fmt, {"action": action}, "yes" if want else "no", {"reachable": want},
                            verdict.proof)
    # ACPBench's MCQ asks which action can eventually be applied: one that can, three that never can
    if not reachable or len(never) < 3:
        return None
    correct = pick(rng, later, 1)[0]
    verdict = prover.action(task.parse_action(correct))
    if verdict.value is not True:
        return None
    proofs = [{"action": correct, "reachable": True, "proof": verdict.proof}]
    for action in pick(rng, never, 3):
        wrong = prover.action(task.parse_action(action))
        if wrong.value is not False:
            return None
        proofs.append({"action": action, "reachable": False, "proof": wrong.proof})
    options, label = arrange(rng, {"action": correct}, [{"action": p["action"]} for p in proofs[1:]], want)
    return sit.question("areach", fmt, {}, label, {"correct": correct}, {"options": proofs}, options)


def _beyond(sit: Situation, universe: list[str] | None) -> Question | None:
    """A generative question beyond the enumerated space: the gold lists the actions grounding drops, those the
    delete relaxation rules out and those of the official grounding whose preconditions h^2 (from the state) proves
    never hold together (no "None" gold here); where the actions are too many to list, the h^2 ones and the first
    bindings grounding drops in the solver's scan order."""
    prover = sit.prover
    if universe is None:
        grounded = grounded_actions(sit.task)
        scan = itertools.islice(bindings(sit.task, action_schemas(sit.task)), SCAN_LIMIT)
        found = dict.fromkeys(itertools.islice((a for a in scan if a not in grounded), GOLD_SCAN), "ungrounded")
    else:
        found = dict(unreachable_actions(prover, universe))
    found.update({a: "h2" for a in h2_never(sit) if a not in found})
    if not found:
        return None
    proof = {"method": "classification", "complete": False,
             **{how: sorted(a for a, m in found.items() if m == how) for how in ("ungrounded", "relaxed", "h2")}}
    return sit.question("areach", "gen", {}, sorted(found), {"unreachable": sorted(found)}, proof)


def h2_never(sit: Situation) -> list[str]:
    """The actions of the official grounding that no enumerated state applies and two of whose preconditions h^2
    from the situation's state proves never hold together (computed once per situation; none above H2_LIMIT)."""
    if "h2-never" not in sit.cache:
        h2, prover = state_h2(sit), sit.prover
        reachable = reachable_actions(prover)
        sit.cache["h2-never"] = [] if h2 is None else [
            text for text, action in official_grounding(prover).items() if text not in reachable and any(
                not h2.pair(p, r) for p, r in itertools.combinations_with_replacement(action.pre, 2))]
    return sit.cache["h2-never"]


def solve(q: Question):
    prover = question_prover(q)
    universe = action_universe(prover.task)
    if universe is None:
        return _solve_unlisted(prover)
    found = unreachable_actions(prover, universe)
    task = prover.task
    preferred = sorted(a for a, how in found.items() if how == "exhaustive") or _h2_unreachable(prover, found)
    if preferred or found:
        choice = (preferred or sorted(found, key=distinct_first))[0]
        return [choice], choice
    if prover.exhaustive or all(prover.action(task.parse_action(a)).value is True for a in universe):
        return [], "None"
    return None


def official_grounding(prover) -> dict:
    """The ground actions tarski's relaxed-reachability grounding keeps for the prover's state (each precondition
    relaxed-reachable from it), by PDDL string: the only actions the official check asks its planner about."""
    facts = prover.relaxed.facts
    return {text: action for text, action in grounded_actions(prover.task).items()
            if all(f in facts for f in action.pre)}


def only_gold_accepted(q: Question, steps: int = 2) -> str | None:
    """A proof that ACPBench's check accepts no answer to `q` outside the gold's own list, or None: every action of
    the official grounding applies in some state reachable from the question's, so its planner finds each one's
    preconditions reachable and the check rejects it. The witnesses are states enumerated at the question's budget,
    then FACTOR**k times it (k = 1..steps) while some action is not yet seen applicable."""
    for k in range(steps + 1):
        prover = question_prover(replace(q, budget=q.budget * FACTOR ** k))
        kept = official_grounding(prover)
        unseen = set(kept) - reachable_actions(prover)
        if not unseen:
            return (f"the official check accepts only the gold's pick: each of the {len(kept)} actions tarski's "
                    f"grounding keeps applies in one of {len(prover.nodes)} states reachable from the question's")
        if prover.exhaustive:
            return None  # some action of the grounding never applies: the official check accepts it
    if not unseen - _walked(prover, {kept[a] for a in unseen}):
        return (f"the official check accepts only the gold's pick: each of the {len(kept)} actions tarski's "
                f"grounding keeps applies in a state reachable from the question's ({len(kept) - len(unseen)} in "
                f"{len(prover.nodes)} enumerated states, {len(unseen)} along seeded random walks)")
    return None


def _walked(prover, wanted: set, walks: int = WALKS, length: int = WALK_LENGTH) -> set[str]:
    """The actions of `wanted` (ground actions of the prover's task) that apply in some state along seeded random
    walks from the prover's state (deep states an enumeration within the budget does not reach)."""
    task, rng = prover.task, random.Random(0)
    left = {id(a): a for a in wanted}
    for _ in range(walks):
        state = prover.state
        for _ in range(length):
            actions = task.applicable(state)
            if not actions:
                break
            for action in actions:
                left.pop(id(action), None)
            state = task.apply(state, rng.choice(actions))
        if not left:
            break
    return {str(a) for a in wanted if id(a) not in left}


def _h2_unreachable(prover, found: dict) -> list[str]:
    """The first ground action of the official grounding (its preconditions each relaxed-reachable) that no
    enumerated state applies and two of whose preconditions h^2 proves mutex: one the official planner check
    accepts beyond the gold's list."""
    if prover.exhaustive or prover.task.num_facts > H2_LIMIT:
        return []
    reachable = reachable_actions(prover)
    for text, action in official_grounding(prover).items():
        if text in found or text in reachable:
            continue
        if any(not prover.h2.pair(p, r) for p, r in itertools.combinations_with_replacement(action.pre, 2)):
            return [text]
    return []


def _solve_unlisted(prover):
    """Where the type-consistent actions are too many to classify: an action of the official grounding h^2 proves
    never applies, else the first binding grounding drops (distinct objects first, among the first SCAN_LIMIT)."""
    preferred = _h2_unreachable(prover, {})
    if preferred:
        return preferred, preferred[0]
    grounded, repeated = grounded_actions(prover.task), None
    for text in itertools.islice(bindings(prover.task, action_schemas(prover.task)), SCAN_LIMIT):
        if text in grounded:
            continue
        if not distinct_first(text)[0]:
            return [text], text
        repeated = repeated or text
    return None if repeated is None else ([repeated], repeated)


def decide(q: Question, item: dict, option: dict) -> bool | None:
    prover = question_prover(q)
    action = action_or_none(prover.task, option["action"])
    return False if action is None else prover.action(action).value


def bool_claim(q: Question) -> tuple | None:
    prover = question_prover(q)
    action = action_or_none(prover.task, q.item["action"])
    return None if action is None else ("action", str(action), prover.action(action))


def official(q: Question, parsed: str) -> Check:
    gold = list(q.answer or [])
    answer = parsed.strip().lower()
    decided = listed_or_none(gold, answer, "every action can apply and the answer is None",
                             "the gold is None and the answer names an action", "never-applicable action")
    if decided is not None:
        return decided
    prover = question_prover(q)
    action = canonical_action(prover.task, answer)
    if action is None:
        return Check(False, f"{answer} is not a ground action of the task")
    verdict = prover.action(prover.task.parse_action(action))
    if verdict.value is False and verdict.proof.get("method") in ("static", "relaxed"):
        return Check(False, f"{answer} is not ground by the official relaxed-reachability grounding", verdict.proof)
    return unsolvable(verdict, answer, "can never apply", "can apply")


def sound(q: Question, answer) -> Check:
    if answer is None:
        return none_check(q, "actions")
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


def audit(q: Question, found, official_verdict) -> list:
    return audit_unreachable(q, found, official_verdict, "actions")


def verify(q: Question) -> list[str]:
    return replay_claims(q, "action", "action")


def claim(task, answer) -> tuple:
    return "action", canonical_action(task, answer) or str(answer), False


def tarski_check(q: Question) -> str:
    return "its check of an answer outside the gold's list"  # tarski grounds the answer's preconditions


TASK = ACPTask("areach", "one", "act", areach, solve, official, sound, audit, decide, verify,
               oracle=first_listed, claim=claim, only_gold=only_gold_accepted, bool_claim=bool_claim,
               tarski_check=tarski_check)

"""What reach and areach questions rest on: which atoms and actions can never hold or apply from a state.

Reachable claims are witnessed by a plan; unreachable ones are proved by type/static checks, the delete
relaxation, h^2 mutexes or exhaustive enumeration (see `apb.acp.proofs`). Also the checks both tasks share: the
sound scorer's verdict on a "None" answer, the official planner check's verdict on an unsolvable goal, and the
audit of a gold list of never-holding atoms or never-applying actions.
"""

from __future__ import annotations

import weakref

from apb.acp.proofs import H2_LIMIT, Prover, Verdict, fact_key, normal_atom
from apb.acp.records import Question
from apb.acp.tasks.common import (
    Situation,
    action_schemas,
    action_universe,
    atom_universe,
    parsed_action,
    sampled_bindings,
)
from apb.acp.truth import (
    Check,
    canonical_action,
    not_a_proposition,
    paren,
    question_prover,
)
from apb.engine import State
from apb.planners.h2 import H2

_GROUNDED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def grounded_actions(task) -> dict:
    """The task's ground actions by their PDDL string (built once per task; its keys are the fallback universe
    of actions when the type-consistent one is too big)."""
    if task not in _GROUNDED:
        _GROUNDED[task] = {str(a): a for a in task.actions}
    return _GROUNDED[task]


def action_candidates(task) -> list[str]:
    """The universe of actions of a task: every type-consistent binding, else (too many) the grounded ones."""
    universe = action_universe(task)
    if universe is None:
        if task not in _NAMES:
            _NAMES[task] = list(grounded_actions(task))
        universe = _NAMES[task]
    return universe


def state_h2(sit: Situation):
    """h^2 from the situation's own state (the solver's prover computes it from the question's state, so a
    generative gold beyond the enumerated space lists what the solver proves), None above H2_LIMIT facts."""
    if sit.task.num_facts > H2_LIMIT:
        return None
    if "h2" not in sit.cache:
        sit.cache["h2"] = H2(sit.task, sit.state)
    return sit.cache["h2"]


def reachable_atoms(sit: Situation) -> list[str]:
    """Facts false in the state that hold in some enumerated state reachable from it."""
    prover, task = sit.prover, sit.task
    bits = prover.reachable_bits() & ~sit.state.bits
    return [task.fact_names[i] for i in task.fact_ids(State(bits)) if task.fact_names[i] not in task.static_facts]


def _memo(prover: Prover, name: str, universe: list[str], compute) -> dict[str, str]:
    """A classification of a task's universe of atoms or actions, computed once per prover (a task has one
    universe of each kind)."""
    key = (name, len(universe))
    if key not in prover.memo:
        prover.memo[key] = compute()
    return prover.memo[key]


def unreachable_atoms(prover: Prover, universe: list[str]) -> dict[str, str]:
    """Atoms of the universe proved unreachable, with the method of the proof (relaxed, or exhaustive when the
    space from the state is complete); computed once per prover and universe."""
    return _memo(prover, "atoms", universe, lambda: _unreachable_atoms(prover, universe))


def _unreachable_atoms(prover: Prover, universe: list[str]) -> dict[str, str]:
    relaxed = prover.relaxed.facts
    union = prover.reachable_bits()
    found = {}
    for atom in universe:
        fid = fact_key(prover.task, atom)
        if fid is None or fid not in relaxed:
            found[atom] = "relaxed"
        elif prover.exhaustive and not union >> fid & 1:
            found[atom] = "exhaustive"
    return found


def reachable_actions(prover: Prover) -> set[str]:
    """Actions applicable in some enumerated state reachable from the state (computed once per prover)."""
    if "reachable_actions" not in prover.memo:
        space = prover.space
        ids = set()
        for node in prover.nodes:
            if node < len(space.succ):
                ids.update(aid for aid, _ in space.succ[node])
        prover.memo["reachable_actions"] = {str(space.actions[aid]) for aid in ids}
    return prover.memo["reachable_actions"]


def distinct_first(action: str) -> tuple[bool, str]:
    """Sort key over never-applicable actions outside the official grounding (which ACPBench's code accepts only as
    the gold's own pick): those binding distinct objects first, as the release's gold picks are wherever one exists;
    a repeated-argument one (`(sail l0 l0)`) only where no other action is never applicable."""
    args = action.strip("()").split()[1:]
    return len(set(args)) < len(args), action


def ungrounded_sample(task, rng, count: int = 200) -> list[str]:
    """Type-consistent actions grounding drops (a static precondition is false, or the delete relaxation never
    reaches one from the initial state: they never apply), drawn at random, for a task whose universe of actions is
    too big to list (untyped domains such as Driverlog's and Zenotravel's, whose grounded actions all apply
    somewhere), in `distinct_first` order."""
    grounded = grounded_actions(task)
    costs = bool(getattr(task, "has_costs", False))
    drawn = sampled_bindings(task, action_schemas(task), rng, count)
    found = [a for a in drawn if a not in grounded and (not costs or parsed_action(task, a) is not None)]
    return sorted(found, key=distinct_first)


def unreachable_actions(prover: Prover, universe: list[str]) -> dict[str, str]:
    """Actions of the universe proved never applicable (static, relaxed, or exhaustive on a complete space);
    computed once per prover and universe."""
    return _memo(prover, "actions", universe, lambda: _unreachable_actions(prover, universe))


def _unreachable_actions(prover: Prover, universe: list[str]) -> dict[str, str]:
    """Methods: 'ungrounded' (grounding drops the action: a static precondition is false, or it is delete-relaxed
    unreachable from the task's initial state, which the state is reachable from), 'relaxed' (from the state),
    'exhaustive'."""
    task = prover.task
    reachable = reachable_actions(prover)
    grounded = grounded_actions(task)
    costs = bool(getattr(task, "has_costs", False))
    found = {}
    for text in universe:
        if text in reachable:
            continue
        action = grounded.get(text)
        if action is None:
            # with action costs, a binding whose cost the problem does not define is not an action of the task
            if not costs or parsed_action(task, text) is not None:
                found[text] = "ungrounded"
        elif any(f not in prover.relaxed.facts for f in action.pre):
            found[text] = "relaxed"
        elif prover.exhaustive:
            found[text] = "exhaustive"
    return found


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
                verdict = prover.atoms([paren(item)])
                if verdict.value is False:
                    return paren(item), verdict.proof
        else:
            action = canonical_action(task, item)
            if action is not None:
                verdict = prover.action(task.parse_action(action))
                if verdict.value is False:
                    return action, verdict.proof
    return None


def none_check(q: Question, kind: str) -> Check:
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


def listed_or_none(gold: list, answer: str, none_right: str, none_wrong: str, listed: str) -> Check | None:
    """The official verdict where the gold decides it: an empty gold accepts only "None", a listed answer is right;
    None when the answer needs the planner check."""
    if not gold:
        ok = answer == "none"
        return Check(ok, none_right if ok else none_wrong)
    if answer in gold:
        return Check(True, f"{answer} is a listed {listed}")
    return None


def unsolvable(verdict: Verdict, what: str, never: str, can: str) -> Check:
    if verdict.value is False:
        return Check(True, f"{what} {never}", verdict.proof)
    if verdict.value is True:
        return Check(False, f"{what} {can}", verdict.proof)
    return Check(False, f"{what}: undecided within the search budget (a planner time-out)", verdict.proof)


def audit_unreachable(q, found, official_verdict, kind: str):
    prover = question_prover(q)
    task = prover.task
    findings = []
    gold = q.answer if isinstance(q.answer, list) else []
    for item in gold:
        if kind == "atoms":
            atom = str(item) if str(item).startswith("(") else f"({item})"
            reason = not_a_proposition(task, atom)
            if reason is not None:  # a static or ill-typed atom is no answer to "which proposition never holds"
                findings.append(found("wrong", f"{atom} is in the gold but is not a proposition of the task: {reason}",
                                      {"method": "type", "reason": reason}, ("atoms", atom, False)))
                continue
            verdict = prover.atoms([atom])
        else:
            action = canonical_action(task, item)
            if action is None:
                continue  # not a ground action of the task: it can never apply either
            verdict = prover.action(task.parse_action(action))
        if verdict.value is True:
            findings.append(found("wrong", f"{item} is in the gold but can become "
                                  + ("true" if kind == "atoms" else "applicable"), verdict.proof,
                                  ("atoms", atom, True) if kind == "atoms" else ("action", action, True)))
    universe = atom_universe(task) if kind == "atoms" else action_universe(task)
    unreachable = (unreachable_atoms(prover, universe) if kind == "atoms"
                   else unreachable_actions(prover, universe)) if universe else {}
    if gold and kind == "actions":
        listed = {normal_atom(str(a)) for a in gold}
        others = sorted((a for a, how in unreachable.items() if a not in listed and how in ("ungrounded", "relaxed")),
                        key=distinct_first)
        if others:
            findings.append(found("note", f"{len(others)} more never-applicable action(s) than the gold lists that the "
                                  "official scorer rejects (its grounding drops them), e.g. " + others[0],
                                  {others[0]: unreachable[others[0]],
                                   "official": official_verdict(q, others[0]).correct}))
    if not gold and unreachable:
        item = sorted(unreachable)[0]
        verdict = prover.atoms([item]) if kind == "atoms" else prover.action(task.parse_action(item))
        findings.append(found("wrong", f"the gold says None, but {item} can never "
                              + ("hold" if kind == "atoms" else "apply")
                              + f" ({len(unreachable)} such); the official scorer rejects it",
                              {**verdict.proof, "answer": item, "official": official_verdict(q, item).correct},
                              ("atoms" if kind == "atoms" else "action", item, False)))
    return findings


def first_listed(q: Question):
    """The first listed item of a reach/areach gold in the answer's shape (None for an empty list); reach atoms
    are stored bare."""
    gold = q.answer
    if not gold:
        return None
    return gold[0] if str(gold[0]).startswith("(") else f"({gold[0]})"

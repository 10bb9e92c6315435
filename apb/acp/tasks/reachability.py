"""reach (can a fact, or a pair of facts, ever hold) and areach (can an action ever become applicable).

Reachable claims are witnessed by a plan; unreachable ones are proved by type/static checks, the delete
relaxation, h^2 mutexes or exhaustive enumeration (see `apb.acp.proofs`). Distractors (ACPBench's recipe):
relaxed-unreachable facts and mutex pairs for reach; actions that can never apply for areach. Generative
questions need every atom (action) of the universe decided, so they are generated only where the state space
from the question's state was enumerated completely.
"""

from __future__ import annotations

import random
import weakref

from apb.acp.proofs import Prover, fact_key
from apb.acp.records import Question
from apb.acp.tasks.common import Situation, action_universe, arrange, atom_universe, parsed_action, pick
from apb.engine import State

PAIR_TRIES = 40
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


def _mutex_pair(sit: Situation, rng: random.Random, reachable: list[str]) -> tuple[list[str], dict] | None:
    """Two atoms, each reachable, that provably never hold together."""
    if len(reachable) < 2:
        return None
    for _ in range(PAIR_TRIES):
        p, q = sorted(rng.sample(reachable, 2))
        verdict = sit.prover.mutex(p, q)
        if verdict.value is False:
            return [p, q], verdict.proof
    return None


def _reachable_option(sit: Situation, rng: random.Random, reachable: list[str]) -> tuple[list[str], dict] | None:
    if not reachable:
        return None
    atoms = pick(rng, reachable, 1)
    verdict = sit.prover.atoms(atoms)
    return (atoms, verdict.proof) if verdict.value else None


def _unreachable_options(sit: Situation, rng: random.Random, count: int) -> list[tuple[list[str], dict]]:
    """Unreachable single atoms and mutex pairs, about half each where both exist."""
    universe = atom_universe(sit.task) or []
    found = unreachable_atoms(sit.prover, universe)
    singles = {atom: found[atom] for atom in pick(rng, list(found), 400)}
    reachable = reachable_atoms(sit)
    options = []
    # atoms only exhaustive search rules out are the subtle ones; relaxed-unreachable ones are often ill-matched
    subtle = [a for a, method in singles.items() if method == "exhaustive"]
    for atom in pick(rng, subtle if subtle and rng.random() < 0.7 else list(singles), count):
        verdict = sit.prover.atoms([atom])
        if verdict.value is False:
            options.append(([atom], verdict.proof))
    pairs = []
    for _ in range(count):
        pair = _mutex_pair(sit, rng, reachable)
        if pair and pair not in pairs:
            pairs.append(pair)
    mixed = []
    while (options or pairs) and len(mixed) < count:
        source = pairs if pairs and (not options or rng.random() < 0.5) else options
        mixed.append(source.pop(0))
    return mixed


def reach(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    if fmt == "gen":
        universe = atom_universe(sit.task)
        if universe is None or not sit.prover.exhaustive:
            return None
        found = unreachable_atoms(sit.prover, universe)
        gold = [a.strip("()") for a in sorted(found)]  # the release stores reach atoms without parentheses
        proof = {"method": "classification", "relaxed": sorted(a for a, m in found.items() if m == "relaxed"),
                 "exhaustive": len(sit.prover.nodes)}
        return sit.question("reach", fmt, {}, gold, {"unreachable": sorted(found)}, proof)
    reachable = reachable_atoms(sit)
    if fmt == "bool":
        option = _reachable_option(sit, rng, reachable) if want else next(iter(_unreachable_options(sit, rng, 1)),
                                                                            None)
        if option is None:
            return None
        atoms, proof = option
        return sit.question("reach", fmt, {"atoms": atoms}, "yes" if want else "no", {"reachable": want}, proof)
    correct = _reachable_option(sit, rng, reachable)
    wrong = _unreachable_options(sit, rng, 3)
    if correct is None or len(wrong) < 3:
        return None
    options, label = arrange(rng, {"atoms": correct[0]}, [{"atoms": atoms} for atoms, _ in wrong])
    proofs = [{"atoms": correct[0], "reachable": True, "proof": correct[1]}]
    proofs += [{"atoms": atoms, "reachable": False, "proof": proof} for atoms, proof in wrong]
    return sit.question("reach", fmt, {}, label, {"correct": correct[0]}, {"options": proofs}, options)


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


def areach(sit: Situation, fmt: str, rng: random.Random, want: bool) -> Question | None:
    task, prover = sit.task, sit.prover
    universe = action_universe(task)
    if fmt == "gen":
        if universe is None or not prover.exhaustive:
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
    if not never or len(reachable) < 3:
        return None
    correct = pick(rng, never, 1)[0]
    verdict = prover.action(task.parse_action(correct))
    if verdict.value is not False:
        return None
    distractors = pick(rng, later, 3) if len(later) >= 3 else pick(rng, reachable, 3)
    proofs = [{"action": correct, "reachable": False, "proof": verdict.proof}]
    for action in distractors:
        proofs.append({"action": action, "reachable": True, "proof": prover.action(task.parse_action(action)).proof})
    options, label = arrange(rng, {"action": correct}, [{"action": a} for a in distractors])
    return sit.question("areach", fmt, {}, label, {"correct": correct}, {"options": proofs}, options)

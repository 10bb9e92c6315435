"""reach: can a fact (or a pair of facts) ever hold; the generative question asks for a proposition that never
holds, or "None". Reachable claims are witnessed by a plan; unreachable ones are proved by type/static checks, the
delete relaxation, h^2 mutexes or exhaustive enumeration (`apb.acp.proofs`). Distractors: relaxed-unreachable facts
and mutex pairs. A generative gold lists every unreachable atom where the state space from the question's state was
enumerated completely; beyond it, the atoms the relaxation or h^2 rules out, else "None" where every atom is
witnessed by an enumerated state or a greedy plan (`_beyond`).

Official check: gold atoms are stored without parentheses and compared as "(atom)", lower-cased; an empty gold
accepts only "None"; another answer is right when a planner proves the atom unsolvable as a goal: an unknown
predicate or a wrong arity is a planner error (wrong), an unknown object or a mistyped atom can never hold (right).
apb decides unsolvability with its prover (relaxed reachability, exhaustive search, h^2).
Solver: an atom the prover proves unreachable (delete relaxation or exhaustive search, else h^2; where the
type-consistent atoms are too many to classify, the first the delete relaxation never reaches), else "None" when
every atom is proved reachable; bool/MCQ: the facts can hold together.
"""

from __future__ import annotations

import itertools
import random

from apb.acp.projection import projection_unreachable
from apb.acp.proofs import H2_LIMIT, fact_key, normal_atom
from apb.acp.records import Question
from apb.acp.space import replay
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import Situation, arrange, atom_plan, atom_universe, bindings, fluent_schemas, pick
from apb.acp.tasks.reachability import (
    audit_unreachable,
    first_listed,
    listed_or_none,
    none_check,
    reachable_atoms,
    state_h2,
    unreachable_atoms,
    unsolvable,
)
from apb.acp.truth import (
    Check,
    not_a_proposition,
    option_atoms,
    paren,
    question_prover,
    question_task,
    replay_claims,
    verdict_check,
)

PAIR_TRIES = 40
SCAN_LIMIT = 1_000_000  # type-consistent atoms scanned for a relaxed-unreachable one when there are too many to list
GOLD_SCAN = 100  # relaxed-unreachable atoms a generative gold lists when there are too many atoms to classify


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


def reach(sit: Situation, fmt: str, rng: random.Random, want: bool | str) -> Question | None:
    if fmt == "gen":
        universe = atom_universe(sit.task)
        if not sit.prover.exhaustive:
            return _beyond(sit, universe)
        if universe is None:
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
    options, label = arrange(rng, {"atoms": correct[0]}, [{"atoms": atoms} for atoms, _ in wrong], want)
    proofs = [{"atoms": correct[0], "reachable": True, "proof": correct[1]}]
    proofs += [{"atoms": atoms, "reachable": False, "proof": proof} for atoms, proof in wrong]
    return sit.question("reach", fmt, {}, label, {"correct": correct[0]}, {"options": proofs}, options)


def _beyond(sit: Situation, universe: list[str] | None) -> Question | None:
    """A generative question beyond the enumerated space: the gold lists the atoms the delete relaxation or h^2
    (from the state) proves never hold, or "None" when every atom holds in an enumerated state reachable from the
    state or at the end of a greedy plan (a witness plan for each, as the solver finds); where the atoms are too
    many to list, the first ones the relaxation rules out in the solver's scan order."""
    prover = sit.prover
    if universe is None:
        found = dict.fromkeys(itertools.islice(scan_relaxed(prover), GOLD_SCAN), "relaxed")
    else:
        found = dict(unreachable_atoms(prover, universe))
        h2 = state_h2(sit)
        union = prover.reachable_bits()
        for atom in universe if h2 is not None else ():
            fid = fact_key(sit.task, atom)
            if atom not in found and fid is not None and not union >> fid & 1 and not h2.pair(fid, fid):
                found[atom] = "h2"
        found.update(_projected(prover, universe, found))
    if not found:
        if universe is None or not all_witnessed(prover, universe):
            return None
        # every atom holds in an enumerated state reachable from the state or at the end of a plan: "None"
        return sit.question("reach", "gen", {}, [], {"unreachable": []},
                            {"method": "witnesses", "states": len(prover.nodes)})
    gold = [a.strip("()") for a in sorted(found)]
    proof = {"method": "classification", "relaxed": sorted(a for a, m in found.items() if m == "relaxed"),
             "h2": sorted(a for a, m in found.items() if m == "h2"),
             "projection": sorted(a for a, m in found.items() if m == "projection"), "complete": False}
    return sit.question("reach", "gen", {}, gold, {"unreachable": sorted(found)}, proof)


def all_witnessed(prover, universe: list[str]) -> bool:
    """Whether every atom of the universe can hold: in the state or an enumerated state reachable from it, else at
    the end of a plan from the state that greedy search finds (`atom_plan`, ATOM_NODES expansions, replayed)."""
    union = prover.reachable_bits()
    task = prover.task
    for atom in universe:
        fid = fact_key(task, atom)
        if fid is None:
            return False
        if union >> fid & 1:
            continue
        plan = atom_plan(task, prover.state, fid)
        states = replay(task, prover.state, plan) if plan is not None else None
        if not states or not states[-1].bits >> fid & 1:
            return False
    return True


def scan_relaxed(prover):
    """The type-consistent atoms (in binding order, the first SCAN_LIMIT) the delete relaxation never reaches."""
    return (a for a in itertools.islice(bindings(prover.task, fluent_schemas(prover.task)), SCAN_LIMIT)
            if _relaxed_unreachable(prover, a))


def solve(q: Question):
    prover = question_prover(q)
    universe = atom_universe(prover.task)
    if universe is None:  # too many atoms to classify: the first one the delete relaxation never reaches
        atom = next(scan_relaxed(prover), None)
        return None if atom is None else ([atom.strip("()")], atom)
    found = (unreachable_atoms(prover, universe) or _h2_unreachable(prover, universe)
             or _projected(prover, universe, {}, first=True))
    if found:
        atom = sorted(found)[0]
        return [atom.strip("()")], atom
    if prover.exhaustive or all_witnessed(prover, universe):  # each one has a witness plan
        return [], "None"
    return None


def _projected(prover, universe: list[str], found: dict, first: bool = False) -> dict[str, str]:
    """Atoms of the universe, beyond those found and those an enumerated state reaches, that the projection onto
    their objects' facts proves never hold (`apb.acp.projection`); `first`: the first one only."""
    if prover.exhaustive:
        return {}
    union = prover.reachable_bits()
    out = {}
    for atom in universe:
        fid = fact_key(prover.task, atom)
        if atom in found or fid is None or union >> fid & 1:
            continue
        if projection_unreachable(prover.task, prover.state, fid):
            out[atom] = "projection"
            if first:
                break
    return out


def _relaxed_unreachable(prover, atom: str) -> bool:
    fid = fact_key(prover.task, atom)
    return fid is None or fid not in prover.relaxed.facts


def _h2_unreachable(prover, universe: list[str]) -> dict[str, str]:
    """The first atom of the universe h^2 proves never holds, among those no enumerated state reaches (where the
    enumeration is incomplete and the delete relaxation proves none)."""
    if prover.exhaustive or prover.task.num_facts > H2_LIMIT:
        return {}
    union = prover.reachable_bits()
    for atom in universe:
        fid = fact_key(prover.task, atom)
        if fid is not None and not union >> fid & 1 and not prover.h2.pair(fid, fid):
            return {atom: "h2"}
    return {}


def decide(q: Question, item: dict, option: dict) -> bool | None:
    return question_prover(q).atoms(option_atoms(option)).value


def bool_claim(q: Question) -> tuple:
    atoms = option_atoms(q.item)
    return "atoms", atoms, question_prover(q).atoms(atoms)


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
    return unsolvable(verdict, atom, "can never hold", "can hold")


def official(q: Question, parsed: str) -> Check:
    gold = [f"({str(x).strip().lower()})" for x in q.answer or []]
    answer = parsed.strip().lower()
    return listed_or_none(gold, answer, "nothing is unreachable and the answer is None",
                          "the gold is None (every listed atom can hold) and the answer names an atom",
                          "unreachable atom") or unsolvable_atom(q, answer)


def sound(q: Question, answer) -> Check:
    if answer is None:
        return none_check(q, "atoms")
    atom = normal_atom(paren(answer))
    task = question_task(q)[0]
    reason = not_a_proposition(task, atom)
    if reason is not None:
        return Check(False, f"{atom} is not a proposition the question asks about: {reason}")
    if q.source == "apb" and atom in q.gold.get("unreachable", ()):
        return Check(True, "proved unreachable when the question was generated")
    return verdict_check(question_prover(q).atoms([atom]), False, f"{atom} can hold", f"{atom} can never hold")


def audit(q: Question, found, official_verdict) -> list:
    return audit_unreachable(q, found, official_verdict, "atoms")


def verify(q: Question) -> list[str]:
    return replay_claims(q, "atoms", "atoms")


def claim(task, answer) -> tuple:
    return "atoms", normal_atom(str(answer)), False


TASK = ACPTask("reach", "one", "act", reach, solve, official, sound, audit, decide, verify, oracle=first_listed,
               claim=claim, bool_claim=bool_claim)

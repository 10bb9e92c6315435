"""Proved verdicts about one state: atom and action reachability, fact landmarks, h* of successors.

Every verdict carries a proof a third party can replay with `check_proof`:
- `holds` / `applicable`: true in the state itself;
- `type`, `static`: the atom or action can never hold or apply (ill-typed, a static fact that is false);
- `relaxed`: not reachable even under the delete relaxation;
- `h2`: an h^2 mutex (or h^2-unreachable fact);
- `plan`: a witness plan (to a state where the claim holds, or to the goal avoiding a fact);
- `goal`, `relaxed-achievers`: landmark proofs (a goal fact; the goal is relaxed-unreachable without the fact);
- `exhaustive`: every state reachable from the state was enumerated (the count is recorded).
A claim none of these settle within the node budget gets `None`: such questions are not generated.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from apb.acp.projection import projection_unreachable
from apb.acp.space import DEFAULT_BUDGET, StateSpace, replay
from apb.engine import GroundAction, State, Task
from apb.engine.ground import fluent_predicates
from apb.planners.h2 import H2, reachable_pairs
from apb.planners.relaxed import relaxed_closure

H2_LIMIT = 2000  # h^2 is computed for tasks with at most this many facts (0.2 s at 461, 1.5-2.6 s at 1,479: Alfworld)


@dataclass
class Verdict:
    """A decided (True/False) or undecided (None) claim with its proof."""

    value: bool | None
    proof: dict = field(default_factory=dict)


_INDEX: weakref.WeakKeyDictionary[Task, dict[str, int]] = weakref.WeakKeyDictionary()


def fact_key(task: Task, atom: str) -> int | None:
    """The task's fact id of an atom string, None when the atom is not a fluent fact of the task."""
    index = _INDEX.get(task)
    if index is None:
        index = _INDEX[task] = {name: i for i, name in enumerate(task.fact_names)}
    return index.get(normal_atom(atom))


def normal_atom(atom: str) -> str:
    """'( At  c1 L0 )' -> '(at c1 l0)'."""
    return "(" + " ".join(atom.strip().strip("()").lower().split()) + ")"


class Prover:
    """Decides claims about `state`; uses an enumerated space when it covers the state, else search with a budget."""

    def __init__(self, task: Task, state: State, space: StateSpace | None = None, *, budget: int = DEFAULT_BUDGET,
                 h2: Callable[[], H2] | None = None) -> None:
        self.task = task
        self.state = state
        self.budget = budget
        if space is None or state not in space.index:
            space = StateSpace(task, state, budget)
        self.space = space
        self.node = space.index[state]
        self.nodes = space.closure(self.node)
        self.exhaustive = space.closure_complete(self.node)
        self._relaxed = None
        self._h2: H2 | None = None
        self._h2_factory = h2  # h^2 from an ancestor state (e.g. the initial state) is valid here too
        self._union = None
        self.memo: dict = {}  # analyses of this state computed by callers (e.g. the actions that can apply)

    # ---- shared analyses -----------------------------------------------------------------------------------------
    @property
    def relaxed(self):
        if self._relaxed is None:
            self._relaxed = relaxed_closure(self.task, self.state)
        return self._relaxed

    @property
    def h2(self) -> H2:
        if self._h2 is None:
            self._h2 = self._h2_factory() if self._h2_factory else H2(self.task, self.state)
        return self._h2

    def reachable_bits(self) -> int:
        """The union of the facts of every enumerated state reachable from the state."""
        if self._union is None:
            bits = 0
            states = self.space.states
            for n in self.nodes:
                bits |= states[n].bits
            self._union = bits
        return self._union

    def _exhaustive_proof(self) -> dict:
        return {"method": "exhaustive", "states": len(self.nodes)}

    # ---- atoms ---------------------------------------------------------------------------------------------------
    def atoms(self, atoms: list[str]) -> Verdict:
        """Can a state where every atom holds be reached from the state?"""
        task = self.task
        ids = []
        for atom in atoms:
            problem = static_problem(task, atom)
            if problem is not None:
                return Verdict(False, problem)
            if task.holds(self.state, atom) and fact_key(task, atom) is None:
                continue  # a static fact that holds
            fid = fact_key(task, atom)
            if fid is None or fid not in self.relaxed.facts:
                return Verdict(False, {"method": "relaxed", "atom": atom})
            ids.append(fid)
        mask = sum(1 << f for f in ids)
        if self.state.bits & mask == mask:
            return Verdict(True, {"method": "holds"})
        space = self.space
        states = space.states
        if self.exhaustive and not any(states[n].bits & mask == mask for n in self.nodes):
            return Verdict(False, self._exhaustive_proof())
        path = space.path(self.node, lambda n: states[n].bits & mask == mask)
        if path is not None:
            return Verdict(True, {"method": "plan", "plan": [str(a) for a in path]})
        if len(ids) <= 2 and self.task.num_facts <= H2_LIMIT:
            p, q = (ids * 2)[:2]
            if not self.h2.pair(p, q):
                return Verdict(False, {"method": "h2", "atoms": list(atoms)})
        for fid in ids:
            if projection_unreachable(task, self.state, fid):
                return Verdict(False, {"method": "projection", "atoms": [task.fact_names[fid]]})
        return Verdict(None, {"method": "undecided", "states": len(self.nodes)})

    def mutex(self, p: str, q: str) -> Verdict:
        """An h^2 proof that two atoms never hold together (True), else the general reachability verdict negated."""
        pid, qid = fact_key(self.task, p), fact_key(self.task, q)
        if pid is not None and qid is not None and self.task.num_facts <= H2_LIMIT and not self.h2.pair(pid, qid):
            return Verdict(False, {"method": "h2", "atoms": [p, q]})
        if not self.exhaustive:
            return Verdict(None, {"method": "undecided"})
        return self.atoms([p, q])

    # ---- actions -------------------------------------------------------------------------------------------------
    def action(self, action: GroundAction) -> Verdict:
        """Can `action` become applicable in some state reachable from the state?"""
        task = self.task
        if not task.explain(self.state, action):
            return Verdict(True, {"method": "applicable"})
        if action.never_applicable:
            return Verdict(False, {"method": "static", "unmet": task.explain(self.state, action)})
        if any(f not in self.relaxed.facts for f in action.pre):
            return Verdict(False, {"method": "relaxed"})
        space = self.space
        path = space.path(self.node, lambda n: not task.explain(space.states[n], action))
        if path is not None:
            return Verdict(True, {"method": "plan", "plan": [str(a) for a in path]})
        if not self.exhaustive and task.num_facts <= H2_LIMIT:
            for p, q in itertools.combinations_with_replacement(action.pre, 2):
                if not self.h2.pair(p, q):
                    return Verdict(False, {"method": "h2", "atoms": [task.fact_names[p], task.fact_names[q]]})
        if self.exhaustive:
            return Verdict(False, self._exhaustive_proof())
        return Verdict(None, {"method": "undecided", "states": len(self.nodes)})

    # ---- goals, landmarks, h* ------------------------------------------------------------------------------------
    def plan(self) -> list[GroundAction] | None:
        """A shortest plan from the state (None if there is none or the budget cannot tell)."""
        space, task = self.space, self.task
        return space.path(self.node, lambda n: task.is_goal(space.states[n]))

    def landmark(self, atom: str, plan: list[str] | None = None, h2: bool = True) -> Verdict:
        """Must `atom` (false in the state) become true on every plan from the state? `plan` is a known plan,
        used as the non-landmark witness when the atom never holds along it."""
        task = self.task
        fid = fact_key(task, atom)
        if task.holds(self.state, atom):
            return Verdict(None, {"method": "holds"})
        if any(str(lit) == normal_atom(atom) for lit in task.goal if lit.positive):
            return Verdict(True, {"method": "goal"})
        if plan is not None and fid is not None:
            states = replay(task, self.state, plan)
            if states is not None and task.is_goal(states[-1]) and not any(s.bits >> fid & 1 for s in states):
                return Verdict(False, {"method": "plan", "plan": list(plan)})
        if fid is None:
            witness = self.plan()
            if witness is not None:
                return Verdict(False, {"method": "plan", "plan": [str(a) for a in witness]})
            return Verdict(None, {"method": "undecided"})
        if not relaxed_closure(task, self.state, banned_fact=fid).goal:
            return Verdict(True, {"method": "relaxed-achievers"})
        space = self.space
        path = space.path(self.node, lambda n: task.is_goal(space.states[n]),
                          avoid=lambda n: bool(space.states[n].bits >> fid & 1))
        if path is not None:
            return Verdict(False, {"method": "plan", "plan": [str(a) for a in path]})
        if self.exhaustive:
            return Verdict(True, self._exhaustive_proof())
        if h2 and self._h2_landmark(fid):
            return Verdict(True, {"method": "h2-achievers"})
        return Verdict(None, {"method": "undecided", "states": len(self.nodes)})

    def _h2_landmark(self, fid: int) -> bool:
        """The h^m landmark test with m = 2: with every action that adds the fact left out, h^2 from the state
        shows the goal's facts never hold together, so every plan adds it (STRIPS tasks within H2_LIMIT)."""
        task = self.task
        if not task.is_strips or task.num_facts > H2_LIMIT:
            return False
        pairs = reachable_pairs(task, self.state.bits, [a for a in task.actions if fid not in a.add])
        goal = task.goal_pos
        return any(not pairs[p] >> q & 1 for p in goal for q in goal)


def static_problem(task: Task, atom: str) -> dict | None:
    """A proof that an atom can never hold for type or static reasons, else None."""
    name, *args = normal_atom(atom).strip("()").split() or ("",)
    schema = task.domain.predicates.get(name)
    if schema is None:
        return {"method": "type", "reason": f"no predicate {name}"}
    if len(args) != len(schema.parameters):
        return {"method": "type", "reason": f"{name} takes {len(schema.parameters)} arguments"}
    for arg, param in zip(args, schema.parameters):
        kind = task.objects.get(arg)
        if kind is None or not task.domain.is_subtype(kind, param.types):
            return {"method": "type", "reason": f"{arg} cannot be the {param.name} of {name}"}
    if name not in fluent_predicates(task.domain) and not task.holds(task.initial_state, atom):
        return {"method": "static", "reason": f"{name} is static and {normal_atom(atom)} is false"}
    return None


def check_proof(task: Task, state: State, kind: str, claim, verdict: Verdict, *,
                budget: int = DEFAULT_BUDGET) -> bool:
    """Replays the proof of a verdict: kind 'atoms' (claim: list of atoms), 'action' (PDDL text) or 'landmark'
    (an atom). Returns whether the proof establishes the verdict."""
    proof = verdict.proof
    method = proof.get("method")
    if method == "plan":
        states = replay(task, state, proof["plan"])
        if states is None:
            return False
        end = states[-1]
        if kind == "atoms":
            return verdict.value is True and all(task.holds(end, a) for a in claim)
        if kind == "action":
            return verdict.value is True and not task.explain(end, claim)
        fid = fact_key(task, claim)
        return (verdict.value is False and task.is_goal(end)
                and (fid is None or not any(s.bits >> fid & 1 for s in states)))
    # only an exhaustive proof needs the state space again (as large as it was); the others replay without one
    size = max(budget, int(proof.get("states", 0)) + 1) if method == "exhaustive" else 1
    fresh = Prover(task, state, budget=size)
    if kind == "atoms":
        if method in ("type", "static"):
            return verdict.value is False and any(static_problem(task, a) for a in claim)
        if method == "holds":
            return verdict.value is True and all(task.holds(state, a) for a in claim)
        if method == "h2":
            return verdict.value is False and _h2_replays(task, fresh, proof["atoms"])
        if method == "projection":
            fid = fact_key(task, proof["atoms"][0])
            return (verdict.value is False and fid is not None and proof["atoms"][0] in map(normal_atom, claim)
                    and projection_unreachable(task, state, fid))
        again = fresh.atoms(list(claim))
    elif kind == "action":
        again = fresh.action(task.parse_action(claim))
        if method == "h2":
            return verdict.value is False and _h2_replays(task, fresh, proof["atoms"])
    else:
        again = fresh.landmark(claim)
    # Re-deriving the verdict from the question's own PDDL replays it; the method may be a stronger one (grounding
    # from the question's state prunes what the relaxation rules out, so 'relaxed' can come back as 'static').
    return again.value == verdict.value and again.value is not None


def _h2_replays(task: Task, prover: Prover, atoms: list[str]) -> bool:
    """Whether h^2 from the state (or, for atoms outside the task's relaxed-reachable facts, the relaxation)
    shows that the atoms never hold together."""
    ids = [fact_key(task, a) for a in atoms]
    if any(i is None or i not in prover.relaxed.facts for i in ids):
        return True
    return not prover.h2.pair(*(ids * 2)[:2])

"""Goal full specification: the facts true in every reachable state that satisfies the goal.

Two problems with the same initial state have the same goal states exactly when these closures are equal, so the
closure is what scene graphs compare. A domain rule (apb.equivalence.rules) gives it exactly where one applies;
otherwise the generic closure brackets it between a sound lower bound and an upper bound:

- lower (facts proved implied): the goal; static facts of the init; init facts of predicates no action deletes;
  preconditions every achiever of a goal fact shares that can never be deleted (monotone landmarks); and the facts
  forced by exactly-one mutex groups once every other member is mutex with an implied fact (a fixpoint);
- upper (facts not yet refuted): the intersection of the goal states found by a breadth-first exploration of the
  state space, then by greedy searches for a goal state without each remaining candidate.

When the exploration covers the whole state space, or the bounds meet, the closure is exact. Every search runs
under a node budget, so the closure never hangs; budgets exhausted leave it `partial` and comparisons `unknown`.

apb's bundled domains, and why their goals' closures come out exact (tests/test_equivalence_properties.py checks the
example and a spread of test problems; measured over all 20 test problems of each, with the default budget):
- Blocksworld: the exact rule (apb.equivalence.rules), 20/20.
- Gripper, Grippers, Ferry, Grid, Logistics: every implied fluent fact is the one member left of an exactly-one
  group (a free gripper once every ball is placed, the empty ferry, the empty arm) once its other members are mutex
  with the goal; everything else in a goal state can be moved away, and the searches find that. 20/20 each.
- Rovers, Satellite, Visitall, Movie, Goldminer: implied facts are never-deleted init facts, monotone landmarks
  (the analysis a communication needs) or forced by h^2 mutexes (a cleared location holding the gold); 20/20 each.
- Floortile: the same, plus refutation by achieving another member of a candidate's exactly-one group with apb's
  greedy planner (a robot elsewhere): 20/20.
- Depot: a crate stands where its surface stands, a derivation (apb.equivalence.rules.depot_colocation) the pairwise
  analyses cannot make; with it 18/20. The other two leave `clear` of a crate whose refutation (another stack on
  it) the budget does not reach: `partial`, and comparisons there may answer `unknown`.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field, replace

from apb.engine import Domain, Literal, Task
from apb.engine.bits import bit_ids
from apb.equivalence.invariants import GroundModel, Group, mutex_groups
from apb.equivalence.scene import Scene, monotone_predicates, unconditional_effect_predicates
from apb.planners import solve
from apb.planners.h2 import bits_of, reachable_pairs
from apb.planners.space import Successors

EXACT, PARTIAL, UNSOLVABLE, UNKNOWN = "exact", "partial", "unsolvable", "unknown"
MAX_PAIR_FACTS = 1500  # h^2 mutexes only up to this many facts (its cost grows with their square)


@dataclass(frozen=True)
class Budget:
    """Search budgets of the generic closure: states explored breadth-first, nodes per greedy search, in total, and
    a time limit over all of its searches (seconds, None for none) for tasks whose states are costly to expand."""

    explore: int = 20000
    search: int = 5000
    total: int = 100000
    seconds: float | None = 20.0


@dataclass(frozen=True)
class Closure:
    """A goal's closure. `status`: exact (lower == upper), partial (bounds differ), unsolvable (no goal state is
    reachable: proved), unknown (no goal state found within budget). Atoms include the static init facts."""

    status: str
    lower: frozenset
    upper: frozenset | None
    method: str
    reason: str = ""
    nodes: int = field(default=0, compare=False)

    @property
    def exact(self) -> bool:
        """Whether the closure is decided (exact, or the goal proved unsatisfiable)."""
        return self.status in (EXACT, UNSOLVABLE)


def _popcount(bits: int) -> int:
    return bin(bits).count("1")


def _ids(bits: int) -> set[int]:
    return set(bit_ids(bits))


class _Search:
    """Breadth-first exploration and greedy goal searches over the task's state bits, sharing one node budget."""

    def __init__(self, task: Task, budget: Budget) -> None:
        self.successors = Successors(task)
        self.pos, self.neg = task.goal_pos_mask, task.goal_neg_mask
        self.budget = budget
        self.nodes = 0
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds

    def out_of_time(self) -> bool:
        """Whether the time limit has passed (checked every 256 nodes)."""
        return self.deadline is not None and not self.nodes & 255 and time.monotonic() > self.deadline

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def is_goal(self, bits: int) -> bool:
        return bits & self.pos == self.pos and not bits & self.neg

    def explore(self, start: int) -> tuple[list[int], bool]:
        """Goal states met breadth-first from `start`, and whether the whole reachable space was covered."""
        seen = {start}
        frontier = [start]
        goals = [start] if self.is_goal(start) else []
        limit = min(self.budget.explore, self.budget.total)
        while frontier:
            nxt = []
            for bits in frontier:
                self.nodes += 1
                for _, succ in self.successors(bits):
                    if succ not in seen:
                        seen.add(succ)
                        if self.is_goal(succ):
                            goals.append(succ)
                        nxt.append(succ)
                if len(seen) > limit or self.out_of_time():
                    return goals, False
            frontier = nxt
        return goals, True

    def greedy(self, start: int, avoid: int = 0) -> tuple[int | None, bool]:
        """A goal state reachable from `start` in which no bit of `avoid` is set; (state or None, exhausted)."""
        pos, neg = self.pos, self.neg | avoid

        def h(bits: int) -> int:
            return _popcount(pos & ~bits) + _popcount(neg & bits)

        heap = [(h(start), 0, start)]
        seen = {start}
        counter = 0
        limit = self.budget.search
        while heap:
            if limit <= 0 or self.nodes >= self.budget.total or self.out_of_time():
                return None, False
            hv, _, bits = heapq.heappop(heap)
            if hv == 0:
                return bits, True
            limit -= 1
            self.nodes += 1
            for _, succ in self.successors(bits):
                if succ not in seen:
                    seen.add(succ)
                    counter += 1
                    heapq.heappush(heap, (h(succ), counter, succ))
        return None, True


def _planner_witness(task: Task, search: _Search) -> tuple[int | None, bool]:
    """A reachable goal state found by apb's greedy planner (h_FF), and whether the planner proved there is none."""
    result = solve(task, "gbfs", timeout=search.seconds_left(), max_nodes=search.budget.search)
    if result.solved:
        return task.run(result.plan).bits, True
    return None, result.status == "unsolvable"


def _alternative_witness(domain: Domain, scene: Scene, task: Task, model: GroundModel, groups: list[Group],
                         fid: int, search: _Search) -> int | None:
    """A goal state without fact `fid`, found by apb's greedy planner (h_FF) on the goal plus another member of an
    exactly-one group of `fid` (which rules `fid` out); state bits of `task`, or None."""
    index = {fact: i for i, fact in enumerate(model.facts)}
    for group in groups:
        if not group.exactly_one or fid not in group.members:
            continue
        for other in sorted(group.members - {fid}):
            if search.nodes >= search.budget.total or search.out_of_time():
                return None
            fact = model.facts[other]
            problem = replace(scene.problem, goal=(*scene.problem.goal, Literal(fact[0], tuple(fact[1:]))))
            variant = Task(domain, problem)
            result = solve(variant, "gbfs", timeout=search.seconds_left(), max_nodes=search.budget.search)
            search.nodes += result.expanded
            if result.solved:
                state = variant.run(result.plan)
                return bits_of(index[tuple(name[1:-1].split())] for name in variant.facts(state))
    return None


def _lower_bound(model: GroundModel, goal: set[int], goal_neg: set[int], groups: list[Group],
                 monotone: frozenset[str], pairs: list[int] | None) -> set[int] | None:
    """Fact ids proved true in every reachable goal state, or None when that set is contradictory (unsolvable)."""
    facts = model.facts
    lower = set(goal) | {i for i in model.init if facts[i][0] in monotone}
    achievers: dict[int, list[frozenset]] = {}
    for pre, add, _ in model.actions:
        for fid in add:
            achievers.setdefault(fid, []).append(pre)
    groups_of: dict[int, list[Group]] = {}
    for group in groups:
        for fid in group.members:
            groups_of.setdefault(fid, []).append(group)
    changed = True
    while changed:
        changed = False
        for fid in list(lower):
            if fid in model.init:
                continue
            options = achievers.get(fid)
            if not options:
                return None
            common = frozenset.intersection(*options)
            new = {p for p in common if facts[p][0] in monotone} - lower
            if new:
                lower |= new
                changed = True
        excluded = set()
        for fid in lower:
            for group in groups_of.get(fid, ()):
                excluded |= group.members - {fid}
            if pairs is not None:
                excluded |= {q for q in range(len(facts)) if not pairs[fid] >> q & 1}
        if lower & excluded or lower & goal_neg:
            return None
        for group in groups:
            if group.exactly_one and not group.members & lower:
                left = group.members - excluded
                if not left:
                    return None
                if len(left) == 1:
                    lower |= left
                    changed = True
    return lower


def is_strips(domain: Domain) -> bool:
    """Whether the domain is STRIPS: no conditional effects, quantified or disjunctive preconditions, or derived
    predicates (the invariant and mutex analyses here assume STRIPS semantics)."""
    flag = getattr(domain, "is_strips", None)
    if isinstance(flag, bool):
        return flag
    return all(getattr(action, "is_strips", True) and all(isinstance(lit, Literal) for lit in
                                                          (*action.precondition, *action.effects))
               for action in domain.actions)


def generic_closure(domain: Domain, scene: Scene, budget: Budget | None = None) -> Closure:
    """The generic closure of `scene`'s goal (see the module docstring)."""
    budget = budget or Budget()
    if not is_strips(domain):  # conditional or quantified effects: the goal as written, compared as written
        return Closure(PARTIAL, frozenset(scene.goal), None, "generic",
                       "the domain is not STRIPS (conditional or quantified conditions), so implied goal facts "
                       "are not derived")
    fluent = unconditional_effect_predicates(domain)
    static_init = frozenset(a for a in scene.init if a[0] not in fluent)
    method = "generic"
    if any(g[0] not in fluent and g not in static_init for g in scene.goal) or scene.goal_neg & static_init:
        return Closure(UNSOLVABLE, static_init | scene.goal, None, method, "a static goal fact contradicts the init")
    task = Task(domain, scene.problem)
    model = GroundModel.of(task)
    index = {fact: i for i, fact in enumerate(model.facts)}
    goal = {index[g] for g in scene.goal if g[0] in fluent}
    goal_neg = {index[g] for g in scene.goal_neg if g in index and g[0] in fluent}
    reachable = set(model.init).union(*(add for _, add, _ in model.actions))
    if goal - reachable:
        return Closure(UNSOLVABLE, static_init | scene.goal, None, method, "a goal fact is unreachable")
    fluent_mask = bits_of(i for i, f in enumerate(model.facts) if f[0] in fluent)

    def atoms(ids) -> frozenset:
        return static_init | frozenset(model.facts[i] for i in ids)

    groups = mutex_groups(model, fluent)
    start_bits = task.initial_state.bits
    lower = _lower_bound(model, goal, goal_neg, groups, monotone_predicates(domain),
                         None if len(model.facts) > MAX_PAIR_FACTS else reachable_pairs(task, start_bits))
    if lower is None:
        return Closure(UNSOLVABLE, static_init | scene.goal, None, method, "the goal contradicts a mutex invariant")
    search = _Search(task, budget)
    start = task.initial_state.bits
    goals, complete = search.explore(start)
    if complete:
        if not goals:
            return Closure(UNSOLVABLE, atoms(lower), None, method, "no reachable state satisfies the goal",
                           search.nodes)
        upper = fluent_mask
        for bits in goals:
            upper &= bits
        closure = atoms(_ids(upper))
        return Closure(EXACT, closure, closure, method, "the whole state space was explored", search.nodes)
    witness = goals[0] if goals else None
    if witness is None:
        witness, exhausted = search.greedy(start)  # goal counting first: cheap, and enough for most goals
        if witness is None and not exhausted:
            witness, exhausted = _planner_witness(task, search)
        if witness is None:
            if exhausted:
                return Closure(UNSOLVABLE, atoms(lower), None, method, "no reachable state satisfies the goal",
                               search.nodes)
            return Closure(UNKNOWN, atoms(lower), None, method, "no goal state found within the search budget",
                           search.nodes)
        goals = [witness]
    upper = fluent_mask
    for bits in goals:
        upper &= bits
    monotone = monotone_predicates(domain)
    for fid in sorted(_ids(upper) - lower):
        if not upper >> fid & 1:
            continue
        # a fact no action deletes stays true once reached: refute it from the initial state, not the witness
        origin = start if model.facts[fid][0] in monotone else witness
        found, _ = search.greedy(origin, 1 << fid)
        if found is not None:
            upper &= found
    for fid in sorted(_ids(upper) - lower):  # still standing: make another member of its group true instead
        if upper >> fid & 1:
            found = _alternative_witness(domain, scene, task, model, groups, fid, search)
            if found is not None:
                upper &= found
    upper_ids = _ids(upper)
    status = EXACT if upper_ids == lower else PARTIAL
    reason = "" if status == EXACT else f"{len(upper_ids - lower)} candidate fact(s) neither proved nor refuted"
    return Closure(status, atoms(lower), atoms(upper_ids | lower), method, reason, search.nodes)

"""State heuristics on a task's delete relaxation: blind, goal count, h_max, h_add, h_FF and LM-cut.

A heuristic is called with a state's bitmask (`State.bits`) and returns a number, or `math.inf` for a state from
which the goal is unreachable even without deletes (a dead end). `admissible` says whether the value never exceeds
the optimal plan cost (the plan length on unit-cost tasks), which A* needs. h_max and LM-cut use the task's action
costs; h_add and h_FF count steps (each action 1, a zero-cost action 0), as greedy search wants. Negative
preconditions and goals are ignored by the relaxation, which keeps h_max and LM-cut admissible.
"""

from __future__ import annotations

import heapq

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planners.relaxed import INF, RelaxedTask, relaxed_task


class Heuristic:
    """Base class: `h(bits)` estimates the plan length from the state with that bitmask."""

    name = "heuristic"
    admissible = False

    def __init__(self, task: Task) -> None:
        self.task = task

    def __call__(self, bits: int) -> float:
        raise NotImplementedError


class Blind(Heuristic):
    """0 on goal states and 1 elsewhere: admissible for unit costs, and search becomes uniform cost."""

    name = "blind"
    admissible = True

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self._pos, self._neg = task.goal_pos_mask, task.goal_neg_mask
        # 1 is a lower bound on a non-goal state's cost only when no action is cheaper than 1.
        self._step = 1 if all(a.cost >= 1 for a in task.actions) else 0

    def __call__(self, bits: int) -> float:
        return 0 if bits & self._pos == self._pos and not bits & self._neg else self._step


class GoalCount(Heuristic):
    """The number of unsatisfied goal literals; not admissible (one action may achieve several goals)."""

    name = "goal-count"

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self._pos, self._neg = task.goal_pos_mask, task.goal_neg_mask

    def __call__(self, bits: int) -> float:
        return (self._pos & ~bits).bit_count() + (self._neg & bits).bit_count()


class HMax(Heuristic):
    """h_max: the costliest goal fact when each fact costs its costliest precondition plus its cheapest achiever's
    cost; admissible."""

    name = "hmax"
    admissible = True

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.relaxed = relaxed_task(task)
        self._explore = self.relaxed.explore if self.relaxed.unit else self.relaxed.explore_costs

    def __call__(self, bits: int) -> float:
        relaxed = self.relaxed
        value, _, _ = self._explore(relaxed.state_facts(bits), relaxed.action_cost, stop_at_goal=True)
        return value[relaxed.goal_fact]


class HAdd(Heuristic):
    """h_add: facts cost the sum of their achiever's precondition costs plus one; informative, not admissible."""

    name = "hadd"

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.relaxed = relaxed_task(task)

    def __call__(self, bits: int) -> float:
        value, _ = additive_costs(self.relaxed, bits)
        return value[self.relaxed.goal_fact]


class FF(Heuristic):
    """h_FF: the size of a relaxed plan built from h_add best supporters; greedy search's usual guide."""

    name = "ff"

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.relaxed = relaxed_task(task)

    def __call__(self, bits: int) -> float:
        return self._relaxed_plan(bits)[0]

    def relaxed_plan(self, bits: int) -> tuple[float, frozenset[int]]:
        """(h_FF, the indices of the task actions in the relaxed plan); those applicable in the state are greedy
        search's preferred operators (FF's helpful actions, as Fast Downward defines them for h_FF)."""
        cost, ops = self._relaxed_plan(bits)
        goal_op = self.relaxed.goal_op
        return cost, frozenset(op for op in ops if op < goal_op)

    def _relaxed_plan(self, bits: int) -> tuple[float, list[int]]:
        relaxed = self.relaxed
        value, supporter = additive_costs(relaxed, bits)
        if value[relaxed.goal_fact] == INF:
            return INF, []
        marked = bytearray(relaxed.num_ops)
        seen = bytearray(relaxed.num_facts)
        stack = [relaxed.goal_fact]
        ops = []
        cost = 0
        pre, op_cost = relaxed.pre, relaxed.cost
        while stack:
            f = stack.pop()
            op = supporter[f]
            if op < 0 or marked[op]:
                continue
            marked[op] = 1
            ops.append(op)
            cost += op_cost[op]
            for p in pre[op]:
                if not seen[p]:
                    seen[p] = 1
                    stack.append(p)
        return cost, ops


def additive_costs(relaxed: RelaxedTask, bits: int) -> tuple[list, list[int]]:
    """h_add value of every fact and its best supporter (-1 for true facts), by Dijkstra on sums."""
    value: list = [INF] * relaxed.num_facts
    supporter = [-1] * relaxed.num_facts
    unsatisfied = relaxed.pre_count[:]
    total = [0] * relaxed.num_ops
    pre_of, add, cost = relaxed.pre_of, relaxed.add, relaxed.cost
    heap = []
    for f in relaxed.state_facts(bits):
        value[f] = 0
        heap.append((0, f))
    while heap:
        v, f = heapq.heappop(heap)
        if v != value[f]:
            continue
        for op in pre_of[f]:
            total[op] += v
            unsatisfied[op] -= 1
            if unsatisfied[op]:
                continue
            reach = total[op] + cost[op]
            for e in add[op]:
                if value[e] > reach:
                    value[e] = reach
                    supporter[e] = op
                    heapq.heappush(heap, (reach, e))
    return value, supporter


class LMCut(Heuristic):
    """LM-cut (Helmert & Domshlak 2009): the summed cost of disjunctive action landmarks found as cuts in h_max
    justification graphs; each cut costs its cheapest operator's remaining cost, which is then taken off every
    operator of the cut before the next; admissible and well informed, with the task's action costs.

    On unit-cost tasks (every cost 0 or 1) every cut costs 1 and a landmark is a frozenset of operator indices.
    There `evaluate(bits, inherited)` may start from landmarks already known to hold in the state, such as the
    landmarks of its parent that do not contain the action leading to it (every plan from the child, prefixed
    by that action, is a plan from the parent): their operators start free, so the remaining cuts usually take
    one or two h_max explorations instead of one per landmark (incremental LM-cut, Pommerening & Helmert 2013).
    The value is an admissible cost partitioning either way.
    """

    name = "lmcut"
    admissible = True

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.relaxed = relaxed_task(task)
        relaxed = self.relaxed
        # Both settle facts of equal h_max last-reached first, as Fast Downward does (the precondition choices, and
        # so the cuts, depend on it); a bucket queue per level where every cost is 0 or 1, else Dijkstra.
        self._explore = relaxed.explore if relaxed.unit else relaxed.explore_costs
        # The operators that cost nothing in the task (as bitmasks), and the least positive operator cost.
        self._free_masks = [relaxed.op_masks[op] for op in range(relaxed.num_ops) if not relaxed.action_cost[op]]
        self._least_cost = min((c for c in relaxed.action_cost if c > 0), default=0)

    def __call__(self, bits: int) -> float:
        if self.relaxed.unit:
            return self.evaluate(bits)[0]
        return self.evaluate_costs(bits)[0]

    def evaluate_costs(self, bits: int) -> tuple[float, tuple[tuple[frozenset, float], ...]]:
        """(h, the (landmark, cost) pairs found) under the task's action costs; (inf, ()) on a dead end."""
        facts = self.relaxed.state_facts(bits)
        cost = self.relaxed.action_cost[:]
        landmarks = []
        total = 0
        while True:
            cut = self.find_cut(facts, cost)
            if cut is None:
                return INF, ()
            if not cut:
                return total, tuple(landmarks)
            least = min(cost[op] for op in cut)
            for op in cut:
                cost[op] -= least
            total += least
            landmarks.append((cut, least))

    def residual_costs(self, landmarks) -> list:
        """Operator costs minus what the (landmark, cost) pairs `landmarks` consume of each of their operators."""
        cost = self.relaxed.action_cost[:]
        for ops, consumed in landmarks:
            for op in ops:
                cost[op] -= consumed
        return cost

    def goal_is_free_under(self, bits: int, cost: list, landmarks) -> bool:
        """Whether the goal is relaxed-reachable from the state through operators of cost 0 under `cost` (the
        task's free operators, and landmark operators whose cost `landmarks` used up): h_max = 0 under `cost`."""
        relaxed = self.relaxed
        masks = relaxed.op_masks
        goal = masks[relaxed.goal_op][0]
        reached = bits | relaxed.init_bit
        if reached & goal == goal:
            return True
        free = [masks[op] for ops, _ in reversed(landmarks) for op in ops if not cost[op]]
        free += self._free_masks
        while True:
            before = reached
            for pre, add in free:
                if reached & pre == pre:
                    reached |= add
            if reached & goal == goal:
                return True
            if reached == before:
                return False

    def next_cut_bound(self, cost: list, landmarks) -> float:
        """A lower bound on the cost of the next cut under `cost` when h_max > 0: the least positive cost of any
        operator (a cut's cost is its cheapest operator's, and cuts hold only operators of positive cost)."""
        least = self._least_cost
        for ops, _ in landmarks:
            for op in ops:
                if 0 < cost[op] < least:
                    least = cost[op]
        return least

    def evaluate(self, bits: int, inherited: tuple[frozenset, ...] = ()) -> tuple[float, tuple[frozenset, ...]]:
        """(h, the landmarks found, `inherited` first); (inf, ()) on a dead end. Counts each cut as 1: LM-cut
        on unit-cost tasks (on other tasks an admissible but weaker count; `evaluate_costs` is the real one)."""
        facts = self.relaxed.state_facts(bits)
        cost = self.costs(inherited)
        landmarks = list(inherited)
        while True:
            cut = self.find_cut(facts, cost)
            if cut is None:
                return INF, ()
            if not cut:
                return len(landmarks), tuple(landmarks)
            for op in cut:
                cost[op] = 0
            landmarks.append(cut)

    def costs(self, landmarks: tuple[frozenset, ...]) -> list[int]:
        """Operator costs with the operators of `landmarks` made free (their cost is counted by the landmarks)."""
        cost = self.relaxed.cost[:]
        for ops in landmarks:
            for op in ops:
                cost[op] = 0
        return cost

    def goal_is_free(self, bits: int, landmarks: tuple[frozenset, ...]) -> bool:
        """Whether the goal is relaxed-reachable from the state using only the operators of `landmarks`.

        That is h_max = 0 once those landmarks are counted, so LM-cut would find no further cut. A fixpoint over
        bitmasks; later landmarks tend to lie nearer the state, so they are tried first.
        """
        relaxed = self.relaxed
        masks = relaxed.op_masks
        goal = masks[relaxed.goal_op][0]
        reached = bits | relaxed.init_bit
        if reached & goal == goal:
            return True
        free = [masks[op] for ops in reversed(landmarks) for op in ops]
        while True:
            before = reached
            for pre, add in free:
                if reached & pre == pre:
                    reached |= add
            if reached & goal == goal:
                return True
            if reached == before:
                return False

    def find_cut(self, facts: list[int], cost: list[int]) -> frozenset | None:
        """One LM-cut landmark under `cost`: empty when h_max is already 0, None when the goal is unreachable.

        The goal zone is the set of facts from which the goal is reached through zero-cost justification edges
        (operator precondition choice -> effect); the cut is every operator whose chosen precondition is reached
        from the state without entering the goal zone, through operators outside the cut, and that has an effect
        inside it.
        """
        relaxed = self.relaxed
        value, choice, fired = self._explore(facts, cost)
        goal = relaxed.goal_fact
        if value[goal] == INF:
            return None
        if value[goal] == 0:
            return frozenset()
        num_facts = relaxed.num_facts
        achievers, add = relaxed.achievers, relaxed.add
        goal_zone = bytearray(num_facts)
        goal_zone[goal] = 1
        stack = [goal]
        while stack:
            e = stack.pop()
            for op in achievers[e]:
                if not cost[op]:
                    p = choice[op]
                    if p >= 0 and not goal_zone[p]:
                        goal_zone[p] = 1
                        stack.append(p)
        by_choice: list[list[int]] = [[] for _ in range(num_facts)]
        for op in fired:
            by_choice[choice[op]].append(op)
        before = bytearray(num_facts)
        for f in facts:
            before[f] = 1
        stack = list(facts)
        cut = []
        for f in stack:  # `stack` grows as facts are reached
            for op in by_choice[f]:
                effects = add[op]
                for e in effects:
                    if goal_zone[e]:
                        cut.append(op)
                        break
                else:  # an operator of the cut adds nothing to the region before it (as in Fast Downward)
                    for e in effects:
                        if not before[e]:
                            before[e] = 1
                            stack.append(e)
        return frozenset(cut)


HEURISTICS: dict[str, type[Heuristic]] = {
    "blind": Blind,
    "goal-count": GoalCount,
    "hmax": HMax,
    "hadd": HAdd,
    "ff": FF,
    "lmcut": LMCut,
}


def make_heuristic(name: str, task: Task) -> Heuristic:
    """A heuristic by name (see HEURISTICS) for `task`."""
    cls = HEURISTICS.get(name.lower().replace("_", "-"))
    if cls is None:
        raise ApbError(f"unknown heuristic {name!r}: choose one of {', '.join(HEURISTICS)}")
    return cls(task)

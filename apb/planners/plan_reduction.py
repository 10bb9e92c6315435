"""Shorter plans from a found plan, by the engine's own semantics: what the learned planners do with the plan their
greedy search returns before they write it.

Two passes, repeated while the plan gets cheaper (each only ever returns a valid plan of lower or equal cost):

- **Shortcuts** (`shortcut_plan`): along the plan's states s0 ... sn, a state met again later cuts the cycle
  between (s_i = s_k: the actions i..k-1 go), a state already satisfying the goal ends the plan, and one action that
  leads from s_i straight to a later s_j (j > i + 1) replaces the actions between when it costs less than they do.
- **Merged pairs** (`merge_pairs`): an action undone later (a later action deletes what it added, a satellite turned
  to one direction and later on to another) and the action that undoes it are replaced by one action applicable
  where the first was, adding what the second added (the satellite turned to the second direction at once), when the
  plan stays valid.
- **Action elimination** (`eliminate_actions`, the greedy action elimination of Fink and Yang, as Nakhost and
  Müller use it): each action in turn is left out together with every later action that is no longer applicable
  without it; when what is left still reaches the goal at a lower cost, it is the plan.

Greedy best-first search with a learned heuristic finds plans with detours (a satellite turned to a direction and
then elsewhere, a spanner picked up and never used): these passes take out the detours that are whole steps or
whole cycles. `stop()` (a budget check) is asked between steps; the plan so far is returned when it says stop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from apb.engine import GroundAction, State, Task
from apb.planners.space import Successors

Stop = Callable[[], bool]


def _never() -> bool:
    return False


def plan_cost(task: Task, plan: Sequence[GroundAction]) -> float:
    """The cost of a plan (task.cost per action)."""
    return sum(task.cost(a) for a in plan)


def states_along(task: Task, plan: Sequence[GroundAction]) -> list[int]:
    """The bits of s0 ... sn along a plan known to be applicable."""
    bits = task.initial_state.bits
    return [bits, *states_along_from(task, bits, plan)]


def shortcut_plan(task: Task, plan: Sequence[GroundAction], stop: Stop = _never) -> list[GroundAction]:
    """The plan with its cycles cut, ended at its first goal state, and one-action shortcuts to later states taken
    (see the module docstring)."""
    states = states_along(task, plan)
    last = {bits: i for i, bits in enumerate(states)}
    successors = Successors(task)
    actions = task.actions
    is_goal = task.is_goal_bits
    out: list[GroundAction] = []
    i, n = 0, len(plan)
    while i < n:
        if is_goal(states[i]):
            break
        if last[states[i]] > i:  # a cycle: s_i comes back later
            i = last[states[i]]
            continue
        if stop():
            out.extend(plan[i:])
            break
        best, best_saving = None, 0.0
        for index, succ in successors(states[i]):
            j = last.get(succ, -1)
            if j > i + 1:
                saving = plan_cost(task, plan[i:j]) - task.cost(actions[index])
                if saving > best_saving or (saving == best_saving and best is not None and j > best[1]):
                    best, best_saving = (actions[index], j), saving
        if best is not None:
            out.append(best[0])
            i = best[1]
        else:
            out.append(plan[i])
            i += 1
    return out


def eliminate_actions(task: Task, plan: Sequence[GroundAction], stop: Stop = _never) -> list[GroundAction]:
    """Greedy action elimination (see the module docstring): a valid plan of no higher cost."""
    plan = list(plan)
    states = states_along(task, plan)
    is_goal = task.is_goal_bits
    i = 0
    while i < len(plan):
        if stop():
            break
        bits, kept = states[i], []
        for action in plan[i + 1:]:
            if task.is_applicable(State(bits), action):
                bits = task.successor_bits(bits, action)
                kept.append(action)
        if is_goal(bits):  # shorter, and no dearer: costs are not negative
            plan[i:] = kept
            states[i + 1:] = states_along_from(task, states[i], kept)
            continue  # the action now at i is tried next
        i += 1
    return plan


def states_along_from(task: Task, bits: int, plan: Sequence[GroundAction]) -> list[int]:
    """The bits of the states after each action of `plan` from `bits` (not including `bits`)."""
    out = []
    for action in plan:
        bits = task.successor_bits(bits, action)
        out.append(bits)
    return out


def merge_pairs(task: Task, plan: Sequence[GroundAction], stop: Stop = _never) -> list[GroundAction]:
    """Pairs (i, k), action k deleting a fact action i added, replaced by one action applicable in s_i that adds a
    fact action k adds, where the plan stays valid and gets cheaper (see the module docstring)."""
    plan = list(plan)
    successors = Successors(task)
    actions = task.actions
    states = states_along(task, plan)
    i = 0
    while i < len(plan):
        if stop():
            break
        first = plan[i]
        merged = None
        for k in range(i + 1, len(plan)):
            second = plan[k]
            if not (first.add_mask & second.del_mask):
                continue
            for index, _ in successors(states[i]):
                candidate = actions[index]
                if candidate is first or not (candidate.add_mask & second.add_mask):
                    continue
                if task.cost(candidate) >= task.cost(first) + task.cost(second):
                    continue
                trial = [*plan[:i], candidate, *plan[i + 1:k], *plan[k + 1:]]
                if task.validate(trial).valid:
                    merged = trial
                    break
            if merged is not None or first.add_mask & ~second.del_mask == 0:
                break  # the first undone by the second: later pairs are not this action's
        if merged is not None:
            plan = merged
            states = states_along(task, plan)  # only a merge changes the states
            continue
        i += 1
    return plan


def reduce_plan(task: Task, plan: Sequence[GroundAction], stop: Stop = _never) -> list[GroundAction]:
    """Shortcuts, merged pairs and action elimination, repeated while the plan gets cheaper; the input plan must be
    valid and the result is valid and costs no more."""
    best = list(plan)
    best_cost = plan_cost(task, best)
    while not stop():
        shorter = eliminate_actions(task, merge_pairs(task, shortcut_plan(task, best, stop), stop), stop)
        cost = plan_cost(task, shorter)
        if cost >= best_cost:
            break
        best, best_cost = shorter, cost
    return best

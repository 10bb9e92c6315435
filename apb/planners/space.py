"""The state space as search code sees it: states are `State.bits` ints, nodes live in parallel lists."""

from __future__ import annotations

from collections.abc import Callable

from apb.engine import GroundAction, Task


class Successors:
    """Generates (action index, successor bits) pairs of a state; built once per search from `task.actions`."""

    def __init__(self, task: Task) -> None:
        self.actions = task.actions
        self._applicable_ids = task.applicable_ids
        self._effects = tuple((~a.del_mask, a.add_mask) for a in task.actions)
        # Conditional effects or axioms: the task computes each transition (STRIPS tasks use the masks).
        self._transition = None if task.is_strips else task.successor_bits

    def __call__(self, bits: int) -> list[tuple[int, int]]:
        """Successors in `task.actions` order (sorted by action string), so searches are deterministic."""
        transition = self._transition
        if transition is not None:
            actions = self.actions
            return [(index, transition(bits, actions[index])) for index in self._applicable_ids(bits)]
        effects = self._effects
        result = []
        for index in self._applicable_ids(bits):
            keep, add = effects[index]
            result.append((index, (bits & keep) | add))
        return result


class SearchSpace:
    """Search nodes: node id -> state bits, cost so far, parent node and the action index that led to it."""

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}
        self.bits: list[int] = []
        self.g: list[int] = []
        self.parent: list[int] = []
        self.action: list[int] = []

    def add(self, bits: int, g: int, parent: int, action: int) -> int:
        """A new node for a state not seen before; returns its id."""
        node = len(self.bits)
        self.ids[bits] = node
        self.bits.append(bits)
        self.g.append(g)
        self.parent.append(parent)
        self.action.append(action)
        return node

    def plan(self, node: int, actions: tuple[GroundAction, ...]) -> list[GroundAction]:
        """The actions on the path from the root to `node`."""
        steps = []
        while self.parent[node] >= 0:
            steps.append(actions[self.action[node]])
            node = self.parent[node]
        steps.reverse()
        return steps


def goal_test(task: Task) -> Callable[[int], bool]:
    """A goal test on state bits, without building State objects."""
    if task.goal_extra:
        return task.is_goal_bits
    pos, neg = task.goal_pos_mask, task.goal_neg_mask
    return lambda bits: bits & pos == pos and not bits & neg


def expand(space: SearchSpace, successors: Successors, node: int, is_goal: Callable[[int], bool],
           cost: int = 1) -> tuple[list[int], int | None, int]:
    """Adds the new successors of `node` to the space: (their node ids, the first goal node or None, how many
    successors were generated, duplicates included). Stops at the first goal."""
    fresh: list[int] = []
    generated = 0
    ids, child_g = space.ids, space.g[node] + cost
    for action, succ in successors(space.bits[node]):
        generated += 1
        if succ in ids:
            continue
        child = space.add(succ, child_g, node, action)
        if is_goal(succ):
            return fresh, child, generated
        fresh.append(child)
    return fresh, None, generated

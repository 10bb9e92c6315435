"""Generated problems by size for the learned policy, and their optimal cost-to-go labels.

`SIZES` maps a bundled domain to how its generator's parameters grow with an object budget (training uses every
size up to `--max-objects`, evaluation the sizes of `--objects A-B`). `cost_to_go(task)` explores a small task's
whole reachable state space and labels every state with its optimal distance to the goal (the training targets).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from apb.domains import registry
from apb.engine import Task, load_task
from apb.engine.errors import ApbError
from apb.planners.space import Successors


@dataclass(frozen=True)
class SizeRule:
    """How a domain's generator parameters follow an object budget: `params(n)` for a budget of n objects, valid
    from `min_objects` on; `note` says what the budget counts."""

    params: Callable[[int], dict]
    min_objects: int
    note: str


def _ferry(n: int) -> dict:
    # budgets below 9 have 2 locations, where sailing has a single destination: a policy trained only on those never
    # learns where to sail (trained on <= 8 objects it solved 4 of 10 problems of 10-16; on <= 9, whose 9-object
    # problems have 3 locations, 10 of 10), so train Ferry with --max-objects 9 or more
    locations = max(2, n // 3)
    return {"locations": locations, "cars": max(1, n - locations)}


def _logistics(n: int) -> dict:
    # objects: 2 cities, 2 x 2 locations, 2 trucks, 1 airplane: 9, the rest packages
    return {"cities": 2, "locations": 2, "airplanes": 1, "packages": max(1, n - 9)}


SIZES: dict[str, SizeRule] = {
    "blocksworld": SizeRule(lambda n: {"blocks": n}, 2, "blocks"),
    "gripper": SizeRule(lambda n: {"balls": max(1, n - 5)}, 6, "balls + 2 rooms + 2 grippers + the robot"),
    "ferry": SizeRule(_ferry, 3, "cars + locations"),
    "logistics": SizeRule(_logistics, 10, "packages + 4 locations + 2 cities + 2 trucks + 1 airplane"),
    "visitall": SizeRule(lambda n: {"width": max(2, n // 2), "height": 2, "holes": 0, "goals": 2 * max(2, n // 2)},
                         4, "grid cells (a 2-row grid, every cell a goal)"),
}


def size_rule(domain: str) -> SizeRule:
    rule = SIZES.get(domain)
    if rule is None:
        raise ApbError(f"the learned policy has no size rule for {domain!r}: use one of {', '.join(sorted(SIZES))}")
    return rule


def parse_range(text: str, flag: str = "--objects") -> tuple[int, int]:
    """'10-30' -> (10, 30); '12' -> (12, 12); anything else is an ApbError naming the flag and the value."""
    low, sep, high = str(text).partition("-")
    try:
        a, b = int(low), int(high) if sep else int(low)
    except ValueError:
        raise ApbError(f"{flag} {text!r}: write a range such as 10-30") from None
    if a < 1 or b < a:
        raise ApbError(f"{flag} {text!r}: the range must be A-B with 1 <= A <= B")
    return a, b


@dataclass
class GeneratedProblem:
    domain: str
    objects: int  # the budget it was generated for
    seed: int
    pddl: str
    task: Task


def generate(domain: str, objects: int, seed: int) -> GeneratedProblem:
    """One generated problem of `domain` for an object budget (deterministic in `seed`)."""
    rule = size_rule(domain)
    if objects < rule.min_objects:
        raise ApbError(f"{domain} problems need at least {rule.min_objects} objects ({rule.note}), not {objects}")
    pddl = registry.generator(domain).generate(seed, **rule.params(objects))
    return GeneratedProblem(domain, objects, seed, pddl, load_task(registry.domain_file(domain), pddl))


def problems(domain: str, low: int, high: int, count: int, seed: int) -> list[GeneratedProblem]:
    """`count` problems with object budgets drawn uniformly from low..high (sizes below the domain's minimum are
    raised to it), seeds from `seed` on."""
    rng = random.Random(seed)
    low = max(low, size_rule(domain).min_objects)
    high = max(high, low)
    return [generate(domain, rng.randint(low, high), seed * 100_003 + i) for i in range(count)]


def cost_to_go(task: Task, limit: int = 20_000) -> dict[int, int] | None:
    """Every reachable state's optimal number of steps to the goal (unit costs; dead ends are left out), or None
    when the reachable space has more than `limit` states."""
    successors = Successors(task)
    init = task.initial_state.bits
    seen = {init: 0}
    order = [init]
    parents: list[list[int]] = [[]]
    queue = deque([0])
    while queue:
        node = queue.popleft()
        for _, child in successors(order[node]):
            index = seen.get(child)
            if index is None:
                if len(order) >= limit:
                    return None
                index = seen[child] = len(order)
                order.append(child)
                parents.append([])
                queue.append(index)
            parents[index].append(node)
    distance = {}
    frontier = deque(i for i, bits in enumerate(order) if task.is_goal_bits(bits))
    for i in frontier:
        distance[i] = 0
    while frontier:
        node = frontier.popleft()
        for parent in parents[node]:
            if parent not in distance:
                distance[parent] = distance[node] + 1
                frontier.append(parent)
    return {order[i]: d for i, d in distance.items()}

"""Random Blocksworld problems: initial and goal towers drawn uniformly from all configurations of `blocks` blocks.

Parameters:
    blocks -- number of blocks, named block_a, ..., block_z, then block_aa, block_ab, ... (2..100).

Both configurations are sampled uniformly over all arrangements of the blocks into towers (as Slaney and
Thiebaux's bwstates does): first the number of towers, weighted by how many arrangements have it (Lah numbers),
then a random order of the blocks cut into that many towers. The goal lists only the `on` facts of the goal
configuration, as in the AutoPlanBench and PlanBench problems; a goal that already holds initially is redrawn.
"""

from __future__ import annotations

import random
from math import comb, factorial
from string import ascii_lowercase

from apb.domains.generation import check_range, merge_parameters

PARAMETERS: dict[str, int] = {"blocks": 4}
MAX_BLOCKS = 100  # the learned-policy evaluation (apb rl eval) draws up to 30 blocks

Towers = list[list[str]]  # each tower listed bottom to top


def block_names(count: int) -> list[str]:
    """block_a, block_b, ..., block_z, block_aa, block_ab, ... for `count` blocks."""
    letters = ascii_lowercase
    return [f"block_{letters[i]}" if i < len(letters) else f"block_{letters[i // len(letters) - 1]}"
            f"{letters[i % len(letters)]}" for i in range(count)]


def arrangements(n: int, towers: int) -> int:
    """How many arrangements of n labelled blocks form exactly `towers` towers (the Lah number L(n, towers))."""
    return comb(n - 1, towers - 1) * factorial(n) // factorial(towers)


def random_towers(blocks: list[str], rng: random.Random) -> Towers:
    """A configuration drawn uniformly from all arrangements of `blocks` into towers."""
    n = len(blocks)
    pick = rng.randrange(sum(arrangements(n, k) for k in range(1, n + 1)))
    count = 1
    while pick >= arrangements(n, count):
        pick -= arrangements(n, count)
        count += 1
    order = rng.sample(blocks, n)
    cuts = sorted(rng.sample(range(1, n), count - 1))
    bounds = [0, *cuts, n]
    return [order[bounds[i]:bounds[i + 1]] for i in range(count)]


def on_facts(towers: Towers) -> set[tuple[str, str]]:
    """The (upper, lower) pairs of blocks standing directly on each other."""
    return {(tower[i + 1], tower[i]) for tower in towers for i in range(len(tower) - 1)}


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    return problem(seed, {"blocks": check_range("blocks", merge_parameters("blocksworld", PARAMETERS, params)["blocks"],
                                                2, MAX_BLOCKS)})


def problem(seed: int, values: dict[str, int]) -> str:
    """The problem PDDL for `seed` and a full set of parameters the caller has checked (its own ranges)."""
    n = values["blocks"]
    rng = random.Random(seed)
    blocks = block_names(n)
    start = random_towers(blocks, rng)
    below = {upper: lower for upper, lower in on_facts(start)}
    goal: set[tuple[str, str]] = set()
    while not goal - set(below.items()):  # redraw an empty goal or one that holds already
        goal = on_facts(random_towers(blocks, rng))
    tops = {tower[-1] for tower in start}
    init = ["(handempty)"]
    init += [f"(on {b} {below[b]})" if b in below else f"(ontable {b})" for b in blocks]
    init += [f"(clear {b})" for b in blocks if b in tops]
    goals = [f"(on {upper} {lower})" for upper, lower in sorted(goal)]
    return (f"(define (problem blocksworld-{n}-s{seed})\n"
            f"  (:domain blocksworld-4ops)\n"
            f"  (:objects {' '.join(blocks)})\n"
            f"  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: 4 blocks for example and test, 5 to 14 blocks for scaled."""
    if split == "example":
        return [(1000 + i, {"blocks": 4}) for i in range(10)]
    if split == "test":
        return [(i, {"blocks": 4}) for i in range(101, 151)]
    if split == "scaled":
        return [(2000 + i, {"blocks": 5 + i // 2}) for i in range(20)]
    raise ValueError(f"split must be one of example, test, scaled, got {split!r}")

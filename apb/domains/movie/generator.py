"""Random Movie problems (AutoPlanBench's variant): get some kinds of snacks, then rewind the movie.

Parameters:
    snacks -- the most snacks of one kind (1..10): each of the five kinds (chips, dip, pop, cheese, crackers)
              gets between 1 and `snacks` objects, drawn at random.
    goals  -- how many kinds of snacks we must have (1..5), chosen at random.

Snacks are named chips_0, chips_1, dip_0, ... after their kind (the unary predicates in :init say the same). The counter
starts at zero and the movie is not rewound; the goal is the movie rewound, the counter at zero and the chosen
snacks. Always solvable: buy the snacks, start the movie, rewind it and reset the counter (goals + 3 actions).
"""

from __future__ import annotations

import random

from apb.domains.generation import check_range, merge_parameters

PARAMETERS: dict[str, int] = {"snacks": 3, "goals": 3}
KINDS = ("chips", "dip", "pop", "cheese", "crackers")
MAX_SNACKS = 10


def _check(params: dict) -> tuple[int, int]:
    """The validated (snacks, goals); ValueError names the bad parameter and its range."""
    values = merge_parameters("movie", PARAMETERS, params)
    return (check_range("snacks", values["snacks"], 1, MAX_SNACKS),
            check_range("goals", values["goals"], 1, len(KINDS)))


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    snacks, goals = _check(params)
    rng = random.Random(seed)
    counts = {kind: rng.randint(1, snacks) for kind in KINDS}
    wanted = set(rng.sample(KINDS, goals))
    objects: list[str] = []
    init: list[str] = []
    for kind in KINDS:
        for number in range(counts[kind]):
            name = f"{kind}_{number}"
            objects.append(name)
            init.append(f"({kind} {name})")
    init.append("(counter-at-zero)")
    goal = ["(movie-rewound)", "(counter-at-zero)"] + [f"(have-{kind})" for kind in KINDS if kind in wanted]
    return (f"(define (problem movie-{snacks}-{goals}-s{seed})\n"
            f"  (:domain movie-strips-complex)\n"
            f"  (:objects " + " ".join(objects) + ")\n"
            "  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goal) + ")))\n")


# (snacks, goals) of the test candidates, cycled: sizes like the AutoPlanBench problems
TEST_SHAPES = ((2, 2), (3, 3), (4, 4), (3, 5), (2, 3), (4, 4))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: two wanted kinds for example, a cycle of TEST_SHAPES for test."""
    if split == "example":
        return [(1000 + i, {"snacks": 2, "goals": 2}) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(PARAMETERS, TEST_SHAPES[i % len(TEST_SHAPES)]))) for i in range(1, 61)]
    raise ValueError(f"split must be example or test (movie has no scaled set), got {split!r}")

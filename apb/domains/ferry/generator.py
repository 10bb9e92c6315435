"""Random Ferry problems: `cars` cars spread over `locations` locations, each with a random destination.

Parameters:
    locations -- number of locations, named loc_0, loc_1, ... (2..20).
    cars      -- number of cars, named car_0, car_1, ... (1..50).

Every car starts at a random location and must end at a random location (possibly the one it starts at, as in
the AutoPlanBench problems, which list a goal for every car); the ferry starts empty at a random location. A goal
that already holds initially is redrawn. Every such problem is solvable: the ferry can fetch each car in turn.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters

PARAMETERS: dict[str, int] = {"locations": 3, "cars": 4}
RANGES: dict[str, tuple[int, int]] = {"locations": (2, 20), "cars": (1, 50)}


def check_params(params: dict) -> dict[str, int]:
    """The full parameter set (defaults filled in); ValueError names a bad parameter and its allowed range."""
    return check_parameters("ferry", PARAMETERS, RANGES, params)


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    return problem(seed, check_params(params))


def problem(seed: int, values: dict[str, int]) -> str:
    """The problem PDDL for `seed` and a full set of parameters the caller has checked (its own ranges)."""
    rng = random.Random(seed)
    locations = [f"loc_{i}" for i in range(values["locations"])]
    cars = [f"car_{i}" for i in range(values["cars"])]
    start = {car: rng.choice(locations) for car in cars}
    ferry = rng.choice(locations)
    goal = dict(start)
    while goal == start:
        goal = {car: rng.choice(locations) for car in cars}
    init = [f"(location {loc})" for loc in locations]
    init += [f"(car {car})" for car in cars]
    init += [f"(not-eq {a} {b})" for a in locations for b in locations if a != b]
    init += ["(empty-ferry)"]
    init += [f"(at {car} {start[car]})" for car in cars]
    init += [f"(at-ferry {ferry})"]
    goals = [f"(at {car} {goal[car]})" for car in cars]
    return (f"(define (problem ferry-l{len(locations)}-c{len(cars)}-s{seed})\n"
            f"  (:domain ferry)\n"
            f"  (:objects {' '.join(locations)}\n"
            f"            {' '.join(cars)})\n"
            f"  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


# (locations, cars) of the test candidates, cycled: the sizes of the AutoPlanBench Ferry problems.
TEST_SIZES = ((3, 4), (2, 3), (3, 5), (3, 6), (3, 2), (4, 5), (3, 4), (3, 5), (4, 6), (2, 4))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: small mixed sizes for example and test, 3 locations and
    7 to 26 cars for scaled."""
    if split == "example":
        return [(1000 + i, {"locations": 2 + i % 2, "cars": 2 + i % 3}) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(("locations", "cars"), TEST_SIZES[i % len(TEST_SIZES)]))) for i in range(1, 51)]
    if split == "scaled":
        return [(2000 + i, {"locations": 3, "cars": 7 + i}) for i in range(20)]
    raise ValueError(f"split must be one of example, test, scaled, got {split!r}")

"""Seeded Logistics problems: packages carried to other locations by truck within a city and by airplane between cities.

Parameters:
    cities     -- number of cities, 1..10; every city gets one truck (truck_<c>) and one airport (airport_<c>)
    locations  -- locations per city including the airport, 1..10 (loc_<c>_<i> for i >= 1)
    packages   -- number of packages, 1..20; each starts at a random location and has a different goal location
    airplanes  -- number of airplanes, 1..10, each starting at a random airport
Every problem is solvable: trucks reach every location of their city and airplanes fly between all airports.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, render_problem

PARAMETERS: dict[str, int] = {"cities": 2, "locations": 2, "packages": 2, "airplanes": 1}
RANGES: dict[str, tuple[int, int]] = {"cities": (1, 10), "locations": (1, 10), "packages": (1, 20),
                                      "airplanes": (1, 10)}

# (locations, packages, airplanes) with two cities: the shapes of the AutoPlanBench instances, about as often.
_TEST_SHAPES = ((1, 2, 1), (2, 2, 1), (3, 1, 1), (2, 3, 2), (1, 1, 2), (2, 1, 1), (3, 2, 1), (2, 3, 1),
                (1, 2, 2), (2, 2, 2), (2, 1, 2), (3, 2, 2), (2, 4, 2))


def _validate(params: dict[str, int]) -> dict[str, int]:
    """Defaults filled in; raises ValueError for an unknown parameter or a value outside its range."""
    values = check_parameters("logistics", PARAMETERS, RANGES, params)
    if values["cities"] * values["locations"] < 2:
        raise ValueError("parameter 'locations' must be at least 2 when there is one city (packages need somewhere"
                         " to go)")
    return values


def _location(city: int, index: int) -> str:
    """The name of a location: the first of each city is its airport."""
    return f"airport_{city}" if index == 0 else f"loc_{city}_{index}"


def generate(seed: int, **params: int) -> str:
    """The PDDL text of one problem, deterministic for (seed, params)."""
    p = _validate(params)
    rng = random.Random(seed)
    cities, size = p["cities"], p["locations"]
    locations = [_location(c, i) for c in range(cities) for i in range(size)]
    airplanes = [f"airplane_{a}" for a in range(p["airplanes"])]
    trucks = [f"truck_{c}" for c in range(cities)]
    packages = [f"package_{k}" for k in range(p["packages"])]

    truck_at = [_location(c, rng.randrange(size)) for c in range(cities)]
    plane_at = [_location(rng.randrange(cities), 0) for _ in airplanes]
    package_at = [rng.choice(locations) for _ in packages]
    package_to = [rng.choice([loc for loc in locations if loc != start]) for start in package_at]

    city_names = [f"city_{c}" for c in range(cities)]
    init = [f"(AIRPLANE {a})" for a in airplanes] + [f"(CITY {c})" for c in city_names]
    init += [f"(TRUCK {t})" for t in trucks]
    for c in range(cities):
        for i in range(size):
            init += [f"(LOCATION {_location(c, i)})", f"(in-city {_location(c, i)} city_{c})"]
    init += [f"(AIRPORT {_location(c, 0)})" for c in range(cities)]
    init += [f"(OBJ {k})" for k in packages]
    init += [f"(at {t} {loc})" for t, loc in zip(trucks, truck_at)]
    init += [f"(at {k} {loc})" for k, loc in zip(packages, package_at)]
    init += [f"(at {a} {loc})" for a, loc in zip(airplanes, plane_at)]
    goal = [f"(at {k} {loc})" for k, loc in zip(packages, package_to)]

    name = f"logistics-c{cities}-l{size}-p{p['packages']}-a{p['airplanes']}-s{seed}"
    groups = [airplanes, city_names, trucks, locations, packages]
    return _render(name, [" ".join(group) for group in groups], init, goal)



def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return render_problem(name, "logistics-strips", objects, init, goal)


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) in the order the builder tries them, for split "example" or "test"."""
    if split == "example":
        shapes = ((1, 2, 1), (2, 1, 1), (2, 2, 1))
        return [(seed, {"cities": 2, "locations": shapes[seed % 3][0], "packages": shapes[seed % 3][1],
                        "airplanes": shapes[seed % 3][2]}) for seed in range(10)]
    if split == "test":
        candidates = []
        for seed in range(1, 5):
            for locations, packages, airplanes in _TEST_SHAPES:
                candidates.append((100 * seed + len(candidates),
                                   {"cities": 2, "locations": locations, "packages": packages, "airplanes": airplanes}))
        return candidates
    raise ValueError(f"parameter 'split' must be 'example' or 'test' for logistics, got {split!r}")

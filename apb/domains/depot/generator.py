"""Seeded Depot problems: crates on pallets at depots and distributors, to restack into goal towers by hoist and truck.

Parameters:
    depots        -- number of depots, 1..10 (depot_<i>)
    distributors  -- number of distributors, 0..10 (distributor_<i>); depots + distributors is the number of places
    trucks        -- number of trucks, 1..10, each starting at a random place
    extra_pallets -- pallets beyond the one at every place, 0..10, each at a random place (pallet_<i>)
    extra_hoists  -- hoists beyond the one at every place, 0..10, each at a random place (hoist_<i>)
    crates        -- number of crates, 1..20, stacked at random on the pallets
    goals         -- number of crates with a goal position, 1..crates (0 means all crates)
Every problem is solvable: every place has a hoist and a pallet, trucks reach every place, and the goal is a set of
towers on pallets (each surface holds at most one crate, no cycles).
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, render_problem

PARAMETERS: dict[str, int] = {"depots": 3, "distributors": 1, "trucks": 3, "extra_pallets": 0, "extra_hoists": 0,
                              "crates": 3, "goals": 0}
RANGES: dict[str, tuple[int, int]] = {"depots": (1, 10), "distributors": (0, 10), "trucks": (1, 10),
                                      "extra_pallets": (0, 10), "extra_hoists": (0, 10), "crates": (1, 20),
                                      "goals": (0, 20)}


def _validate(params: dict[str, int]) -> dict[str, int]:
    """Defaults filled in; raises ValueError for an unknown parameter or a value outside its range."""
    values = check_parameters("depot", PARAMETERS, RANGES, params)
    if values["goals"] > values["crates"]:
        raise ValueError(f"parameter 'goals' must be an integer in 0..{values['crates']} (at most the number of "
                         f"crates), got {values['goals']}")
    return values


def generate(seed: int, **params: int) -> str:
    """The PDDL text of one problem, deterministic for (seed, params)."""
    p = _validate(params)
    rng = random.Random(seed)
    places = [f"depot_{i}" for i in range(p["depots"])] + [f"distributor_{i}" for i in range(p["distributors"])]
    pallets = [f"pallet_{i}" for i in range(len(places) + p["extra_pallets"])]
    hoists = [f"hoist_{i}" for i in range(len(places) + p["extra_hoists"])]
    trucks = [f"truck_{i}" for i in range(p["trucks"])]
    crates = [f"crate_{i}" for i in range(p["crates"])]

    pallet_at = places + [rng.choice(places) for _ in pallets[len(places):]]
    hoist_at = places + [rng.choice(places) for _ in hoists[len(places):]]
    truck_at = [rng.choice(places) for _ in trucks]

    # Initial towers: each crate goes on top of a random pallet's stack.
    top = {pallet: pallet for pallet in pallets}
    place_of = dict(zip(pallets, pallet_at))
    crate_on: list[tuple[str, str, str]] = []  # (crate, surface, place)
    for crate in crates:
        pallet = rng.choice(pallets)
        crate_on.append((crate, top[pallet], place_of[pallet]))
        top[pallet] = crate

    goal = _goal_towers(rng, crates, pallets, p["goals"] or p["crates"])

    init = []
    for pallet, place in zip(pallets, pallet_at):
        init.append(f"(at {pallet} {place})")
        if top[pallet] == pallet:
            init.append(f"(clear {pallet})")
    init += [f"(at {truck} {place})" for truck, place in zip(trucks, truck_at)]
    for hoist, place in zip(hoists, hoist_at):
        init += [f"(at {hoist} {place})", f"(available {hoist})"]
    for crate, surface, place in crate_on:
        init += [f"(at {crate} {place})", f"(on {crate} {surface})"]
    init += [f"(clear {crate})" for crate in crates if crate in top.values()]

    typed = [(places[:p["depots"]], "depot"), (places[p["depots"]:], "distributor"), (trucks, "truck"),
             (pallets, "pallet"), (crates, "crate"), (hoists, "hoist")]
    objects = [f"{' '.join(names)} - {kind}" for names, kind in typed if names]
    name = (f"depot-{p['depots']}-{p['distributors']}-{p['trucks']}-{len(pallets)}-{len(hoists)}-{p['crates']}"
            f"-g{len(goal)}-s{seed}")
    return _render(name, objects, init, goal)


def _goal_towers(rng: random.Random, crates: list[str], pallets: list[str], count: int) -> list[str]:
    """`count` goal facts (on crate surface) taken from a random arrangement of all crates in towers on pallets."""
    order = crates[:]
    rng.shuffle(order)
    free = pallets[:]  # surfaces still clear in the goal arrangement
    below: dict[str, str] = {}
    for crate in order:
        surface = rng.choice(free)
        free.remove(surface)
        free.append(crate)
        below[crate] = surface
    chosen = sorted(rng.sample(crates, count), key=crates.index)
    return [f"(on {crate} {below[crate]})" for crate in chosen]



def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return render_problem(name, "depots", objects, init, goal)


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) in the order the builder tries them, for split "example" or "test".

    All use the AutoPlanBench size (3 depots, 1 distributor, 3 trucks, 4 pallets, 4 hoists, 3 crates); the test
    candidates alternate between 3 goal crates and 2, as the paper's instances do (about 3 in 4 have 3).
    """
    if split == "example":
        return [(seed, {"goals": 1 + seed % 2}) for seed in range(10)]
    if split == "test":
        return [(1000 + seed, {"goals": 2 if seed % 4 == 3 else 3}) for seed in range(50)]
    raise ValueError(f"parameter 'split' must be 'example' or 'test' for depot, got {split!r}")

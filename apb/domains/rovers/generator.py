"""Seeded Rovers problems: rovers sample soil and rock, photograph objectives and send the data to a lander.

Parameters:
    rovers      -- number of rovers, 1..5 (rover_<i>, each with a store rover_<i>_store)
    waypoints   -- number of waypoints, 2..12 (waypoint_<i>)
    cameras     -- number of cameras, 1..8 (camera_<i>), each on a random rover; rovers with a camera do imaging
    objectives  -- number of objectives, 1..6 (objective_<i>), each visible from one or two waypoints
    soil        -- number of communicated_soil_data goals, 0..waypoints
    rock        -- number of communicated_rock_data goals, 0..waypoints
    images      -- number of communicated_image_data goals, 0..(objectives x modes)
The modes are mode_colour, mode_high_res and mode_low_res; the lander is lander_0. soil + rock + images must be at
least 1.
Every problem is solvable: the visibility graph is connected, each rover can traverse a connected spanning subgraph
of it (so it reaches every waypoint, among them a neighbour of the lander), every soil (rock) goal has a sample and a
rover equipped for it, and every image goal has a mode supported by a camera.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, render_problem

PARAMETERS: dict[str, int] = {"rovers": 1, "waypoints": 3, "cameras": 1, "objectives": 1, "soil": 1, "rock": 1,
                              "images": 1}
RANGES: dict[str, tuple[int, int]] = {"rovers": (1, 5), "waypoints": (2, 12), "cameras": (1, 8), "objectives": (1, 6),
                                      "soil": (0, 12), "rock": (0, 12), "images": (0, 18)}
MODES = ("mode_colour", "mode_high_res", "mode_low_res")


def _validate(params: dict[str, int]) -> dict[str, int]:
    """Defaults filled in; raises ValueError for an unknown parameter or a value outside its range."""
    values = check_parameters("rovers", PARAMETERS, RANGES, params)
    limits = {"soil": values["waypoints"], "rock": values["waypoints"], "images": values["objectives"] * len(MODES)}
    for name, high in limits.items():
        if values[name] > high:
            raise ValueError(f"parameter {name!r} must be an integer in 0..{high} for these parameters, "
                             f"got {values[name]}")
    if values["soil"] + values["rock"] + values["images"] < 1:
        raise ValueError("parameters 'soil', 'rock' and 'images' must sum to at least 1 (a goal is needed)")
    return values


def _spanning_edges(rng: random.Random, nodes: list[int], edges: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """A random spanning tree of the connected undirected graph (`edges` holds (a, b) with a < b)."""
    start = rng.choice(nodes)
    reached, tree = {start}, set()
    while len(reached) < len(nodes):
        frontier = sorted(e for e in edges if (e[0] in reached) != (e[1] in reached))
        edge = rng.choice(frontier)
        tree.add(edge)
        reached.update(edge)
    return tree


def generate(seed: int, **params: int) -> str:
    """The PDDL text of one problem, deterministic for (seed, params)."""
    return problem(seed, _validate(params))


def problem(seed: int, p: dict[str, int]) -> str:
    """The problem PDDL for `seed` and a full set of parameters the caller has checked (its own ranges; the goal
    counts within the limits `_validate` states)."""
    rng = random.Random(seed)
    n = p["waypoints"]
    nodes = list(range(n))
    waypoint = [f"waypoint_{i}" for i in nodes]
    rovers = [f"rover_{i}" for i in range(p["rovers"])]
    stores = [f"{r}_store" for r in rovers]
    cameras = [f"camera_{i}" for i in range(p["cameras"])]
    objectives = [f"objective_{i}" for i in range(p["objectives"])]

    # Visibility: a random tree joining all waypoints, plus each other pair with probability 1/2.
    visible = {(rng.randrange(i), i) for i in nodes[1:]}
    visible |= {(a, b) for a in nodes for b in nodes[a + 1:] if (a, b) not in visible and rng.random() < 0.5}
    # Soil and rock samples: at the goal waypoints and at some others.
    soil_goals = sorted(rng.sample(nodes, p["soil"]))
    rock_goals = sorted(rng.sample(nodes, p["rock"]))
    soil_at = sorted(set(soil_goals) | {w for w in nodes if rng.random() < 0.3})
    rock_at = sorted(set(rock_goals) | {w for w in nodes if rng.random() < 0.3})
    lander_at = rng.choice(nodes)

    # Cameras go on random rovers; imaging rovers are those with a camera.
    camera_on = [rng.choice(rovers) for _ in cameras]
    imaging = set(camera_on)
    soil_rovers = {r for r in rovers if rng.random() < 0.5}
    rock_rovers = {r for r in rovers if rng.random() < 0.5}
    if p["soil"] and not soil_rovers:
        soil_rovers.add(rng.choice(rovers))
    if p["rock"] and not rock_rovers:
        rock_rovers.add(rng.choice(rovers))
    supports = [sorted(rng.sample(MODES, rng.randint(1, len(MODES))), key=MODES.index) for _ in cameras]
    target = [rng.choice(objectives) for _ in cameras]
    seen_from = {o: sorted(rng.sample(nodes, min(n, rng.randint(1, 2)))) for o in objectives}
    supported = {m for modes in supports for m in modes}
    while len(supported) * len(objectives) < p["images"]:  # enough supported modes for the image goals
        mode = rng.choice([m for m in MODES if m not in supported])
        k = rng.randrange(len(cameras))
        supports[k] = sorted([*supports[k], mode], key=MODES.index)
        supported.add(mode)
    pairs = [(o, m) for o in objectives for m in MODES if m in supported]
    image_goals = sorted(rng.sample(range(len(pairs)), p["images"]))

    init = []
    for a, b in sorted(visible):
        init += [f"(visible {waypoint[a]} {waypoint[b]})", f"(visible {waypoint[b]} {waypoint[a]})"]
    for w in nodes:
        init += [f"(at_soil_sample {waypoint[w]})"] if w in soil_at else []
        init += [f"(at_rock_sample {waypoint[w]})"] if w in rock_at else []
    init += [f"(at_lander lander_0 {waypoint[lander_at]})", "(channel_free lander_0)"]
    for rover, store in zip(rovers, stores):
        init += [f"(at {rover} {waypoint[rng.choice(nodes)]})", f"(available {rover})", f"(store_of {store} {rover})",
                 f"(empty {store})"]
        init += [f"(equipped_for_soil_analysis {rover})"] if rover in soil_rovers else []
        init += [f"(equipped_for_rock_analysis {rover})"] if rover in rock_rovers else []
        init += [f"(equipped_for_imaging {rover})"] if rover in imaging else []
        # Each rover traverses a random spanning tree of the visibility graph plus some further visible pairs.
        traverse = _spanning_edges(rng, nodes, visible)
        traverse |= {e for e in sorted(visible - traverse) if rng.random() < 0.5}
        for a, b in sorted(traverse):
            init += [f"(can_traverse {rover} {waypoint[a]} {waypoint[b]})",
                     f"(can_traverse {rover} {waypoint[b]} {waypoint[a]})"]
    for camera, rover, modes, objective in zip(cameras, camera_on, supports, target):
        init += [f"(on_board {camera} {rover})", f"(calibration_target {camera} {objective})"]
        init += [f"(supports {camera} {m})" for m in modes]
    for objective in objectives:
        init += [f"(visible_from {objective} {waypoint[w]})" for w in seen_from[objective]]

    goal = [f"(communicated_soil_data {waypoint[w]})" for w in soil_goals]
    goal += [f"(communicated_rock_data {waypoint[w]})" for w in rock_goals]
    goal += [f"(communicated_image_data {pairs[k][0]} {pairs[k][1]})" for k in image_goals]

    objects = ["lander_0 - lander", f"{' '.join(MODES)} - mode", f"{' '.join(rovers)} - rover",
               f"{' '.join(stores)} - store", f"{' '.join(waypoint)} - waypoint"]
    objects += [f"{' '.join(cameras)} - camera", f"{' '.join(objectives)} - objective"]
    name = (f"rovers-r{p['rovers']}-w{n}-c{p['cameras']}-o{p['objectives']}-g{p['soil']}{p['rock']}{p['images']}"
            f"-s{seed}")
    return _render(name, objects, init, goal)



def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return render_problem(name, "Rover", objects, init, goal)


# (rovers, waypoints, cameras, objectives, soil, rock, images), after the AutoPlanBench instances.
_TEST_SHAPES = ((1, 3, 1, 1, 1, 1, 1), (1, 4, 2, 2, 1, 1, 1), (2, 3, 2, 1, 1, 1, 1), (1, 3, 2, 2, 1, 0, 2),
                (1, 4, 1, 2, 1, 1, 2), (2, 4, 2, 2, 1, 1, 1), (1, 3, 1, 1, 1, 1, 0), (2, 3, 3, 2, 2, 0, 2),
                (1, 4, 3, 2, 2, 1, 1), (1, 3, 1, 1, 0, 1, 1), (2, 4, 2, 1, 1, 1, 2), (1, 4, 2, 2, 2, 1, 2))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) in the order the builder tries them, for split "example" or "test"."""
    names = ("rovers", "waypoints", "cameras", "objectives", "soil", "rock", "images")
    if split == "example":
        shapes = ((1, 3, 1, 1, 0, 0, 1), (1, 3, 1, 1, 1, 0, 1), (1, 3, 1, 1, 1, 1, 0))
        return [(seed, dict(zip(names, shapes[seed % 3]))) for seed in range(10)]
    if split == "test":
        candidates = []
        for round_ in range(4):
            for shape in _TEST_SHAPES:
                candidates.append((100 * round_ + len(candidates), dict(zip(names, shape))))
        return candidates
    raise ValueError(f"parameter 'split' must be 'example' or 'test' for rovers, got {split!r}")

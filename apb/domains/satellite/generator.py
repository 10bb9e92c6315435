"""Seeded Satellite problems: images of directions in given modes, taken by calibrated instruments on satellites.

Parameters:
    satellites      -- number of satellites, 1..5 (satellite_<i>), each pointing at a random direction
    instruments     -- number of instruments in all, satellites..15: one per satellite, the rest on random satellites
    modes           -- number of observation modes, 1..5 (image_<i>, infrared_<i>, spectrograph_<i>, thermograph_<i>)
    directions      -- number of directions, 2..20; the first third (at least one) are ground stations, the
                       calibration targets of the instruments; the others are stars, planets and phenomena to image
    images          -- number of have_image goals, 1..(non-ground-station directions x modes), distinct pairs
    pointing_goals  -- number of satellites that must end pointing at a random direction, 0..satellites
Every problem is solvable: every mode is supported by an instrument and every instrument has a calibration target.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, render_problem

PARAMETERS: dict[str, int] = {"satellites": 1, "instruments": 2, "modes": 2, "directions": 5, "images": 2,
                              "pointing_goals": 0}
RANGES: dict[str, tuple[int, int]] = {"satellites": (1, 5), "instruments": (1, 15), "modes": (1, 5),
                                      "directions": (2, 20), "images": (1, 100), "pointing_goals": (0, 5)}
MODE_KINDS = ("image", "infrared", "spectrograph", "thermograph")
TARGET_KINDS = ("star", "planet", "phenomenon")


def ground_stations(directions: int) -> int:
    """How many of the directions are ground stations."""
    return max(1, directions // 3)


def _validate(params: dict[str, int]) -> dict[str, int]:
    """Defaults filled in; raises ValueError for an unknown parameter or a value outside its range."""
    values = check_parameters("satellite", PARAMETERS, RANGES, params)
    limits = {"instruments": (values["satellites"], RANGES["instruments"][1]),
              "images": (1, (values["directions"] - ground_stations(values["directions"])) * values["modes"]),
              "pointing_goals": (0, values["satellites"])}
    for name, (low, high) in limits.items():
        if not low <= values[name] <= high:
            raise ValueError(f"parameter {name!r} must be an integer in {low}..{high} for these parameters, "
                             f"got {values[name]}")
    return values


def generate(seed: int, **params: int) -> str:
    """The PDDL text of one problem, deterministic for (seed, params)."""
    return problem(seed, _validate(params))


def problem(seed: int, p: dict[str, int]) -> str:
    """The problem PDDL for `seed` and a full set of parameters the caller has checked (its own ranges; the
    relative limits `_validate` states)."""
    rng = random.Random(seed)
    satellites = [f"satellite_{i}" for i in range(p["satellites"])]
    instruments = [f"instrument_{i}" for i in range(p["instruments"])]
    kinds = rng.sample(MODE_KINDS, len(MODE_KINDS))
    modes = [f"{kinds[i % len(kinds)]}_{i}" for i in range(p["modes"])]
    stations = ground_stations(p["directions"])
    directions = [f"groundstation_{i}" if i < stations else f"{rng.choice(TARGET_KINDS)}_{i}"
                  for i in range(p["directions"])]

    carrier = satellites + [rng.choice(satellites) for _ in instruments[len(satellites):]]
    supports: dict[str, set[str]] = {i: set() for i in instruments}
    for mode in modes:  # every mode has an instrument
        supports[rng.choice(instruments)].add(mode)
    for instrument in instruments:  # every instrument supports a mode, and each other mode with probability 1/2
        supports[instrument].update(m for m in modes if rng.random() < 0.5)
        if not supports[instrument]:
            supports[instrument].add(rng.choice(modes))
    target = {i: rng.choice(directions[:stations]) for i in instruments}
    pointing = {s: rng.choice(directions) for s in satellites}

    pairs = [(d, m) for d in directions[stations:] for m in modes]
    wanted = sorted(rng.sample(range(len(pairs)), p["images"]))
    aimed = sorted(rng.sample(range(len(satellites)), p["pointing_goals"]))
    goal = [f"(pointing {satellites[s]} {rng.choice(directions)})" for s in aimed]
    goal += [f"(have_image {pairs[k][0]} {pairs[k][1]})" for k in wanted]

    init = []
    for instrument in instruments:
        init += [f"(supports {instrument} {m})" for m in modes if m in supports[instrument]]
        init.append(f"(calibration_target {instrument} {target[instrument]})")
    for satellite in satellites:
        init += [f"(on_board {i} {satellite})" for i, s in zip(instruments, carrier) if s == satellite]
        init += [f"(power_avail {satellite})", f"(pointing {satellite} {pointing[satellite]})"]

    objects = [f"{' '.join(satellites)} - satellite", f"{' '.join(instruments)} - instrument",
               f"{' '.join(modes)} - mode", f"{' '.join(directions)} - direction"]
    name = (f"satellite-s{p['satellites']}-i{p['instruments']}-m{p['modes']}-d{p['directions']}-g{len(goal)}"
            f"-s{seed}")
    return _render(name, objects, init, goal)



def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    return render_problem(name, "satellite", objects, init, goal)


# (satellites, instruments, modes, directions, images, pointing_goals), after the AutoPlanBench instances.
_TEST_SHAPES = ((1, 1, 1, 3, 2, 0), (1, 2, 2, 4, 2, 0), (1, 1, 3, 4, 2, 1), (1, 2, 2, 5, 3, 0),
                (1, 3, 3, 6, 3, 1), (2, 4, 2, 4, 2, 1), (1, 2, 1, 4, 2, 0), (2, 3, 2, 5, 3, 0),
                (1, 3, 3, 7, 4, 1), (2, 5, 3, 3, 2, 0), (1, 2, 2, 6, 3, 1), (2, 3, 2, 6, 3, 1))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) in the order the builder tries them, for split "example" or "test"."""
    if split == "example":
        return [(seed, {"satellites": 1, "instruments": 2, "modes": 1, "directions": 3, "images": 1,
                        "pointing_goals": 0}) for seed in range(10)]
    if split == "test":
        names = ("satellites", "instruments", "modes", "directions", "images", "pointing_goals")
        candidates = []
        for round_ in range(4):
            for shape in _TEST_SHAPES:
                candidates.append((100 * round_ + len(candidates), dict(zip(names, shape))))
        return candidates
    raise ValueError(f"parameter 'split' must be 'example' or 'test' for satellite, got {split!r}")

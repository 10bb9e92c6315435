"""`apb generate ipc2023:<domain>`: new tasks for the IPC 2023 Learning Track's own domain file, sized by the
organisers' generators' parameters.

For the five track domains apb has a generator for (blocksworld, ferry, floortile, rovers, satellite), a task is
drawn by apb's own generator (`apb/domains/<name>/generator.py`, its `problem(seed, values)`) and written in the
track's vocabulary: its object names (`car1`, `loc1`, `tile_0_1`, `sat1`, ...), predicate names, types, and
without the facts the track's domain file has not (Ferry's `not-eq`, Rovers' `channel_free`). The size parameters
are the organisers' (their `<domain>.py`), with their meaning: `blocks`; `cars`, `locations`; `rows` (painted rows;
the grid has one more), `columns`, `robots` (at most columns); `rovers`, `waypoints`, `cameras`, `objectives`;
`satellites`, `instruments` (at least satellites), `modes`, `directions`. What the organisers draw at random
beyond the sizes (Rovers' and Satellite's goal counts) is drawn here too, from the seed; the random draws
themselves are apb's generators', so a task is not the organisers' byte for byte. Blocksworld's goal is the whole
goal configuration (`on`, `on-table`, `clear`), as in the track's tasks.

`size=training|easy|medium|hard` takes the sizes of that split in order from the schedule of the organisers'
`generate_all.py` (its first and last size per parameter below, stepped as that script steps them). A parameter's
range runs from the least value the organisers' generator takes to the largest size of its schedules.
"""

from __future__ import annotations

import heapq
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from apb.datasets.dataset import DatasetError
from apb.datasets.ipc2023 import PREFIX, TEST_SIZES, TRAINING, ipc2023_root
from apb.domains import registry
from apb.domains.generation import render_problem
from apb.domains.ipc2023 import DOMAINS
from apb.domains.satellite.generator import MODE_KINDS, TARGET_KINDS, ground_stations
from apb.engine import Domain, load_domain, parse_problem

SIZE = "size"  # the parameter that picks a split's schedule
SPLITS = (TRAINING, *TEST_SIZES)
TEST_TASKS = 30  # p01..p30 of each test split; the training split's schedule runs from its first id to p99
LAST_TRAINING_ID = 99
Schedule = dict[str, tuple[int, int]]  # parameter -> (first size, last size) of one split in generate_all.py


@dataclass(frozen=True)
class Track:
    """One track domain: apb's generator that draws it, how its tasks are written in the track's vocabulary, and
    the organisers' parameters and schedules."""

    domain_name: str  # the (:domain ...) of the track's domain file
    minimum: dict[str, int]  # the organisers' parameters, in their order, with the least value they take
    schedules: dict[str, Schedule]  # split -> parameter -> (first, last), from the organisers' generate_all.py
    first_training_id: int  # the training split's first generated task (the ones before are base cases)
    names: tuple[tuple[str, str, str | None], ...]  # (apb object name regex, track name, track type); k counts
    renames: dict[str, str] = field(default_factory=dict)  # apb predicate -> the track's
    dropped: frozenset[str] = frozenset()  # apb predicates the track's domain file has not
    drawn: Callable[[dict, random.Random], dict] | None = None  # apb's parameters the organisers draw at random
    whole_goal: bool = False  # Blocksworld: the goal lists the whole configuration
    inclusive: bool = True  # generate_all.py steps by (1 + last - first) / n (Blocksworld: (last - first) / n)
    step_from: dict[str, str] = field(default_factory=dict)  # Rovers: the objectives' step starts at the cameras'


def _rovers_goals(values: dict, rng: random.Random) -> dict:
    """The goal counts the organisers draw: soil (rock) goals among the waypoints with a sample (each with
    probability 1/2), image goals among objectives x 3 modes; at least one goal."""
    soil, rock = (rng.randint(0, sum(rng.random() < 0.5 for _ in range(values["waypoints"]))) for _ in range(2))
    images = rng.randint(0, 3 * values["objectives"])
    return {"soil": soil, "rock": rock, "images": images if soil + rock + images else 1}


def _satellite_goals(values: dict, rng: random.Random) -> dict:
    """The goals the organisers draw: a pointing goal for each satellite with probability 1/2, and from 1 to every
    (direction, mode) pair of images (here the directions that are not calibration targets)."""
    imaged = values["directions"] - ground_stations(values["directions"])
    return {"pointing_goals": sum(rng.random() < 0.5 for _ in range(values["satellites"])),
            "images": rng.randint(1, imaged * values["modes"])}


def _splits(*columns: tuple) -> dict[str, Schedule]:
    """{split: {parameter: (first, last)}} from rows (parameter, firsts of the four splits, lasts of the four)."""
    return {split: {name: (firsts[i], lasts[i]) for name, firsts, lasts in columns} for i, split in enumerate(SPLITS)}


TRACKS: dict[str, Track] = {
    "blocksworld": Track(
        "blocksworld", {"blocks": 2}, _splits(("blocks", (5, 5, 35, 160), (30, 30, 150, 500))), 15,
        ((r"block_\w+", "b{k}", None),), renames={"handempty": "arm-empty", "ontable": "on-table"},
        whole_goal=True, inclusive=False),
    "ferry": Track(
        "ferry", {"cars": 1, "locations": 2},
        _splits(("cars", (1, 2, 10, 200), (20, 20, 100, 1000)), ("locations", (5, 5, 20, 100), (15, 15, 50, 500))),
        12, ((r"car_\d+", "car{k}", "car"), (r"loc_\d+", "loc{k}", "location")),
        dropped=frozenset({"car", "location", "not-eq"})),
    "floortile": Track(  # rows and columns: the side of the first square grid and the grid step (see _floortile)
        "floortile", {"rows": 2, "columns": 2, "robots": 1},
        _splits(("grid", (3, 3, 10, 25), (1, 1, 3, 3)), ("robots", (1, 1, 4, 15), (3, 3, 15, 35))), 17,
        ((r"tile_(\d+)-(\d+)", "tile_{0}_{1}", "tile"), (r"robot_\d+", "robot{k}", "robot"),
         (r"color_(\w+)", "{0}", "color"))),
    "rovers": Track(
        "rover", {"rovers": 1, "waypoints": 2, "cameras": 1, "objectives": 1},
        _splits(("rovers", (1, 1, 5, 15), (4, 4, 10, 30)), ("waypoints", (4, 4, 15, 100), (10, 10, 90, 200)),
                ("cameras", (1, 1, 5, 60), (4, 4, 50, 100)), ("objectives", (1, 1, 15, 100), (10, 10, 80, 200))),
        7, ((r"lander_\d+", "general", "lander"), (r"mode_(\w+)", "{0}", "mode"),
            (r"rover_\d+_store", "rover{k}store", "store"), (r"rover_\d+", "rover{k}", "rover"),
            (r"waypoint_\d+", "waypoint{k}", "waypoint"), (r"camera_\d+", "camera{k}", "camera"),
            (r"objective_\d+", "objective{k}", "objective")),
        dropped=frozenset({"channel_free", "available"}), drawn=_rovers_goals, step_from={"objectives": "cameras"}),
    "satellite": Track(
        "satellite", {"satellites": 1, "instruments": 1, "modes": 1, "directions": 2},
        _splits(("satellites", (3, 3, 15, 50), (10, 10, 40, 100)),
                ("instruments", (3, 3, 15, 50), (20, 20, 80, 200)), ("modes", (1, 1, 3, 5), (3, 3, 5, 10)),
                ("directions", (4, 4, 15, 40), (10, 10, 30, 100))),
        9, ((r"satellite_\d+", "sat{k}", "satellite"), (r"instrument_\d+", "ins{k}", "instrument"),
            (rf"(?:{'|'.join(MODE_KINDS)})_\d+", "mod{k}", "mode"),
            (rf"(?:groundstation|{'|'.join(TARGET_KINDS)})_\d+", "dir{k}", "direction")),
        drawn=_satellite_goals),
}


def track_of(source: str) -> tuple[str, Track]:
    """('ferry', its Track) for 'ipc2023:ferry'; DatasetError for a track domain apb has no generator for."""
    name = source.removeprefix(PREFIX).strip().lower()
    if name not in TRACKS:
        others = ", ".join(d for d in DOMAINS if d not in TRACKS)
        raise DatasetError(f"apb generate {source}: apb has no generator for this domain",
                           hint=f"it generates {', '.join(PREFIX + d for d in TRACKS)}; the other track domains "
                                f"({others}) have their training and test tasks in the track's folder")
    return name, TRACKS[name]


# ---- the organisers' schedules -----------------------------------------------------------------------------
def schedule(name: str, split: str) -> list[dict[str, int]]:
    """The sizes of the split's tasks in order (training: from its first generated task to p99), stepped as the
    organisers' generate_all.py steps them."""
    track = TRACKS[name]
    count = (LAST_TRAINING_ID + 1 - track.first_training_id) if split == TRAINING else TEST_TASKS
    spans = track.schedules[split]
    if name == "floortile":
        return _floortile(spans, count)
    steps = {key: ((last - first + track.inclusive) if key not in track.step_from
                   else 1 + last - spans[track.step_from[key]][0]) / count for key, (first, last) in spans.items()}
    return [{key: int(first + steps[key] * k) for key, (first, _) in spans.items()} for k in range(count)]


def _floortile(spans: Schedule, count: int) -> list[dict[str, int]]:
    """Floortile's grids come smallest area first from a queue that starts at a square grid and adds, for each grid
    taken, the grids one step taller, wider, and both; robots grow linearly, at most the columns."""
    side, step = spans["grid"]
    first, last = spans["robots"]
    robot_step = (1 + last - first) / count
    queue = [(side * side, side, side)]
    sizes = []
    for k in range(count):
        _, rows, columns = heapq.heappop(queue)
        sizes.append({"rows": rows, "columns": columns, "robots": min(int(first + robot_step * k), columns)})
        for grown in ((rows + step, columns), (rows, columns + step), (rows + step, columns + step)):
            heapq.heappush(queue, (grown[0] * grown[1], *grown))
    return sizes


@cache
def ranges(name: str) -> dict[str, tuple[int, int]]:
    """Each organisers' parameter -> (the least value their generator takes, the largest size of their schedules:
    their last size, or one the stepping reaches beyond it)."""
    sizes = [size for split in SPLITS for size in schedule(name, split)]
    sizes += [{key: last for key, (_, last) in spans.items()} for spans in TRACKS[name].schedules.values()]
    return {key: (low, max(size.get(key, low) for size in sizes)) for key, low in TRACKS[name].minimum.items()}


# ---- parameters --------------------------------------------------------------------------------------------
def check(source: str, params: dict) -> list[dict[str, int]] | dict[str, int]:
    """The checked sizes: one dict (the same for every task; a size not given is the training split's first), or
    the list of a split's schedule for `size=`. DatasetError names the parameter, its range and what to do."""
    name, _ = track_of(source)
    limits = ranges(name)
    usage = ", ".join(f"{key} ({low}..{high})" for key, (low, high) in limits.items())
    unknown = sorted(set(params) - set(limits) - {SIZE})
    if unknown:
        raise DatasetError(f"unknown parameter(s) {', '.join(unknown)} for {source}",
                           hint=f"it takes the organisers' sizes {usage}, or {SIZE}={'|'.join(SPLITS)}; "
                                "pass them as --param NAME=VALUE")
    if SIZE in params:
        if params[SIZE] not in SPLITS:
            raise DatasetError(f"parameter {SIZE}={params[SIZE]} for {source} is not a split of the track",
                               hint=f"pass --param {SIZE}={'|'.join(SPLITS)} (that split's sizes, in order)")
        if len(params) > 1:
            raise DatasetError(f"parameter {SIZE}={params[SIZE]} for {source} comes with sizes",
                               hint=f"pass {SIZE} alone (it sets every size), or the sizes {usage}")
        return schedule(name, params[SIZE])
    values = {**schedule(name, TRAINING)[0], **params}
    for key, (low, high) in limits.items():
        value = values[key]
        if not isinstance(value, int) or not low <= value <= high:
            what = "is out of range" if isinstance(value, int) else "is not a whole number"
            raise DatasetError(f"parameter {key}={value} for {source} {what}",
                               hint=f"{key} takes {low}..{high}: pass --param {key}=N with N in {low}..{high}")
    if name == "floortile" and values["robots"] > values["columns"]:
        raise DatasetError(f"parameter robots={values['robots']} exceeds columns={values['columns']} for {source}",
                           hint="the organisers place at most one robot per column: pass robots <= columns")
    if name == "satellite" and values["instruments"] < values["satellites"]:
        raise DatasetError(f"parameter instruments={values['instruments']} is below satellites="
                           f"{values['satellites']} for {source}",
                           hint="every satellite carries an instrument: pass instruments >= satellites")
    return values


def candidates(sizes: list[dict[str, int]] | dict[str, int], seed: int, count: int) -> Iterator[tuple[int, dict]]:
    """(seed, sizes) of `count` candidate tasks: seeds from `seed` on; a schedule's sizes in order, then again."""
    for i in range(count):
        yield seed + i, dict(sizes[i % len(sizes)] if isinstance(sizes, list) else sizes)


# ---- drawing and writing -----------------------------------------------------------------------------------
@cache
def _bundled_domain(name: str) -> Domain:
    return load_domain(registry.domain_file(name))


def generator(source: str) -> Callable[..., str]:
    """`generate(seed, **sizes)` -> the task's PDDL in the track's vocabulary (sizes checked by `check`)."""
    name, track = track_of(source)
    module = registry.generator(name)

    def generate(seed: int, **sizes: int) -> str:
        values = dict(sizes)
        if track.drawn is not None:
            values.update(track.drawn(values, random.Random(f"{PREFIX}{name}:{seed}:{sorted(sizes.items())}")))
        apb_text = module.problem(seed, values)
        label = "-".join(f"{key}{sizes[key]}" for key in track.minimum)
        header = ", ".join(f"{key}={sizes[key]}" for key in track.minimum)
        return (f";; {header}, seed={seed}: apb generate {PREFIX}{name}\n"
                + translate(track, parse_problem(apb_text, _bundled_domain(name)), f"{name}-{label}-s{seed}"))

    return generate


def translate(track: Track, problem, task_name: str) -> str:
    """An apb problem (parsed) in the track's vocabulary: objects renamed and typed, predicates renamed or dropped."""
    names: dict[str, str] = {}
    groups: dict[str | None, list[str]] = {}
    counts: dict[int, int] = {}
    for obj in problem.objects:
        for rule, (pattern, template, kind) in enumerate(track.names):
            match = re.fullmatch(pattern, obj)
            if match:
                counts[rule] = counts.get(rule, 0) + 1
                names[obj] = template.format(*match.groups(), k=counts[rule])
                groups.setdefault(kind, []).append(names[obj])
                break
        else:  # a change in apb's generator the track's names do not cover
            raise ValueError(f"no track name for apb's object {obj!r}")

    def facts(literals) -> list[tuple[str, ...]]:
        return [(track.renames.get(lit.predicate, lit.predicate), *(names[a] for a in lit.args))
                for lit in literals if lit.predicate not in track.dropped]

    init, goal = facts(problem.init), facts(problem.goal)
    if track.whole_goal:
        goal += _whole_configuration(goal, [names[obj] for obj in problem.objects])
    objects = [" ".join(members) + (f" - {kind}" if kind else "") for kind, members in groups.items()]
    return render_problem(task_name, track.domain_name, objects, [_atom(f) for f in init], [_atom(f) for f in goal])


def _whole_configuration(on_facts: list[tuple[str, ...]], blocks: list[str]) -> list[tuple[str, ...]]:
    """The `clear` and `on-table` facts that complete a goal of `on` facts into the whole configuration."""
    above = {fact[2] for fact in on_facts}
    standing = {fact[1] for fact in on_facts}
    return [("clear", b) for b in blocks if b not in above] + [("on-table", b) for b in blocks if b not in standing]


def _atom(fact: tuple[str, ...]) -> str:
    return "(" + " ".join(fact) + ")"


def prepare(source: str, params: dict, seed: int, count: int) -> tuple[Path, Callable[..., str], list]:
    """What `apb generate ipc2023:<domain>` needs: the track's domain file (under $APB_IPC2023), the generator
    and `count` candidates (seed, sizes); DatasetError for a bad parameter or no track folder."""
    name, _ = track_of(source)
    sizes = check(source, params)
    domain_file = ipc2023_root() / name / "domain.pddl"
    if not domain_file.is_file():
        raise DatasetError("the IPC 2023 Learning Track folder has no such domain file", path=domain_file,
                           hint="point $APB_IPC2023 at a copy of the track's benchmark repository")
    return domain_file, generator(source), list(candidates(sizes, seed, count))

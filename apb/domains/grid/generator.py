"""Random Grid problems: a robot, locked places and keys of several shapes on a `rows` x `columns` grid.

Parameters:
    rows    -- number of grid rows (1..8; rows x columns at least 2).
    columns -- number of grid columns (1..8).
    shapes  -- number of key and lock shapes (1..keys).
    keys    -- number of keys (1..10); every shape has at least one key.
    locks   -- number of locked places (0..rows x columns - 1); each lock gets a random shape.
    goals   -- number of keys that must end at a given place (1..keys).

Places are named place_<row>-<column>, keys key_0, key_1, ..., shapes shape_0, shape_1, ... The robot starts with
an empty arm on an open place; keys lie anywhere, locked places included (as in the IPC problems). Each goal
key must reach a random place other than its start.

Solvable by construction: a layout is kept only if the goal keys and their goal places lie in the region the
robot can open. That region is computed exactly: the open places it can walk to, grown by every locked
neighbour whose shape matches a key lying in the region (the robot can fetch any such key, carry it over and
unlock), until nothing changes. Otherwise the layout is drawn again from the same random stream.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_range, merge_parameters

PARAMETERS: dict[str, int] = {"rows": 3, "columns": 3, "shapes": 2, "keys": 3, "locks": 2, "goals": 1}
MAX_SIDE = 8
MAX_KEYS = 10
MAX_TRIES = 1000

Cell = tuple[int, int]


def place(cell: Cell) -> str:
    """The name of the place at (row, column)."""
    return f"place_{cell[0]}-{cell[1]}"


def _check(params: dict) -> dict[str, int]:
    """The validated parameters; ValueError names the bad parameter and its range."""
    values = merge_parameters("grid", PARAMETERS, params)

    def need(name: str, low: int, high: int) -> None:
        check_range(name, values[name], low, high)

    need("rows", 1, MAX_SIDE)
    need("columns", 1, MAX_SIDE)
    cells = values["rows"] * values["columns"]
    if cells < 2:
        raise ValueError(f"rows x columns must be at least 2, got {values['rows']} x {values['columns']}")
    need("keys", 1, MAX_KEYS)
    need("shapes", 1, values["keys"])
    need("locks", 0, cells - 1)
    need("goals", 1, values["keys"])
    return values


def neighbours(cell: Cell, rows: int, columns: int) -> list[Cell]:
    """The places next to `cell` (up, down, left, right) inside the grid."""
    r, c = cell
    steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [(a, b) for a, b in steps if 0 <= a < rows and 0 <= b < columns]


def openable(rows: int, columns: int, robot: Cell, lock_shape: dict[Cell, int],
             key_place: list[Cell], key_shape: list[int]) -> set[Cell]:
    """Every place the robot can eventually stand on (see the module docstring)."""
    region: set[Cell] = set()
    frontier = [robot]
    while True:
        while frontier:  # walk through open places
            cell = frontier.pop()
            if cell in region:
                continue
            region.add(cell)
            frontier += [n for n in neighbours(cell, rows, columns) if n not in lock_shape and n not in region]
        shapes = {key_shape[k] for k, at in enumerate(key_place) if at in region}
        opened = {n for cell in region for n in neighbours(cell, rows, columns)
                  if n in lock_shape and n not in region and lock_shape[n] in shapes}
        if not opened:
            return region
        frontier = list(opened)


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    v = _check(params)
    rows, columns = v["rows"], v["columns"]
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    for _ in range(MAX_TRIES):
        key_shape = list(range(v["shapes"])) + [rng.randrange(v["shapes"]) for _ in range(v["keys"] - v["shapes"])]
        rng.shuffle(key_shape)
        robot, *locked = rng.sample(cells, v["locks"] + 1)
        lock_shape = {cell: rng.randrange(v["shapes"]) for cell in locked}
        key_place = [rng.choice(cells) for _ in range(v["keys"])]
        goal_keys = sorted(rng.sample(range(v["keys"]), v["goals"]))
        goal_place = {k: rng.choice([c for c in cells if c != key_place[k]]) for k in goal_keys}
        region = openable(rows, columns, robot, lock_shape, key_place, key_shape)
        if all(key_place[k] in region and goal_place[k] in region for k in goal_keys):
            break
    else:  # pragma: no cover - only for extreme parameters (almost everything locked)
        raise ValueError(f"no solvable layout found for {v}: use fewer locks or more keys")

    places = [place(c) for c in cells]
    keys = [f"key_{k}" for k in range(v["keys"])]
    shapes = [f"shape_{s}" for s in range(v["shapes"])]
    init = ["(arm-empty)"]
    init += [f"(place {p})" for p in places] + [f"(shape {s})" for s in shapes] + [f"(key {k})" for k in keys]
    init += [f"(conn {place(c)} {place(n)})" for c in cells for n in sorted(neighbours(c, rows, columns))]
    init += [f"(locked {place(c)})" for c in sorted(lock_shape)]
    init += [f"(lock-shape {place(c)} {shapes[s]})" for c, s in sorted(lock_shape.items())]
    init += [f"(open {place(c)})" for c in cells if c not in lock_shape]
    init += [f"(key-shape {keys[k]} {shapes[s]})" for k, s in enumerate(key_shape)]
    init += [f"(at {keys[k]} {place(c)})" for k, c in enumerate(key_place)]
    init.append(f"(at-robot {place(robot)})")
    goals = [f"(at {keys[k]} {place(goal_place[k])})" for k in goal_keys]

    name = "-".join(str(v[p]) for p in PARAMETERS)
    return (f"(define (problem grid-{name}-s{seed})\n"
            f"  (:domain grid)\n"
            f"  (:objects\n    " + "\n    ".join([*places, *shapes, *keys]) + ")\n"
            "  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


# parameter tuples (in PARAMETERS order) of the test candidates, cycled: sizes like the AutoPlanBench problems
TEST_SHAPES = ((3, 3, 2, 2, 2, 1), (3, 2, 2, 2, 2, 2), (2, 4, 2, 2, 3, 1), (3, 4, 2, 3, 3, 1),
               (2, 3, 1, 2, 2, 2), (3, 3, 3, 3, 3, 1))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: small grids for example, a cycle of TEST_SHAPES for test."""
    if split == "example":
        return [(1000 + i, {"rows": 2, "columns": 2, "shapes": 1, "keys": 1, "locks": 1, "goals": 1})
                for i in range(10)]
    if split == "test":
        return [(i, dict(zip(PARAMETERS, TEST_SHAPES[i % len(TEST_SHAPES)]))) for i in range(1, 61)]
    raise ValueError(f"split must be example or test (grid has no scaled set), got {split!r}")

"""Random Gold Miner problems: a grid of `rows` x `columns` locations with rock between the robot and the gold.

Parameters:
    rows    -- number of grid rows (2..8; at least 3 when columns is 1).
    columns -- number of grid columns (1..8).

Locations are named loc_<row>-<column>. As in the IPC 2008 generator's layout, column 0 is free of rock and
holds the robot and, on another row, the bomb depot and the laser. The gold lies under soft rock in the last
column; a random path of soft rock leads to it from column 0, and every other location holds soft rock or hard
rock with equal chance. With a single column the gold sits in column 0 beyond the robot and the depot.

Solvable by construction: with two or more columns the laser can burn a way up to the gold's neighbour (it clears
any rock), be put down, and a bomb from the depot then clears the gold's soft rock; with one column the gold is
never between the robot and the depot, so one bomb suffices.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_range, merge_parameters

PARAMETERS: dict[str, int] = {"rows": 3, "columns": 3}
MAX_SIDE = 8
SOFT_ROCK_CHANCE = 0.5


def loc(row: int, column: int) -> str:
    """The name of the location in `row` and `column` (both from 0)."""
    return f"loc_{row}-{column}"


def _check(params: dict) -> tuple[int, int]:
    """The validated (rows, columns); ValueError names the bad parameter and its range."""
    values = merge_parameters("goldminer", PARAMETERS, params)
    columns = check_range("columns", values["columns"], 1, MAX_SIDE)
    rows = check_range("rows", values["rows"], 3 if columns == 1 else 2, MAX_SIDE, f" with {columns} column(s)")
    return rows, columns


def soft_path(rows: int, columns: int, gold_row: int, rng: random.Random) -> set[tuple[int, int]]:
    """Cells of a random monotone path from column 1 to the gold in the last column (excluding the gold)."""
    row = rng.randrange(rows)
    path = set()
    for column in range(1, columns):
        path.add((row, column))
        if column == columns - 1:
            break
        target = rng.randrange(rows)
        while row != target:  # wander vertically within this column before going right
            row += 1 if target > row else -1
            path.add((row, column))
    # reach the gold's row in the last column
    while row != gold_row:
        row += 1 if gold_row > row else -1
        path.add((row, columns - 1))
    path.discard((gold_row, columns - 1))
    return path


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    rows, columns = _check(params)
    rng = random.Random(seed)
    if columns == 1:  # three rows with the gold at one end, so it is not between the robot and the depot
        low, middle, high = sorted(rng.sample(range(rows), 3))
        gold_row, others = (low, [middle, high]) if rng.random() < 0.5 else (high, [low, middle])
        robot_row, depot_row = rng.sample(others, 2)
        gold = (gold_row, 0)
    else:
        robot_row, depot_row = rng.sample(range(rows), 2)
        gold = (rng.randrange(rows), columns - 1)
    path = soft_path(rows, columns, gold[0], rng) if columns > 1 else set()

    cells = [(r, c) for r in range(rows) for c in range(columns)]
    init = ["(arm-empty)"]
    init += [f"(connected {loc(r, c)} {loc(r, c + 1)})" for r, c in cells if c + 1 < columns]
    init += [f"(connected {loc(r, c)} {loc(r + 1, c)})" for r, c in cells if r + 1 < rows]
    init += [f"(connected {loc(r, c + 1)} {loc(r, c)})" for r, c in cells if c + 1 < columns]
    init += [f"(connected {loc(r + 1, c)} {loc(r, c)})" for r, c in cells if r + 1 < rows]
    for cell in cells:
        name = loc(*cell)
        if cell == gold:
            init += [f"(gold-at {name})", f"(soft-rock-at {name})"]
        elif cell[1] == 0:
            if cell[0] == robot_row:
                init.append(f"(robot-at {name})")
            if cell[0] == depot_row:
                init += [f"(bomb-at {name})", f"(laser-at {name})"]
            init.append(f"(clear {name})")
        elif cell in path or rng.random() < SOFT_ROCK_CHANCE:
            init.append(f"(soft-rock-at {name})")
        else:
            init.append(f"(hard-rock-at {name})")

    grid = "\n    ".join(" ".join(loc(r, c) for c in range(columns)) for r in range(rows))
    return (f"(define (problem goldminer-{rows}x{columns}-s{seed})\n"
            f"  (:domain gold-miner-typed)\n"
            f"  (:objects\n    {grid} - LOC)\n"
            f"  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (holds-gold)))\n")


# (rows, columns) of the test candidates, cycled: grid shapes like the AutoPlanBench problems
TEST_SHAPES = ((2, 3), (3, 3), (2, 4), (2, 5), (4, 2), (5, 2), (6, 1))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: 2x2 grids for example, a cycle of TEST_SHAPES for test."""
    if split == "example":
        return [(1000 + i, {"rows": 2, "columns": 2}) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(PARAMETERS, TEST_SHAPES[i % len(TEST_SHAPES)]))) for i in range(1, 61)]
    raise ValueError(f"split must be example or test (goldminer has no scaled set), got {split!r}")

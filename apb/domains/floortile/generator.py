"""Random Floortile problems: robots paint `rows` x `columns` tiles in a checkerboard of white and black.

Parameters:
    rows    -- number of tile rows to paint (1..8); the grid has one more, unpainted row 0 at the bottom.
    columns -- number of tile columns (1..8).
    robots  -- number of robots (1..columns), placed on distinct random tiles of the whole grid.

Tiles are named tile_<row>-<column> (rows 0..rows from the bottom up, columns 1..columns, as in the IPC problems);
robots robot_1, robot_2, ... start with white, black, white, ... paint (colours color_white and color_black, both
available). The goal paints every tile of rows 1..rows: white where row + column is even, black elsewhere.

Solvable by construction: robots can trade colours at will, so they are interchangeable; with no more robots
than columns they can all gather in row rows-1 and paint the row above from contiguous column segments, step
down one row, and repeat down to row 0 (this is why `robots` may not exceed `columns`).
"""

from __future__ import annotations

import random

from apb.domains.generation import check_range, merge_parameters

PARAMETERS: dict[str, int] = {"rows": 2, "columns": 3, "robots": 2}
MAX_ROWS = 8
MAX_COLUMNS = 8
COLORS = ("color_white", "color_black")


def tile(row: int, column: int) -> str:
    """The name of the tile in `row` (0 = bottom) and `column` (1 = leftmost)."""
    return f"tile_{row}-{column}"


def goal_color(row: int, column: int) -> str:
    """The checkerboard colour a tile must get."""
    return COLORS[(row + column) % 2]


def _check(params: dict) -> tuple[int, int, int]:
    """The validated (rows, columns, robots); ValueError names the bad parameter and its range."""
    values = merge_parameters("floortile", PARAMETERS, params)
    rows = check_range("rows", values["rows"], 1, MAX_ROWS)
    columns = check_range("columns", values["columns"], 1, MAX_COLUMNS)
    robots = check_range("robots", values["robots"], 1, columns, " (at most the number of columns)")
    return rows, columns, robots


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    return problem(seed, dict(zip(PARAMETERS, _check(params))))


def problem(seed: int, values: dict[str, int]) -> str:
    """The problem PDDL for `seed` and a full set of parameters the caller has checked (its own ranges; robots at
    most columns)."""
    rows, columns, robots = values["rows"], values["columns"], values["robots"]
    rng = random.Random(seed)
    tiles = [(r, c) for r in range(rows + 1) for c in range(1, columns + 1)]
    starts = rng.sample(tiles, robots)
    occupied = set(starts)
    names = [f"robot_{i}" for i in range(1, robots + 1)]

    init: list[str] = []
    for i, (name, (r, c)) in enumerate(zip(names, starts)):
        init += [f"(robot-at {name} {tile(r, c)})", f"(robot-has {name} {COLORS[i % 2]})"]
    init += [f"(available-color {color})" for color in COLORS]
    init += [f"(clear {tile(r, c)})" for r, c in tiles if (r, c) not in occupied]
    init += [f"(up {tile(r + 1, c)} {tile(r, c)})" for r, c in tiles if r < rows]
    init += [f"(down {tile(r, c)} {tile(r + 1, c)})" for r, c in tiles if r < rows]
    init += [f"(right {tile(r, c + 1)} {tile(r, c)})" for r, c in tiles if c < columns]
    init += [f"(left {tile(r, c)} {tile(r, c + 1)})" for r, c in tiles if c < columns]
    goals = [f"(painted {tile(r, c)} {goal_color(r, c)})" for r, c in tiles if r >= 1]

    tile_rows = "\n    ".join(" ".join(tile(r, c) for c in range(1, columns + 1)) for r in range(rows + 1))
    return (f"(define (problem floortile-{rows}-{columns}-{robots}-s{seed})\n"
            f"  (:domain floor-tile)\n"
            f"  (:objects\n    {tile_rows} - tile\n"
            f"    {' '.join(names)} - robot\n"
            f"    {' '.join(COLORS)} - color)\n"
            f"  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


# (rows, columns, robots) of the test candidates, cycled: sizes like the AutoPlanBench problems
TEST_SHAPES = ((2, 2, 2), (1, 5, 2), (2, 3, 2), (1, 6, 3), (2, 3, 3), (3, 2, 2))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: small grids for example, a cycle of TEST_SHAPES for test."""
    if split == "example":
        return [(1000 + i, {"rows": 1, "columns": 3, "robots": 2}) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(PARAMETERS, TEST_SHAPES[i % len(TEST_SHAPES)]))) for i in range(1, 61)]
    raise ValueError(f"split must be example or test (floortile has no scaled set), got {split!r}")

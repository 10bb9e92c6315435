"""Random Visitall problems: a `width` x `height` grid with `holes` cells removed and `goals` cells to visit.

Parameters:
    width        -- number of columns (1..30); cells are named cell_<column>_<row>.
    height       -- number of rows (1..30); width x height must be at least 2.
    holes        -- number of grid cells left out (0..width*height-2); the remaining cells stay connected.
    goals        -- number of cells that must be visited (2..width*height-holes), the robot's start cell
                    included: it is always one of them, as in the IPC and AutoPlanBench problems.

Cells are joined to their neighbours left, right, up and down in both directions. Holes are removed one at a
time among the cells whose removal keeps the grid connected, so every goal cell is reachable by construction.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, check_range

PARAMETERS: dict[str, int] = {"width": 3, "height": 2, "holes": 0, "goals": 4}
RANGES: dict[str, tuple[int, int]] = {"width": (1, 30), "height": (1, 30)}

Cell = tuple[int, int]


def check_params(params: dict) -> dict[str, int]:
    """The full parameter set (defaults filled in); ValueError names a bad parameter and its allowed range."""
    values = check_parameters("visitall", PARAMETERS, RANGES, params)
    cells = values["width"] * values["height"]
    if cells < 2:
        raise ValueError(f"width x height must be at least 2 cells, got {values['width']} x {values['height']}")
    check_range("holes", values["holes"], 0, cells - 2, " (width x height - 2)")
    check_range("goals", values["goals"], 2, cells - values["holes"], " (width x height - holes)")
    return values


def neighbours(cell: Cell, cells: set[Cell]) -> list[Cell]:
    """The cells of `cells` next to `cell`, in a fixed order."""
    x, y = cell
    return [c for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if c in cells]


def connected(cells: set[Cell]) -> bool:
    """Whether every cell can reach every other through neighbours."""
    first = min(cells)
    seen, todo = {first}, [first]
    while todo:
        for nxt in neighbours(todo.pop(), cells):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(cells)


def cell_name(cell: Cell) -> str:
    """cell_<column>_<row>."""
    return f"cell_{cell[0]}_{cell[1]}"


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    values = check_params(params)
    width, height = values["width"], values["height"]
    rng = random.Random(seed)
    cells = {(x, y) for x in range(width) for y in range(height)}
    for _ in range(values["holes"]):
        removable = [c for c in sorted(cells) if connected(cells - {c})]
        cells.discard(rng.choice(removable))
    ordered = sorted(cells)
    start = rng.choice(ordered)
    goal = {start, *rng.sample([c for c in ordered if c != start], values["goals"] - 1)}
    init = [f"(at-robot {cell_name(start)})", f"(visited {cell_name(start)})"]
    init += [f"(connected {cell_name(c)} {cell_name(n)})" for c in ordered for n in neighbours(c, cells)]
    goals = [f"(visited {cell_name(c)})" for c in ordered if c in goal]
    name = f"visitall-{width}x{height}-h{values['holes']}-g{values['goals']}-s{seed}"
    return (f"(define (problem {name})\n"
            f"  (:domain grid-visit-all)\n"
            f"  (:objects\n    " + "\n    ".join(cell_name(c) for c in ordered) + "\n    - place)\n"
            "  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


# (width, height, holes, goals) of the test candidates, cycled: grids of 4 to 7 cells, about 70% of them to visit,
# like the AutoPlanBench Visitall problems.
TEST_SIZES = ((3, 2, 0, 4), (2, 2, 0, 4), (4, 2, 1, 4), (3, 3, 2, 4), (6, 1, 0, 4),
              (2, 3, 0, 5), (3, 3, 3, 4), (4, 3, 5, 4), (2, 2, 0, 3), (3, 2, 0, 5))

# (width, height) of the scaled problems: full grids of 16 to 48 cells (the reference scaled set has 24 to 40), every
# cell to visit; optimal search starts to fail at about 25 cells.
SCALED_SIZES = ((4, 4), (3, 6), (4, 5), (3, 7), (4, 6), (3, 8), (5, 5), (3, 9), (4, 7), (5, 6), (3, 10), (4, 8),
                (5, 7), (6, 6), (4, 9), (5, 8), (4, 10), (6, 7), (5, 9), (6, 8))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: small grids for example and test; for scaled, full grids of
    growing size (4x4 up to 6x8) where every cell must be visited."""
    keys = ("width", "height", "holes", "goals")
    if split == "example":
        return [(1000 + i, dict(zip(keys, (3, 2, 0, 4)))) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(keys, TEST_SIZES[i % len(TEST_SIZES)]))) for i in range(1, 61)]
    if split == "scaled":
        return [(2000 + i, {"width": w, "height": h, "holes": 0, "goals": w * h})
                for i, (w, h) in enumerate(SCALED_SIZES)]
    raise ValueError(f"split must be one of example, test, scaled, got {split!r}")

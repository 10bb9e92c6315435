"""Grid worlds: Grid, Visitall, Floortile and Goldminer as a board of cells (a cell is an object whose name ends in
two numbers, `place_0-1`, `cell_2_3`, `tile_1-4`: row and column), coloured by the cell's facts, with the agent(s)
and the things lying on cells drawn on top; facts about no cell are written above the board."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apb.engine.task import Task
from apb.envs.pictures.drawers.board import short_names
from apb.envs.pictures.scene import CHAR_H, GREY, LIGHT, Scene, palette
from apb.envs.pictures.view import StateView, StaticFacts

CELL = 56
TOP = 24
_COORDS = re.compile(r"(\d+)\D+(\d+)$")
NAMED_COLOURS = {"white": (245, 245, 245), "black": (40, 40, 40), "red": (220, 60, 60), "green": (80, 170, 80),
                 "blue": (70, 110, 210), "yellow": (240, 210, 60)}


@dataclass(frozen=True)
class GridStyle:
    """agents: (predicate, cell argument, agent argument or a fixed agent name). fills: predicate of a cell ->
    its colour (None: the colour named by the fact's second argument, Floortile's paint). marks: unary cell
    predicate -> the word written in the cell. things: (predicate, thing argument, cell argument). flip: row 0 at
    the bottom."""

    agents: tuple[tuple[str, int, int | str], ...]
    fills: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)
    things: tuple[tuple[str, int, int], ...] = ()
    ignore: tuple[str, ...] = ()
    flip: bool = False


def cell_of(name: str) -> tuple[int, int] | None:
    match = _COORDS.search(name)
    return (int(match.group(1)), int(match.group(2))) if match else None


class GridDrawer:
    style: GridStyle

    def __init__(self, task: Task, static: StaticFacts) -> None:
        self.cells = {o: c for o in task.objects if (c := cell_of(o)) is not None and self._is_cell(task, o)}
        rows = max((r for r, _ in self.cells.values()), default=0) + 1
        cols = max((c for _, c in self.cells.values()), default=0) + 1
        self.rows, self.cols = rows, cols
        self.width = max(320, cols * CELL + 16)
        self.height = TOP + rows * CELL + 8
        self.tags = short_names(sorted(task.objects))
        self.colour = {o: palette(i + 1) for i, o in enumerate(sorted(task.objects))}

    @staticmethod
    def _is_cell(task: Task, name: str) -> bool:
        kind = str(task.objects[name]).lower()
        return kind in ("place", "tile", "loc", "cell", "object", "location")

    def _xy(self, cell: str) -> tuple[float, float]:
        r, c = self.cells[cell]
        if self.style.flip:
            r = self.rows - 1 - r
        return 8 + c * CELL, TOP + r * CELL

    def draw(self, view: StateView) -> Scene:
        s = self.style
        scene = Scene(self.width, self.height)
        used = set(s.ignore) | set(s.fills) | set(s.marks) | {p for p, _, _ in s.agents} | {p for p, _, _ in s.things}
        fill = {}
        for pred, colour in s.fills.items():
            for args in view.args(pred):
                if args and args[0] in self.cells:
                    if colour is None:  # the paint named by the fact's colour argument
                        colour_name = args[1].split("_")[-1].lower() if len(args) > 1 else ""
                        fill[args[0]] = NAMED_COLOURS.get(colour_name, GREY)
                    else:
                        fill[args[0]] = colour
        for cell in sorted(self.cells):
            x, y = self._xy(cell)
            scene.rect(x, y, CELL - 2, CELL - 2, fill=fill.get(cell, (250, 250, 250)), stroke=LIGHT, objects=(cell,))
            words = [word for pred, word in s.marks.items() if view.has(pred, cell)]
            for i, word in enumerate(words[:2]):
                dark = fill.get(cell, (250, 250, 250))
                colour = (255, 255, 255) if sum(dark) < 300 else (60, 60, 60)
                scene.text(x + 3, y + 3 + i * (CHAR_H + 1), word, colour=colour, objects=(cell,), max_width=CELL - 6)
        for pred, thing_arg, cell_arg in s.things:
            placed: dict[str, int] = {}
            for args in view.args(pred):
                cell = args[cell_arg]
                if cell in self.cells:
                    x, y = self._xy(cell)
                    k = placed[cell] = placed.get(cell, 0) + 1
                    thing = args[thing_arg]
                    scene.rect(x + CELL - 4 - 20 * k, y + CELL - 16, 18, 12, fill=self.colour[thing], objects=(thing,))
                    scene.label(x + CELL - 4 - 20 * k + 9, y + CELL - 14, self.tags[thing][:3], objects=(thing,))
        for pred, cell_arg, agent in s.agents:
            for args in view.args(pred):
                cell = args[cell_arg] if cell_arg < len(args) else None
                if cell in self.cells:
                    name = agent if isinstance(agent, str) else args[agent]
                    x, y = self._xy(cell)
                    objects = (name,) if name in self.colour else (cell,)
                    scene.circle(x + CELL / 2 - 1, y + CELL / 2 + 2, 12, fill=(230, 60, 60), objects=objects)
                    scene.label(x + CELL / 2 - 1, y + CELL / 2 - 1, self.tags.get(name, "R")[:3],
                                colour=(255, 255, 255), objects=objects)
        rest = [f"{p}({','.join(a)})" if a else p for p, rows in sorted(view.fluent.items()) if p not in used
                for a in rows if not any(x in self.cells for x in a)]
        scene.text(6, 6, " ".join(rest), colour=(20, 90, 160), max_width=self.width - 12)
        return scene

"""The picture of any PDDL state: objects as nodes on a fixed grid (sorted by type, then name: the layout depends
on the task only, so nodes stay put across steps), unary facts as labels under their node, binary facts as arrows
labelled with the predicate (static ones as thin grey lines), facts of more arguments as labels on their first
object, and 0-ary facts in a line at the top. Objects named as grid cells (`pos-3-4`, `loc-x1-y2`, `cell_2_5`: a
prefix and two numbers) are laid out as their grid, the other objects in rows above it. Goal facts not reached yet
are drawn as ghosts: binary ones as thin green arrows, others as green labels. An arrow's label goes where it
overlaps no other label (along the arrow), or is left out."""

from __future__ import annotations

import math
import re

from apb.engine.task import Task
from apb.envs.pictures.scene import CHAR_H, GOAL, GREY, LIGHT, Scene, palette, text_width
from apb.envs.pictures.view import StateView, StaticFacts

CELL_W, CELL_H = 116, 74
MAX_NODES = 160          # more objects are listed as a count (the picture stays readable and fast)
MAX_STATIC_EDGES = 400
MAX_EDGES = 300          # fluent binary facts drawn as arrows; more are counted at the top
TOP = 22
GHOST = (150, 205, 160)  # a goal fact not reached yet
# a grid cell's name: a prefix and two numbers (pos-3-4, loc-x1-y2, cell_2_5, p_03_11)
_CELL = re.compile(r"^(.*?)[-_][a-z]?(\d+)[-_][a-z]?(\d+)$", re.IGNORECASE)
MIN_GRID = 4  # fewer cells are laid out as any other objects


def grid_cells(names: list[str]) -> dict[str, tuple[int, int]]:
    """(column, row) of each object named as a cell of the largest grid among `names` (a prefix shared by at least
    MIN_GRID names followed by two numbers; columns and rows numbered in the order of the numbers); {} without."""
    groups: dict[str, dict[str, tuple[int, int]]] = {}
    for name in names:
        match = _CELL.match(name)
        if match:
            groups.setdefault(match.group(1).lower(), {})[name] = (int(match.group(2)), int(match.group(3)))
    if not groups:
        return {}
    cells = max(groups.values(), key=len)
    if len(cells) < MIN_GRID:
        return {}
    xs = {v: i for i, v in enumerate(sorted({x for x, _ in cells.values()}))}
    ys = {v: i for i, v in enumerate(sorted({y for _, y in cells.values()}))}
    return {name: (xs[x], ys[y]) for name, (x, y) in cells.items()}


class GraphDrawer:
    def __init__(self, task: Task, static: StaticFacts) -> None:
        objects = sorted(task.objects.items(), key=lambda item: (str(item[1]), item[0]))
        types = sorted({str(t) for _, t in objects})
        self.type_index = {t: i for i, t in enumerate(types)}
        self.shown = [name for name, _ in objects[:MAX_NODES]]
        self.hidden = len(objects) - len(self.shown)
        self.types = dict(task.objects)
        cells = grid_cells(self.shown)
        others = [name for name in self.shown if name not in cells]
        grid_cols = max((c for c, _ in cells.values()), default=-1) + 1
        grid_rows = max((r for _, r in cells.values()), default=-1) + 1
        n = max(1, len(others))
        self.cols = max(1, grid_cols) if cells else max(1, math.ceil(math.sqrt(n * 1.6)))
        rows = math.ceil(len(others) / self.cols) if cells else math.ceil(n / self.cols)
        self.pos = {name: (CELL_W * (i % self.cols) + CELL_W / 2, TOP + CELL_H * (i // self.cols) + 18)
                    for i, name in enumerate(others)}
        self.pos.update({name: (CELL_W * c + CELL_W / 2, TOP + CELL_H * (rows + r) + 18)
                         for name, (c, r) in cells.items()})
        self.width = max(CELL_W * self.cols, 320)
        self.height = TOP + CELL_H * (rows + grid_rows) + 4
        self.goals = [(lit.predicate, tuple(lit.args)) for lit in task.goal
                      if lit.positive and lit.predicate != "="]
        self.static_edges = [(p, a) for p, rows_ in static.by_predicate.items() for a in rows_ if len(a) == 2
                             and a[0] != a[1] and a[0] in self.pos and a[1] in self.pos]
        if len(self.static_edges) > MAX_STATIC_EDGES:
            self.static_edges = []

    def draw(self, view: StateView) -> Scene:
        scene = Scene(self.width, self.height, title=f"{len(self.shown)} objects")
        for _, (a, b) in self.static_edges:
            (x1, y1), (x2, y2) = self.pos[a], self.pos[b]
            scene.line(x1, y1, x2, y2, stroke=LIGHT)
        labels: dict[str, list[str]] = {name: [] for name in self.shown}
        flags = []
        edges: list[tuple[str, tuple[str, ...]]] = []
        for predicate, rows in sorted(view.fluent.items()):
            for args in rows:
                if not args:
                    flags.append(predicate)
                elif len(args) == 1:
                    if args[0] in labels:
                        labels[args[0]].append(predicate)
                elif len(args) == 2 and args[0] in self.pos and args[1] in self.pos and args[0] != args[1]:
                    edges.append((predicate, args))
                elif args[0] in labels:
                    labels[args[0]].append(f"{predicate} {' '.join(args[1:])}")
        ghosts = [(p, a) for p, a in self.goals if not view.has(p, *a)]
        for predicate, args in ghosts:
            if len(args) == 2 and args[0] in self.pos and args[1] in self.pos and args[0] != args[1]:
                (x1, y1), (x2, y2) = self.pos[args[0]], self.pos[args[1]]
                scene.line(x1, y1, x2, y2, stroke=GHOST, width=1, objects=args, arrow=True)
            elif args and args[0] in labels:
                labels[args[0]].insert(0, f"goal: {predicate} {' '.join(args[1:])}".strip())
            else:
                flags.append(f"goal: ({predicate} {' '.join(args)})")
        taken = []  # what an arrow's label must not cover: the nodes, their names and labels
        for name, (x, y) in self.pos.items():
            taken += [(x - 10, y - 10, 20, 20), self._box(x, y + 12, name)]
            taken += [self._box(x, y + 12 + (i + 1) * (CHAR_H + 1), text[:(CELL_W - 6) // 6])
                      for i, text in enumerate(labels[name][:2])]
        for predicate, args in edges[:MAX_EDGES]:
            spot = self._edge(scene, predicate, args, taken)
            if spot is not None:
                scene.text(*spot, colour=(90, 90, 90))
        for name in self.shown:
            x, y = self.pos[name]
            fill = palette(self.type_index[str(self.types[name])])
            scene.circle(x, y, 9, fill=fill, objects=(name,))
            scene.label(x, y + 12, name, objects=(name,), max_width=CELL_W - 6)
            for i, text in enumerate(labels[name][:2]):
                more = "+" if i == 1 and len(labels[name]) > 2 else ""
                colour = GOAL if text.startswith("goal: ") else (20, 90, 160)
                scene.label(x, y + 12 + (i + 1) * (CHAR_H + 1), text + more, colour=colour, max_width=CELL_W - 6)
        top = " ".join(flags)
        if len(edges) > MAX_EDGES:
            top = f"(+{len(edges) - MAX_EDGES} binary facts not drawn) " + top
        if self.hidden:
            top = f"(+{self.hidden} more objects) " + top
        scene.text(4, 6, top, colour=(20, 90, 160), max_width=self.width - 8)
        return scene

    def _edge(self, scene: Scene, predicate: str, args: tuple[str, ...],
              taken: list[tuple[float, float, float, float]]) -> tuple[float, float, str] | None:
        """Draws the arrow of a binary fact; returns where its label goes, the first place along the arrow where
        it overlaps no label in `taken` (which it joins), or None (labels are drawn after every arrow, so the
        arrows rasterise in one batch)."""
        (x1, y1), (x2, y2) = self.pos[args[0]], self.pos[args[1]]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        # offset sideways so a→b and b→a do not overlap; stop short of the node circles
        ox, oy = -uy * 3, ux * 3
        scene.line(x1 + ux * 10 + ox, y1 + uy * 10 + oy, x2 - ux * 11 + ox, y2 - uy * 11 + oy, stroke=GREY,
                   width=2, objects=args[:2], arrow=True)
        for along in (0.5, 0.35, 0.65, 0.2, 0.8):
            mx, my = x1 + (x2 - x1) * along + ox * 3, y1 + (y2 - y1) * along + oy * 3
            box = (mx - text_width(predicate) / 2, my - CHAR_H / 2, text_width(predicate), CHAR_H)
            if not any(_overlap(box, other) for other in taken):
                taken.append(box)
                return box[0], box[1], predicate
        return None

    @staticmethod
    def _box(cx: float, top: float, text: str) -> tuple[float, float, float, float]:
        return cx - text_width(text) / 2, top, text_width(text), CHAR_H


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes (x, y, w, h) overlap, with a pixel of room."""
    return a[0] < b[0] + b[2] + 1 and b[0] < a[0] + a[2] + 1 and a[1] < b[1] + b[3] + 1 and b[1] < a[1] + a[3] + 1

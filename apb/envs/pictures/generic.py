"""The picture of any PDDL state: objects as nodes on a fixed grid (sorted by type, then name: the layout depends
on the task only, so nodes stay put across steps), unary facts as labels under their node, binary facts as arrows
labelled with the predicate (static ones as thin grey lines), facts of more arguments as labels on their first
object, and 0-ary facts in a line at the top."""

from __future__ import annotations

import math

from apb.engine.task import Task
from apb.envs.pictures.scene import CHAR_H, GREY, LIGHT, Scene, palette, text_width
from apb.envs.pictures.view import StateView, StaticFacts

CELL_W, CELL_H = 116, 74
MAX_NODES = 160          # more objects are listed as a count (the picture stays readable and fast)
MAX_STATIC_EDGES = 400
MAX_EDGES = 300          # fluent binary facts drawn as arrows; more are counted at the top
TOP = 22


class GraphDrawer:
    def __init__(self, task: Task, static: StaticFacts) -> None:
        objects = sorted(task.objects.items(), key=lambda item: (str(item[1]), item[0]))
        types = sorted({str(t) for _, t in objects})
        self.type_index = {t: i for i, t in enumerate(types)}
        self.shown = [name for name, _ in objects[:MAX_NODES]]
        self.hidden = len(objects) - len(self.shown)
        self.types = dict(task.objects)
        n = max(1, len(self.shown))
        self.cols = max(1, math.ceil(math.sqrt(n * 1.6)))
        rows = math.ceil(n / self.cols)
        self.pos = {name: (CELL_W * (i % self.cols) + CELL_W / 2, TOP + CELL_H * (i // self.cols) + 18)
                    for i, name in enumerate(self.shown)}
        self.width = max(CELL_W * self.cols, 320)
        self.height = TOP + CELL_H * rows + 4
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
        for x, y, text in [self._edge(scene, predicate, args) for predicate, args in edges[:MAX_EDGES]]:
            scene.text(x, y, text, colour=(90, 90, 90))
        for name in self.shown:
            x, y = self.pos[name]
            fill = palette(self.type_index[str(self.types[name])])
            scene.circle(x, y, 9, fill=fill, objects=(name,))
            scene.label(x, y + 12, name, objects=(name,), max_width=CELL_W - 6)
            for i, text in enumerate(labels[name][:2]):
                more = "+" if i == 1 and len(labels[name]) > 2 else ""
                scene.label(x, y + 12 + (i + 1) * (CHAR_H + 1), text + more, colour=(20, 90, 160),
                            max_width=CELL_W - 6)
        top = " ".join(flags)
        if len(edges) > MAX_EDGES:
            top = f"(+{len(edges) - MAX_EDGES} binary facts not drawn) " + top
        if self.hidden:
            top = f"(+{self.hidden} more objects) " + top
        scene.text(4, 6, top, colour=(20, 90, 160), max_width=self.width - 8)
        return scene

    def _edge(self, scene: Scene, predicate: str, args: tuple[str, ...]) -> tuple[float, float, str]:
        """Draws the arrow of a binary fact; returns where its label goes (labels are drawn after every arrow, so
        the arrows rasterise in one batch)."""
        (x1, y1), (x2, y2) = self.pos[args[0]], self.pos[args[1]]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        # offset sideways so a→b and b→a do not overlap; stop short of the node circles
        ox, oy = -uy * 3, ux * 3
        scene.line(x1 + ux * 10 + ox, y1 + uy * 10 + oy, x2 - ux * 11 + ox, y2 - uy * 11 + oy, stroke=GREY,
                   width=2, objects=args[:2], arrow=True)
        mx, my = (x1 + x2) / 2 + ox * 3, (y1 + y2) / 2 + oy * 3
        return mx - text_width(predicate) / 2, my - CHAR_H / 2, predicate

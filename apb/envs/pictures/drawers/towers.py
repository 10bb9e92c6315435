"""Stacks of things: Blocksworld's towers on the table with the hand above them, and Depot's places with crate
stacks on pallets, hoists (and the crate each lifts) and trucks (and their load)."""

from __future__ import annotations

from apb.engine.task import Task
from apb.envs.pictures.scene import CHAR_H, GREY, Scene, palette
from apb.envs.pictures.view import StateView, StaticFacts

BLOCK_W, BLOCK_H = 62, 22


def stacks(bases: list[str], on: dict[str, str]) -> list[list[str]]:
    """The column above each base, bottom up, given `on` (thing -> what it stands on)."""
    above = {below: thing for thing, below in on.items()}
    columns = []
    for base in bases:
        column, seen = [base], {base}
        while column[-1] in above and above[column[-1]] not in seen:
            column.append(above[column[-1]])
            seen.add(column[-1])
        columns.append(column)
    return columns


def block(scene: Scene, name: str, x: float, y: float, colour, w: int = BLOCK_W) -> None:
    scene.rect(x, y, w, BLOCK_H, fill=colour, objects=(name,))
    scene.label(x + w / 2, y + (BLOCK_H - CHAR_H) / 2 + 1, name, objects=(name,), max_width=w - 4)


class BlocksDrawer:
    """Towers left to right by their bottom block's name; the hand (and what it holds) top left."""

    def __init__(self, task: Task, static: StaticFacts) -> None:
        self.blocks = sorted(task.objects)
        self.colour = {b: palette(i) for i, b in enumerate(self.blocks)}
        n = max(1, len(self.blocks))
        self.width = max(320, 10 + n * (BLOCK_W + 8))
        self.table_y = 20 + BLOCK_H * 2 + 16 + n * BLOCK_H
        self.height = self.table_y + 14

    def draw(self, view: StateView) -> Scene:
        scene = Scene(self.width, self.height)
        on = view.mapping("on")
        bases = sorted(view.objects_with("ontable"))
        held = sorted(view.objects_with("holding"))
        scene.text(8, 6, "hand" + (" (empty)" if view.holds("handempty") else ""), colour=GREY)
        scene.rect(8, 18, BLOCK_W + 8, BLOCK_H + 8, fill=None, stroke=GREY)
        for i, name in enumerate(held):
            block(scene, name, 12 + i * (BLOCK_W + 8), 22, self.colour[name])
        scene.rect(0, self.table_y, self.width, 8, fill=(160, 120, 80), stroke=None)
        for i, column in enumerate(stacks(bases, on)):
            x = 10 + i * (BLOCK_W + 8)
            for level, name in enumerate(column):
                block(scene, name, x, self.table_y - (level + 1) * BLOCK_H, self.colour[name])
        return scene


class DepotDrawer:
    """One panel per depot and distributor: its pallets with their crate stacks, its hoists with the crate they
    lift, the trucks parked there with their load."""

    def __init__(self, task: Task, static: StaticFacts) -> None:
        types = {o: str(t).lower() for o, t in task.objects.items()}
        self.places = sorted(o for o, t in types.items() if t in ("depot", "distributor", "place"))
        self.crates = sorted(o for o, t in types.items() if t == "crate")
        self.colour = {c: palette(i) for i, c in enumerate(self.crates)}
        self.types = types
        located = {}
        for args in StateView(task, task.initial_state, static).args("at"):  # pallets and hoists never move
            located.setdefault(args[1], []).append(args[0])
        def most(kind: str) -> int:
            return max((sum(1 for o in located.get(p, []) if types.get(o) == kind) for p in self.places), default=0)

        trucks = sum(1 for t in types.values() if t == "truck")
        per_place = max(1, most("pallet") + most("hoist") + trucks)
        self.panel_w = max(180, per_place * (BLOCK_W + 6) + 8)
        n = len(self.crates)
        self.panel_h = 20 + (n + 2) * BLOCK_H + 24
        self.width = max(320, len(self.places) * (self.panel_w + 8) + 8)
        self.height = self.panel_h + 16

    def draw(self, view: StateView) -> Scene:
        scene = Scene(self.width, self.height)
        at = {}
        for args in view.args("at"):
            at.setdefault(args[1], []).append(args[0])
        on = view.mapping("on")
        lifting = view.mapping("lifting")
        load: dict[str, list[str]] = {}
        for crate, truck in view.args("in"):
            load.setdefault(truck, []).append(crate)
        for i, place in enumerate(self.places):
            x0, floor = 8 + i * (self.panel_w + 8), 8 + self.panel_h - 24
            scene.rect(x0, 8, self.panel_w, self.panel_h, fill=(250, 250, 245), stroke=GREY, objects=(place,))
            scene.text(x0 + 4, 12, place, objects=(place,), max_width=self.panel_w - 8)
            here = sorted(set(at.get(place, [])))
            x = x0 + 6
            for pallet in [o for o in here if self.types.get(o) == "pallet"]:
                scene.rect(x, floor, BLOCK_W, 8, fill=(160, 120, 80), objects=(pallet,))
                scene.label(x + BLOCK_W / 2, floor + 10, pallet, objects=(pallet,), max_width=BLOCK_W)
                for level, crate in enumerate(stacks([pallet], on)[0][1:]):
                    block(scene, crate, x, floor - (level + 1) * BLOCK_H, self.colour.get(crate, GREY))
                x += BLOCK_W + 6
            for hoist in [o for o in here if self.types.get(o) == "hoist"]:
                scene.rect(x, 28, BLOCK_W, 10, fill=(90, 90, 90), objects=(hoist,))
                scene.label(x + BLOCK_W / 2, 40, hoist, objects=(hoist,), max_width=BLOCK_W)
                if hoist in lifting:
                    block(scene, lifting[hoist], x, 50, self.colour.get(lifting[hoist], GREY))
                x += BLOCK_W + 6
            for truck in [o for o in here if self.types.get(o) == "truck"]:
                crates = sorted(load.get(truck, []))
                scene.rect(x, floor - 14, BLOCK_W, 22, fill=palette(3), objects=(truck,))
                scene.label(x + BLOCK_W / 2, floor - 8, truck, objects=(truck,), max_width=BLOCK_W - 4)
                for level, crate in enumerate(crates):
                    block(scene, crate, x, floor - 14 - (level + 1) * BLOCK_H, self.colour.get(crate, GREY))
                x += BLOCK_W + 6
        return scene

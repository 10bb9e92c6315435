"""BoardDrawer: domains of things at places (Gripper's rooms, Ferry's banks, Logistics' cities, Rovers' waypoints,
Satellite's directions, Baking's kitchen). A Board says which objects are places, which facts put a thing at a
place or inside a carrier, and which places group together; things are tokens in their place's box (carriers as
labelled boxes holding their cargo), and every other fluent fact is listed in a panel under the boxes, labelled
"other facts"; a domain whose fluent facts the boxes show all (Ferry, Logistics) gets no panel."""

from __future__ import annotations

import math
from dataclasses import dataclass

from apb.engine.ground import fluent_predicates
from apb.engine.task import Task
from apb.envs.pictures.scene import CHAR_H, CHAR_W, GREY, LIGHT, Scene, clip, palette, text_width
from apb.envs.pictures.view import StateView, StaticFacts

ITEM = 26       # width of an item token (a circle with a short name)
ROW = 30
HEADER = 16
PANEL_LINES = 4


@dataclass(frozen=True)
class Board:
    """place_kinds: types or unary static predicates whose objects are places; extra_places: places that are no
    object (Baking's counter). at: (predicate, thing argument or a fixed thing's name, place argument or a fixed
    place's name). inside: (predicate, cargo argument, carrier argument or a fixed carrier's name). group:
    (predicate, place argument, group argument). carrier_kinds: types or unary static predicates of carriers
    (drawn as boxes even when empty). marks: unary predicates written in a place's header. ignore: predicates never
    listed (the ones the picture shows otherwise, and bookkeeping)."""

    place_kinds: tuple[str, ...]
    at: tuple[tuple[str, int | str, int | str], ...] = ()
    inside: tuple[tuple[str, int, int | str], ...] = ()
    group: tuple[str, int, int] | None = None
    marks: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extra_places: tuple[str, ...] = ()
    carrier_kinds: tuple[str, ...] = ()
    box_width: int = 200


def short_names(names: list[str]) -> dict[str, str]:
    """A 2-3 character tag per object for its token: first letter and trailing digits (`ball_12` -> `b12`),
    else its first three letters; tags that collide get the name's last three characters."""
    tags = {}
    for name in names:
        digits = len(name) - len(name.rstrip("0123456789"))
        tags[name] = (name[0] + name[len(name) - digits:])[:4] if digits else name[:3]
    seen: dict[str, int] = {}
    for tag in tags.values():
        seen[tag] = seen.get(tag, 0) + 1
    return {n: (t if seen[t] == 1 else n[-3:]) for n, t in tags.items()}


class BoardDrawer:
    board: Board

    def __init__(self, task: Task, static: StaticFacts) -> None:
        b = self.board
        types = {o: str(t).lower() for o, t in task.objects.items()}
        self.places = sorted(self._kind(types, static, b.place_kinds)) + list(b.extra_places)
        self.carriers = self._kind(types, static, b.carrier_kinds) | {c for _, _, c in b.inside if isinstance(c, str)}
        # untyped domains (Logistics) name kinds with unary static predicates: a truck and a plane differ in colour
        kinds = {k.lower() for k in b.carrier_kinds}
        for predicate, rows in sorted(static.by_predicate.items()):
            if predicate.lower() in kinds:
                types.update({a[0]: predicate.lower() for a in rows if a and a[0] in types})
        self.type_index = {t: i for i, t in enumerate(sorted(set(types.values())))}
        self.types = types
        self.tags = short_names(sorted(task.objects))
        groups: dict[str, list[str]] = {}
        if b.group is not None:
            pred, pi, gi = b.group
            for args in static.by_predicate.get(pred, []):
                groups.setdefault(args[gi], []).append(args[pi])
        grouped = {p for members in groups.values() for p in members}
        loose = [p for p in self.places if p not in grouped]
        # rows of place boxes: one per group, else a near-square grid
        if groups:
            self.rows = [(g, sorted(m)) for g, m in sorted(groups.items())] + ([("", loose)] if loose else [])
        else:
            cols = max(1, math.ceil(math.sqrt(len(loose) * 1.5)))
            self.rows = [("", loose[i:i + cols]) for i in range(0, len(loose), cols)]
        things = len(task.objects) - len(self.places) + len(b.extra_places) + 1
        per_row = max(1, (b.box_width - 8) // (ITEM + 4))
        self.box_h = HEADER + ROW * max(1, min(4, math.ceil(things / per_row) + 1)) + 4
        self.left = max((text_width(g) + 10 for g, _ in self.rows if g), default=0)
        widest = max((len(members) for _, members in self.rows), default=0)
        self.width = max(320, self.left + widest * (b.box_width + 8) + 8)
        self.panel_top = 8 + len(self.rows) * (self.box_h + 8)
        self.used = set(b.ignore) | {p for p, _, _ in b.at} | {p for p, _, _ in b.inside} | set(b.marks)
        self.panel = bool(fluent_predicates(task.domain) - self.used)  # facts the boxes do not show: a panel
        self.height = self.panel_top + (PANEL_LINES * (CHAR_H + 3) + 10 if self.panel else 0)
        self.chars = (self.width - 16) // CHAR_W

    @staticmethod
    def _kind(types: dict[str, str], static: StaticFacts, kinds: tuple[str, ...]) -> set[str]:
        """The objects of any of `kinds`: a type name, or a unary static predicate (untyped domains)."""
        wanted = {k.lower() for k in kinds}
        marked = {a[0] for p, rows in static.by_predicate.items() if p.lower() in wanted for a in rows if a}
        return {o for o, t in types.items() if t in wanted or o in marked}

    def _fill(self, name: str):
        return palette(self.type_index.get(self.types.get(name, ""), 0))

    def _resolve(self, args: tuple[str, ...], spec: int | str) -> str | None:
        if isinstance(spec, str):
            return spec
        return args[spec] if spec < len(args) else None

    def draw(self, view: StateView) -> Scene:
        b = self.board
        scene = Scene(self.width, self.height)
        where: dict[str, list[str]] = {p: [] for p in self.places}
        cargo: dict[str, list[str]] = {}
        used = self.used
        for pred, thing, place in b.at:
            for args in view.args(pred):
                t, p = self._resolve(args, thing), self._resolve(args, place)
                if p in where and t is not None:
                    where[p].append(t)
        for pred, item, carrier in b.inside:
            for args in view.args(pred):
                c = self._resolve(args, carrier)
                if c is not None and item < len(args):
                    cargo.setdefault(c, []).append(args[item])
        y = 8
        for group, members in self.rows:
            if group:
                scene.text(4, y + self.box_h / 2 - 4, group, colour=GREY, objects=(group,))
            x = self.left + 8
            for place in members:
                self._place(scene, view, place, x, y, sorted(set(where.get(place, []))), cargo)
                x += b.box_width + 8
            y += self.box_h + 8
        if self.panel:
            listed = [f"{p}({','.join(a)})" if a else p for p, rows in sorted(view.fluent.items()) if p not in used
                      for a in rows]
            self._panel(scene, listed)
        return scene

    def _place(self, scene: Scene, view: StateView, place: str, x: float, y: float, things: list[str],
               cargo: dict[str, list[str]]) -> None:
        b = self.board
        scene.rect(x, y, b.box_width, self.box_h, fill=(250, 250, 245), stroke=GREY, objects=(place,))
        marks = [m for m in b.marks if view.has(m, place)]
        header = place + (f" [{' '.join(marks)}]" if marks else "")
        scene.text(x + 4, y + 4, header, objects=(place,), max_width=b.box_width - 8)
        cx, cy = x + 4, y + HEADER + 2
        carriers = [t for t in things if t in cargo or t in self.carriers]
        for thing in carriers + [t for t in things if t not in carriers]:
            inner = sorted(cargo.get(thing, []))
            if thing in carriers:
                name = clip(thing, 60)
                w = text_width(name) + 8 + len(inner) * (ITEM - 2)
            else:
                w = ITEM
            if cx + w > x + b.box_width - 2 and cx > x + 4:
                cx, cy = x + 4, cy + ROW
            if cy + ROW > y + self.box_h + 2:
                scene.text(x + b.box_width - 14, y + self.box_h - 10, "+", colour=GREY)
                break
            if thing in carriers:
                scene.rect(cx, cy, w, ROW - 6, fill=self._fill(thing), objects=(thing,))
                scene.text(cx + 4, cy + 8, name, objects=(thing,))
                ix = cx + text_width(name) + 8 + (ITEM - 2) / 2
                for item in inner:
                    self._token(scene, item, ix, cy + (ROW - 6) / 2, 10)
                    ix += ITEM - 2
            else:
                self._token(scene, thing, cx + ITEM / 2, cy + 12, 11)
            cx += w + 4

    def _token(self, scene: Scene, name: str, cx: float, cy: float, r: float) -> None:
        scene.circle(cx, cy, r, fill=self._fill(name), objects=(name,))
        tag = self.tags.get(name, name[:3])
        scene.label(cx, cy - 3, tag, objects=(name,), max_width=2 * r + 2)

    def _panel(self, scene: Scene, facts: list[str]) -> None:
        top = self.panel_top
        scene.rect(4, top, self.width - 8, self.height - top - 4, fill=(248, 248, 252), stroke=LIGHT)
        lines, line = [], "other facts:"
        for fact in facts or ["(none)"]:
            if line and len(line) + 1 + len(fact) > self.chars:
                lines.append(line)
                line = ""
            line = f"{line} {fact}".strip()
        if line:
            lines.append(line)
        if len(lines) > PANEL_LINES:
            lines = [*lines[:PANEL_LINES - 1], f"... and {len(lines) - PANEL_LINES + 1} more lines"]
        for i, text in enumerate(lines):
            scene.text(8, top + 4 + i * (CHAR_H + 3), text, colour=(60, 60, 110), max_width=self.width - 16)

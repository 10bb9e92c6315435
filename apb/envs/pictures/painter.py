"""Painter: the picture of a task's states. It picks the task's drawer (a bundled domain's own, else the generic
graph), keeps the drawer's layout for the whole task (so pictures of one episode have one size and objects stay
put), and adds what every picture shows: the last action under the drawing, with the objects it changed outlined
in orange, or after a failed action the objects of the missing facts outlined in red and the facts listed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from apb.engine.task import State, Task
from apb.envs.pictures.raster import to_array
from apb.envs.pictures.scene import CHANGED, CHAR_H, GOAL, GREY, MISSING, Circle, Line, Rect, Scene, clip
from apb.envs.pictures.svg import to_svg
from apb.envs.pictures.view import StateView, StaticFacts

CAPTION_LINES = 3
CAPTION_HEIGHT = CAPTION_LINES * (CHAR_H + 4) + 8
MIN_WIDTH = 320
_TOKEN = re.compile(r"[^\s()]+")


@dataclass(frozen=True)
class LastStep:
    """The step a picture reports: the action text, whether it was executed, the state before it, and the
    facts it missed (unmet preconditions or unsatisfied goals) when it failed."""

    action: str
    valid: bool
    before: State | None = None
    missing: tuple[str, ...] = ()


def _signature(domain) -> frozenset[tuple[str, int]]:
    return frozenset((name.lower(), len(schema.parameters)) for name, schema in domain.predicates.items())


@lru_cache(maxsize=1)
def _bundled_signatures() -> dict[frozenset, str]:
    """The predicate signature (names and arities) of each bundled domain that has its own drawer."""
    from apb.domains.registry import DOMAINS_DIR
    from apb.engine import load_domain
    from apb.envs.pictures.drawers import DRAWERS

    return {_signature(load_domain(DOMAINS_DIR / name / "domain.pddl")): name for name in DRAWERS}


def drawer_for(task: Task):
    """The drawer of the bundled domain whose predicates (names and arities) the task's domain has, whatever its
    files are called (IPC's blocks draws as towers); else the generic graph drawer."""
    from apb.envs.pictures.drawers import DRAWERS
    from apb.envs.pictures.generic import GraphDrawer

    name = _bundled_signatures().get(_signature(task.domain))
    return DRAWERS[name] if name is not None else GraphDrawer


class Painter:
    """Pictures of one task's states: `scene(state, last)`, `array(...)` (H×W×3 uint8) and `svg(...)`."""

    def __init__(self, task: Task, generic: bool = False) -> None:
        """`generic`: the generic graph whatever the domain."""
        from apb.envs.pictures.generic import GraphDrawer

        self.task = task
        self.static = StaticFacts(task)
        self.drawer = (GraphDrawer if generic else drawer_for(task))(task, self.static)
        self._objects = frozenset(task.objects)

    def view(self, state: State) -> StateView:
        return StateView(self.task, state, self.static)

    def scene(self, state: State, last: LastStep | None = None) -> Scene:
        scene = self.drawer.draw(self.view(state))
        changed: set[str] = set()
        missing: set[str] = set()
        lines: list[tuple[str, tuple]] = []
        if last is not None and last.action:
            if last.valid:
                if last.before is not None:
                    before, after = self.task.facts(last.before), self.task.facts(state)
                    diff = sorted(after - before), sorted(before - after)
                    changed = self._mentioned(diff[0] + diff[1]) or self._mentioned([last.action])
                    lines.append((f"> {last.action}", CHANGED))
                    gained = " ".join(f"+{f}" for f in diff[0]) + " " + " ".join(f"-{f}" for f in diff[1])
                    lines.append((gained.strip() or "(no change)", GREY))
                else:
                    lines.append((f"> {last.action}", CHANGED))
            else:
                missing = self._mentioned(last.missing) or self._mentioned([last.action])
                lines.append((f"> {last.action}  FAILED", MISSING))
                if last.missing:
                    lines.append(("missing: " + " ".join(last.missing), MISSING))
        if self.task.is_goal(state):
            lines.append(("goal reached", GOAL))
        self._highlight(scene, changed, CHANGED)
        self._highlight(scene, missing, MISSING)
        self._caption(scene, lines)
        return scene

    def array(self, state: State, last: LastStep | None = None) -> np.ndarray:
        return to_array(self.scene(state, last))

    def svg(self, state: State, last: LastStep | None = None) -> str:
        return to_svg(self.scene(state, last))

    def _mentioned(self, facts: Iterable[str]) -> set[str]:
        """The task's objects named in `facts` (PDDL strings)."""
        found = set()
        for fact in facts:
            found.update(t for t in _TOKEN.findall(fact)[1:] if t in self._objects)
        return found

    @staticmethod
    def _highlight(scene: Scene, objects: set[str], colour) -> None:
        if not objects:
            return
        for shape in scene.shapes:
            if not shape.objects or not objects.intersection(shape.objects):
                continue
            if isinstance(shape, (Rect, Circle)):
                shape.stroke, shape.width = colour, 3
            elif isinstance(shape, Line) and objects.issuperset(shape.objects):  # a fact between two of them
                shape.stroke, shape.width = colour, max(shape.width, 3)

    @staticmethod
    def _caption(scene: Scene, lines: list[tuple[str, tuple]]) -> None:
        """A strip of CAPTION_LINES text lines under the drawing (always there: every picture of a task has the
        same size, which videos need)."""
        scene.width = max(scene.width, MIN_WIDTH)
        top = scene.height
        scene.height += CAPTION_HEIGHT
        scene.rect(0, top, scene.width, CAPTION_HEIGHT, fill=(248, 248, 248), stroke=None)
        scene.line(0, top, scene.width, top, stroke=GREY)
        for i, (text, colour) in enumerate(lines[:CAPTION_LINES]):
            scene.text(6, top + 6 + i * (CHAR_H + 4), clip(text, scene.width - 12), colour=colour)

"""Painter: the picture of a task's states. It picks the task's drawer (a bundled domain's own, else the generic
graph), keeps the drawer's layout for the whole task (so pictures of one episode have one size and objects stay
put), and adds what every picture shows: the last action under the drawing, with the objects it changed outlined
in orange, or after a failed action the objects of the missing facts outlined in red and the facts listed; the
objects of goal facts not reached yet are outlined in green. The caption is never cut: it is wrapped, in a strip
tall enough for the longest caption the task can have (its size is the task's, so every picture of an episode has
one size, as videos need)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from apb.engine.task import State, Task
from apb.envs.pictures.raster import to_array
from apb.envs.pictures.scene import CHANGED, CHAR_H, CHAR_W, GOAL, GREY, MISSING, Circle, Line, Rect, Scene, wrap
from apb.envs.pictures.svg import to_svg
from apb.envs.pictures.view import StateView, StaticFacts

CAPTION_LINES = 3  # at least; more when the task's longest caption needs them (`caption_lines`)
MAX_CAPTION_LINES = 16  # past this, a caption's last line says how many facts are not listed
CAPTION_LINE_H = CHAR_H + 4
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
        self.width = max(int(getattr(self.drawer, "width", MIN_WIDTH)), MIN_WIDTH)
        self.caption_lines = caption_lines(task, (self.width - 12) // CHAR_W)

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
        unreached = self.task.unsatisfied_goals(state)
        if not unreached:
            lines.append(("goal reached", GOAL))
        self._highlight(scene, self._mentioned(unreached), GOAL, 2)  # drawn first: the step's colours win
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
    def _highlight(scene: Scene, objects: set[str], colour, width: int = 3) -> None:
        if not objects:
            return
        for shape in scene.shapes:
            if not shape.objects or not objects.intersection(shape.objects):
                continue
            if isinstance(shape, (Rect, Circle)):
                shape.stroke, shape.width = colour, width
            elif isinstance(shape, Line) and objects.issuperset(shape.objects):  # a fact between two of them
                shape.stroke, shape.width = colour, max(shape.width, width)

    def _caption(self, scene: Scene, lines: list[tuple[str, tuple]]) -> None:
        """The caption under the drawing: each line wrapped (never cut), in a strip of the task's
        `caption_lines` (always there, always that tall: every picture of a task has the same size)."""
        scene.width = max(scene.width, self.width)
        top = scene.height
        height = self.caption_lines * CAPTION_LINE_H + 8
        scene.height += height
        scene.rect(0, top, scene.width, height, fill=(248, 248, 248), stroke=None)
        scene.line(0, top, scene.width, top, stroke=GREY)
        rows = [(part, colour) for text, colour in lines for part in wrap(text, scene.width - 12)]
        if len(rows) > self.caption_lines:  # beyond any caption the task was measured for: say what is left out
            rest = len(rows) - self.caption_lines + 1
            rows = [*rows[:self.caption_lines - 1], (f"(+{rest} more caption lines)", GREY)]
        for i, (text, colour) in enumerate(rows):
            scene.text(6, top + 6 + i * CAPTION_LINE_H, text, colour=colour)


def caption_lines(task: Task, columns: int) -> int:
    """The caption lines a task's pictures need at most (estimated from the task, before any state is drawn): the
    action's line and its changes (every effect of the widest schema), or after a failure the action and what it
    missed (every precondition of the widest schema, or every goal), plus "goal reached"."""
    longest = max((len(name) for name in task.fact_names), default=10) + 2
    name = max((len(name) for name in task.objects), default=8) + 1
    action = max((len(s.name) + len(s.parameters) * name for s in task.domain.actions), default=20) + 12
    effects = max((len(s.effects) + len(s.conditional_effects) for s in task.domain.actions), default=1)
    needs = max((len(s.precondition) + len(s.complex_precondition) for s in task.domain.actions), default=1)
    needs = max(needs, len(task.goal) + len(getattr(task.problem, "complex_goal", ())))

    def lines(chars: int) -> int:
        per_line = max(1, columns - longest // 2, columns // 2)  # a fact is never split: a line may end early
        return -(-chars // per_line)

    worst = max(lines(action) + lines(effects * (longest + 1)), lines(action + 8) + lines(10 + needs * (longest + 1)))
    return max(CAPTION_LINES, min(MAX_CAPTION_LINES, worst + 1))

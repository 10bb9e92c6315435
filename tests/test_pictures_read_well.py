"""Pictures, as a user looks at them (issue 41, item 10): captions were cut with '~', Logistics and Ferry drew an empty
unlabelled panel, goals were never drawn, the generic picture laid a grid domain (sokoban's positions) out as a graph
of rows and drew edge labels over each other (elevators)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from conftest import require_reference

from apb.engine import load_task
from apb.envs.pictures import LastStep, Painter
from apb.envs.pictures.generic import GraphDrawer, grid_cells
from apb.envs.pictures.scene import CHAR_H, GOAL, Rect, Text, text_width
from apb.planners import solve

DOMAINS = Path(__file__).resolve().parents[1] / "apb" / "domains"


def bundled(name: str, problem: str = "p01"):
    return load_task(DOMAINS / name / "domain.pddl", DOMAINS / name / "problems" / f"{problem}.pddl")


def ipc(folder: str, problem: str):
    root = require_reference().parent / "ipc-classical" / folder
    return load_task(root / "domain.pddl", root / f"{problem}.pddl")


def caption_texts(scene, drawing_height: int) -> list[str]:
    return [s.text for s in scene.shapes if isinstance(s, Text) and s.y >= drawing_height]


def test_a_long_caption_is_wrapped_whole_and_every_picture_of_the_task_has_one_size():
    task = bundled("logistics")
    painter = Painter(task)
    plain = painter.scene(task.initial_state)
    action = next(a for a in task.actions if task.explain(task.initial_state, a))
    missing = tuple(task.explain(task.initial_state, action)) + tuple(task.unsatisfied_goals(task.initial_state))
    failed = painter.scene(task.initial_state, LastStep(str(action), False, task.initial_state, missing))
    assert (failed.width, failed.height) == (plain.width, plain.height)
    texts = caption_texts(failed, painter.drawer.height)
    assert texts and not any("~" in text for text in texts)
    joined = " ".join(texts)
    assert str(action) in joined and all(fact in joined for fact in missing)  # every fact, none cut
    assert all(text_width(text) <= failed.width - 12 for text in texts)


def test_ferry_and_logistics_draw_no_empty_panel_and_other_boards_label_theirs():
    for name in ("ferry", "logistics", "gripper"):
        painter = Painter(bundled(name))
        scene = painter.drawer.draw(painter.view(painter.task.initial_state))
        rects = [s for s in scene.shapes if isinstance(s, Rect)]
        assert rects and all(s.objects for s in rects), name  # every box is a place or a carrier: no blank panel
        assert max(s.y + s.h for s in rects) >= scene.height - 12, name  # and nothing blank under them
    painter = Painter(bundled("satellite"))
    scene = painter.drawer.draw(painter.view(painter.task.initial_state))
    assert any(isinstance(s, Text) and s.text.startswith("other facts:") for s in scene.shapes)


@pytest.mark.parametrize("name", ["blocksworld", "ferry", "logistics"])
def test_goal_facts_not_reached_are_outlined_and_not_once_reached(name):
    task = bundled(name)
    painter = Painter(task)
    scene = painter.scene(task.initial_state)
    assert any(getattr(s, "stroke", None) == GOAL for s in scene.shapes), name
    state = task.initial_state
    for action in solve(task, "gbfs").plan:
        state = task.apply(state, action)
    done = painter.scene(state)
    assert not any(getattr(s, "stroke", None) == GOAL for s in done.shapes)  # every goal reached: no outline
    assert "goal reached" in caption_texts(done, painter.drawer.height)


def test_the_generic_picture_lays_sokobans_positions_out_as_their_grid_and_draws_the_goal():
    task = ipc("sokoban-opt08-strips", "p03")
    cells = grid_cells(sorted(task.objects))
    assert len(cells) == sum(1 for o in task.objects if o.startswith("pos-")) > 20
    drawer = GraphDrawer(task, Painter(task).static)
    for (a, (ca, ra)), (b, (cb, rb)) in itertools.combinations(cells.items(), 2):
        (xa, ya), (xb, yb) = drawer.pos[a], drawer.pos[b]
        assert (xa < xb) == (ca < cb) and (ya < yb) == (ra < rb) and (xa == xb) == (ca == cb), (a, b)
    assert all(drawer.pos[o][1] < min(y for _, y in (drawer.pos[c] for c in cells)) for o in task.objects
               if o not in cells)  # the player, stones and directions in rows above the grid
    scene = Painter(task).scene(task.initial_state)
    assert any(isinstance(s, Text) and s.text.startswith("goal: at-goal") for s in scene.shapes)


def test_grid_names_of_several_spellings_and_no_grid():
    assert grid_cells(["loc-x1-y2", "loc-x2-y2", "loc-x1-y10", "loc-x2-y10", "truck"]) == {
        "loc-x1-y2": (0, 0), "loc-x2-y2": (1, 0), "loc-x1-y10": (0, 1), "loc-x2-y10": (1, 1)}
    assert grid_cells(["cell_0_0", "cell_0_1", "cell_1_0", "cell_1_1"])["cell_1_0"] == (1, 0)
    assert grid_cells(["a", "b", "pos-1-1"]) == {}  # one cell is no grid


def test_edge_labels_of_the_generic_picture_overlap_no_other_label():
    task = ipc("elevators-opt08-strips", "p03")
    painter = Painter(task, generic=True)
    scene = painter.scene(task.initial_state)
    drawing = [s for s in scene.shapes if isinstance(s, Text) and s.y < painter.drawer.height and s.y > 20]
    boxes = [(s.x, s.y, text_width(s.text), CHAR_H) for s in drawing]
    edge_labels = [s for s in drawing if s.colour == (90, 90, 90)]
    assert edge_labels  # the arrows are labelled
    for a, b in itertools.combinations(boxes, 2):
        apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
        assert apart, (a, b)

"""The domain rules of apb.equivalence give exactly the closure an exhaustive exploration of the state space gives
(Blocksworld in apb's and Planetarium's naming, Planetarium's Gripper), for random goals over small problems."""

from __future__ import annotations

import itertools

import pytest
from equivalence_helpers import render
from hypothesis import given, settings
from hypothesis import strategies as st

from apb import domains
from apb.engine import load_domain
from apb.equivalence import generic_closure, load_scene
from apb.equivalence.rules import blocksworld_closure, floortile_closure, gripper_closure
from apb.nl2pddl import benchmark_domain

BLOCKS = ("a", "b", "c")


def _blocks_atoms(n: dict[str, str]) -> list[tuple]:
    atoms = [(n["on"], x, y) for x, y in itertools.product(BLOCKS, BLOCKS)]
    atoms += [(pred, x) for pred in (n["ontable"], n["clear"], n["holding"]) for x in BLOCKS]
    return [*atoms, (n["arm"],)]


def _blocks_inits(n: dict[str, str]) -> list[list[tuple]]:
    on, table, clear, hold, arm = n["on"], n["ontable"], n["clear"], n["holding"], n["arm"]
    return [
        [(table, "a"), (table, "b"), (table, "c"), (clear, "a"), (clear, "b"), (clear, "c"), (arm,)],
        [(on, "a", "b"), (on, "b", "c"), (table, "c"), (clear, "a"), (arm,)],
        [(hold, "a"), (table, "b"), (on, "c", "b"), (clear, "c")],
    ]


APB_NAMES = {"on": "on", "ontable": "ontable", "clear": "clear", "holding": "holding", "arm": "handempty"}
PLANETARIUM_NAMES = {"on": "on", "ontable": "on-table", "clear": "clear", "holding": "holding", "arm": "arm-empty"}
BLOCKS_DOMAINS = [(load_domain(domains.domain_file("blocksworld")), APB_NAMES),
                  (benchmark_domain("blocksworld"), PLANETARIUM_NAMES)]


def _agree(rule, dom, objects, init, goal):
    scene = load_scene(dom, render(dom, objects, init, goal))
    by_rule, exhaustive = rule(dom, scene), generic_closure(dom, scene)
    assert by_rule is not None and exhaustive.exact, (goal, exhaustive.reason)
    assert (by_rule.status == "unsolvable") == (exhaustive.status == "unsolvable"), goal
    if by_rule.status != "unsolvable":
        assert by_rule.lower == exhaustive.lower, goal


@pytest.mark.parametrize(("dom", "names"), BLOCKS_DOMAINS, ids=["apb", "planetarium"])
@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_blocksworld_rule_matches_exhaustive_exploration(dom, names, data):
    init = data.draw(st.sampled_from(_blocks_inits(names)))
    goal = data.draw(st.lists(st.sampled_from(_blocks_atoms(names)), min_size=1, max_size=4, unique=True))
    _agree(blocksworld_closure, dom, {x: "object" for x in BLOCKS}, init, goal)


GRIPPER_OBJECTS = {"rooma": "object", "roomb": "object", "b1": "object", "b2": "object", "left": "object",
                   "right": "object"}
GRIPPER_TYPES = [("room", "rooma"), ("room", "roomb"), ("ball", "b1"), ("ball", "b2"), ("gripper", "left"),
                 ("gripper", "right")]
GRIPPER_INITS = [
    [("at-robby", "rooma"), ("at", "b1", "rooma"), ("at", "b2", "rooma"), ("free", "left"), ("free", "right")],
    [("at-robby", "roomb"), ("carry", "b1", "left"), ("at", "b2", "rooma"), ("free", "right")],
]
GRIPPER_ATOMS = [("at-robby", r) for r in ("rooma", "roomb")] + [
    ("at", b, r) for b in ("b1", "b2") for r in ("rooma", "roomb")] + [
    ("carry", b, g) for b in ("b1", "b2") for g in ("left", "right")] + [("free", g) for g in ("left", "right")] + [
    ("ball", "b1"), ("room", "b1")]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_gripper_rule_matches_exhaustive_exploration(data):
    init = GRIPPER_TYPES + data.draw(st.sampled_from(GRIPPER_INITS))
    goal = data.draw(st.lists(st.sampled_from(GRIPPER_ATOMS), min_size=1, max_size=4, unique=True))
    _agree(gripper_closure, benchmark_domain("gripper"), GRIPPER_OBJECTS, init, goal)


def test_rules_step_aside_for_improper_initial_states():
    dom = benchmark_domain("blocksworld")
    missing_clear = [("on-table", "a"), ("on-table", "b"), ("on-table", "c"), ("arm-empty",)]
    scene = load_scene(dom, render(dom, {x: "object" for x in BLOCKS}, missing_clear, [("on", "a", "b")]))
    assert blocksworld_closure(dom, scene) is None
    closure = generic_closure(dom, scene)
    assert closure.status == "unsolvable"


def test_rules_match_dynamics_not_just_names():
    from apb.engine import parse_domain
    from apb.nl2pddl import domain_path

    text = domain_path("blocksworld").read_text()
    changed = text.replace("(clear ?ob) (arm-empty) (on-table ?ob) (not (holding ?ob))",
                           "(arm-empty) (on-table ?ob) (not (holding ?ob))")  # putdown no longer clears the block
    assert changed != text
    dom = parse_domain(changed)
    init = [("on-table", x) for x in BLOCKS] + [("clear", x) for x in BLOCKS] + [("arm-empty",)]
    scene = load_scene(dom, render(dom, {x: "object" for x in BLOCKS}, init, [("on", "a", "b")]))
    assert blocksworld_closure(dom, scene) is None
    assert generic_closure(dom, scene).method == "generic"


FLOOR_OBJECTS = {"r1": "robot", "r2": "robot", "t1": "tile", "t2": "tile", "t3": "tile", "t4": "tile",
                 "white": "color", "black": "color"}
FLOOR_COLUMN = [("up", "t2", "t1"), ("up", "t3", "t2")]
FLOOR_INITS = [
    # r1 walks a column of three tiles with white only; r2 stands alone on t4 and may switch black for white
    [("robot-at", "r1", "t1"), ("robot-at", "r2", "t4"), ("robot-has", "r1", "white"),
     ("robot-has", "r2", "black"), ("available-color", "white")],
    # black is the only available colour: once r1 paints black it can never paint white again
    [("robot-at", "r1", "t1"), ("robot-at", "r2", "t4"), ("robot-has", "r1", "white"),
     ("robot-has", "r2", "black"), ("available-color", "black")],
    # both robots on the column, black available: r1 may keep white or switch, r2 keeps black
    [("robot-at", "r1", "t1"), ("robot-at", "r2", "t3"), ("robot-has", "r1", "white"),
     ("robot-has", "r2", "black"), ("available-color", "black")],
    # no colour available: each robot keeps its own
    [("robot-at", "r1", "t1"), ("robot-at", "r2", "t2"), ("robot-has", "r1", "white"),
     ("robot-has", "r2", "black")],
]
FLOOR_ATOMS = [("painted", t, c) for t in ("t1", "t2", "t3", "t4") for c in ("white", "black")] + [
    ("robot-at", r, t) for r in ("r1", "r2") for t in ("t1", "t2", "t4")] + [
    ("robot-has", r, c) for r in ("r1", "r2") for c in ("white", "black")] + [("available-color", "black")]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=st.data())
def test_floortile_rule_matches_exhaustive_exploration(data):
    init = FLOOR_COLUMN + data.draw(st.sampled_from(FLOOR_INITS)) + data.draw(
        st.sampled_from([[], [("painted", "t3", "black")]]))
    goal = data.draw(st.lists(st.sampled_from(FLOOR_ATOMS), min_size=1, max_size=4, unique=True))
    _agree(floortile_closure, benchmark_domain("floor-tile"), FLOOR_OBJECTS, init, goal)


def test_floortile_colour_switch_is_irreversible():
    """One robot with white, only black available, a black tile to paint: every goal state has the robot holding
    black (Planetarium's floortile_no_white1 and floortile_no_white1a are equivalent for this reason)."""
    dom = benchmark_domain("floor-tile")
    init = FLOOR_COLUMN + FLOOR_INITS[1]
    scene = load_scene(dom, render(dom, FLOOR_OBJECTS, init, [("painted", "t2", "black"), ("painted", "t3", "white")]))
    assert ("robot-has", "r1", "black") in floortile_closure(dom, scene).lower
    scene = load_scene(dom, render(dom, FLOOR_OBJECTS, init, [("painted", "t2", "white")]))
    assert not any(f[:2] == ("robot-has", "r1") for f in floortile_closure(dom, scene).lower)
    goal = [("painted", "t2", "black"), ("robot-has", "r1", "white")]
    scene = load_scene(dom, render(dom, FLOOR_OBJECTS, init, goal))
    assert floortile_closure(dom, scene).status == "unsolvable"

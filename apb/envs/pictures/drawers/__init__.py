"""The drawer of each bundled domain (`DRAWERS`: domain name -> drawer class). A drawer is built once per task
(`Drawer(task, static)`: its layout, from the task only) and draws states (`draw(view) -> Scene`)."""

from __future__ import annotations

from apb.envs.pictures.drawers.board import Board, BoardDrawer
from apb.envs.pictures.drawers.grids import GridDrawer, GridStyle
from apb.envs.pictures.drawers.towers import BlocksDrawer, DepotDrawer


def _board(name: str, board: Board) -> type:
    return type(f"{name}Drawer", (BoardDrawer,), {"board": board})


def _grid(name: str, style: GridStyle) -> type:
    return type(f"{name}Drawer", (GridDrawer,), {"style": style})


_GRIPPER = Board(place_kinds=("room",), at=(("at-robby", 0, 1), ("at", 0, 1)), inside=(("carry", 1, 0),),
                 carrier_kinds=("robot",), ignore=("free",))

DRAWERS: dict[str, type] = {
    "blocksworld": BlocksDrawer,
    "depot": DepotDrawer,
    "gripper": _board("Gripper", _GRIPPER),
    "grippers": _board("Grippers", _GRIPPER),
    "ferry": _board("Ferry", Board(
        place_kinds=("location",), at=(("at", 0, 1), ("at-ferry", "ferry", 0)), inside=(("on", 0, "ferry"),),
        ignore=("not-eq", "car", "location", "empty-ferry"))),
    "logistics": _board("Logistics", Board(
        place_kinds=("location", "airport"), at=(("at", 0, 1),), inside=(("in", 0, 1),), group=("in-city", 0, 1),
        marks=("airport",), carrier_kinds=("truck", "airplane"),
        ignore=("obj", "truck", "location", "airplane", "city", "airport", "in-city"), box_width=230)),
    "rovers": _board("Rovers", Board(
        place_kinds=("waypoint",), at=(("at", 0, 1), ("at_lander", 0, 1)),
        marks=("at_soil_sample", "at_rock_sample"), box_width=170,
        ignore=("can_traverse", "visible", "visible_from", "store_of", "calibration_target", "on_board",
                "supports", "equipped_for_soil_analysis", "equipped_for_rock_analysis", "equipped_for_imaging"))),
    "satellite": _board("Satellite", Board(
        place_kinds=("direction",), at=(("pointing", 0, 1),), inside=(("on_board", 0, 1),),
        carrier_kinds=("satellite",), ignore=("supports", "calibration_target"), box_width=170)),
    "movie": _board("Movie", Board(place_kinds=(), ignore=("chips", "dip", "pop", "cheese", "crackers"))),
    "baking": _board("Baking", Board(
        place_kinds=("bowl", "pan", "oven", "measuring-cup", "container"), extra_places=("counter",),
        at=(("mixture-in", 0, 1), ("dessert-in", 0, 1), ("in-oven", 0, 1), ("on-counter", 0, "counter"),
            ("in-cup", 0, 1)),
        marks=("hot", "full", "cup-full", "oven-full", "dirty"), box_width=180,
        ignore=("is-flour", "is-sugar", "is-baking-powder", "mixture-for"))),
    "grid": _grid("Grid", GridStyle(
        agents=(("at-robot", 0, "robot"),), fills={"locked": (90, 90, 90)}, marks={"locked": "locked"},
        things=(("at", 0, 1),), ignore=("conn", "place", "key", "shape", "arm-empty", "open", "key-shape",
                                        "lock-shape"))),
    "visitall": _grid("Visitall", GridStyle(
        agents=(("at-robot", 0, "robot"),), fills={"visited": (170, 220, 170)}, ignore=("connected",))),
    "floortile": _grid("Floortile", GridStyle(
        agents=(("robot-at", 1, 0),), fills={"painted": None}, flip=True,
        ignore=("up", "down", "left", "right", "clear", "available-color", "free-color"))),
    "goldminer": _grid("Goldminer", GridStyle(
        agents=(("robot-at", 0, "robot"),),
        fills={"soft-rock-at": (205, 170, 125), "hard-rock-at": (120, 80, 50), "gold-at": (250, 215, 60)},
        marks={"gold-at": "gold", "bomb-at": "bomb", "laser-at": "laser", "soft-rock-at": "soft",
               "hard-rock-at": "hard"}, ignore=("connected", "clear"))),
}

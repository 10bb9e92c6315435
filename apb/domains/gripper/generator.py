"""Gripper problems with one robot and two rooms (classic IPC Gripper), varying the number of `balls`.

Parameters:
    balls   -- number of balls, named ball_0, ... (1..60).
    scatter -- 1: the robot and every ball start in a random room and every ball has a random goal room (not all
               already reached); 0: the classic IPC layout, robot and balls in room_a and every ball to go to
               room_b (the same problem for every seed).

The robot robot_0 has the grippers left_0 and right_0; the rooms are room_a and room_b. The domain and the
problem layout are those of grippers/ (apb.domains.grippers.generator) with robots = 1 and rooms = 2.
"""

from __future__ import annotations

from apb.domains.grippers.generator import check_params, problem_text, random_problem, room_names

PARAMETERS: dict[str, int] = {"balls": 4, "scatter": 1}
RANGES: dict[str, tuple[int, int]] = {"balls": (1, 60), "scatter": (0, 1)}


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    values = check_params(params, PARAMETERS, RANGES, "gripper")
    balls = values["balls"]
    if values["scatter"]:
        return random_problem(f"gripper-{balls}-s{seed}", seed, 1, 2, balls)
    return problem_text(f"gripper-{balls}-classic", 1, room_names(2), ["room_a"], ["room_a"] * balls,
                        ["room_b"] * balls)


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: 3 to 7 scattered balls for example and test; for scaled, the
    classic layout with 10 to 29 balls."""
    if split == "example":
        return [(1000 + i, {"balls": 2 + i % 2, "scatter": 1}) for i in range(10)]
    if split == "test":
        return [(i, {"balls": 3 + i % 5, "scatter": 1}) for i in range(1, 51)]
    if split == "scaled":
        return [(2000 + i, {"balls": 10 + i, "scatter": 0}) for i in range(20)]
    raise ValueError(f"split must be one of example, test, scaled, got {split!r}")

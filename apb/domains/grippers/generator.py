"""Random Grippers problems: `robots` robots with two grippers each, `rooms` rooms and `balls` balls to move.

Parameters:
    robots -- number of robots, named robot_0, ...; robot_<i> has the grippers left_<i> and right_<i> (1..10).
    rooms  -- number of rooms, named room_a, room_b, ... (2..26).
    balls  -- number of balls, named ball_0, ... (1..60).

Every robot starts in a random room with both grippers free; every ball starts in a random room and must end in a
random room (possibly the same one: the goal names every ball, as in the AutoPlanBench problems). A goal that
already holds initially is redrawn. Every such problem is solvable: a robot can fetch each ball in turn.
"""

from __future__ import annotations

import random
from string import ascii_lowercase

from apb.domains.generation import check_parameters

PARAMETERS: dict[str, int] = {"robots": 2, "rooms": 3, "balls": 4}
RANGES: dict[str, tuple[int, int]] = {"robots": (1, 10), "rooms": (2, len(ascii_lowercase)), "balls": (1, 60)}


def check_params(params: dict, defaults: dict[str, int], ranges: dict[str, tuple[int, int]],
                 domain: str) -> dict[str, int]:
    """The full parameter set (defaults filled in); ValueError names a bad parameter and its allowed range."""
    return check_parameters(domain, defaults, ranges, params)


def problem_text(name: str, robots: int, rooms: list[str], robot_rooms: list[str], ball_rooms: list[str],
                 goal_rooms: list[str]) -> str:
    """The problem PDDL: robot i starts in robot_rooms[i], ball j in ball_rooms[j] and must reach goal_rooms[j]."""
    robot_names = [f"robot_{i}" for i in range(robots)]
    grippers = [f"{side}_{i}" for i in range(robots) for side in ("left", "right")]
    balls = [f"ball_{j}" for j in range(len(ball_rooms))]
    init: list[str] = []
    for i, robot in enumerate(robot_names):
        init += [f"(at-robby {robot} {robot_rooms[i]})", f"(free {robot} left_{i})", f"(free {robot} right_{i})"]
    init += [f"(at {ball} {room})" for ball, room in zip(balls, ball_rooms)]
    goals = [f"(at {ball} {room})" for ball, room in zip(balls, goal_rooms)]
    return (f"(define (problem {name})\n"
            f"  (:domain gripper-strips)\n"
            f"  (:objects {' '.join(robot_names)} - robot\n"
            f"            {' '.join(grippers)} - gripper\n"
            f"            {' '.join(rooms)} - room\n"
            f"            {' '.join(balls)} - object)\n"
            f"  (:init\n    " + "\n    ".join(init) + ")\n"
            "  (:goal (and\n    " + "\n    ".join(goals) + ")))\n")


def room_names(count: int) -> list[str]:
    """room_a, room_b, ... for `count` rooms."""
    return [f"room_{ascii_lowercase[i]}" for i in range(count)]


def random_problem(name: str, seed: int, robots: int, rooms: int, balls: int) -> str:
    """Random start rooms for robots and balls and random goal rooms for balls, not all already reached."""
    rng = random.Random(seed)
    names = room_names(rooms)
    robot_rooms = [rng.choice(names) for _ in range(robots)]
    ball_rooms = [rng.choice(names) for _ in range(balls)]
    goal_rooms = list(ball_rooms)
    while goal_rooms == ball_rooms:
        goal_rooms = [rng.choice(names) for _ in range(balls)]
    return problem_text(name, robots, names, robot_rooms, ball_rooms, goal_rooms)


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    values = check_params(params, PARAMETERS, RANGES, "grippers")
    robots, rooms, balls = values["robots"], values["rooms"], values["balls"]
    return random_problem(f"grippers-{robots}-{rooms}-{balls}-s{seed}", seed, robots, rooms, balls)


# (robots, rooms, balls) of the test candidates, cycled: the sizes of the AutoPlanBench Grippers problems.
TEST_SIZES = ((1, 2, 5), (2, 3, 4), (1, 3, 3), (2, 4, 5), (1, 4, 3), (2, 5, 6), (3, 5, 5), (2, 3, 4), (1, 4, 7),
              (2, 4, 5))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: small mixed sizes for example and test (no scaled split)."""
    keys = ("robots", "rooms", "balls")
    if split == "example":
        return [(1000 + i, dict(zip(keys, (1, 2, 2 + i % 3)))) for i in range(10)]
    if split == "test":
        return [(i, dict(zip(keys, TEST_SIZES[i % len(TEST_SIZES)]))) for i in range(1, 51)]
    raise ValueError(f"split must be example or test (grippers has no scaled set), got {split!r}")

"""The successor generator (used above SCAN_LIMIT ground actions) finds exactly what a full scan finds."""

from __future__ import annotations

import random

import pytest
from conftest import reference_task, require_reference

from apb.engine.successors import SuccessorGenerator
from apb.engine.task import PROBE_LIMIT, SCAN_LIMIT


def scan(task, bits: int) -> list[int]:
    return [a.index for a in task.actions if bits & a.pre_mask == a.pre_mask and not bits & a.neg_mask]


@pytest.mark.parametrize("dataset, instance", [("blocksworld_scaled", "instance-32"), ("depot", "instance-19"),
                                               ("gripper", "instance-25"), ("floortile", "instance-18"),
                                               ("movie-complex", "instance-21")])
def test_generator_matches_scan_along_random_walks(dataset, instance):
    task = reference_task(dataset, require_reference() / dataset / "orig_problems" / f"{instance}.pddl")
    generator = SuccessorGenerator([a.pre for a in task.actions], [a.neg for a in task.actions])
    rng = random.Random(7)
    state = task.initial_state
    for _ in range(400):
        expected = scan(task, state.bits)
        assert generator.applicable_ids(state.bits) == expected
        assert task.applicable_ids(state.bits) == expected
        assert [a.index for a in task.applicable(state)] == expected
        state = task.apply(state, task.actions[rng.choice(expected)]) if expected else task.initial_state
    if len(task.actions) > PROBE_LIMIT:
        assert task._checks == () and task._generator is not None  # the tree, not the scan, answered
    elif len(task.actions) <= SCAN_LIMIT:
        assert task._checks and task._generator is None  # the scan answered, no tree was built


def test_generator_handles_actions_without_preconditions_and_negative_ones():
    # action 0: no precondition; 1: needs fact 0; 2: needs 0 and 1; 3: needs 1 and not 2; 4: not 0
    generator = SuccessorGenerator([(), (0,), (0, 1), (1,), ()], [(), (), (), (2,), (0,)])
    assert generator.applicable_ids(0b000) == [0, 4]
    assert generator.applicable_ids(0b001) == [0, 1]
    assert generator.applicable_ids(0b011) == [0, 1, 2, 3]
    assert generator.applicable_ids(0b111) == [0, 1, 2]
    assert generator.applicable_ids(0b110) == [0, 4]

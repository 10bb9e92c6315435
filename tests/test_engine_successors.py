"""The successor generator (used above SCAN_LIMIT ground actions) finds exactly what a full scan finds."""

from __future__ import annotations

import random

import pytest
from conftest import reference_task, require_reference

from apb.engine.applicable import SCAN_LIMIT, LinearScan
from apb.engine.successors import SuccessorGenerator


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
    if len(task.actions) <= SCAN_LIMIT:
        assert isinstance(task._finder, LinearScan) and task._generator is None  # the scan answered, no tree built


def test_generator_handles_actions_without_preconditions_and_negative_ones():
    # action 0: no precondition; 1: needs fact 0; 2: needs 0 and 1; 3: needs 1 and not 2; 4: not 0
    generator = SuccessorGenerator([(), (0,), (0, 1), (1,), ()], [(), (), (), (2,), (0,)])
    assert generator.applicable_ids(0b000) == [0, 4]
    assert generator.applicable_ids(0b001) == [0, 1]
    assert generator.applicable_ids(0b011) == [0, 1, 2, 3]
    assert generator.applicable_ids(0b111) == [0, 1, 2]
    assert generator.applicable_ids(0b110) == [0, 4]


def _ipc_task(folder: str, problem: str | None = None):
    import warnings

    from conftest import first_ipc_problem

    from apb.engine import load_domain, load_problem
    from apb.engine.task import Task

    domain_file, problem_file = first_ipc_problem(folder)
    if problem is not None:
        problem_file = problem_file.parent / problem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        domain = load_domain(domain_file)
        return Task(domain, load_problem(problem_file, domain))


@pytest.mark.parametrize("folder", ["caldera-opt18-adl", "psr-large", "optical-telegraphs", "elevators-sat08-strips",
                                    "miconic-fulladl"])
def test_dense_scan_matches_the_tree_and_the_scan_along_random_walks(folder):
    """The numpy finder gives what the tree and the Python scan give, on tasks of one to twenty fact words,
    with negative preconditions, complex preconditions and derived facts."""
    from apb.engine.applicable import DenseScan

    task = _ipc_task(folder)
    dense = DenseScan(task.actions, task.num_facts)
    tree = SuccessorGenerator([a.pre for a in task.actions], [a.neg for a in task.actions])
    rng = random.Random(13)
    state = task.initial_state
    compared = 0
    for _ in range(150):
        expected = scan(task, state.bits)
        assert dense.applicable_ids(state.bits) == expected == tree.applicable_ids(state.bits)
        compared += len(expected)
        ids = task.applicable_ids(state.bits)
        state = task.apply(state, task.actions[rng.choice(ids)]) if ids else task.initial_state
    assert compared


def test_the_choice_follows_the_measured_work():
    """After the probe's states: on caldera-sat18 p05 (12,146 actions over 312 facts, ~160 applicable on a walk)
    the dense scan; on a task of few actions the Python scan from the start; on a large Gripper task (few
    applicable actions) the tree. Answers are the same all along."""
    from apb.engine.applicable import PROBE_STEPS, DenseScan, Probe

    def walk(task) -> None:
        rng = random.Random(5)
        state = task.initial_state
        for _ in range(PROBE_STEPS + 5):
            ids = task.applicable_ids(state.bits)
            assert ids == scan(task, state.bits)
            state = task.apply(state, task.actions[rng.choice(ids)]) if ids else task.initial_state

    caldera = _ipc_task("caldera-sat18-adl", "p05.pddl")
    caldera.applicable(caldera.initial_state)
    probe = caldera._finder
    assert isinstance(probe, Probe) and probe.current is probe.tree  # the first state alone decides nothing
    walk(caldera)
    assert isinstance(probe.current, DenseScan)
    small = _ipc_task("miconic-fulladl")
    assert len(small.actions) <= SCAN_LIMIT and isinstance(small._choose_finder(), LinearScan)
    large = reference_task("gripper", require_reference() / "gripper" / "orig_problems" / "instance-25.pddl")
    walk(large)
    assert isinstance(large._finder, SuccessorGenerator) or large._finder.current is large._finder.tree

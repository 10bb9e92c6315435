"""Micro-benchmarks of the engine primitives (pytest-benchmark). Figures only, no thresholds:

    pytest benchmarks --benchmark-enable --benchmark-columns=mean,ops

Reads the AutoPlanBench reference (`$APB_REFERENCE` or ../shared/reference/autoplanbench).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from apb.engine import load_domain, load_problem, load_task
from apb.engine.task import Task

REFERENCE = Path(os.environ.get("APB_REFERENCE",
                                Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "autoplanbench"))
CASES = [("logistics", "instance-12"), ("depot", "instance-19"), ("grid", "instance-12"),
         ("visitall_scaled", "instance-20")]


def files(dataset: str, instance: str) -> tuple[Path, Path]:
    folder = REFERENCE / dataset
    if not folder.is_dir():
        pytest.fail(f"reference data not found at {REFERENCE}; set APB_REFERENCE")
    return folder / "domain.pddl", folder / "orig_problems" / f"{instance}.pddl"


def walk_states(task: Task, n: int = 200, seed: int = 0) -> list:
    rng = random.Random(seed)
    state, states = task.initial_state, []
    for _ in range(n):
        states.append(state)
        actions = task.applicable(state)
        state = task.apply(state, rng.choice(actions)) if actions else task.initial_state
    return states


@pytest.mark.parametrize("dataset, instance", CASES)
def test_parse_and_ground(benchmark, dataset, instance):
    domain_file, problem_file = files(dataset, instance)
    domain = load_domain(domain_file)
    task = benchmark(lambda: Task(domain, load_problem(problem_file, domain)))
    assert task.actions


@pytest.mark.parametrize("dataset, instance", CASES)
def test_applicable_and_apply_step(benchmark, dataset, instance):
    task = load_task(*files(dataset, instance))
    states = walk_states(task)
    rng = random.Random(1)

    def step():
        state = states[rng.randrange(len(states))]
        actions = task.applicable(state)
        return task.apply(state, actions[rng.randrange(len(actions))]) if actions else state

    benchmark(step)


@pytest.mark.parametrize("dataset, instance", CASES)
def test_explain_inapplicable(benchmark, dataset, instance):
    task = load_task(*files(dataset, instance))
    state = task.initial_state
    blocked = [a for a in task.actions if task.explain(state, a)][:50]
    benchmark(lambda: [task.explain(state, a) for a in blocked])

"""The bulk paths of task building give exactly what the general, per-action path gives: the ground actions a
schema's generated loop makes (`ActionTemplate.build_all`), the masks made on first use and the lazily built
successor tree, on IPC domains with action costs, negative and equality preconditions, duplicate literals and
conditional effects."""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path

import pytest

from apb.engine.ground import ground
from apb.engine.task import Task

ROOT = Path(__file__).resolve().parents[1]
IPC = ROOT.parent / "shared" / "reference" / "ipc-classical"
sys.path.insert(0, str(ROOT / "benchmarks"))
from ipc_coverage import problem_pairs  # noqa: E402  (the benchmark's pairing of problems with domain files)


def load(folder: str) -> Task:
    if not (IPC / folder).is_dir():
        pytest.skip(f"IPC reference folder missing: {IPC / folder}")
    domain_file, problem_file = problem_pairs(IPC / folder)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from apb.engine import load_domain, load_problem
        domain = load_domain(domain_file)
        return Task(domain, load_problem(problem_file, domain))


def fields(action) -> tuple:
    return (str(action), action.pre, action.neg, action.add, action.delete, action.cost, action.pre_mask,
            action.neg_mask, action.add_mask, action.del_mask, action.conditions, action.is_strips)


@pytest.mark.parametrize("folder", ["elevators-sat08-strips", "folding-opt23-adl",
                                    "caldera-opt18-adl", "childsnack-sat14-strips", "tidybot-opt11-strips",
                                    "barman-sat11-strips"])
def test_bulk_built_actions_equal_the_general_path(folder):
    task = load(folder)
    expected = []
    for schema, args in ground(task.domain, task.problem).bindings:
        action = task._make_action(schema, args)
        if not action.never_applicable:
            expected.append(fields(action))
    assert expected
    assert [fields(a) for a in task.actions] == sorted(expected)
    rng = random.Random(3)
    state = task.initial_state
    for _ in range(30):  # the lazy successor tree answers as a scan of the masks does
        ids = task.applicable_ids(state.bits)
        assert ids == [a.index for a in task.actions if task.is_applicable(state, a)]
        state = task.successor(state, task.actions[rng.choice(ids)]) if ids else task.initial_state

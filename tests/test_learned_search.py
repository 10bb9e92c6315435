"""Greedy best-first search with a learned heuristic: helpful actions from FF's relaxed planning graph (numpy), and
the dead ends it proves pruned."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from apb.engine import load_task
from apb.planners.heuristics import INF, make_heuristic
from apb.planners.learned_search import learned_gbfs
from apb.planners.relaxed_layers import RelaxedLayers
from apb.planners.space import Successors

REF = (Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "ipc2023-learning").resolve()


def _task(domain: str, split: str, number: int):
    return load_task(REF / domain / "domain.pddl", REF / domain / split / "easy" / f"p{number:02d}.pddl")


def _walk(task, steps: int, seed: int) -> list[int]:
    successors, rng = Successors(task), random.Random(seed)
    bits, states = task.initial_state.bits, []
    for _ in range(steps):
        states.append(bits)
        children = successors(bits)
        if not children:
            break
        bits = rng.choice(children)[1]
    return states


@pytest.mark.parametrize("domain", ["floortile", "sokoban", "transport", "satellite"])
def test_relaxed_layers_agree_with_h_ff_on_dead_ends_and_give_applicable_helpful_actions(domain):
    task = _task(domain, "testing", 3)
    layers, ff = RelaxedLayers(task), make_heuristic("ff", task)
    for bits in _walk(task, 60, seed=7):
        h, helpful = layers.helpful(bits)
        assert (h == INF) == (ff(bits) == INF)
        applicable = set(task.applicable_ids(bits))
        assert helpful <= applicable
        if h != INF and not task.is_goal_bits(bits):
            assert h >= 1 and helpful  # a relaxed plan that is not empty starts with an applicable action


def test_helpful_actions_guide_a_blind_heuristic_to_a_plan_and_prune_dead_ends():
    """A learned heuristic that knows nothing (0 everywhere) leaves the search to its preferred operators; on
    floortile, where painting the wrong tile is a dead end, the relaxed plan prunes them."""
    task = _task("floortile", "testing", 1)

    def knows_nothing(bits_list):
        return [0.0] * len(bits_list)

    found = learned_gbfs(task, knows_nothing, timeout=None, max_nodes=50_000, helpful="ff")
    assert found.solved and task.validate(found.plan).valid
    assert found.extra["dead_ends"] > 0
    plain = learned_gbfs(task, knows_nothing, timeout=None, max_nodes=found.expanded, helpful="none")
    assert not plain.solved  # the same budget without them is not enough

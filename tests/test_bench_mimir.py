"""`apb bench engine --peer pymimir`: both engines measured in one run on the smallest problem of each IPC domain
(steps/s, grounding ms, their ratio), as JSON or a table; bad selections are usage errors. pymimir comes with the
dev extra."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb.bench.mimir_peer import MIMIR_DOMAINS, WALK_LENGTH, ApbWalk, MimirWalk, smallest_problem
from apb.cli import main

IPC = Path(__file__).resolve().parents[2] / "shared" / "reference" / "ipc-classical"


@pytest.fixture
def ipc() -> Path:
    if not IPC.is_dir():
        pytest.skip(f"IPC reference folder missing: {IPC}")
    return IPC


def test_the_list_has_nineteen_domains_each_with_a_problem(ipc):
    assert len(MIMIR_DOMAINS) == len(set(MIMIR_DOMAINS)) == 19
    for name in MIMIR_DOMAINS:
        domain, problem = smallest_problem(ipc / name)
        assert domain.is_file() and problem.is_file() and "domain" not in problem.name
    domain, problem = smallest_problem(ipc / "psr-small")  # a problem with its own domain file gets that one
    assert domain.name == problem.name.split("-")[0] + "-domain.pddl"


def test_json_report_measures_both_engines_side_by_side(capsys, ipc):
    pytest.importorskip("pymimir")
    code = main(["bench", "engine", "--peer", "pymimir", "--domains", "blocks,philosophers", "--seconds", "0.05",
                 "--ipc", str(ipc), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["peer"].startswith("pymimir")
    assert [row["domain"] for row in report["rows"]] == ["blocks", "philosophers"]
    for row in report["rows"]:
        assert row["apb_steps_per_s"] > 0 and row["pymimir_steps_per_s"] > 0
        assert row["apb_ground_ms"] > 0 and row["pymimir_ground_ms"] > 0
        assert row["ratio"] == pytest.approx(row["apb_steps_per_s"] / row["pymimir_steps_per_s"], rel=0.01)
    assert report["min_ratio"] == min(row["ratio"] for row in report["rows"])


def test_repeat_reports_every_run_and_the_lowest_ratio(capsys, ipc):
    pytest.importorskip("pymimir")
    code = main(["bench", "engine", "--peer", "pymimir", "--domains", "gripper", "--seconds", "0.04", "--repeat",
                 "3", "--ipc", str(ipc), "--json"])
    report = json.loads(capsys.readouterr().out)
    (row,) = report["rows"]
    assert code == 0 and report["repeat"] == 3 and len(row["ratios"]) == 3
    assert row["ratio"] == min(row["ratios"]) == report["min_ratio"]
    assert main(["bench", "engine", "--peer", "pymimir", "--repeat", "0", "--ipc", str(ipc)]) == 2
    assert "--repeat" in capsys.readouterr().err


class _Chain:
    """A task (or pymimir problem) whose states count the steps from the initial state: two actions always apply."""

    initial_state = 0

    def __init__(self) -> None:
        self.deepest = 0

    def applicable(self, state):
        return ["left", "right"]

    def apply(self, state, action):
        self.deepest = max(self.deepest, state + 1)
        return state + 1

    def is_goal(self, state):
        raise AssertionError("the goal test is not part of the timed loop")


class _MimirState:
    def __init__(self, chain: _Chain, depth: int) -> None:
        self.chain, self.depth = chain, depth

    def generate_applicable_actions(self):
        return [_MimirAction(self.chain), _MimirAction(self.chain)]


class _MimirAction:
    def __init__(self, chain: _Chain) -> None:
        self.chain = chain

    def apply(self, state):
        return _MimirState(self.chain, self.chain.apply(state.depth, None))


def test_both_walks_time_applicable_and_apply_only_and_restart_after_an_episode():
    chain = _Chain()
    assert ApbWalk(chain).run(0.02) > WALK_LENGTH and chain.deepest == WALK_LENGTH
    peer = _Chain()
    problem = type("Problem", (), {"get_initial_state": lambda self: _MimirState(peer, 0),
                                   "get_goal_condition": lambda self: peer.is_goal(None)})()
    assert MimirWalk(problem).run(0.02) > WALK_LENGTH and peer.deepest == WALK_LENGTH


def test_table_names_every_column(capsys, ipc):
    pytest.importorskip("pymimir")
    code = main(["bench", "engine", "--peer", "pymimir", "--domains", "gripper", "--seconds", "0.05",
                 "--ipc", str(ipc)])
    out = capsys.readouterr().out
    assert code == 0
    for column in ("apb steps/s", "pymimir steps/s", "apb ground ms", "pymimir ground ms", "gripper"):
        assert column in out
    assert "geometric mean" in out


@pytest.mark.parametrize(("extra", "words"), [
    (["--domains", "no-such-domain"], "no-such-domain"),
    (["--domains", "blocks", "--no-peer"], "--no-peer"),
])
def test_bad_selections_are_usage_errors(capsys, ipc, extra, words):
    pytest.importorskip("pymimir")
    code = main(["bench", "engine", "--peer", "pymimir", "--ipc", str(ipc), "--seconds", "0.05", *extra])
    assert code == 2 and words in capsys.readouterr().err


def test_domains_belong_to_the_pymimir_comparison(capsys, ipc):
    code = main(["bench", "engine", "--domains", "blocks", "--no-peer"])
    assert code == 2 and "--peer pymimir" in capsys.readouterr().err

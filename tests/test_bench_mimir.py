"""`apb bench engine --peer pymimir`: both engines measured in one run on the smallest problem of each IPC domain
(steps/s, grounding ms, their ratio), as JSON or a table; bad selections are usage errors. pymimir comes with the
dev extra."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb.bench.mimir_peer import MIMIR_DOMAINS, smallest_problem
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

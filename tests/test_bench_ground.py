"""`apb bench ground`: each engine grounds each task in a subprocess; a result is seconds with apb's counts, a
timeout, or an error; bad options are usage errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.bench.ground import measure, print_ground_report, run_ground_bench
from apb.console import make_console
from apb.engine import load_task
from apb.engine.errors import ApbError

IPC = Path(__file__).resolve().parents[2] / "shared" / "reference" / "ipc-classical"


def test_apb_row_counts_what_the_task_has():
    report = run_ground_bench(ipc=IPC, domains=["caldera-opt18-adl"], engines=["apb"], timeout=300)
    assert [r["task"] for r in report["rows"]] == [f"caldera-opt18-adl/p0{i}.pddl" for i in (3, 4, 5)]
    first = report["rows"][0]["apb"]
    task = load_task(IPC / "caldera-opt18-adl" / "domain.pddl", IPC / "caldera-opt18-adl" / "p03.pddl")
    assert (first["facts"], first["actions"]) == (task.num_facts, len(task.actions))
    assert report["apb_failures"] == 0 and "pymimir" not in report["rows"][0]
    print_ground_report(report, make_console())


def test_timeout_and_failure_are_reported_not_raised(tmp_path):
    folder = IPC / "caldera-opt18-adl"
    assert measure("apb", folder / "domain.pddl", folder / "p05.pddl", timeout=0.001) == {"timeout": 0.001}
    broken = tmp_path / "p.pddl"
    broken.write_text("(define (problem p) (:domain caldera) (:objects x - nosuchtype) (:init) (:goal (and)))")
    assert "error" in measure("apb", folder / "domain.pddl", broken, timeout=300)


def test_bad_options_are_usage_errors():
    with pytest.raises(ApbError, match="unknown engine"):
        run_ground_bench(ipc=IPC, domains=["caldera-opt18-adl"], engines=["fd"])
    with pytest.raises(ApbError, match=r"no domain\.pddl"):
        run_ground_bench(ipc=IPC, domains=["no-such-domain"], engines=["apb"])

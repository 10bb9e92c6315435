"""`apb acp generate` writes the same file for the same settings and seed, under any load: every search is bounded
in states or expansions, and the one wall-clock limit is a safety net that stops a group loudly."""

from __future__ import annotations

import importlib
import itertools
import time
from pathlib import Path

import pytest

from apb.acp import generate
from apb.acp.question_files import write_questions
from apb.cli import main

generate_module = importlib.import_module("apb.acp.generate")  # the module (apb.acp.generate is the function)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.json*"))}


def _slow_clock(monkeypatch, step: float) -> None:
    """Every reading of the clock is `step` seconds after the last: a machine as loaded as can be."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * step)
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks) * step)
    monkeypatch.setattr(time, "time", lambda: 1.7e9 + next(ticks) * step)


@pytest.mark.parametrize("domain", ["ferry", "grippers"])
def test_same_settings_same_bytes_under_any_clock(domain, tmp_path, monkeypatch):
    first, _ = generate(domain, count=2, seed=3, time_limit=None)
    write_questions(first, tmp_path / "a")
    again, _ = generate(domain, count=2, seed=3, time_limit=None)
    write_questions(again, tmp_path / "b")
    _slow_clock(monkeypatch, 1000.0)  # any search with a time limit would stop at once and change the file
    slow, stats = generate(domain, count=2, seed=3, time_limit=None)
    monkeypatch.undo()
    write_questions(slow, tmp_path / "c")
    # the tasks side by side in threads, from situations no task has analysed yet (a per-process cache shares them)
    monkeypatch.setattr(generate_module, "_SAMPLED", {})
    threads, _ = generate(domain, count=2, seed=3, time_limit=None, concurrency=4)
    write_questions(threads, tmp_path / "d")
    a, b, c, d = (_files(tmp_path / name) for name in "abcd")
    assert a and a == b == c == d
    assert not stats.timed_out and len(first) == 2 * 22


def test_the_safety_net_fails_loudly(tmp_path, monkeypatch, capsys):
    """A group the wall-clock safety net stops is named, and the command exits 1 (never a silently shorter file)."""
    _slow_clock(monkeypatch, 1000.0)
    _, stats = generate("ferry", tasks=["app"], formats=["bool"], count=3, seed=0, time_limit=1)
    assert stats.timed_out == {"applicable_actions_bool": 0}
    code = main(["acp", "generate", "ferry", "--tasks", "app", "--formats", "bool", "--count", "3",
                 "--time-limit", "1", "--out", str(tmp_path / "out")])
    monkeypatch.undo()
    assert code == 1
    said = " ".join(capsys.readouterr().err.split())
    assert "applicable_actions_bool stopped by the --time-limit safety net after 0" in said

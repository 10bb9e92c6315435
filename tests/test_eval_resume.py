"""Resuming an evaluation: finished episodes are kept, missing ones rerun, interrupted runs (SIGINT, SIGKILL)
leave only whole files and resume to exactly the set of an uninterrupted run."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from apb.cli import main
from apb.eval.trajectory import read_trajectory

EVAL = ["eval", "--domains", "blocksworld,ferry", "--agents", "random,bfs", "--problems", "1-3", "--seeds", "2",
        "--concurrency", "2", "--no-progress"]


def snapshot(out):
    return {p.name: p.read_bytes() for p in sorted((out / "episodes").iterdir())}


def test_resume_reruns_only_missing_episodes(tmp_path):
    out = tmp_path / "run"
    assert main([*EVAL, "--out", str(out)]) == 0
    before = snapshot(out)
    assert len(before) == 2 * 3 * (2 + 1)  # domains x problems x (random: 2 seeds, bfs: once)
    deleted = sorted(before)[::5]
    for name in deleted:
        (out / "episodes" / name).unlink()
    (out / "episodes" / "blocksworld__9__bfs__none__s0.jsonl.part").write_text('{"type": "header"}\n')
    assert main([*EVAL, "--out", str(out), "--resume"]) == 0
    after = snapshot(out)
    assert sorted(after) == sorted(before)  # the full set, nothing duplicated, no .part left
    kept = set(before) - set(deleted)
    assert all(after[name] == before[name] for name in kept)  # finished files untouched
    for name in deleted:
        rerun = read_trajectory(out / "episodes" / name)["footer"]
        first = [line for line in before[name].decode().splitlines() if '"type": "footer"' in line]
        assert first and rerun["steps"] == read_footer(first[0])["steps"]


def read_footer(line):
    import json

    return json.loads(line)


def test_non_empty_out_is_refused_without_resume(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*EVAL, "--out", str(out), "--problems", "1"]) == 0
    before = snapshot(out)
    assert main([*EVAL, "--out", str(out), "--problems", "1"]) == 2
    assert "--resume" in capsys.readouterr().err
    assert snapshot(out) == before
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert main([*EVAL, "--out", str(other)]) == 2
    assert (other / "notes.txt").read_text() == "mine" and not (other / "episodes").exists()


DRIVER = textwrap.dedent('''
    import asyncio, sys, time
    from apb.eval.runner import plan_episodes, run_eval
    from apb.llm import ScriptedLLM

    ANSWERS = ["look around", "pick up block a", "unstack block b from block d", "sail from location l1 to l2"]

    class SleepyLLM(ScriptedLLM):
        """Deterministic answers (they depend on the conversation only), 50 ms per call."""
        def complete(self, messages, **kwargs):
            time.sleep(0.05)
            return super().complete(messages, **kwargs)

    def answer(messages):
        return ANSWERS[sum(m["role"] == "assistant" for m in messages) % len(ANSWERS)]

    specs = plan_episodes(["blocksworld", "ferry"], ["act", "random", "bfs"], "1-2", 2, model="scripted:sleepy",
                          max_steps=6)
    summary = asyncio.run(run_eval(specs, sys.argv[1], concurrency=2, resume=sys.argv[2] == "resume",
                                   llms={"scripted:sleepy": SleepyLLM(answer)}))
    print(summary)
''')


def run_driver(driver, out, mode, *, kill_after=None, sig=None):
    process = subprocess.Popen([sys.executable, str(driver), str(out), mode], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    if kill_after is not None:
        time.sleep(kill_after)
        if process.poll() is None:
            process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=300)
    return process.returncode, stdout, stderr


def outcome(out):
    files = sorted((out / "episodes").iterdir())
    assert all(f.name.endswith(".jsonl") for f in files), [f.name for f in files]  # no .part left
    result = {}
    for path in files:
        trajectory = read_trajectory(path)  # every line parses, header and footer present
        footer = trajectory["footer"]
        result[path.name] = (footer["success"], footer["steps"], footer["stop_reason"], footer["error"])
    return result


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference")
    driver = folder / "driver.py"
    driver.write_text(DRIVER)
    code, _, stderr = run_driver(driver, folder / "out", "fresh")
    assert code == 0, stderr
    return driver, outcome(folder / "out")


@pytest.mark.parametrize(("sig", "seed"), [(signal.SIGINT, 1), (signal.SIGKILL, 2), (signal.SIGINT, 3)])
def test_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path, reference, sig, seed):
    driver, expected = reference
    assert len(expected) == 2 * 2 * (2 + 2 + 1)  # domains x problems x (act, random: 2 seeds; bfs: once)
    out = tmp_path / "out"
    delay = random.Random(seed).uniform(0.8, 2.5)
    code, _, stderr = run_driver(driver, out, "fresh", kill_after=delay, sig=sig)
    if code != 0:  # interrupted: whatever was finished is whole
        assert code == (-signal.SIGKILL if sig == signal.SIGKILL else 1) or code < 0, stderr
        if (out / "episodes").exists():
            for path in (out / "episodes").glob("*.jsonl"):
                read_trajectory(path)
    code, _, stderr = run_driver(driver, out, "resume")
    assert code == 0, stderr
    assert outcome(out) == expected
    assert not list(out.rglob("*.part"))
    assert sorted(os.listdir(out)) == ["episodes", "run.json"]

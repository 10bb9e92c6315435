"""The examples/ folder runs as documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from apb.cli import main
from apb.eval.trajectory import read_trajectory

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_script(name):
    return subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=300)


def test_custom_policy_example():
    done = run_script("custom_policy.py")
    assert done.returncode == 0, done.stderr
    assert "goal reached:" in done.stdout


def test_run_agent_example():
    done = run_script("run_agent.py")
    assert done.returncode == 0, done.stderr
    assert "(unstack block_b block_d) (ok)" in done.stdout and "LLM calls: " in done.stdout


def test_experiment_yaml_example(tmp_path):
    out = tmp_path / "example"
    assert main(["eval", "--config", str(EXAMPLES / "experiment.yaml"), "--out", str(out), "--no-progress"]) == 0
    files = sorted((out / "episodes").iterdir())
    assert len(files) == 2 * 3 * (2 + 1)  # domains x problems x (random: 2 seeds, bfs: once)
    footers = [read_trajectory(f)["footer"] for f in files]
    assert all(f["success"] for f, p in zip(footers, files) if "__bfs__" in p.name)

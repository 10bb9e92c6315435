"""Output written to a file or pipe reads well (issue 41, item 7): rich's rules filled the unbounded width apb gave
a pipe (lines of 100,000 characters in `apb describe ... > f`), and table captions came out as one line of 500."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from apb.cli import main
from apb.console import PIPE_WIDTH

ROOT = Path(__file__).resolve().parents[1]


def piped(*args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**env, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_describe_into_a_file_has_rules_of_a_wide_terminals_width():
    lines = piped("describe", "blocksworld")
    assert max(len(line) for line in lines) <= PIPE_WIDTH == 200
    rules = [line for line in lines if line.startswith("──")]
    assert len(rules) == 2 and all(len(rule) == PIPE_WIDTH for rule in rules)  # a rule, not a stub
    assert any("Domain blocksworld" in rule for rule in rules)


def test_a_report_caption_is_wrapped_at_the_pipe_width_and_the_table_keeps_its_columns(tmp_path):
    out = tmp_path / "run"
    assert main(["eval", "--domains", "blocksworld,ferry", "--agents", "oracle,random", "--problems", "1", "--out",
                 str(out), "--no-progress"]) == 0
    lines = piped("report", str(out))
    assert max(len(line) for line in lines) <= PIPE_WIDTH and "…" not in "\n".join(lines)
    caption = [line for line in lines if line.startswith("Solved problems, mean over seeds ± standard error")]
    assert len(caption) == 1 and len(caption[0]) > 120  # wrapped at the pipe's width, not at the table's
    assert any("oracle" in line and "random" in line for line in lines)  # every column of the table

"""What users hit, round 2 (issue 41): data files that are trusted, bounds and silent choices, a lone surrogate in a
model's reply, --overwrite, CLI scorers that read everything first. One test (or more) per finding; each failed on
the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def apb(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def one_line_error(capsys, *fragments: str) -> str:
    """The one error line of a command (warnings printed before it are allowed)."""
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in err, err
    return err


# ---- a lone surrogate in a model's reply ------------------------------------------------------------------------
def test_a_lone_surrogate_in_a_reply_does_not_crash_apb_run(tmp_path):
    """The transcript echoes it as U+FFFD (as `apb eval`'s trajectories store it), the episode is not an error."""
    script = tmp_path / "replies.json"
    script.write_text(json.dumps(["(pick-up a) \ud800", "(stack a b) \udfff"]), encoding="utf-8")
    out = tmp_path / "run"
    proc = apb("run", "blocksworld", "--agent", "act", "--llm", f"scripted:{script}", "--max-steps", "2",
               "--translator", "fuzzy", "--cache", "off", "--out", str(out))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert "\ufffd" in proc.stdout and "not solved: 2 step(s)" in proc.stdout
    (episode,) = (out / "episodes").glob("*.jsonl")
    footer = json.loads(episode.read_text(encoding="utf-8").splitlines()[-1])
    assert footer["error"] is None and footer["steps"] == 2

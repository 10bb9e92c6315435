"""Every flag and file is checked before work (issue 30): a bad value is one line on stderr, exit 2, nothing
written, never a traceback from deep inside, a MemoryError, or a run whose every episode fails."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from apb.cli import main

BW = Path(__file__).resolve().parents[1] / "apb" / "domains" / "blocksworld"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "answers.txt").write_text("(pick-up block_a)\n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("predicates: [1, 2\n", encoding="utf-8")
    (tmp_path / "config.yaml").write_text(
        f"domains: [blocksworld]\nagents: [closed-loop]\nllm: scripted:{tmp_path / 'answers.txt'}\nproblems: 1\n"
        f"out: {tmp_path / 'out'}\nagent_options:\n  closed-loop: {{horizon: abc}}\n", encoding="utf-8")
    return tmp_path


EVAL = ["eval", "--domains", "blocksworld", "--problems", "1", "--no-progress"]
CASES = {
    "a range that cannot be materialised": ([*EVAL[:-3], "--agents", "oracle", "--problems", "1-99999999999",
                                             "--no-progress"], ["1-99999999999", "at most 100000"]),
    "a seed count that cannot be materialised": ([*EVAL, "--agents", "random", "--seeds", "99999999999"],
                                                 ["seeds", "at most 100000"]),
    "an agent option of the wrong type": ([*EVAL, "--agents", "closed-loop:horizon=abc", "--llm",
                                           "scripted:{W}/answers.txt"], ["horizon must be a whole number", "'abc'"]),
    "an agent option of the wrong type in a config": (["eval", "--config", "{W}/config.yaml", "--no-progress"],
                                                      ["horizon must be a whole number"]),
    "an agent option value the agent refuses": ([*EVAL, "--agents", "llm+p:planner=bogus", "--llm",
                                                 "scripted:{W}/answers.txt"], ["unknown planner 'bogus'", "astar"]),
    "an out-of-range agent option": ([*EVAL, "--agents", "act:max_failures=-1", "--llm", "scripted:{W}/answers.txt"],
                                     ["max_failures must be at least 1"]),
    "a malformed description file": ([*EVAL, "--agents", "oracle", "--description", "{W}/bad.yaml"],
                                     ["bad.yaml:2", "invalid YAML"]),
    "an unknown translator (apb run)": (["run", "blocksworld", "--agent", "oracle", "--translator", "bogus"],
                                        ["unknown translator 'bogus'", "cascade"]),
    "a malformed description file (acp generate)": (["acp", "generate", "ferry", "--tasks", "app", "--count", "1",
                                                     "--description", "{W}/bad.yaml"], ["bad.yaml:2"]),
    "a problem count that would run for days": (["generate", "blocksworld", "--count", "99999999999"],
                                                ["--count", "more than 10000"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_flag_or_file_is_one_line_exit_2_and_nothing_written(case, files, capsys):
    argv, fragments = CASES[case]
    out = files / "out"
    argv = [a.replace("{W}", str(files)) for a in argv]
    if "--config" not in argv:
        argv += ["--out", str(out)]
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own usage errors
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for fragment in fragments:
        assert fragment in err, err
    assert not out.exists()  # nothing written


def test_equiv_with_a_missing_rustworkx_says_which_extra_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "rustworkx", None)  # as if not installed: importing it raises ImportError
    code = main(["equiv", str(BW / "domain.pddl"), str(BW / "problems" / "p01.pddl"), str(BW / "problems" / "p01.pddl"),
                 "--backend", "rustworkx"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "pip install 'apb[fast]'" in err and "--backend" in err

"""apb describe, apb play and apb bench env through the CLI entry point."""

from __future__ import annotations

import json

import pytest

from apb import cli
from apb.agents import cli as agents_cli
from apb.bench.env import run_env_bench
from apb.domains.registry import problem_files


def run(capsys, *args, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        lines = iter(stdin.splitlines())

        def fake_input(prompt=""):
            try:
                return next(lines)
            except StopIteration:
                raise EOFError from None

        monkeypatch.setattr(agents_cli.out, "input", fake_input)
    code = cli.main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_describe_prints_domain_and_problem(capsys):
    code, out, _ = run(capsys, "describe", "ferry", "--problem", "2")
    assert code == 0
    assert "I can do the following actions:" in out and "Problem p02" in out and "My goal is that" in out


def test_describe_variants(capsys):
    code, out, _ = run(capsys, "describe", "blocksworld", "--description", "pddl", "--problem-only")
    assert code == 0 and "(:init" in out and "I can do" not in out
    code, out, _ = run(capsys, "describe", "blocksworld", "--json")
    data = json.loads(out)
    assert code == 0 and data["problem_id"] == "p01" and data["action_schemas"][0]["name"] == "pick-up"


def test_describe_bad_input_exits_2(capsys):
    code, _, err = run(capsys, "describe", "nosuchdomain")
    assert code == 2 and "unknown domain 'nosuchdomain'" in err
    code, _, err = run(capsys, "describe", "ferry", "--problem", "77")
    assert code == 2 and "no problem number 77" in err
    code, _, err = run(capsys, "describe", "ferry", "--description", "missing.yaml")
    assert code == 2 and "missing.yaml" in err


def test_play_solves_with_english_and_pddl(capsys, monkeypatch):
    plan = [line.strip() for line in (problem_files("ferry")[0].parent.parent / "plans" / "p01.plan").read_text()
            .splitlines() if line.startswith("(")]
    first = plan[0].strip("()").split()
    assert first[0] == "board"
    english = f"First I board {first[1]} onto the ferry at {first[2]}."
    script = "\n".join([":goal", ":actions", english, ":state", "(fly away)", *plan[1:], ":history"])
    code, out, _ = run(capsys, "play", "ferry", "--problem", "1", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, out
    assert f"= {plan[0]}" in out
    assert "I look around. Currently," in out
    assert "there is no action called fly" in out
    assert "Goal reached" in out and "1 invalid" in out


def test_play_quit_without_goal_exits_1(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "blocksworld", "--require-finish", stdin="(finish)\n:quit",
                       monkeypatch=monkeypatch)
    assert code == 1
    assert "I am not finished yet because" in out and "Goal not reached" in out


def test_bench_env_report_has_figures():
    report = run_env_bench(["logistics"], seconds=0.05)
    row = report["rows"][0]
    assert row["domain"] == "logistics" and row["steps"] > 0 and row["steps_per_s"] > 0
    assert 0.05 < row["invalid_share"] < 0.5
    assert row["problems"] == 20 and row["first_ms"] >= row["same_median_ms"] > 0


@pytest.mark.parametrize("argv", [["bench", "env", "--domains", "ferry", "--seconds", "0.02", "--json"]])
def test_bench_env_cli(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and json.loads(out)["rows"][0]["domain"] == "ferry"

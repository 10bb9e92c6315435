"""What a new user hit on the command line: bad input answered with exit 2 and one line, nothing left behind by a
run that cannot start, agent options as flags, messages and tables that fit a terminal."""

from __future__ import annotations

import os

import pytest
from rich.console import Console

from apb.cli import main
from apb.domains import cli as domains_cli
from apb.eval.trajectory import read_trajectory


@pytest.mark.parametrize("argv, message", [
    (["run", "blocksworld", "--agent", "bfs", "--problem", "99"], "has no problem 99: its problems are 1-20"),
    (["run", "nodomain", "--agent", "bfs"], "unknown domain 'nodomain'"),
    (["run", "blocksworld", "--agent", "nope"], "unknown agent 'nope'"),
    (["run", "blocksworld", "--agent", "bfs", "--horizon", "5"], "--horizon is not an option of the bfs agent"),
])
def test_apb_run_answers_bad_input_with_exit_2_and_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_apb_run_prints_the_last_steps_feedback(capsys):
    assert main(["run", "blocksworld", "--agent", "bfs", "--problem", "2"]) == 0
    out = capsys.readouterr().out
    assert "feedback ok: I stack block_c on top of block_a. I have reached my goal." in out


def test_an_eval_that_cannot_start_leaves_no_episodes_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    out = tmp_path / "run"
    code = main(["eval", "--domains", "blocksworld", "--agents", "act", "--llm", "openai:gpt-4o-mini",
                 "--problems", "1", "--out", str(out), "--no-progress"])
    assert code == 2 and "OPENAI_API_KEY" in capsys.readouterr().err
    assert not out.exists()


def test_agent_options_as_flags_reach_the_agents_that_take_them(tmp_path):
    script = tmp_path / "answers.txt"
    script.write_text("1. (unstack block_b block_d)\n2. (put-down block_b)\n", encoding="utf-8")
    out = tmp_path / "run"
    assert main(["eval", "--domains", "blocksworld", "--agents", "closed-loop,act,bfs", "--llm", f"scripted:{script}",
                 "--problems", "1", "--horizon", "5", "--hints", "--max-steps", "2", "--out", str(out),
                 "--no-progress", "--concurrency", "1"]) == 1  # the two answers run out: act's call fails (exit 1)
    headers = {h["agent"]: h for h in (read_trajectory(p)["header"] for p in (out / "episodes").glob("*.jsonl"))}
    assert headers["closed-loop"]["agent_options"] == {"horizon": 5}
    assert headers["act"]["agent_options"] == {"hints": True}
    assert headers["bfs"]["agent_options"] == {} and headers["bfs"]["max_steps"] == 2


def test_an_agent_option_no_agent_takes_is_an_error(tmp_path, capsys):
    assert main(["eval", "--domains", "blocksworld", "--agents", "bfs", "--problems", "1", "--constrained",
                 "--out", str(tmp_path / "run")]) == 2
    assert "--constrained applies to none of the agents bfs: it is an option of act, react" in capsys.readouterr().err


def test_describe_names_what_a_pddl_file_is(capsys):
    from apb.domains.registry import domain_dir

    problem = domain_dir("ferry") / "problems" / "p01.pddl"
    assert main(["describe", str(problem), "--problem-only"]) == 0
    assert "car_0" in capsys.readouterr().out
    domain = os.path.join(os.path.dirname(__file__), "data", "engine", "delivery-domain.pddl")
    assert main(["describe", domain]) == 2
    assert "this is a domain file" in capsys.readouterr().err


def test_examples_build_writes_to_the_current_folder_not_the_package(tmp_path, monkeypatch, capsys):
    from apb.domains.registry import domain_dir

    shipped = domain_dir("ferry") / "example_thoughts.yaml"
    before = shipped.read_bytes() if shipped.exists() else None
    monkeypatch.chdir(tmp_path)
    assert main(["examples", "build", "ferry"]) == 0
    assert (tmp_path / "ferry_example_thoughts.yaml").is_file()
    assert (shipped.read_bytes() if shipped.exists() else None) == before


def test_domain_statistics_fit_80_columns(monkeypatch):
    console = Console(width=80, record=True, highlight=False, soft_wrap=True)
    monkeypatch.setattr(domains_cli, "out", console)
    assert main(["domains", "--stats"]) == 0
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text and "blocksworld" in text and "7.4 / 7.0" in text


def test_generated_folders_run_in_eval_with_their_optimal_lengths(tmp_path):
    folder = tmp_path / "gen"
    assert main(["generate", "ferry", "--count", "2", "--out", str(folder)]) == 0
    out = tmp_path / "run"
    assert main(["eval", "--domains", str(folder), "--agents", "bfs", "--out", str(out), "--no-progress"]) == 0
    plans = {p.stem: sum(1 for line in p.read_text().splitlines() if line.startswith("("))
             for p in (folder / "plans").glob("*.plan")}
    for path in (out / "episodes").glob("*.jsonl"):
        episode = read_trajectory(path)
        assert episode["header"]["optimal_plan_length"] == plans[episode["header"]["problem_id"]]
        assert episode["footer"]["success"]
    assert len(plans) == 2

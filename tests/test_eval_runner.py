"""apb eval: planned episodes become trajectory files (header, steps, footer); crashes are recorded."""

from __future__ import annotations

import asyncio
import json

import pytest
from conftest import dataset_dir

from apb.cli import main
from apb.eval.config import ConfigError, load_config
from apb.eval.episode import run_one
from apb.eval.episode_specs import EvalError, parse_problems, plan_episodes
from apb.eval.runner import run_eval
from apb.eval.trajectory import EpisodeSpec, TrajectoryError, episode_id, read_trajectory


@pytest.fixture
def act_script(tmp_path):
    path = tmp_path / "act.txt"
    path.write_text("\n---\n".join(["pick up block a", "look around", "unstack block b from block d"] * 200))
    return path


def test_eval_writes_one_trajectory_per_episode(tmp_path, act_script, capsys):
    out = tmp_path / "run"
    code = main(["eval", "--domains", "blocksworld,ferry", "--agents", "random,bfs,act", "--llm",
                 f"scripted:{act_script}", "--problems", "1-2", "--seeds", "2", "--concurrency", "3",
                 "--out", str(out), "--no-progress"])
    assert code == 0
    footers = [read_trajectory(f)["footer"] for f in (out / "episodes").iterdir()]
    calls = sum(sum(f["llm_calls"].values()) for f in footers)
    tokens = sum(f["input_tokens"] + f["output_tokens"] for f in footers)
    # the closing line adds up the trajectories, as apb report does
    assert f"; {calls} LLM call(s), {tokens} tokens, $0.0000" in capsys.readouterr().out and calls > 0
    files = sorted((out / "episodes").iterdir())
    assert len(files) == 2 * 2 * (2 + 1 + 2)  # domains x problems x (random, bfs, act); bfs runs one seed
    assert all(f.suffix == ".jsonl" for f in files)
    for path in files:
        trajectory = read_trajectory(path)
        header, steps, footer = trajectory["header"], trajectory["steps"], trajectory["footer"]
        assert header["episode_id"] == path.name[: -len(".jsonl")]
        assert header["domain"] in ("blocksworld", "ferry") and header["seed"] in (0, 1)
        assert header["prompt_hash"] and header["started"] and header["apb_version"]
        assert footer["steps"] == len(steps) == len([s for s in steps if s["type"] == "step"])
        assert [s["index"] for s in steps] == list(range(len(steps)))
        assert set(footer["llm_calls"]) >= {"planner", "translator", "explainer", "grounder"}
        if header["agent"] == "bfs":
            assert footer["success"] and footer["stop_reason"] == "goal"
            assert header["model"] is None
        if header["agent"] == "act":
            assert header["model"] == f"scripted:{act_script}"
            assert footer["llm_calls"]["planner"] == footer["steps"] > 0
            assert footer["input_tokens"] > 0 and footer["cost_usd"] == 0.0
            event = steps[0]["events"][0]
            assert event["type"] == "llm" and "messages" not in event and len(event["prompt_hash"]) == 64
    ids = {f.name[:-6] for f in files}
    assert "blocksworld__1__bfs__none__s0" in ids


def test_agent_errors_are_recorded_not_dropped(tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("look around")  # one answer: the second LLM call fails
    specs = [EpisodeSpec("blocksworld", 1, "random", seed=0, agent_options={"no_such_option": 1}),
             EpisodeSpec("blocksworld", 1, "act", model=f"scripted:{short}"),
             EpisodeSpec("blocksworld", 2, "bfs"),
             EpisodeSpec("no-such-domain", 1, "bfs")]
    summary = asyncio.run(run_eval(specs, tmp_path / "out", concurrency=2))
    assert summary["ran"] == 4 and summary["errors"] == 3 and summary["solved"] == 1
    footers = {s.agent + str(s.problem) + s.domain: read_trajectory(
        tmp_path / "out" / "episodes" / f"{episode_id(s)}.jsonl")["footer"] for s in specs}
    bad_option = footers["random1blocksworld"]
    assert bad_option["stop_reason"] == "error" and "no_such_option" in bad_option["error"]
    llm_error = footers["act1blocksworld"]
    assert llm_error["stop_reason"] == "error" and "no scripted response left" in llm_error["error"]
    assert llm_error["steps"] == 1 and not llm_error["success"]
    assert footers["bfs1no-such-domain"]["stop_reason"] == "error"
    assert footers["bfs2blocksworld"]["success"]


def test_run_one_returns_the_footer_it_writes(tmp_path):
    spec = EpisodeSpec("ferry", 1, "bfs")
    footer = run_one(spec, tmp_path)
    assert footer == read_trajectory(tmp_path / "episodes" / f"{episode_id(spec)}.jsonl")["footer"]
    assert footer["steps"] == footer["optimal_plan_length"]


def test_episode_ids_and_planning():
    ferry = str(dataset_dir("ferry"))
    specs = plan_episodes(["blocksworld", ferry], ["bfs", "act"], "1", 2, model="openai:gpt-4o/mini")
    assert len(specs) == 2 * (1 + 2)  # bfs is deterministic: one seed
    assert episode_id(specs[0]) == "blocksworld__1__bfs__none__s0"
    act = next(s for s in specs if s.agent == "act" and s.domain == ferry)
    assert episode_id(act) == "ferry__1__act__openai-gpt-4o-mini__s0"
    assert EpisodeSpec("x", 1, "closed-loop").horizon == 50 and EpisodeSpec("x", 1, "act").horizon == 24
    assert parse_problems("1,3,5-6") == [1, 3, 5, 6]
    for bad in ("3-1", "1-x", ""):
        with pytest.raises(EvalError):
            parse_problems(bad)
    with pytest.raises(EvalError, match="needs an LLM"):
        plan_episodes(["blocksworld"], ["act"], "1", 1)


def test_bad_cli_input_exits_2(tmp_path, capsys):
    assert main(["eval", "--domains", "blocksworld", "--agents", "nope", "--out", str(tmp_path / "o")]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert main(["eval", "--domains", "blocksworld", "--agents", "bfs"]) == 2
    assert main(["eval", "--domains", "blocksworld", "--agents", "bfs", "--problems", "5-1",
                 "--out", str(tmp_path / "o")]) == 2


def test_config_file_with_flags_on_top(tmp_path):
    config = tmp_path / "exp.yaml"
    config.write_text(f"domains: [blocksworld]\nagents: [random]\nproblems: 1-2\nseeds: 1\nout: {tmp_path / 'a'}\n")
    assert main(["eval", "--config", str(config), "--agents", "bfs", "--out", str(tmp_path / "b"),
                 "--no-progress"]) == 0
    assert sorted(p.name for p in (tmp_path / "b" / "episodes").iterdir()) == [
        "blocksworld__1__bfs__none__s0.jsonl", "blocksworld__2__bfs__none__s0.jsonl"]
    assert not (tmp_path / "a").exists()


@pytest.mark.parametrize(("text", "line", "needle"), [
    ("domains: [blocksworld]\nagents: [bfs\n", 3, "invalid YAML"),
    ("domains: [blocksworld]\nagents: [bfs]\nproblem: 1-3\n", 3, "problem: unknown key"),
    ("domains: [blocksworld]\n\nproblems: 9-2\n", 3, "problems:"),
    ("agents: [bfs]\nseeds: -1\n", 2, "seeds:"),
    ("agents: [bfs, wizard]\n", 1, "unknown agent 'wizard'"),
    ("concurrency: zero\n", 1, "concurrency:"),
])
def test_config_errors_name_file_line_and_key(tmp_path, text, line, needle):
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert f"{path}:{line}" in str(info.value) and needle in str(info.value)


def test_config_values(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text("domains: blocksworld, ferry\nagents: [act]\nllm: local\nproblems: [1, 4]\nseeds: [3]\n"
                    "agent_options: {act: {hints: true}}\nrequire_finish: true\n")
    config = load_config(path)
    specs = config.episodes()
    assert [(s.domain, s.problem, s.seed) for s in specs] == [("blocksworld", 1, 3), ("blocksworld", 4, 3),
                                                              ("ferry", 1, 3), ("ferry", 4, 3)]
    assert specs[0].agent_options == {"hints": True} and specs[0].require_finish and specs[0].model == "local"


def test_corrupt_trajectories_are_clear_errors(tmp_path):
    spec = EpisodeSpec("blocksworld", 1, "bfs")
    run_one(spec, tmp_path)
    path = tmp_path / "episodes" / f"{episode_id(spec)}.jsonl"
    lines = path.read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], lines[1][:-5], *lines[2:]]) + "\n")
    with pytest.raises(TrajectoryError, match=rf"{broken}:2: corrupt trajectory line"):
        read_trajectory(broken)
    broken.write_text("\n".join(lines[1:]) + "\n")
    with pytest.raises(TrajectoryError, match=rf"{broken}:1: the trajectory has no header"):
        read_trajectory(broken)
    broken.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(TrajectoryError, match="no footer"):
        read_trajectory(broken)
    broken.write_text("")
    with pytest.raises(TrajectoryError, match="empty"):
        read_trajectory(broken)
    assert json.loads(lines[-1])["type"] == "footer"


def test_resume_refuses_a_damaged_finished_file_and_changes_nothing(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["eval", "--domains", "ferry", "--agents", "random", "--problems", "1-2", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    damaged = out / "episodes" / "ferry__1__random__none__s0.jsonl"
    damaged.write_bytes(damaged.read_bytes()[:300])  # cut inside the header line
    stale = out / "episodes" / "ferry__3__random__none__s0.jsonl.part"
    stale.write_text("{}")
    before = {p.name: p.read_bytes() for p in (out / "episodes").iterdir()}
    assert main([*args, "--resume"]) == 2
    message = capsys.readouterr().err
    assert f"{damaged}:1: corrupt trajectory line" in message and "Nothing was changed" in message
    assert {p.name: p.read_bytes() for p in (out / "episodes").iterdir()} == before
    damaged.unlink()  # as the message says: remove it, resume, and the episode runs again
    assert main([*args, "--resume"]) == 0
    assert read_trajectory(damaged)["footer"]["steps"] >= 1 and not stale.exists()


def test_shards_partition_the_episodes_and_merge_in_the_report(tmp_path):
    import json

    from apb import cli
    from apb.eval.report import write_report

    common = ["eval", "--domains", "ferry,blocksworld", "--agents", "random", "--problems", "1-3", "--seeds", "2",
              "--no-progress"]
    for i in range(3):
        assert cli.main([*common, "--shard", f"{i}/3", "--out", str(tmp_path / f"s{i}")]) == 0
    assert cli.main([*common, "--out", str(tmp_path / "all")]) == 0
    names = [sorted(p.name for p in (tmp_path / f"s{i}" / "episodes").glob("*.jsonl")) for i in range(3)]
    merged = sorted(n for shard in names for n in shard)
    assert merged == sorted(p.name for p in (tmp_path / "all" / "episodes").glob("*.jsonl")) and len(merged) == 12
    assert all(len(shard) == 4 for shard in names)
    paths = write_report([tmp_path / f"s{i}" for i in range(3)], tmp_path / "report")
    assert json.loads(paths["summary.json"].read_text())["episodes"] == 12
    with pytest.raises(SystemExit) as bad:  # argparse refuses it with a message and exit code 2
        cli.main([*common, "--shard", "3/3", "--out", str(tmp_path / "bad")])
    assert bad.value.code == 2


def test_a_reply_with_a_lone_surrogate_is_written_and_read_back_as_it_was(tmp_path):
    """A JSON-decoded LLM reply can carry a lone surrogate, which no UTF-8 file holds: writing it raised
    UnicodeEncodeError and lost the episode."""
    from apb.eval.trajectory import TrajectoryWriter, messages_hash

    writer = TrajectoryWriter(tmp_path / "episode.jsonl")
    writer.header({"env_id": "apb/Blocksworld-v0"})
    event = {"type": "llm", "text": "(pick-up a) \ud800", "messages": [{"role": "user", "content": "\udfff"}]}
    writer.step({"index": 0, "action": "(pick-up a)\ud800", "observation": "I cannot ...", "action_valid": False,
                 "failure_kind": "syntax", "reward": 0.0, "terminated": False, "truncated": False, "events": [event]})
    path = writer.footer({"success": False})
    step = read_trajectory(path)["steps"][0]
    assert step["action"] == "(pick-up a)\ud800" and step["events"][0]["text"] == "(pick-up a) \ud800"
    assert step["events"][0]["prompt_hash"] == messages_hash(event["messages"])

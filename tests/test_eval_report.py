"""Metrics and reports of evaluation runs, on hand-written trajectory fixtures (tests/data/eval/run)."""

from __future__ import annotations

import csv
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from apb.engine.errors import ApbError
from apb.eval.metrics import TrajectoryFileError, load_run, summarize, unfinished_episodes
from apb.eval.report import CONTRACT_KEYS, write_report
from apb.eval.report.viewer import read_viewer

RUN = Path(__file__).parent / "data" / "eval" / "run"
EXTRA_KEYS = {"solved0", "seeds", "problems", "solved_mean", "solved_se", "acc_mean", "acc_se", "acc0_mean",
              "acc0_se", "lf_n", "lf_gold_n", "steps", "look_arounds", "cached_tokens", "unpriced", "llm_calls_by_role",
              "stop_reasons", "description", "plan_cost", "lf_cost", "lf_cost_n"}


def rows_by_key(rows):
    return {(r["domain"], r["agent"]): r for r in rows}


def copy_run(tmp_path: Path, name: str = "run", only=None) -> Path:
    target = tmp_path / name / "episodes"
    target.mkdir(parents=True)
    for path in sorted((RUN / "episodes").glob("*.jsonl")):
        if only is None or only(path.name):
            shutil.copy(path, target / path.name)
    return tmp_path / name


def rewrite(path: Path, edit) -> None:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    edit(records)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


# ---- metrics --------------------------------------------------------------------------------------------------
def test_load_run_reads_all_fixture_episodes():
    episodes = load_run([RUN])
    assert len(episodes) == 16
    assert {e.header["domain"] for e in episodes} == {"blocksworld", "grippers"}


def test_react_blocksworld_metrics_by_hand():
    row = rows_by_key(summarize(load_run([RUN])))[("blocksworld", "react")]
    # seed 0: p01, p02 solved; seed 1: p01 solved (1 invalid action, 1 look-around), p02 hit max_steps
    assert (row["episodes"], row["solved"], row["solved0"]) == (4, 3, 2)
    assert row["acc"] == pytest.approx(0.75)
    assert row["acc0"] == pytest.approx(0.5)
    # LF over successes: 2/2, 2/2 (look-around and the invalid action do not count), 6/4
    assert row["lf"] == pytest.approx((1 + 1 + 1.5) / 3)
    assert row["lf_n"] == 3
    # per-seed solved 2 and 1: mean 1.5, sample sd 0.7071, se 0.5
    assert row["solved_mean"] == pytest.approx(1.5)
    assert row["solved_se"] == pytest.approx(0.5)
    assert row["acc_se"] == pytest.approx(0.25)
    assert row["seeds"] == 2
    assert row["invalid_actions"] == 1 and row["look_arounds"] == 1
    assert row["steps"] == 2 + 4 + 6 + 3
    # one planner and one translator call per step
    assert row["llm_calls_by_role"] == {"planner": 15, "translator": 15}
    assert row["llm_calls"] == 30
    assert row["input_tokens"] == 15 * 100 + 15 * 20
    assert row["output_tokens"] == 15 * 30 + 15 * 5
    assert row["cached_tokens"] == 50 * (1 + 3 + 5 + 2)
    assert row["cost_usd"] == pytest.approx(15 * 0.001 + 15 * 0.0001)
    assert row["stop_reasons"] == {"goal_reached": 3, "max_steps": 1}
    assert row["errors"] == 0


def test_error_episode_counts_in_the_denominator():
    row = rows_by_key(summarize(load_run([RUN])))[("blocksworld", "basic")]
    assert row["episodes"] == 4
    assert row["errors"] == 1
    assert row["solved"] == 1
    assert row["acc"] == pytest.approx(0.25)
    assert row["stop_reasons"]["error"] == 1
    assert row["solved_mean"] == pytest.approx(0.5) and row["solved_se"] == pytest.approx(0.5)


def test_null_cost_makes_the_group_cost_unknown():
    rows = rows_by_key(summarize(load_run([RUN])))
    assert rows[("grippers", "react")]["cost_usd"] is None
    assert rows[("grippers", "react")]["unpriced"] == 1
    assert rows[("grippers", "basic")]["cost_usd"] == pytest.approx(4 * 0.001 + 10 * 0.0001)
    assert rows[("grippers", "basic")]["unpriced"] == 0
    # identical per-seed counts: se 0
    assert rows[("grippers", "react")]["solved_se"] == 0


def test_single_seed_has_no_standard_error(tmp_path):
    run = copy_run(tmp_path, only=lambda name: name.endswith("-s0.jsonl"))
    row = rows_by_key(summarize(load_run([run])))[("blocksworld", "react")]
    assert row["seeds"] == 1
    assert row["solved_mean"] == 2 and row["solved_se"] is None


def test_unknown_optimal_length_is_left_out_of_lf(tmp_path):
    run = copy_run(tmp_path, only=lambda name: name.startswith("blocksworld-react"))

    def drop_opt(records):
        records[0]["optimal_plan_length"] = None
        records[-1]["optimal_plan_length"] = None

    rewrite(run / "episodes" / "blocksworld-react-scripted-demo-test-p02-s0.jsonl", drop_opt)
    row = summarize(load_run([run]))[0]
    assert row["lf"] == pytest.approx(1.0) and row["lf_n"] == 2


# ---- merging and bad input ------------------------------------------------------------------------------------
def test_merge_two_shards_with_an_overlapping_episode(tmp_path):
    shard_a = copy_run(tmp_path, "a", only=lambda name: name.startswith("blocksworld"))
    shard_b = copy_run(tmp_path, "b", only=lambda name: name.startswith("grippers")
                       or name == "blocksworld-react-scripted-demo-test-p01-s0.jsonl")
    episodes = load_run([shard_a, shard_b])
    assert len(episodes) == 16
    assert len({e.episode_id for e in episodes}) == 16
    assert summarize(episodes) == summarize(load_run([RUN]))


def test_corrupt_line_names_file_and_line(tmp_path):
    run = copy_run(tmp_path)
    path = run / "episodes" / "grippers-react-scripted-demo-test-p01-s0.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:40]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TrajectoryFileError) as info:
        load_run([run])
    assert isinstance(info.value, ApbError)
    assert f"{path}:3" in str(info.value)


def test_missing_footer_is_an_error(tmp_path):
    run = copy_run(tmp_path)
    path = run / "episodes" / "grippers-react-scripted-demo-test-p01-s0.jsonl"
    path.write_text("".join(line + "\n" for line in path.read_text().splitlines()[:-1]))
    with pytest.raises(ApbError, match="footer"):
        load_run([run])


def test_missing_dir_is_a_clear_error(tmp_path):
    with pytest.raises(ApbError, match="no such run folder"):
        load_run([tmp_path / "nowhere"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ApbError, match="no trajectories"):
        load_run([tmp_path / "empty"])


def test_part_files_are_counted_as_unfinished(tmp_path):
    run = copy_run(tmp_path)
    episodes_dir = run / "episodes"
    header = {"type": "header", "episode_id": "grippers-act-scripted-demo-test-p01-s0", "domain": "grippers"}
    (episodes_dir / "grippers-act-scripted-demo-test-p01-s0.jsonl.part").write_text(json.dumps(header) + "\n")
    # a .part of an episode that finished in this or another shard is not unfinished
    shutil.copy(episodes_dir / "grippers-react-scripted-demo-test-p01-s0.jsonl",
                episodes_dir / "grippers-react-scripted-demo-test-p01-s0.jsonl.part")
    assert len(load_run([run])) == 16
    assert [p.name for p in unfinished_episodes([run])] == ["grippers-act-scripted-demo-test-p01-s0.jsonl.part"]
    paths = write_report([run], tmp_path / "out")
    summary = json.loads(paths["summary.json"].read_text())
    assert summary["unfinished"] == 1
    assert "1 unfinished" in paths["report.html"].read_text()


# ---- report files ---------------------------------------------------------------------------------------------
def test_summary_json_rows_have_the_contract_keys(tmp_path):
    paths = write_report([RUN], tmp_path)
    summary = json.loads(paths["summary.json"].read_text())
    assert summary["episodes"] == 16
    assert len(summary["rows"]) == 4
    for row in summary["rows"]:
        assert list(row)[: len(CONTRACT_KEYS)] == list(CONTRACT_KEYS)
        assert set(row) == set(CONTRACT_KEYS) | EXTRA_KEYS


def test_csv_md_html_are_written(tmp_path):
    paths = write_report([RUN], tmp_path / "out")
    for name in ("summary.json", "summary.csv", "report.md", "report.html"):
        assert paths[name].exists() and paths[name].stat().st_size > 0
    with paths["summary.csv"].open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4
    react = next(r for r in rows if (r["domain"], r["agent"]) == ("blocksworld", "react"))
    assert react["solved"] == "3" and react["llm_calls_by_role"] == "planner=15;translator=15"
    grippers_react = next(r for r in rows if (r["domain"], r["agent"]) == ("grippers", "react"))
    assert grippers_react["cost_usd"] == "n/a"
    md = paths["report.md"].read_text()
    # 2 of the paper's 20 problems: no paper figure beside the run's (see test_eval_report_coverage.py)
    assert "| Blocksworld | 2 problems | 0.5 ± 0.5 | 1.5 ± 0.5 |" in md
    assert "n/a (1 unpriced)" in md


def test_default_out_dir_is_the_first_run(tmp_path):
    run = copy_run(tmp_path)
    paths = write_report([run])
    assert paths["report.html"].parent == run


def test_html_is_self_contained_and_escaped(tmp_path):
    run = copy_run(tmp_path)

    def inject(records):
        records[1]["observation"] = "I cannot <script>alert('x')</script> that."
        records[1]["events"][0]["text"] = "Action: <b>bold</b> & more"

    rewrite(run / "episodes" / "blocksworld-react-scripted-demo-test-p01-s1.jsonl", inject)
    page = write_report([run], tmp_path / "out")["report.html"].read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
    assert "<link" not in page and "<script src" not in page and "fetch(" not in page
    assert "<script>alert" not in page and "<b>bold" not in page  # model text is data, never markup
    assert "<style>" in page
    # the episode viewer: one entry per episode; failed actions marked; the texts kept verbatim as data
    episodes = read_viewer(page)
    assert sum(e["domain_label"] == "Blocksworld" for e in episodes) == 8
    steps = [step for e in episodes for step in e["detail"]["steps"]]
    assert any(not step["valid"] for step in steps)
    assert "I cannot <script>alert('x')</script> that." in [step["observation"] for step in steps]
    outputs = [o["text"] for step in steps for o in step["outputs"]]
    assert "Action: <b>bold</b> & more" in outputs
    assert any("Think: I should do (unstack a b)." in text for text in outputs)


def test_paper_column_for_test_split_only(tmp_path):
    run = copy_run(tmp_path)
    for seed in (0, 1):  # blocksworld react on all 20 test problems: p01's episode copied to p03-p20
        source = run / "episodes" / f"blocksworld-react-scripted-demo-test-p01-s{seed}.jsonl"
        for number in range(3, 21):
            target = source.with_name(source.name.replace("p01", f"p{number:02d}"))
            shutil.copy(source, target)
            rewrite(target, lambda records, n=number: records[0].update(
                problem_id=f"p{n:02d}", episode_id=records[0]["episode_id"].replace("p01", f"p{n:02d}")))
    paths = write_report([run], tmp_path / "test")
    test_page = paths["report.html"].read_text()
    assert "<span class='paper'>paper 19</span>" in test_page and "Table 2" in test_page
    assert "<span class='paper'>paper 10</span>" not in test_page  # basic ran 2 problems
    md = paths["report.md"].read_text()
    assert "| Blocksworld | varies by agent | 0.5 ± 0.5 [2 problems] | 19.5 ± 0.5 [20 problems] (paper 19) |" in md
    assert "none is shown: Blocksworld Basic (2 problems), Grippers (2 problems)." in md
    shutil.rmtree(run)
    run = copy_run(tmp_path)
    for path in (run / "episodes").glob("*.jsonl"):
        rewrite(path, lambda records: records[0].update(split="scaled"))
    paths = write_report([run], tmp_path / "scaled")
    scaled_page = paths["report.html"].read_text()
    assert "split scaled" in scaled_page
    assert "class='paper'" not in scaled_page and "Table 2" not in scaled_page
    assert "(paper" not in paths["report.md"].read_text()


def test_report_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    paths = write_report([RUN], tmp_path)
    assert "plot.png" not in paths
    page = paths["report.html"].read_text()
    assert "<svg" in page and "<polyline" in page
    assert "data:image/png" not in page


# ---- CLI ------------------------------------------------------------------------------------------------------
def _parse(argv):
    from apb.cli import build_parser

    return build_parser().parse_args(argv)


def test_cli_prints_coverage_and_paths(tmp_path, capsys):
    args = _parse(["report", str(RUN), "--out", str(tmp_path)])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    assert "Blocksworld" in printed and "ReAct" in printed
    assert str(tmp_path / "report.html") in printed


def test_cli_bad_input_raises_apb_error(tmp_path):
    args = _parse(["report", str(tmp_path / "missing")])
    with pytest.raises(ApbError):
        args.func(args)


def test_report_with_matplotlib_embeds_a_png(tmp_path):
    import matplotlib  # noqa: F401 - the plots extra is part of apb[dev]
    paths = write_report([RUN], tmp_path)
    assert paths["plot.png"].read_bytes().startswith(b"\x89PNG")
    assert "data:image/png;base64," in paths["report.html"].read_text()


def test_symbolic_agents_without_a_model_get_sums(tmp_path):
    """Episodes with model null (random, planners) are summed like any other group."""
    from apb.eval.report import write_report

    run = tmp_path / "run" / "episodes"
    run.mkdir(parents=True)
    source = next(p for p in sorted((Path(__file__).parent / "data" / "eval" / "run" / "episodes").glob("*.jsonl")))
    lines = source.read_text().splitlines()
    header = json.loads(lines[0])
    footer = json.loads(lines[-1])
    for seed in (0, 1):
        header.update(model=None, agent="random", seed=seed, episode_id=f"x-s{seed}")
        footer.update(success=True, error=None)
        (run / f"x-s{seed}.jsonl").write_text("\n".join([json.dumps(header), *lines[1:-1], json.dumps(footer)]) + "\n")
    paths = write_report([tmp_path / "run"], tmp_path / "out")
    summary = json.loads(paths["summary.json"].read_text())
    assert summary["rows"][0]["model"] == "" and summary["rows"][0]["solved"] == 2
    assert "1.0 ± 0.0" in paths["report.md"].read_text().split("Sum", 1)[1].splitlines()[0]
    shutil.rmtree(tmp_path / "out")


def test_a_row_whose_episodes_all_errored_shows_error_not_0_percent(tmp_path):
    run = copy_run(tmp_path, only=lambda name: name == "blocksworld-basic-scripted-demo-test-p02-s0.jsonl")
    write_report([run], tmp_path / "out")
    text = (tmp_path / "out" / "report.md").read_text()
    [line] = [x for x in text.splitlines() if x.startswith("| ") and "| 1 | 1 | 0 |" in x]
    assert "| error | error |" in line and "0.0%" not in line


def test_a_lone_surrogate_in_a_trajectory_reaches_the_viewer_as_it_was(tmp_path):
    """Trajectories keep an LLM reply's lone surrogate (as a \\u escape); the report's viewer packed episodes as
    UTF-8 and raised UnicodeEncodeError on one, so `apb report` crashed on such a run."""
    from apb.cli import main

    run = tmp_path / "run"
    assert main(["eval", "--domains", "blocksworld", "--agents", "bfs", "--problems", "1", "--out", str(run),
                 "--no-progress"]) == 0
    path = next((run / "episodes").glob("*.jsonl"))
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    step = next(r for r in records if r.get("type") == "step")
    step["observation"] += " \ud800"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    write_report([run], tmp_path / "report")
    detail = read_viewer((tmp_path / "report" / "report.html").read_text(encoding="utf-8"))[0]["detail"]
    assert detail["steps"][0]["observation"] == step["observation"]

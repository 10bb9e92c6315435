"""apb eval on AutoPlanBench's own folders: the paper's 20 test problems, its figures in the report, clear errors.

The full reproduction of the rnd and BrFS columns (12 domains) is benchmarks/table2_baselines.py; here two domains
where both baselines are quick run end to end through the CLI.
"""

from __future__ import annotations

import json

import pytest
from conftest import dataset_dir

from apb.cli import main
from apb.eval.episode_specs import EvalError, plan_episodes
from apb.eval.metrics import load_run

# movie-complex's domain uses negative preconditions without declaring them: the loader warns (tested elsewhere)
pytestmark = pytest.mark.filterwarnings("ignore::apb.engine.PDDLWarning")


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("table2") / "run"
    domains = f"{dataset_dir('movie-complex')},{dataset_dir('visitall')}"
    assert main(["eval", "--domains", domains, "--agents", "random,bfs", "--seeds", "2", "--concurrency", "2",
                 "--out", str(out), "--no-progress"]) == 0
    assert main(["report", str(out), "--out", str(out / "report")]) == 0
    return out


def test_the_test_split_is_orig_without_the_few_shot_copy(reference_run):
    names = sorted(p.name for p in (reference_run / "episodes").iterdir())
    # 2 domains x 20 problems x (random: 2 seeds, bfs: once)
    assert len(names) == 2 * 20 * (2 + 1)
    movie = {n.split("__")[1] for n in names if n.startswith("movie-complex__")}
    visitall = {n.split("__")[1] for n in names if n.startswith("visitall__")}
    assert "14" not in movie and "12" not in visitall  # each folder's copy of its few-shot problem
    assert len(movie) == len(visitall) == 20 and {"1", "25"} <= movie and {"1", "50"} <= visitall


def test_report_puts_the_papers_columns_next_to_ours(reference_run):
    summary = json.loads((reference_run / "report" / "summary.json").read_text())
    rows = {(r["domain"], r["agent"]): r for r in summary["rows"]}
    assert rows[("movie-complex", "bfs")]["solved"] == rows[("visitall", "bfs")]["solved"] == 20
    assert all(r["problems"] == 20 and r["split"] == "test" and r["errors"] == 0 for r in rows.values())
    markdown = (reference_run / "report" / "report.md").read_text()
    # movie-complex is the paper's Movie: rnd 3.8, BrFS 20; visitall: rnd 14.4
    table = markdown.split("## Coverage", 1)[1].split("## Acc", 1)[0]
    movie_row = next(line for line in table.splitlines() if line.startswith("| Movie-complex"))
    assert "(paper 3.8)" in movie_row and "(paper 20)" in movie_row
    assert "(paper 14.4)" in next(line for line in table.splitlines() if line.startswith("| Visitall"))
    sums = next(line for line in table.splitlines() if line.startswith("| Sum"))
    assert "(paper 18.2)" in sums and "(paper 40)" in sums  # 3.8 + 14.4 and 20 + 20
    html = (reference_run / "report" / "report.html").read_text()
    assert "paper 3.8" in html


def test_lengths_come_from_the_gold_plans_which_are_not_known_optimal(reference_run):
    bfs = [e for e in load_run([reference_run]) if e.header["agent"] == "bfs"]
    assert all(e.optimal_plan_length is None and e.header["gold_plan_length"] >= 1 for e in bfs)
    # BFS plans are optimal, so never longer than the gold plan; LF is measured against the gold plan's length
    assert all(e.footer["steps"] <= e.reference_length and 0 < e.length_factor <= 1 for e in bfs)
    summary = json.loads((reference_run / "report" / "summary.json").read_text())
    assert all(r["lf_gold_n"] == r["lf_n"] == r["solved"] > 0 for r in summary["rows"] if r["agent"] == "bfs")
    markdown = (reference_run / "report" / "report.md").read_text()
    assert "gold plan's length" in markdown and "## Solved by gold plan length" in markdown
    assert "## Coverage: solved problems (no LLM, split test)" in markdown


def test_problem_numbers_are_checked_before_anything_runs(tmp_path, capsys):
    ferry = str(dataset_dir("ferry"))
    out = tmp_path / "out"
    assert main(["eval", "--domains", ferry, "--agents", "bfs", "--problems", "1-20", "--out", str(out)]) == 2
    message = capsys.readouterr().err
    assert "has no problem 2" in message and "1, 5, 7, 12" in message and "--problems all" in message
    assert not out.exists()
    with pytest.raises(EvalError, match="both named 'ferry'"):
        plan_episodes(["ferry", ferry], ["bfs"], "all")
    with pytest.raises(EvalError, match=r"no split 'scaled'.*orig, adapted, few_shot, test"):
        plan_episodes([ferry], ["bfs"], "all", split="scaled")
    specs = plan_episodes([ferry], ["random"], "all", 3, split="orig")
    assert len(specs) == 21 * 3 and {s.problem for s in specs} >= {1, 37, 47}


def test_report_refuses_to_mix_a_bundled_domain_with_a_dataset_of_the_same_name(tmp_path, capsys):
    bundled, dataset = tmp_path / "bundled", tmp_path / "dataset"
    assert main(["eval", "--domains", "blocksworld", "--agents", "bfs", "--problems", "2", "--out", str(bundled),
                 "--no-progress"]) == 0
    assert main(["eval", "--domains", str(dataset_dir("blocksworld")), "--agents", "bfs", "--problems", "2",
                 "--out", str(dataset), "--no-progress"]) == 0
    # the same episode id in both folders: merged, one would silently hide the other
    assert {p.name for p in (bundled / "episodes").iterdir()} == {p.name for p in (dataset / "episodes").iterdir()}
    assert main(["report", str(bundled), str(dataset), "--out", str(tmp_path / "report")]) == 2
    assert "domain 'blocksworld' is a dataset folder" in capsys.readouterr().err
    assert not (tmp_path / "report").exists()
    assert main(["report", str(dataset), "--out", str(tmp_path / "report")]) == 0

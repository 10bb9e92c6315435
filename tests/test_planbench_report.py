"""`apb report` on PlanBench runs (apb.eval.run_kinds, apb.planbench.report_section): released GPT-4 results of
blocksworld_3 replayed through `apb planbench eval`, reported beside an episodes run: the leaderboard table of
`apb planbench report` in summary.json, report.md, report.html and the console, and every t1 answer in the episode
viewer as its extracted plan executed on the instance, a picture per state."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from apb.cli import main
from apb.eval.report.viewer import read_viewer

RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "planbench" / "plan-bench"
RESULTS = RELEASE / "results" / "blocksworld_3" / "gpt-4_chat"
INSTANCES = range(2, 8)


def released(name: str) -> dict[int, dict]:
    records = json.loads(gzip.decompress((RESULTS / f"{name}.json.gz").read_bytes()))["instances"]
    return {r["instance_id"]: r for r in records if r["instance_id"] in INSTANCES}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pb-report")
    for task, name, variant in (("t1", "task_1_plan_generation", "results"), ("t2", "task_2_plan_optimality",
                                                                               "prompts")):
        assert main(["planbench", "eval", "--config", "blocksworld_3", "--tasks", task, "--variant", variant,
                     "--instances", "2-7", "--engine", "gpt-4_chat", "--llm", f"replay:{RESULTS / name}.json.gz",
                     "--out", str(root / task), "--no-progress"]) == 0
    assert main(["eval", "--domains", "ferry", "--agents", "bfs", "--problems", "1", "--seeds", "1", "--no-progress",
                 "--out", str(root / "episodes")]) == 0
    return root


def test_apb_report_shows_the_planbench_leaderboard_beside_the_episodes(runs, capsys):
    out = runs / "report"
    capsys.readouterr()
    assert main(["report", str(runs / "episodes"), str(runs / "t1"), str(runs / "t2"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert main(["planbench", "report", str(runs / "t1"), str(runs / "t2"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["planbench"] == rows  # the one table, as apb planbench report computes it
    assert summary["episodes"] == 1 and {r["domain"] for r in summary["rows"]} == {"ferry"}
    for row, name in zip(rows, ("task_1_plan_generation", "task_2_plan_optimality")):
        correct = sum(bool(r["llm_correct"]) for r in released(name).values())
        assert (row["task"], row["instances"], row["official"], row["errors"]) == (name, 6, correct, 0)
        line = (f"| gpt-4_chat | plan-bench/blocksworld_3 | {row['short']} | 6 | {100 * correct / 6:.1f} | "
                f"{row['sound_pct']:.1f} | 0 |")
        assert line in (out / "report.md").read_text(encoding="utf-8")
        assert f"{100 * correct / 6:.1f}" in printed
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2 id='planbench'>PlanBench</h2>" in page and "Solved problems" in page  # both kinds of run


def test_every_t1_answer_is_an_episode_of_the_viewer_with_a_picture_per_state(runs):
    out = runs / "report-t1"
    assert main(["report", str(runs / "t1"), str(runs / "t2"), "--out", str(out)]) == 0
    episodes = {e["problem"]: e for e in read_viewer((out / "report.html").read_text(encoding="utf-8"))}
    expected = released("task_1_plan_generation")
    assert sorted(episodes) == sorted(str(i) for i in INSTANCES)  # t1's only: t2 answers are not pictured
    outcomes = set()
    for instance, gold in expected.items():
        episode = episodes[str(instance)]
        detail = episode["detail"]
        assert (episode["domain"], episode["agent"], episode["model"]) == (
            "planbench:blocksworld_3", "planbench-t1", "gpt-4_chat")
        assert episode["outcome"] == ("solved" if gold["llm_correct"] else "not solved")
        outcomes.add(episode["outcome"])
        actions = [s["action"] for s in detail["steps"]]
        assert actions == gold["extracted_llm_plan"][:len(actions)]  # the plan PlanBench extracted, in order
        valid = [s["valid"] for s in detail["steps"]]
        assert all(valid[:-1]) and detail["note"] == ""
        if gold["llm_correct"]:
            assert valid[-1] and len(actions) == len(gold["extracted_llm_plan"]) and detail["stop"] == "goal reached"
        elif not valid[-1]:
            assert detail["stop"].startswith(f"step {len(actions)} is not applicable")
        assert detail["picture"].startswith("<svg") and all(s["picture"].startswith("<svg") for s in detail["steps"])
        assert "My goal is to have that" not in detail["initial_state"] and detail["goal"]
    assert outcomes == {"solved", "not solved"}
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# apb evaluation report\n\n## PlanBench")

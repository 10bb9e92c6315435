"""The pictures of the report's episode viewer: states rebuilt by replaying a trajectory's actions through the
engine (trajectories hold actions, not states), for bundled domains, dataset folders and the renamed robustness
variants; failed steps name what was missing; a problem that cannot be loaded any more costs the pictures, not
the report."""

from __future__ import annotations

import json

from conftest import require_reference

from apb.cli import main
from apb.eval.report import write_report
from apb.eval.report.viewer import read_viewer


def _viewer(tmp_path, *argv):
    run = tmp_path / "run"
    assert main(["eval", *argv, "--out", str(run)]) == 0
    return run, read_viewer(write_report([run], tmp_path / "report")["report.html"].read_text())


def test_every_step_of_a_dataset_folder_and_a_variant_gets_its_picture(tmp_path):
    folder = require_reference() / "visitall"
    _, episodes = _viewer(tmp_path, "--domains", f"{folder},blocksworld", "--agents", "random", "--problems", "1",
                          "--description", "obfuscated")
    assert len(episodes) == 2
    for episode in episodes:
        detail = episode["detail"]
        assert detail["note"] == "" and detail["picture"].startswith("<svg")
        assert detail["steps"] and all(step["picture"] for step in detail["steps"])


def test_failed_steps_show_what_was_missing_and_a_lost_problem_costs_only_the_pictures(tmp_path):
    script = tmp_path / "script.txt"
    script.write_text("\n---\n".join(["(stack block_a block_c)", "(finish)"] * 20), encoding="utf-8")
    run, episodes = _viewer(tmp_path, "--domains", "blocksworld", "--agents", "act", "--llm", f"scripted:{script}",
                            "--problems", "1", "--max-steps", "3", "--cache", "off")
    steps = episodes[0]["detail"]["steps"]
    failed = [step for step in steps if not step["valid"]]
    assert failed and all("FAILED" in step["picture"] and "missing: " in step["picture"] for step in failed)
    assert any("(clear block_c)" in step["picture"] for step in failed)  # the unmet precondition, from the replay
    path = next((run / "episodes").glob("*.jsonl"))
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["domain"] = str(tmp_path / "gone")
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    page = write_report([run], tmp_path / "again")["report.html"].read_text()
    detail = read_viewer(page)[0]["detail"]
    assert detail["note"].startswith("no pictures:") and "gone" in detail["note"]
    assert len(detail["steps"]) == len(steps) and detail["steps"][0]["action"] == steps[0]["action"]


def test_step_0_starts_with_the_facts_the_episode_changes_not_every_static_fact(tmp_path):
    _, episodes = _viewer(tmp_path, "--domains", "ferry", "--agents", "bfs", "--problems", "1")
    detail = episodes[0]["detail"]
    changing = detail["changing"]
    assert changing and any(fact.startswith("(at-ferry ") for fact in changing)  # the ferry sails
    assert not any(fact.startswith(("(not-eq ", "(car ", "(location ")) for fact in changing)  # static: folded
    assert "are different locations" in detail["initial_state"]  # what step 0 listed first before: folded now

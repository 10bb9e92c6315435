"""Output folders are never lost (issue 30): --overwrite deletes only what apb wrote for that run and refuses, naming
them, when a set holds the results of other runs; generators hold the run lock while they work; SIGTERM is handled
like Ctrl-C (what finished is kept, the lock freed, one line, exit 143); a run that fails before writing anything
leaves nothing that blocks the rerun."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_new_user_round import one_line_error

from apb.cli import main
from apb.eval.rundir import LOCK_FILE, RUN_FILE

ROOT = Path(__file__).resolve().parents[1]


def quick_eval(out: Path, *extra: str) -> int:
    return main(["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1", "--out", str(out),
                 "--no-progress", *extra])


def acp_generate(out: Path, *extra: str) -> int:
    return main(["acp", "generate", "ferry", "--tasks", "app", "--formats", "bool", "--count", "1", "--out", str(out),
                 *extra])


def test_overwrite_keeps_your_own_files_and_lists_what_the_run_wrote(tmp_path):
    out = tmp_path / "R"
    assert quick_eval(out) == 0
    written = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))["files"]
    assert any(name.startswith("episodes/") and name.endswith(".jsonl") for name in written)
    assert "notes.ipynb" not in written
    (out / "notes.ipynb").write_text('{"cells": []}', encoding="utf-8")
    assert quick_eval(out, "--overwrite", "--max-steps", "40") == 0
    assert (out / "notes.ipynb").read_text(encoding="utf-8") == '{"cells": []}'  # yours, kept
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    assert record["settings"]["max_steps"] == 40 and "notes.ipynb" not in record["files"]


def test_overwrite_keeps_your_file_inside_episodes_and_removes_the_old_runs_reports(tmp_path):
    """A file of yours inside episodes/ survives --overwrite (the whole folder was deleted); the old run's
    report.html, summary.json and the other report files go with it (they sat beside the new run's episode)."""
    out = tmp_path / "R"
    assert main(["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1,2", "--out", str(out),
                 "--no-progress"]) == 0
    assert main(["report", str(out)]) == 0
    reports = ("summary.json", "summary.csv", "report.md", "report.html")
    assert all((out / name).is_file() for name in reports)
    (out / "episodes" / "my-notes.txt").write_text("mine", encoding="utf-8")
    assert quick_eval(out, "--overwrite") == 0
    assert (out / "episodes" / "my-notes.txt").read_text(encoding="utf-8") == "mine"
    assert not [name for name in reports if (out / name).exists()]
    assert len(list((out / "episodes").glob("*.jsonl"))) == 1
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    assert "episodes/my-notes.txt" not in record["files"]
    assert main(["report", str(out)]) == 0  # the new run's report is listed as the run's too
    assert "report.html" in json.loads((out / RUN_FILE).read_text(encoding="utf-8"))["files"]


def test_overwriting_a_question_set_refuses_to_delete_its_eval_results_unless_told(tmp_path, capsys):
    questions = tmp_path / "Q"
    assert acp_generate(questions) == 0
    (tmp_path / "answers.txt").write_text("yes\n", encoding="utf-8")
    assert main(["acp", "eval", str(questions), "--llm", f"scripted:{tmp_path / 'answers.txt'}", "--no-progress",
                 "--cache", "off"]) == 0
    results = (questions / "eval" / "results.jsonl").read_bytes()
    capsys.readouterr()
    assert acp_generate(questions, "--overwrite", "--seed", "1") == 2
    one_line_error(capsys, "eval/", "--overwrite-results", "nothing was changed")
    assert (questions / "eval" / "results.jsonl").read_bytes() == results  # the paid-for answers are still there
    assert json.loads((questions / RUN_FILE).read_text(encoding="utf-8"))["settings"]["seed"] == 0
    assert acp_generate(questions, "--overwrite-results", "--seed", "1") == 0
    assert not (questions / "eval").exists()
    assert json.loads((questions / RUN_FILE).read_text(encoding="utf-8"))["settings"]["seed"] == 1


def test_overwriting_pairs_refuses_to_delete_a_run_inside_them(tmp_path, capsys):
    pairs = tmp_path / "P"
    assert main(["nl2pddl", "build", "gripper", "--count", "1", "--out", str(pairs)]) == 0
    (tmp_path / "answers.txt").write_text("(define)\n", encoding="utf-8")
    main(["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{tmp_path / 'answers.txt'}", "--cache", "off"])
    [run] = [p for p in pairs.iterdir() if p.name.startswith("run-")]
    capsys.readouterr()
    assert main(["nl2pddl", "build", "gripper", "--count", "2", "--out", str(pairs), "--overwrite"]) == 2
    one_line_error(capsys, f"{run.name}/", "--overwrite-results")
    assert (run / "results.jsonl").is_file()


def test_overwrite_refuses_when_the_run_file_lists_no_files(tmp_path, capsys):
    # a run killed with SIGKILL (or written by an older apb) never recorded its files: apb cannot tell them from yours
    out = tmp_path / "R"
    assert quick_eval(out) == 0
    record = json.loads((out / RUN_FILE).read_text(encoding="utf-8"))
    del record["files"]
    (out / RUN_FILE).write_text(json.dumps(record), encoding="utf-8")
    (out / "mine.txt").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert quick_eval(out, "--overwrite") == 2
    one_line_error(capsys, "does not list the files", "--resume")
    assert (out / "mine.txt").is_file() and (out / "episodes").is_dir()


def test_overwrite_replaces_a_folder_whose_run_was_killed_before_writing_anything(tmp_path):
    out = tmp_path / "Q"
    out.mkdir()
    (out / RUN_FILE).write_text(json.dumps({"kind": "acp-questions", "settings": {}}), encoding="utf-8")
    assert acp_generate(out, "--overwrite") == 0
    assert (out / "questions.jsonl").is_file()


def test_nl2pddl_eval_of_an_empty_pairs_file_is_refused_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "pairs.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "answers.txt").write_text("x\n", encoding="utf-8")
    out = tmp_path / "run"
    argv = ["nl2pddl", "eval", str(tmp_path / "pairs.jsonl"), "--llm", f"scripted:{tmp_path / 'answers.txt'}",
            "--out", str(out)]
    assert main(argv) == 2
    one_line_error(capsys, "no pairs", "nl2pddl build")
    assert not out.exists()  # no run.json left to block the rerun


def start(argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "apb", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def test_a_second_generate_into_the_same_folder_is_refused_at_once_and_sigterm_frees_the_lock(tmp_path, capsys):
    out = tmp_path / "Q"
    first = start(["acp", "generate", "floortile", "--count", "300", "--out", str(out)])
    try:
        wait_for(out / LOCK_FILE, first)  # the lock is taken before generating
        assert acp_generate(out) == 2
        one_line_error(capsys, "another run is writing here")
        assert first.poll() is None  # the first goes on
    finally:
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=60)
    assert first.returncode == 143, stderr
    assert stderr.strip().splitlines()[-1].startswith("terminated (SIGTERM)") and "Traceback" not in stderr
    assert not (out / LOCK_FILE).exists() and not (out / RUN_FILE).exists()  # nothing finished, nothing blocks
    assert acp_generate(out) == 0


def test_sigterm_during_eval_keeps_the_finished_episodes_and_frees_the_lock(tmp_path):
    out = tmp_path / "run"
    proc = start(["eval", "--domains", "gripper", "--split", "scaled", "--agents", "bfs", "--problems", "1-20",
                  "--concurrency", "1", "--out", str(out), "--no-progress"])
    try:
        wait_for(out / "episodes", proc)
        while not list((out / "episodes").glob("*.jsonl")) and proc.poll() is None:
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143, stderr
    assert "terminated (SIGTERM): " in stderr and "--resume" in stderr and "Traceback" not in stderr
    assert not (out / LOCK_FILE).exists()
    assert list((out / "episodes").glob("*.jsonl"))  # flushed, kept
    assert main(["eval", "--domains", "gripper", "--split", "scaled", "--agents", "bfs", "--problems", "1-2",
                 "--concurrency", "1", "--out", str(out), "--no-progress", "--resume"]) in (0, 2)

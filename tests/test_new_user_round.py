"""Regression tests for what a new user hit (issue 20): runs that mixed or hid results, crashes on bad paths and
files, exit codes a script cannot trust. One test (or more) per finding; each failed on the code before the fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apb.cli import main
from apb.eval.rundir import LOCK_FILE, RUN_FILE
from apb.eval.trajectory import read_trajectory

ROOT = Path(__file__).resolve().parents[1]
NL2PDDL = ROOT / "tests" / "data" / "nl2pddl"


def one_line_error(capsys, *fragments: str) -> str:
    """The one error line of a command (warnings about the run, printed before, are allowed)."""
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in err, err
    return err


def quick_eval(out: Path, *extra: str) -> int:
    return main(["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1", "--out", str(out),
                 "--no-progress", *extra])


# ---- results that mixed or hid ---------------------------------------------------------------------------------
def test_acp_generate_refuses_a_folder_that_holds_a_set_and_overwrite_replaces_it(tmp_path, capsys):
    out = tmp_path / "acp"
    assert main(["acp", "generate", "ferry", "--tasks", "app", "--formats", "bool", "--count", "1", "--out",
                 str(out)]) == 0
    first = (out / "questions.jsonl").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["acp", "generate", "ferry", "--tasks", "val", "--formats", "gen", "--count", "1", "--out",
                 str(out)]) == 2
    one_line_error(capsys, "not empty", "--overwrite")
    assert (out / "questions.jsonl").read_text(encoding="utf-8") == first and not (out / "acpbench" / "val").exists()
    assert main(["acp", "generate", "ferry", "--tasks", "val", "--formats", "gen", "--count", "1", "--out",
                 str(out), "--overwrite"]) == 0
    assert not (out / "acpbench" / "app").exists() and (out / "acpbench" / "val").is_dir()  # nothing old mixed in


def test_nl2pddl_build_refuses_a_folder_that_holds_pairs(tmp_path, capsys):
    out = tmp_path / "pairs"
    assert main(["nl2pddl", "build", "gripper", "--count", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["nl2pddl", "build", "ferry", "--count", "1", "--out", str(out)]) == 2
    one_line_error(capsys, "not empty")
    rows = [json.loads(line) for line in (out / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["source"] for r in rows} == {"gripper"}


def test_eval_resume_with_a_changed_step_limit_is_refused_naming_the_setting(tmp_path, capsys):
    out = tmp_path / "run"
    assert quick_eval(out) == 0
    capsys.readouterr()
    assert quick_eval(out, "--resume", "--max-steps", "40") == 2
    one_line_error(capsys, "cannot resume with different settings", "max_steps")
    assert quick_eval(out, "--resume") == 0  # the same settings continue
    assert quick_eval(out, "--overwrite", "--max-steps", "40") == 0
    header = read_trajectory(next((out / "episodes").glob("*.jsonl")))["header"]
    assert header["max_steps"] == 40


def test_eval_resume_may_add_agents_and_problems_but_not_change_an_agents_options(tmp_path, capsys):
    out = tmp_path / "run"
    script = tmp_path / "answers.txt"
    script.write_text("(unstack block_b block_d)\n", encoding="utf-8")
    base = ["eval", "--domains", "blocksworld", "--llm", f"scripted:{script}", "--out", str(out), "--no-progress",
            "--max-steps", "1"]
    assert main([*base, "--agents", "act", "--problems", "1"]) == 0
    assert main([*base, "--agents", "act,bfs", "--problems", "1-2", "--resume"]) == 0
    capsys.readouterr()
    assert main([*base, "--agents", "act", "--problems", "1", "--resume", "--hints"]) == 2
    one_line_error(capsys, "agent_options.act")


def test_a_second_run_into_the_same_folder_is_refused_naming_the_first(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / LOCK_FILE).write_text(json.dumps({"pid": holder.pid, "host": os.uname().nodename,
                                                 "started": "2026-11-25T10:00:00+00:00",
                                                 "command": "apb eval --out run"}), encoding="utf-8")
        assert quick_eval(out) == 2
        one_line_error(capsys, "another run is writing here", f"pid {holder.pid}", "apb eval --out run")
        assert sorted(os.listdir(out)) == [LOCK_FILE]
    finally:
        holder.kill()
        holder.wait()
    assert quick_eval(out) == 0  # the holder is gone: its lock is stale and taken over
    assert not (out / LOCK_FILE).exists() and (out / RUN_FILE).is_file()


@pytest.mark.parametrize("argv, flag", [
    (["eval", "--domains", "blocksworld", "--agents", "bfs", "--max-steps", "-3"], "--max-steps"),
    (["eval", "--domains", "blocksworld", "--agents", "bfs", "--concurrency", "0"], "--concurrency"),
    (["eval", "--domains", "blocksworld", "--agents", "bfs", "--seeds", "0"], "--seeds"),
    (["eval", "--domains", "blocksworld", "--agents", "bfs", "--translator", "magic"], "--translator"),
    (["run", "blocksworld", "--agent", "bfs", "--max-steps", "0"], "--max-steps"),
    (["state", "d.pddl", "p.pddl", "--steps", "-1"], "--steps"),
    (["nl2pddl", "eval", "pairs.jsonl", "--llm", "local", "--limit", "-2"], "--limit"),
    (["acp", "generate", "ferry", "--count", "-1"], "--count"),
    (["bench", "random", "--steps", "-5"], "--steps"),
    (["solve", "d.pddl", "p.pddl", "--timeout", "-1"], "--timeout"),
])
def test_negative_or_zero_counts_are_usage_errors(argv, flag, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*argv, *(["--out", str(tmp_path / "o")] if argv[0] in ("eval", "acp") else [])])
    assert stop.value.code == 2
    one_line_error(capsys, flag, "see apb")
    assert not (tmp_path / "o").exists()


def test_max_steps_from_an_experiment_file_is_checked_too(tmp_path, capsys):
    config = tmp_path / "exp.yaml"
    config.write_text("domains: [blocksworld]\nagents: [bfs]\nmax_steps: -3\n", encoding="utf-8")
    assert main(["eval", "--config", str(config), "--out", str(tmp_path / "o")]) == 2
    one_line_error(capsys, "exp.yaml:3", "max_steps", "-3")
    assert not (tmp_path / "o").exists()


def test_oracle_reaches_the_goal_on_baking_and_scaled_gripper_with_default_settings(tmp_path, capsys):
    for domain, split in (("baking", "test"), ("gripper", "scaled")):
        out = tmp_path / f"{domain}-{split}"
        assert main(["eval", "--domains", domain, "--split", split, "--agents", "oracle", "--out", str(out),
                     "--no-progress", "--concurrency", "2"]) == 0
        footers = [read_trajectory(p)["footer"] for p in (out / "episodes").glob("*.jsonl")]
        assert len(footers) == 20 and all(f["success"] for f in footers), domain
    assert "warning" not in capsys.readouterr().err


def test_every_bundled_split_fits_its_gold_plans_in_the_default_limits():
    from apb.agents import agent_class
    from apb.datasets import resolve
    from apb.domains.registry import domain_names, plan_steps, splits
    from apb.eval.trajectory import EpisodeSpec

    for domain in domain_names():
        for split in splits(domain):
            dataset = resolve(domain, split)
            longest = max(plan_steps(e.plan_path) for e in dataset.problems)
            for agent in ("oracle", "act", "closed-loop"):
                assert EpisodeSpec(domain, 1, agent, split=split).horizon >= 2 * longest, (domain, split, agent)
            assert EpisodeSpec(domain, 1, "random", split=split).horizon == 24  # AutoPlanBench's rnd setting
            assert agent_class("closed-loop").default_step_limit(24) == 50


def test_eval_warns_when_the_step_limit_is_shorter_than_an_optimal_plan(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["eval", "--domains", "baking", "--agents", "oracle", "--problems", "1", "--max-steps", "3",
                 "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "baking p01" in err and "but the step limit is 3" in err


def test_acp_eval_records_an_llm_error_as_an_error_not_a_wrong_answer(tmp_path, capsys):
    from apb.acp import generate
    from apb.acp.question_files import write_questions
    from apb.llm import ScriptedLLM

    questions, _ = generate("ferry", tasks=["app"], formats=["bool"], count=2, seed=0)
    folder = tmp_path / "q"
    write_questions(questions, folder)
    script = tmp_path / "answers.txt"
    script.write_text(questions[0].answer if isinstance(questions[0].answer, str) else "yes", encoding="utf-8")
    out = tmp_path / "eval"
    # the script has one answer for two questions: the second call fails (an LLM error)
    assert main(["acp", "eval", str(folder), "--llm", f"scripted:{script}", "--shots", "0", "--out", str(out),
                 "--no-progress", "--concurrency", "1"]) == 1
    err = capsys.readouterr().err
    assert "ended in an LLM error" in err
    records = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    failed = [r for r in records if r["error"]]
    assert len(failed) == 1 and failed[0]["official"] is None and failed[0]["sound"] is None
    from apb.acp.report import summarize

    summary = summarize([out])
    assert summary["overall"]["errors"] == 1 and summary["overall"]["n"] == 1
    ScriptedLLM  # noqa: B018 - the scripted backend is what scripted:<file> builds


def test_nl2pddl_resume_counts_a_retried_error_once(tmp_path, capsys):
    pairs = tmp_path / "pairs"
    assert main(["nl2pddl", "build", "gripper", "--count", "2", "--out", str(pairs)]) == 0
    rows = [json.loads(line) for line in (pairs / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    script = tmp_path / "answers.txt"
    script.write_text(rows[0]["problem_pddl"], encoding="utf-8")  # one answer: the other pairs' calls fail
    out = tmp_path / "run"
    base = ["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{script}", "--concurrency", "1", "--out", str(out)]
    assert main(base) == 1
    script.write_text("\n---\n".join(r["problem_pddl"] for r in rows[1:]), encoding="utf-8")
    assert main([*base, "--resume"]) == 0
    from apb.nl2pddl.report import read_results, summarize

    summary = summarize(read_results(out))
    assert summary["overall"]["pairs"] == len(rows) and summary["overall"]["errors"] == 0
    assert summary["overall"]["correct"] == 100.0


# ---- crashes ---------------------------------------------------------------------------------------------------
def out_paths(tmp_path: Path) -> list[tuple[str, str]]:
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    return [(str(a_file), "a file is in the way"), (str(a_file / "sub"), "is a file")]


@pytest.mark.parametrize("command", [
    ["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1", "--no-progress", "--out"],
    ["acp", "generate", "ferry", "--count", "1", "--tasks", "app", "--formats", "bool", "--out"],
    ["nl2pddl", "build", "gripper", "--count", "1", "--out"],
    ["run", "blocksworld", "--agent", "oracle", "--out"],
    ["generate", "blocksworld", "--count", "1", "--out"],
])
def test_output_paths_that_cannot_be_written_are_one_line_errors(command, tmp_path, capsys):
    for path, message in out_paths(tmp_path):
        assert main([*command, path]) == 2, path
        one_line_error(capsys, message)


def test_no_permission_to_write_is_named_before_any_work(tmp_path, capsys, monkeypatch):
    import apb.eval.rundir as rundir

    real = os.access
    monkeypatch.setattr(rundir.os, "access", lambda p, mode: False if Path(p) == tmp_path else real(p, mode))
    assert quick_eval(tmp_path / "run") == 2
    one_line_error(capsys, "no permission to write in", str(tmp_path))


def test_a_missing_parent_folder_is_created(tmp_path):
    assert quick_eval(tmp_path / "new" / "deeper" / "run") == 0


def latin1_domain(tmp_path: Path) -> Path:
    folder = tmp_path / "latin1"
    (folder / "problems").mkdir(parents=True)
    source = ROOT / "apb" / "domains" / "blocksworld"
    (folder / "domain.pddl").write_bytes(b"; caf\xe9\n" + (source / "domain.pddl").read_bytes())
    (folder / "problems" / "p01.pddl").write_bytes((source / "problems" / "p01.pddl").read_bytes())
    return folder


def test_non_utf8_files_are_named_with_the_byte_offset(tmp_path, capsys):
    folder = latin1_domain(tmp_path)
    domain, problem = folder / "domain.pddl", folder / "problems" / "p01.pddl"
    assert main(["validate", str(domain), str(problem), str(problem)]) == 2
    one_line_error(capsys, "domain.pddl", "not UTF-8", "offset 5")
    assert main(["solve", str(domain), str(problem)]) == 2
    one_line_error(capsys, "not UTF-8", "offset 5")
    assert main(["eval", "--domains", str(folder), "--agents", "bfs", "--out", str(tmp_path / "o"),
                 "--no-progress"]) == 2
    one_line_error(capsys, "not UTF-8")
    bad_plan = tmp_path / "plan.txt"
    bad_plan.write_bytes(b"(pick-up b\xff)\n")
    good = ROOT / "apb" / "domains" / "blocksworld"
    assert main(["validate", str(good / "domain.pddl"), str(good / "problems" / "p01.pddl"), str(bad_plan)]) == 2
    one_line_error(capsys, "plan.txt", "not UTF-8", "offset 10")
    bad_nl = tmp_path / "nl.yaml"
    bad_nl.write_bytes(b"format: 1\nintro: caf\xe9\n")
    assert main(["describe", "blocksworld", "--description", str(bad_nl)]) == 2
    one_line_error(capsys, "nl.yaml", "not UTF-8", "offset 20")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_bytes(b'{"id": "caf\xe9"}\n')
    answers = tmp_path / "answers.txt"
    answers.write_text("(define (problem x))\n", encoding="utf-8")
    assert main(["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--out",
                 str(tmp_path / "n")]) == 2
    one_line_error(capsys, "pairs.jsonl", "not UTF-8")
    questions = tmp_path / "questions.jsonl"
    questions.write_bytes(b'{"id": "caf\xe9"}\n')
    assert main(["acp", "eval", str(questions), "--llm", "local", "--out", str(tmp_path / "a")]) == 2
    one_line_error(capsys, "questions.jsonl", "not UTF-8")


def test_a_goal_of_2000_nested_ands_is_refused_with_a_message(tmp_path, capsys):
    from apb.engine import PDDLSyntaxError, load_task

    source = ROOT / "apb" / "domains" / "blocksworld"
    text = (source / "problems" / "p01.pddl").read_text(encoding="utf-8")
    goal_start = text.index("(:goal")
    deep = "(:goal " + "(and " * 2000 + "(clear block_a)" + ")" * 2000 + "))"
    problem = tmp_path / "deep.pddl"
    problem.write_text(text[:goal_start] + deep + "\n", encoding="utf-8")
    with pytest.raises(PDDLSyntaxError, match="nest more than"):
        load_task(source / "domain.pddl", problem)
    assert main(["solve", str(source / "domain.pddl"), str(problem)]) == 2
    one_line_error(capsys, "deep.pddl", "nest more than")
    shallow = "(:goal " + "(and " * 90 + "(clear block_a)" + ")" * 90 + "))"
    problem.write_text(text[:goal_start] + shallow + "\n", encoding="utf-8")
    task = load_task(source / "domain.pddl", problem)
    assert task.unsatisfied_goals(task.initial_state) == [] or task.is_goal(task.initial_state) in (True, False)


# ---- exit codes and messages -----------------------------------------------------------------------------------
def test_nl2pddl_score_exits_1_for_a_wrong_answer_as_equiv_does_for_not_equivalent(capsys):
    gold, wrong = NL2PDDL / "bw_gold.pddl", NL2PDDL / "bw_underspecified.pddl"
    assert main(["nl2pddl", "score", str(gold), str(gold)]) == 0
    assert main(["nl2pddl", "score", str(gold), str(wrong)]) == 1
    assert main(["nl2pddl", "score", str(gold), str(wrong), "--json"]) == 1
    domain = ROOT / "apb" / "nl2pddl" / "domains" / "planetarium" / "blocksworld.pddl"
    assert main(["equiv", str(domain), str(gold), str(wrong)]) == 1


def test_apb_run_and_eval_exit_1_after_an_llm_error(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")  # a script with no answers: the first call fails
    assert main(["run", "blocksworld", "--agent", "act", "--llm", f"scripted:{empty}"]) == 1
    assert "error" in capsys.readouterr().err
    out = tmp_path / "run"
    assert main(["eval", "--domains", "blocksworld", "--agents", "act", "--llm", f"scripted:{empty}", "--problems",
                 "1", "--out", str(out), "--no-progress"]) == 1
    assert "ended in an error" in capsys.readouterr().err


def test_piped_output_is_not_cut_to_80_columns(tmp_path):
    """A report's tables printed into a pipe keep every column (rich cut them to 80 columns with '…')."""
    out = tmp_path / "run"
    assert quick_eval(out) == 0
    proc = subprocess.run([sys.executable, "-m", "apb", "report", str(out)], capture_output=True, text=True,
                          cwd=ROOT, env={k: v for k, v in os.environ.items() if k != "COLUMNS"})
    assert proc.returncode == 0, proc.stderr
    assert max(len(line) for line in proc.stdout.splitlines()) > 80
    assert "…" not in proc.stdout


def test_ctrl_c_stops_an_eval_without_waiting_for_a_blocked_item_and_keeps_what_finished(tmp_path):
    """The human item blocks on its input forever: the run stops at Ctrl-C all the same (the communicate timeout is
    a hang guard, not a time bound: speed is measured, never asserted)."""
    import signal
    import time

    out = tmp_path / "run"
    # two quick oracle episodes, then a human player who never answers (an item blocked reading its input)
    proc = subprocess.Popen([sys.executable, "-m", "apb", "eval", "--domains", "ferry", "--agents", "oracle,human",
                             "--problems", "1-2", "--concurrency", "1", "--out", str(out), "--no-progress"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while len(list((out / "episodes").glob("*.jsonl"))) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(0.5)  # the human episode is waiting for input now
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    kept = [read_trajectory(p) for p in (out / "episodes").glob("*.jsonl")]  # every finished file reads back
    assert len(kept) >= 2 and f"interrupted: {len(kept)} of 4 episode(s) finished" in stderr and "--resume" in stderr
    assert not (out / LOCK_FILE).exists()


# ---- the study's prompts and small context windows ----------------------------------------------------------------
class ShortWindowLLM:
    """A scripted model that knows its context window and counts tokens (four characters each), like the local
    llama.cpp model does with its tokenizer."""

    spec = "short-window"
    default_max_tokens = 512

    def __init__(self, n_ctx: int) -> None:
        self.n_ctx = n_ctx
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        return len(text) // 4

    def complete(self, messages, **kwargs):
        self.calls += 1
        raise AssertionError("the run must stop before any call")


def test_the_study_says_before_it_starts_that_the_context_is_too_small(tmp_path):
    from apb.eval.context import ContextTooSmall
    from apb.eval.episode_specs import plan_episodes
    from apb.eval.runner import run_episodes

    specs = plan_episodes(["baking"], ["closed-loop"], [1], split="study", model="short-window")
    llm = ShortWindowLLM(4096)
    with pytest.raises(ContextTooSmall) as error:
        run_episodes(specs, tmp_path / "run", llms={"short-window": llm}, concurrency=1)
    message = str(error.value)
    assert "holds 4096" in message and "--shots 0" in message and "--description rule" in message
    assert llm.calls == 0 and not (tmp_path / "run").exists()  # nothing asked, nothing written
    from apb.eval.context import prompt_tokens

    full = prompt_tokens(specs[0], llm)
    lean = prompt_tokens(specs[0].__class__(**{**specs[0].to_dict(), "agent_options": {"shots": 0}}), llm)
    assert lean < full  # the suggested setting does shorten the prompt
    roomy = ShortWindowLLM(10 * full)
    run_episodes([specs[0].__class__(**{**specs[0].to_dict(), "max_steps": 1})], tmp_path / "ok",
                 llms={"short-window": roomy}, concurrency=1)
    assert roomy.calls >= 1  # a window that holds the prompt lets the run start

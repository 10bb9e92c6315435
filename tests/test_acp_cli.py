"""`apb acp ...` end to end: generate (both formats on disk), answer (ACPBench's answer formats), eval with a
scripted LLM and resume, report, audit of ACPBench-format files, and clean messages (exit 2) on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb.acp import read_questions
from apb.acp.evaluate import answer_text
from apb.acp.importer import import_file
from apb.cli import main

DATA = Path(__file__).resolve().parent / "data" / "acp"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("acp")
    assert main(["acp", "generate", "ferry", "--count", "2", "--out", str(out), "--seed", "3",
                 "--budget", "2000"]) == 0
    return out


def test_generate_writes_apb_jsonl_and_acpbench_files(generated):
    questions = read_questions(generated)
    assert len(questions) == 44
    released = read_questions(generated / "acpbench")
    assert sorted(q.id for q in released) == sorted(q.id for q in questions)
    gen = json.loads((generated / "acpbench" / "land" / "test.gen.json").read_text())
    assert {"id", "group", "context", "question", "answer", "PDDL_domain", "PDDL_problem"} == set(gen[0])
    mcq = json.loads((generated / "acpbench" / "app" / "test.mcq.json").read_text())
    assert {"choices", "query"} <= set(mcq[0])


def test_oracle_answers_in_acpbench_formats(generated, tmp_path):
    target = tmp_path / "answers.jsonl"
    assert main(["acp", "answer", str(generated), "--agent", "oracle", "--out", str(target)]) == 0
    answers = {r["id"]: r["answer"] for r in map(json.loads, target.read_text().splitlines())}
    by_group = {q.group: answers[q.id] for q in read_questions(generated)}
    assert by_group["applicable_actions_bool"] in ("yes", "no")
    assert by_group["applicable_actions_mc"] in "ABCD"
    assert isinstance(by_group["applicable_actions_gen"], list)
    assert set(by_group["progression_gen"]) == {"pos", "neg"}
    assert isinstance(by_group["validation_gen"], int)
    assert isinstance(by_group["action_justification_gen"], list)
    assert by_group["goal_closer_gen"].startswith("(")


def test_eval_report_and_resume_through_the_cli(generated, tmp_path, capsys):
    questions = read_questions(generated)
    script = tmp_path / "answers.json"
    script.write_text(json.dumps([f"Answer: {answer_text(q)}" for q in questions]))
    run = tmp_path / "run"
    args = ["acp", "eval", str(generated), "--llm", f"scripted:{script}", "--shots", "1", "--concurrency", "1",
            "--out", str(run), "--no-progress"]
    assert main(args) == 0
    assert "sound 100.0%" in capsys.readouterr().out
    assert main(args) == 2
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0
    assert "44 question(s): 0 asked now, 44 done before" in capsys.readouterr().out
    assert main(["acp", "report", str(run)]) == 0
    summary = json.loads((run / "acp_summary.json").read_text())
    assert summary["overall"]["sound"] == 1.0 and summary["overall"]["official"] == 1.0
    assert {"task", "format", "domain", "official_se", "sound_se"} <= set(summary["rows"][0])
    assert "ACPBench" in (run / "acp_report.md").read_text()


def test_audit_finds_the_deliberately_wrong_gold(capsys):
    assert main(["acp", "audit", str(DATA)]) == 1  # provably wrong gold found
    text = capsys.readouterr().out
    for qid in (122, 141, 142, 152, 161, 181, 182):
        assert f" {qid} " in text
    for qid in (121, 131, 162, 171, 191):
        assert f" {qid} " not in text
    assert "7 with provably wrong gold" in text and "0 whose proof does not replay" in text
    assert "(the proof does not replay)" not in text and "(proof replays)" in text
    # extra never-applicable actions the official grounding drops are noted; extra unreachable atoms are not, as
    # the official scorer accepts them through its planner
    assert "note reachable_action_gen 151" in text and "note reachable_atom_gen 143" not in text


def test_audit_of_generated_questions_finds_nothing(generated, capsys):
    assert main(["acp", "audit", str(generated)]) == 0
    assert ("0 with provably wrong gold (0 finding(s), 0 whose proof does not replay), 0 whose gold misses correct "
            "answers, 0 not checkable") in capsys.readouterr().out


def test_importer_reads_released_layout():
    questions = read_questions(DATA)
    assert {(q.task, q.format) for q in questions} >= {("app", "bool"), ("app", "mcq"), ("land", "gen")}
    land = import_file(DATA / "land" / "test.gen.json.gz")
    assert land[0].domain == "ferry" and "(:init" in land[0].problem_pddl


@pytest.mark.parametrize(("args", "message"), [
    (["acp", "audit", str(DATA / "bad" / "not_acpbench.json")], "not ACPBench's format"),
    (["acp", "audit", str(DATA / "bad" / "missing_fields.json")], "missing question"),
    (["acp", "audit", str(DATA / "bad" / "truncated.json")], "invalid JSON"),
    (["acp", "audit", str(DATA / "app" / "test.bool.json")], "no generative questions"),
    (["acp", "eval", str(DATA / "nothing.json"), "--llm", "scripted:x.json"], "no such file"),
    (["acp", "generate", "ferry", "--tasks", "apps", "--out", "/tmp/never"], "unknown task 'apps'"),
    (["acp", "generate", "no-such-domain", "--out", "/tmp/never"], "no-such-domain"),
    (["acp", "answer", str(DATA), "--agent", "psychic", "--out", "/tmp/never.jsonl"], "unknown agent"),
])
def test_bad_input_is_one_clean_message(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_audit_reports_pddl_apb_refuses_without_failing(capsys):
    assert main(["acp", "audit", str(DATA / "bad" / "refused_pddl.json")]) == 0
    out = capsys.readouterr().out
    assert "unchecked" in out and "durative" in out


def test_eval_records_llm_failures_as_errors_and_takes_shots_from_another_file(generated, tmp_path, capsys):
    script = tmp_path / "short.json"
    script.write_text(json.dumps(["Answer: yes"] * 3))  # fewer responses than questions: later calls fail
    run = tmp_path / "run"
    assert main(["acp", "eval", str(DATA / "app" / "test.bool.json"), "--llm", f"scripted:{script}", "--shots", "2",
                 "--shots-from", str(generated), "--concurrency", "1", "--out", str(run), "--no-progress"]) == 0
    results = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert len(results) == 2 and all(r["error"] is None for r in results)
    assert all(len(r["prompt"]) == 6 for r in results)  # system + 2 shots from the generated questions + question
    assert [r["sound"] for r in results] == [True, False]
    run2 = tmp_path / "run2"
    assert main(["acp", "eval", str(generated), "--llm", f"scripted:{script}", "--shots", "0", "--concurrency", "1",
                 "--out", str(run2), "--no-progress"]) == 1  # 1: questions ended in an LLM error
    results = [json.loads(line) for line in (run2 / "results.jsonl").read_text().splitlines()]
    assert len(results) == 44 and sum(1 for r in results if r["error"]) == 41
    assert all(r["sound"] is None and r["official"] is None for r in results if r["error"])  # not scored as wrong


def test_rows_where_every_question_errored_are_errors_and_lone_surrogates_are_stored(generated, tmp_path, capsys):
    """A row of errors read "0.0% ± 0.0%"; a reply with a lone surrogate crashed `apb acp eval` (UnicodeEncodeError)."""
    questions = read_questions(generated)
    script = tmp_path / "answers.json"
    script.write_text(json.dumps([f"Answer: {answer_text(q)} \ud800" for q in questions]))
    run = tmp_path / "run"
    assert main(["acp", "eval", str(generated), "--llm", f"scripted:{script}", "--shots", "0", "--concurrency", "1",
                 "--out", str(run), "--no-progress"]) == 0
    results = run / "results.jsonl"
    records = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert any("\ud800" in json.dumps(r, ensure_ascii=False) for r in records)  # the reply read back as it was
    for record in records:
        if record["task"] == "app":
            record["error"] = "LLM error: 401 Unauthorized"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    capsys.readouterr()
    assert main(["acp", "report", str(run)]) == 0
    text = capsys.readouterr().out
    summary = json.loads((run / "acp_summary.json").read_text())
    app = [row for row in summary["rows"] if row["task"] == "app"]
    assert app and all(row["n"] == 0 and row["official"] is None and row["sound"] is None for row in app)
    assert "| app | bool | all | 0 | error | error |" in text
    assert all("0.0% ± 0.0%" not in line for line in text.splitlines() if line.startswith("| app "))

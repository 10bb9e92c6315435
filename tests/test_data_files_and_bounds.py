"""What users hit, round 2 (issue 41): data files that are trusted, bounds and silent choices, a lone surrogate in a
model's reply, --overwrite, CLI scorers that read everything first. One test (or more) per finding; each failed on
the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_new_user_round import one_line_error

from apb.cli import main

ROOT = Path(__file__).resolve().parents[1]


def apb(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def exit_code(argv: list[str]) -> int:
    """What `apb ARGV` exits with, whether argparse refuses the flags (SystemExit) or the command does."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


# ---- a lone surrogate in a model's reply ------------------------------------------------------------------------
def test_a_lone_surrogate_in_a_reply_does_not_crash_apb_run(tmp_path):
    """The transcript echoes it as U+FFFD (as `apb eval`'s trajectories store it), the episode is not an error."""
    script = tmp_path / "replies.json"
    script.write_text(json.dumps(["(pick-up a) \ud800", "(stack a b) \udfff"]), encoding="utf-8")
    out = tmp_path / "run"
    proc = apb("run", "blocksworld", "--agent", "act", "--llm", f"scripted:{script}", "--max-steps", "2",
               "--translator", "fuzzy", "--cache", "off", "--out", str(out))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert "\ufffd" in proc.stdout and "not solved: 2 step(s)" in proc.stdout
    (episode,) = (out / "episodes").glob("*.jsonl")
    footer = json.loads(episode.read_text(encoding="utf-8").splitlines()[-1])
    assert footer["error"] is None and footer["steps"] == 2


# ---- bounds and silent choices ----------------------------------------------------------------------------------
BW = ROOT.parent / "shared" / "reference" / "autoplanbench" / "blocksworld"
BW_DOMAIN = BW / "domain.pddl"
BW_PROBLEM = BW / "orig_problems" / "instance-1.pddl"


@pytest.mark.parametrize("argv, fragments", [
    (["acp", "generate", "ferry", "--count", "99999999999999999999"], ["--count", "10000"]),
    (["acp", "generate", "ferry", "--tasks", ""], ["--tasks", "no task"]),
    (["acp", "generate", "ferry", "--formats", " , "], ["--formats", "no format"]),
    (["bench", "env", "--num-envs", "99999999999"], ["--num-envs", "1024"]),
])
def test_counts_and_lists_out_of_bounds_are_refused_before_any_work(argv, fragments, tmp_path, capsys):
    out = tmp_path / "out"
    assert exit_code([*argv, "--out", str(out)] if argv[0] == "acp" else argv) == 2
    one_line_error(capsys, *fragments)
    assert not out.exists()


def test_state_steps_beyond_the_plan_or_without_a_plan_are_refused(tmp_path, capsys):
    plan = tmp_path / "plan.txt"
    plan.write_text("(unstack b c)\n(put-down b)\n", encoding="utf-8")
    # still clamped at the plan's length: two steps applied, exit 0
    assert main(["state", str(BW_DOMAIN), str(BW_PROBLEM), "--plan", str(plan), "--steps", "2", "--json"]) == 0
    capsys.readouterr()
    assert main(["state", str(BW_DOMAIN), str(BW_PROBLEM), "--plan", str(plan), "--steps", "99999999999999999"]) == 2
    one_line_error(capsys, "--steps 99999999999999999", "2 steps")
    assert main(["state", str(BW_DOMAIN), str(BW_PROBLEM), "--steps", "3"]) == 2
    one_line_error(capsys, "--steps", "--plan")


def _problem_for(tmp_path: Path, domain_name: str) -> Path:
    text = BW_PROBLEM.read_text(encoding="utf-8")
    other = tmp_path / f"for-{domain_name}.pddl"
    import re

    other.write_text(re.sub(r"\(:domain\s+[^\s()]+\)", f"(:domain {domain_name})", text, count=1), encoding="utf-8")
    return other


@pytest.mark.parametrize("command", ["validate", "solve", "equiv"])
def test_a_problem_for_another_domain_is_an_error(command, tmp_path, capsys):
    other = _problem_for(tmp_path, "gripper-strips")
    plan = tmp_path / "plan.txt"
    plan.write_text("(pick-up a)\n", encoding="utf-8")
    argv = {"validate": ["validate", str(BW_DOMAIN), str(other), str(plan)],
            "solve": ["solve", str(BW_DOMAIN), str(other)],
            "equiv": ["equiv", str(BW_DOMAIN), str(other), str(BW_PROBLEM)]}[command]
    assert main(argv) == 2
    one_line_error(capsys, str(other), "gripper-strips", "domain")


def test_duplicate_objects_are_refused_naming_the_object(tmp_path, capsys):
    text = BW_PROBLEM.read_text(encoding="utf-8")
    import re

    match = re.search(r"\(:objects\s+([^\s()]+)", text)
    name = match.group(1)
    doubled = tmp_path / "doubled.pddl"
    doubled.write_text(text[:match.end()] + f" {name}" + text[match.end():], encoding="utf-8")
    assert main(["solve", str(BW_DOMAIN), str(doubled)]) == 2
    one_line_error(capsys, f"'{name}'", "twice", str(doubled))


def test_a_utf8_byte_order_mark_at_the_start_of_a_pddl_file_is_accepted(tmp_path, capsys):
    domain = tmp_path / "domain.pddl"
    problem = tmp_path / "problem.pddl"
    domain.write_bytes(b"\xef\xbb\xbf" + BW_DOMAIN.read_bytes())
    problem.write_bytes(b"\xef\xbb\xbf" + BW_PROBLEM.read_bytes())
    assert main(["solve", str(domain), str(problem)]) == 0
    assert "solved" in capsys.readouterr().err


# ---- CLI scorers read only up to the bound ----------------------------------------------------------------------
def _huge_problem(path: Path, tail: bytes = b"\x00 never read") -> Path:
    """A problem far over MAX_PROBLEM_CHARS whose end is binary: reading it whole would refuse it as binary."""
    from apb.engine.limits import MAX_PROBLEM_CHARS

    atoms = " ".join(f"(ontable b{i})" for i in range(MAX_PROBLEM_CHARS // 2))  # 4 bytes a character and more
    path.write_bytes(f"(define (problem big) (:domain blocksworld-4ops) (:init {atoms}".encode() + tail)
    return path


def test_apb_equiv_reads_a_huge_problem_only_up_to_the_bound_and_answers_as_in_process(tmp_path, capsys):
    from apb.engine import PDDLError, load_domain
    from apb.equivalence import check

    big = _huge_problem(tmp_path / "big.pddl")
    assert main(["equiv", str(BW_DOMAIN), str(big), str(BW_PROBLEM)]) == 2
    err = one_line_error(capsys, str(big), "over the limit of 100,000 characters")
    assert "binary" not in err  # the tail past the bound was never read
    with pytest.raises(PDDLError, match="over the limit of 100,000"):  # the in-process scorer on the text
        check(load_domain(BW_DOMAIN), big.read_bytes()[:-14].decode(), BW_PROBLEM.read_text(encoding="utf-8"))


def test_nl2pddl_score_reads_a_huge_answer_only_up_to_the_bound_and_answers_as_in_process(tmp_path, capsys):
    from apb.nl2pddl.evaluate import assess

    gold = ROOT / "tests" / "data" / "nl2pddl" / "bw_gold.pddl"
    big = _huge_problem(tmp_path / "answer.pddl")
    assert main(["nl2pddl", "score", str(gold), str(big), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["parseable"] is False and "over the limit of 100,000" in report["error"]
    in_process = assess(gold, big.read_bytes()[:-14].decode())
    assert not in_process.evaluation.parseable and "over the limit of 100,000" in in_process.error


# ---- data files are validated before any work ------------------------------------------------------------------
@pytest.fixture(scope="module")
def acp_records(tmp_path_factory) -> dict[str, dict]:
    """One generated question per format (apb JSONL records), to be broken field by field."""
    from apb.acp import generate

    questions, _ = generate("ferry", tasks=["app"], count=1, seed=0)
    return {q.format: q.to_dict() for q in questions}


def _write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _without(record: dict, key: str) -> dict:
    return {k: v for k, v in record.items() if k != key}


BROKEN = {  # name -> (format, change, fragments of the error)
    "no answer": ("bool", lambda r: _without(r, "answer"), ["gold"]),
    "integer answer": ("bool", lambda r: {**r, "answer": 1}, ["answer", "yes or no"]),
    "MCQ answer outside the choices": ("mcq", lambda r: {**r, "answer": "E"}, ["answer", "'E'", "A, B, C, D"]),
    "no question": ("bool", lambda r: _without(r, "question"), ["question"]),
    "bogus task": ("bool", lambda r: {**r, "task": "bogus"}, ["task", "'bogus'"]),
    "essay format": ("bool", lambda r: {**r, "format": "essay"}, ["format", "'essay'"]),
    "choices a string": ("mcq", lambda r: {**r, "choices": "A B C"}, ["choices"]),
    "generative gold of the wrong type": ("gen", lambda r: {**r, "answer": "(sail l0 l1)"}, ["answer", "list"]),
}


@pytest.mark.parametrize("name", list(BROKEN))
@pytest.mark.parametrize("command", ["eval", "export"])
def test_a_broken_question_record_is_refused_naming_its_line_and_field(name, command, acp_records, tmp_path,
                                                                       capsys):
    fmt, change, fragments = BROKEN[name]
    good = acp_records[fmt]
    path = _write_jsonl(tmp_path / "questions.jsonl", [good, change(dict(good))])
    answers = tmp_path / "answers.txt"
    answers.write_text("yes\n---\nyes\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = {"eval": ["acp", "eval", str(path), "--llm", f"scripted:{answers}", "--out", str(out), "--no-progress",
                     "--cache", "off"],
            "export": ["acp", "export", str(out), "--questions", str(path)]}[command]
    assert exit_code(argv) == 2
    one_line_error(capsys, f"{path}:2", *fragments)
    assert not out.exists()  # nothing written, no run.json left behind


def test_acp_report_on_a_binary_or_damaged_results_file_is_one_line(tmp_path, capsys):
    binary = tmp_path / "results.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    assert exit_code(["acp", "report", str(binary)]) == 2
    one_line_error(capsys, str(binary))
    numbers = tmp_path / "numbers.jsonl"
    numbers.write_text("1\n2\n", encoding="utf-8")
    assert exit_code(["acp", "report", str(numbers)]) == 2
    one_line_error(capsys, f"{numbers}:1")


def test_apb_report_on_a_non_utf8_episode_file_is_one_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1", "--out", str(out),
                 "--no-progress"]) == 0
    (episode,) = (out / "episodes").glob("*.jsonl")
    episode.write_bytes(episode.read_bytes().replace(b'"', b"\xe9", 1))
    capsys.readouterr()
    assert exit_code(["report", str(out)]) == 2
    one_line_error(capsys, str(episode), "UTF-8")


@pytest.fixture(scope="module")
def pairs_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pairs")
    assert main(["nl2pddl", "build", "blocksworld", "--count", "2", "--out", str(folder / "P")]) == 0
    return folder / "P"


PAIR_BROKEN = {  # name -> (change, fragments)
    "gold that does not parse": (lambda r: {**r, "problem_pddl": "(define (problem x) (:domain blocksworld) (:init"},
                                 ["problem_pddl", "does not parse"]),
    "integer gold": (lambda r: {**r, "problem_pddl": 7}, ["problem_pddl", "not text"]),
    "domain file outside the folder": (lambda r: {**r, "domain_file": "../../../etc/passwd"},
                                       ["domain_file", "../../../etc/passwd", "outside"]),
}


@pytest.mark.parametrize("name", list(PAIR_BROKEN))
@pytest.mark.parametrize("command", ["eval", "import", "export"])
def test_a_broken_pair_is_refused_naming_its_line_and_field(name, command, pairs_folder, tmp_path, capsys):
    change, fragments = PAIR_BROKEN[name]
    rows = [json.loads(line) for line in (pairs_folder / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    pairs = pairs_folder / f"broken-{command}.jsonl"
    _write_jsonl(pairs, [rows[0], change(dict(rows[1]))])
    answers = tmp_path / "answers.txt"
    answers.write_text("(define)\n---\n(define)\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = {"eval": ["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--out", str(out), "--cache",
                     "off"],
            "import": ["nl2pddl", "import", str(pairs), "--out", str(out)],
            "export": ["nl2pddl", "export", str(out), "--pairs", str(pairs)]}[command]
    capsys.readouterr()
    assert exit_code(argv) == 2
    one_line_error(capsys, f"{pairs}:2", *fragments)
    assert not out.exists()


@pytest.mark.parametrize("command", ["eval", "import", "export"])
def test_an_empty_pairs_file_is_refused(command, tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("", encoding="utf-8")
    answers = tmp_path / "answers.txt"
    answers.write_text("x\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = {"eval": ["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--out", str(out)],
            "import": ["nl2pddl", "import", str(pairs), "--out", str(out)],
            "export": ["nl2pddl", "export", str(out), "--pairs", str(pairs)]}[command]
    assert exit_code(argv) == 2
    one_line_error(capsys, str(pairs), "no pairs")
    assert not out.exists()

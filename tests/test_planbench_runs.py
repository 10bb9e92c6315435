"""`apb planbench eval` on the one runner: a released results file replayed through prompt, model, reading and
verdict gives its verdicts back; PlanBench's responses/results layout; resume after SIGKILL; `apb planbench report`."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from apb.cli import main
from apb.eval.items import RESULTS_FILE

RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "planbench" / "plan-bench"
T2 = RELEASE / "results" / "blocksworld_3" / "gpt-4_chat" / "task_2_plan_optimality.json.gz"
T8 = RELEASE / "results" / "blocksworld_3" / "gpt-4_chat" / "task_8_2_full_to_partial.json.gz"
VERDICTS = ("llm_correct", "actual_cost_of_llm_plan", "cost_by_llm")


def released(path: Path) -> dict[int, dict]:
    return {r["instance_id"]: r for r in json.loads(gzip.decompress(path.read_bytes()))["instances"]}


def eval_argv(out: Path, *extra: str, tasks: str = "t2", replay: Path = T2) -> list[str]:
    return ["planbench", "eval", "--config", "blocksworld_3", "--tasks", tasks, "--llm", f"replay:{replay}",
            "--engine", "gpt-4_chat", "--out", str(out), "--no-progress", *extra]


def test_replaying_a_released_results_file_gives_its_verdicts_in_planbenchs_layout(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(eval_argv(out, "--concurrency", "3")) == 0
    expected = released(T2)
    results = json.loads((out / "results" / "blocksworld_3" / "gpt-4_chat" / "task_2_plan_optimality.json")
                         .read_text())
    assert [r["instance_id"] for r in results["instances"]] == sorted(expected)  # the prompt file's order
    assert results["engine"] == "gpt-4_chat" and results["task"] == "task_2_plan_optimality"
    for record in results["instances"]:
        gold = expected[record["instance_id"]]
        assert record["query"] == gold["query"] and record["llm_raw_response"] == gold["llm_raw_response"]
        for key in VERDICTS:
            assert record.get(key) == gold.get(key), (record["instance_id"], key)
        assert isinstance(record["apb_correct"], bool)
    responses = json.loads((out / "responses" / "blocksworld_3" / "gpt-4_chat" / "task_2_plan_optimality.json")
                           .read_text())
    assert all("llm_correct" not in r and r["llm_raw_response"] for r in responses["instances"])
    capsys.readouterr()
    assert main(["planbench", "report", str(out), "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    correct = sum(bool(r["llm_correct"]) for r in expected.values())
    assert (row["instances"], row["official"], row["errors"]) == (100, correct, 0)
    assert row["official_pct"] == 100.0 * correct / 100


@pytest.mark.parametrize("task", ["t1", "t3", "t4", "t6", "t7"])
def test_replaying_blocksworld_3s_released_results_reproduces_every_verdict(tmp_path, task):
    from apb.planbench.prompts import prompt_task

    stem = prompt_task(task)[1]
    source = RELEASE / "results" / "blocksworld_3" / "gpt-4_chat" / f"{stem}.json.gz"
    out = tmp_path / "run"
    assert main(eval_argv(out, "--variant", "results", "--concurrency", "3", tasks=task, replay=source)) == 0
    results = json.loads((out / "results" / "blocksworld_3" / "gpt-4_chat" / f"{stem}.json").read_text())
    expected = released(source)
    assert sorted(r["instance_id"] for r in results["instances"]) == sorted(expected)
    keys = ("llm_correct", "llm_correct_binary", "llm_correct_w_type", "llm_correct_w_expl")
    for record in results["instances"]:
        gold = expected[record["instance_id"]]
        assert {k: record.get(k) for k in keys if k in gold} == {k: gold[k] for k in keys if k in gold}


def test_a_prompt_the_replayed_file_does_not_hold_is_an_llm_error_not_a_wrong_answer(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(eval_argv(out, "--instances", "2-4", tasks="t8_2,t2")) == 1  # t2's file answers t2 only
    records = [json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines()]
    errors = {r["id"] for r in records if r["error"]}
    assert errors == {f"task_8_2_full_to_partial/{i}" for i in (2, 3, 4)}
    assert all(r["official"] is None for r in records if r["error"])
    assert not (out / "results" / "blocksworld_3" / "gpt-4_chat" / "task_8_2_full_to_partial.json").exists()
    capsys.readouterr()
    assert main(eval_argv(out, "--instances", "2-4", "--resume", tasks="t8_2,t2")) == 1  # the same settings
    assert main(eval_argv(out, "--resume", tasks="t2")) == 2  # changed settings are refused
    assert "tasks" in capsys.readouterr().err


DRIVER = textwrap.dedent('''
    import sys, time
    from apb.llm.replay import ReplayLLM
    from apb.planbench.runs import evaluate

    class Slow(ReplayLLM):
        def complete(self, messages, **kwargs):
            time.sleep(0.03)
            return super().complete(messages, **kwargs)

    llm = Slow(sys.argv[3])
    summary = evaluate("blocksworld_3", ["t8_2"], llm, sys.argv[1], engine="gpt-4_chat", concurrency=2,
                       resume=sys.argv[2] == "resume", progress=False)
    print(summary["answered"], summary["errors"])
''')


def test_a_run_killed_with_sigkill_resumes_with_nothing_lost_or_duplicated(tmp_path):
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    out = tmp_path / "run"
    process = subprocess.Popen([sys.executable, str(driver), str(out), "fresh", str(T8)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:  # kill once some records are written
        if (out / RESULTS_FILE).is_file() and len((out / RESULTS_FILE).read_text().splitlines()) >= 5:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    before = [json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines() if line.endswith("}")]
    assert 0 < len(before) < 100
    done = subprocess.run([sys.executable, str(driver), str(out), "resume", str(T8)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["100", "0"]
    lines = [json.loads(line) for line in (out / RESULTS_FILE).read_text().splitlines()]
    ids = [r["id"] for r in lines]
    assert len(ids) == len(set(ids)) == 100  # every prompt once: none lost, none asked twice
    assert all(r == next(x for x in lines if x["id"] == r["id"]) for r in before)  # kept as they were
    expected = released(T8)
    results = json.loads((out / "results" / "blocksworld_3" / "gpt-4_chat" / "task_8_2_full_to_partial.json")
                         .read_text())
    assert [r["instance_id"] for r in results["instances"]] == sorted(expected)
    assert all(r["llm_correct"] == expected[r["instance_id"]]["llm_correct"] for r in results["instances"])


README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readmes_planbench_example_runs_against_a_local_server_and_prints_the_leaderboard_row(tmp_path):
    """The README's one command (t1 on Blocksworld against a local OpenAI-compatible server), against
    apb.bench.llm_server on 127.0.0.1 answering each prompt with its instance's gold plan in PlanBench's words."""
    import re
    import shlex

    from apb.bench.llm_server import AnswerTable, LLMServer, message_key
    from apb.datasets.planbench import load_config
    from apb.planbench.instances import Instance
    from apb.planbench.prompts import prompt_file
    from apb.planbench.render import plan_lines

    [command] = [line for block in re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S)
                 for line in block.splitlines() if "apb planbench eval" in line]
    config = load_config("blocksworld")
    answers = {message_key(r["query"]): plan_lines(Instance(config, r["instance_id"]).plan, config.data)
               for r in prompt_file(config, "t1")["instances"][:20]}
    with LLMServer(AnswerTable(exact=answers)) as server:
        command = command.replace("http://localhost:8000/v1", server.url)
        for part in command.split("&&"):
            args = shlex.split(part)
            assert args[0] == "apb"
            done = subprocess.run([sys.executable, "-m", "apb", *args[1:]], capture_output=True, text=True,
                                  cwd=tmp_path, timeout=600)
            assert done.returncode == 0, done.stderr
    row = [line for line in done.stdout.splitlines() if " t1 " in line]
    assert len(row) == 1 and row[0].count("100.0") == 2 and " 20 " in row[0]  # every gold plan correct, both ways
    rows = [json.loads(line) for line in (tmp_path / "runs" / "pb" / RESULTS_FILE).read_text().splitlines()]
    assert len(rows) == 20 and all(r["official"] and r["sound"] for r in rows)

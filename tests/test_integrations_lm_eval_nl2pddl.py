"""`apb nl2pddl export --format lm-eval` (extra `lm-eval` to run the tasks): lm_eval runs them end to end, and their
scores equal `apb nl2pddl eval`'s on the same answers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lm_eval")

from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

from apb.integrations.lm_eval import flatten
from apb.llm import ScriptedLLM
from apb.nl2pddl import build_pairs
from apb.nl2pddl.runner import run_pairs

OFFLINE = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
METRICS = ("parseable", "solvable", "correct")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Blocksworld and gripper pairs, exported for lm-eval through the CLI (one task per domain)."""
    root = tmp_path_factory.mktemp("nl2pddl")
    rows = []
    for domain in ("blocksworld", "gripper"):
        for row in build_pairs(domain, 3, root / domain):
            if row.get("domain_file"):  # relative to its pairs file's folder: one file of both domains here
                row["domain_file"] = str((root / domain / row["domain_file"]).resolve())
            rows.append(row)
    pairs = root / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "apb", "nl2pddl", "export", "--format", "lm-eval",
                           str(root / "tasks"), "--pairs", str(pairs)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return pairs, rows, root / "tasks"


def answers_for(rows) -> dict[str, str]:
    """Description -> an answer: the gold problem, another pair's gold (parseable, not this one), or garbage."""
    table = {}
    for number, row in enumerate(rows):
        other = rows[(number + 1) % len(rows)]["problem_pddl"]
        table[row["natural_language"]] = [f"```pddl\n{row['problem_pddl']}\n```", other, "(define (problem"][number % 3]
    return table


def lookup(table: dict[str, str], text: str) -> str:
    [answer] = [a for key, a in table.items() if key in text]
    return answer


class TableLM(LM):
    def __init__(self, table):
        super().__init__()
        self.table = table

    def generate_until(self, requests, disable_tqdm=False):
        return [lookup(self.table, request.arguments[0]) for request in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError


def per_domain(results_file: Path) -> dict[str, dict[str, float]]:
    """apb nl2pddl eval's records as the exported tasks' means: task name -> metric -> mean."""
    rows = [json.loads(line) for line in results_file.read_text().splitlines()]
    out: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        name = "apb_nl2pddl_" + row["domain"].replace("-", "_").lower()
        for metric in METRICS:
            out.setdefault(name, {}).setdefault(metric, []).append(float(bool(row[metric])))
    return {name: {m: sum(v) / len(v) for m, v in metrics.items()} for name, metrics in out.items()}


def test_the_export_writes_a_task_per_domain_with_apbs_prompt_and_scorer(exported):
    _, rows, tasks = exported
    names = {p.stem for p in tasks.glob("*.yaml")}
    assert len(names) == 2 and all(n.startswith("apb_nl2pddl_") for n in names)
    assert "from apb.nl2pddl.runner import score_answer" in (tasks / "utils.py").read_text()
    records = [json.loads(line) for p in (tasks / "data").glob("*.jsonl") for line in p.read_text().splitlines()]
    assert sorted(r["id"] for r in records) == sorted(str(r["id"]) for r in rows)
    row = rows[0]
    [record] = [r for r in records if r["id"] == str(row["id"])]
    assert record["target"] == row["problem_pddl"] and row["natural_language"] in record["prompt"]
    assert "(:action" in record["prompt"]  # the domain's PDDL, as apb nl2pddl eval asks


def test_lm_eval_scores_equal_apb_nl2pddl_evals_on_the_same_answers(exported, tmp_path):
    pairs, rows, tasks = exported
    table = answers_for(rows)
    names = sorted(p.stem for p in tasks.glob("*.yaml"))
    result = simple_evaluate(model=TableLM(table), tasks=names, task_manager=TaskManager(include_path=str(tasks)))
    theirs = {name: {m: values[f"{m},none"] for m in METRICS} for name, values in result["results"].items()}
    run_pairs(pairs, ScriptedLLM(lambda messages: lookup(table, flatten(messages))), tmp_path / "apb")
    ours = per_domain(tmp_path / "apb" / "results.jsonl")
    assert theirs == ours
    correct = [v["correct"] for v in ours.values()]
    assert 0 < sum(correct) < len(correct)  # right and wrong answers both present


def test_the_lm_eval_command_runs_the_exported_tasks_on_the_dummy_model(exported, tmp_path):
    pairs, rows, tasks = exported
    lm_eval = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
    assert lm_eval, "the lm_eval command is not installed"
    done = subprocess.run([lm_eval, "--model", "dummy", "--include_path", str(tasks), "--tasks", "apb_nl2pddl",
                           "--output_path", str(tmp_path / "out")], capture_output=True, text=True, env=OFFLINE,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    [results] = list((tmp_path / "out").rglob("results_*.json"))
    scores = json.loads(results.read_text())["results"]
    # the dummy model answers "lol" to everything: apb nl2pddl eval scores the same answers the same way
    (tmp_path / "lol.json").write_text(json.dumps(["lol"] * len(rows)))
    done = subprocess.run([sys.executable, "-m", "apb", "nl2pddl", "eval", str(pairs), "--llm",
                           f"scripted:{tmp_path / 'lol.json'}", "--cache", "off", "--out", str(tmp_path / "apb")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ours = per_domain(tmp_path / "apb" / "results.jsonl")
    assert {name: {m: scores[name][f"{m},none"] for m in METRICS} for name in ours} == ours
    assert all(v == 0.0 for metrics in ours.values() for v in metrics.values())


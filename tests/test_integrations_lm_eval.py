"""`apb acp export --format lm-eval` (extra `lm-eval` to run the tasks): lm_eval runs them end to end, and their
scores equal `apb acp eval`'s on the same answers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lm_eval")

from balance import ENTRIES, SEEDS, assert_at_chance
from lm_eval import simple_evaluate
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

from apb.acp import generate, read_questions, write_questions
from apb.acp.evaluate import answer_text, evaluate
from apb.integrations.lm_eval import flatten
from apb.llm import ScriptedLLM

OFFLINE = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Ferry questions of two tasks in all three formats, exported for lm-eval through the CLI."""
    root = tmp_path_factory.mktemp("acp")
    questions, _ = generate("ferry", tasks=["app", "reach"], formats=["bool", "mcq", "gen"], count=2, seed=0)
    write_questions(questions, root / "questions")
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "export", "--format", "lm-eval", str(root / "tasks"),
                           "--questions", str(root / "questions")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return root, read_questions(root / "questions")


def answers_for(questions) -> dict[str, str]:
    """Question text -> an answer: the gold for every other question, a wrong or malformed one for the rest."""
    wrong = {"yes": "no", "no": "yes", "A": "B", "B": "C", "C": "D", "D": "A"}
    table = {}
    for number, q in enumerate(questions):
        gold = answer_text(q)
        table[q.question + "\n" + q.context] = gold if number % 2 == 0 else wrong.get(gold, "}{ lol")
    return table


def lookup(table: dict[str, str], text: str) -> str:
    [answer] = [a for key, a in table.items() if all(part in text for part in key.split("\n"))]
    return answer


class TableLM(LM):
    """An lm-eval model answering each prompt from a table (the scripted side of the comparison)."""

    def __init__(self, table):
        super().__init__()
        self.table = table

    def generate_until(self, requests, disable_tqdm=False):
        return [lookup(self.table, request.arguments[0]) for request in requests]

    def loglikelihood(self, requests, disable_tqdm=False):
        raise NotImplementedError

    def loglikelihood_rolling(self, requests, disable_tqdm=False):
        raise NotImplementedError


def per_group(results_file: Path, key: str) -> dict[str, float]:
    rows = [json.loads(line) for line in results_file.read_text().splitlines()]
    groups: dict[str, list[float]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(float(row[key]))
    return {group: sum(v) / len(v) for group, v in groups.items()}


def test_the_export_writes_yaml_data_and_a_scorer_calling_apb(exported):
    root, questions = exported
    tasks = root / "tasks"
    groups = {q.group for q in questions}
    assert {p.stem for p in tasks.glob("*.yaml")} == {f"apb_acp_{g}" for g in groups}
    assert "from apb.acp import" in (tasks / "utils.py").read_text()
    records = [json.loads(line) for g in groups for line in (tasks / "data" / f"{g}.jsonl").read_text().splitlines()]
    assert len(records) == len(questions)
    q = questions[0]
    [record] = [r for r in records if r["id"] == q.id]
    assert record["target"] == answer_text(q) and q.question in record["prompt"]


def test_lm_eval_scores_equal_apb_acp_evals_on_the_same_answers(exported, tmp_path):
    root, questions = exported
    table = answers_for(questions)
    tasks = sorted(p.stem for p in (root / "tasks").glob("*.yaml"))
    result = simple_evaluate(model=TableLM(table), tasks=tasks,
                             task_manager=TaskManager(include_path=str(root / "tasks")))
    theirs = {name.removeprefix("apb_acp_"): values for name, values in result["results"].items()}
    llm = ScriptedLLM(lambda messages: lookup(table, flatten(messages)))
    evaluate(questions, llm, tmp_path / "apb", shots=0, progress=False)
    for key in ("official", "sound"):
        ours = per_group(tmp_path / "apb" / "results.jsonl", key)
        assert {g: theirs[g][f"{key},none"] for g in ours} == ours
    assert 0 < sum(per_group(tmp_path / "apb" / "results.jsonl", "official").values()) < len(theirs)


def test_the_lm_eval_command_runs_the_exported_tasks_on_the_dummy_model(exported, tmp_path):
    root, questions = exported
    lm_eval = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
    assert lm_eval, "the lm_eval command is not installed"
    done = subprocess.run([lm_eval, "--model", "dummy", "--include_path", str(root / "tasks"), "--tasks", "apb_acp",
                           "--output_path", str(tmp_path / "out")], capture_output=True, text=True, env=OFFLINE,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    [results] = list((tmp_path / "out").rglob("results_*.json"))
    scores = json.loads(results.read_text())["results"]
    assert len(scores) == len({q.group for q in questions})
    # the dummy model answers "lol" to everything: apb acp eval scores the same answers the same way
    (tmp_path / "lol.json").write_text(json.dumps(["lol"] * len(questions)))
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "eval", str(root / "questions"), "--llm",
                           f"scripted:{tmp_path / 'lol.json'}", "--shots", "0", "--cache", "off", "--no-progress",
                           "--out", str(tmp_path / "apb")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ours = per_group(tmp_path / "apb" / "results.jsonl", "official")
    assert {g: scores[f"apb_acp_{g}"]["official,none"] for g in ours} == ours


@pytest.mark.parametrize("seed", SEEDS)
def test_a_constant_answer_scores_at_chance_on_the_exported_tasks(seed, tmp_path):
    """The exported docs (`apb acp generate` -> `apb acp export`) scored by the export's own process_results: each
    constant answer (yes, no, A..D) at chance."""
    import importlib.util

    questions, _ = generate("ferry", tasks=["app"], formats=["bool", "mcq"], count=ENTRIES, seed=seed)
    write_questions(questions, tmp_path / "questions")
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "export", str(tmp_path / "tasks"), "--questions",
                           str(tmp_path / "questions")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    spec = importlib.util.spec_from_file_location(f"apb_export_utils_{seed}", tmp_path / "tasks" / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)
    for fmt, group in (("bool", "applicable_actions_bool"), ("mcq", "applicable_actions_mc")):
        docs = [json.loads(line) for line in (tmp_path / "tasks" / "data" / f"{group}.jsonl").read_text().splitlines()]
        assert len(docs) == ENTRIES
        assert_at_chance(fmt, docs, lambda answer, doc: utils.process_results(doc, [answer])["sound"],
                         f"{group} seed {seed}")


def test_the_command_the_export_prints_runs_against_an_openai_compatible_server(exported, tmp_path):
    """It printed `lm_eval --include_path DIR --tasks apb_acp`, which runs lm-eval's default `hf` model (PyTorch,
    weights): the printed command now names the API model, and runs as printed."""
    import shlex

    from apb.bench.llm_server import LLMServer

    root, _ = exported
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "export", "--format", "lm-eval", str(tmp_path / "t"),
                           "--questions", str(root / "questions")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [command] = [line for line in done.stdout.splitlines() if line.startswith("lm_eval ")]
    assert "--model local-chat-completions" in command and "--apply_chat_template" in command
    with LLMServer() as server:
        env = {**OFFLINE, **server.env()}
        args = [a.replace("$OPENAI_BASE_URL", server.url)
                for a in shlex.split(command.replace("model=MODEL", "model=apb-scripted"))]
        lm_eval = shutil.which("lm_eval", path=str(Path(sys.executable).parent)) or shutil.which("lm_eval")
        ran = subprocess.run([lm_eval, *args[1:], "--limit", "1", "--output_path", str(tmp_path / "out")],
                             capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
        assert ran.returncode == 0, ran.stderr[-3000:]
        assert server.requests  # the answers came from the server
    assert list((tmp_path / "out").rglob("results_*.json"))

"""`apb planbench export --format lm-eval` (extra `lm-eval` to run the tasks): lm_eval runs them end to end, and their
scores equal `apb planbench eval`'s on the same answers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("lm_eval")

from lm_eval import simple_evaluate
from lm_eval.tasks import TaskManager
from test_integrations_lm_eval import TableLM

from apb.integrations.lm_eval import flatten
from apb.llm import ScriptedLLM
from apb.planbench.prompts import prompt_task
from apb.planbench.questions import gold_answer, questions
from apb.planbench.runs import evaluate

CONFIG, TASKS, INSTANCES = "blocksworld_3", ("t1", "t3", "t7"), "2-7"  # one-shot files start at 2


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Three of blocksworld_3's tasks, six prompts each, exported for lm-eval through the CLI."""
    root = tmp_path_factory.mktemp("planbench")
    done = subprocess.run([sys.executable, "-m", "apb", "planbench", "export", "--format", "lm-eval",
                           str(root / "tasks"), "--config", CONFIG, "--tasks", ",".join(TASKS), "--instances",
                           INSTANCES], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    items = [q for t in TASKS for q in questions(CONFIG, t, instances=set(range(2, 8)))]
    return root, items


def answers_for(items) -> dict[str, str]:
    """Prompt text -> an answer: the gold for every other prompt; a hedge, a wrong verdict or nonsense for the rest."""
    table = {}
    for number, q in enumerate(items):
        gold = gold_answer(q)
        bad = ("I think maybe:\n" + gold) if number % 3 == 1 else "}{ lol"
        table[q.record["query"]] = gold if number % 2 == 0 else bad
    return table


def lookup(table: dict[str, str], text: str) -> str:
    [answer] = [a for query, a in table.items() if query.strip() in text]  # lm-eval strips the prompt's end
    return answer


class QueryLM(TableLM):
    """test_integrations_lm_eval's table model, answering by the prompt's query."""

    def generate_until(self, requests, disable_tqdm=False):
        return [lookup(self.table, request.arguments[0]) for request in requests]


def test_the_export_writes_a_task_per_planbench_task_and_a_scorer_calling_apb(exported):
    root, items = exported
    tasks = root / "tasks"
    assert {p.stem for p in tasks.glob("*.yaml")} == {f"apb_planbench_{CONFIG}_{t}" for t in TASKS}
    assert "from apb.planbench.questions import" in (tasks / "utils.py").read_text()
    rows = [json.loads(line) for p in sorted((tasks / "data").glob("*.jsonl")) for line in p.read_text().splitlines()]
    assert len(rows) == len(items) == 18
    [row] = [r for r in rows if r["id"] == items[0].id]
    assert row["prompt"] == flatten(items[0].messages()) and row["target"] == gold_answer(items[0])


def test_lm_eval_scores_equal_apb_planbench_evals_on_the_same_answers(exported, tmp_path):
    root, items = exported
    table = answers_for(items)
    names = sorted(p.stem for p in (root / "tasks").glob("*.yaml"))
    result = simple_evaluate(model=QueryLM(table), tasks=names,
                             task_manager=TaskManager(include_path=str(root / "tasks")))
    llm = ScriptedLLM(lambda messages: lookup(table, messages[-1]["content"]))
    evaluate(CONFIG, list(TASKS), llm, tmp_path / "apb", instances=set(range(2, 8)), progress=False, cache="off")
    rows = [json.loads(line) for line in (tmp_path / "apb" / "results.jsonl").read_text().splitlines()]
    short = {prompt_task(t)[1]: t for t in TASKS}
    for key in ("official", "sound"):
        ours = {}
        for row in rows:
            ours.setdefault(short[row["task"]], []).append(float(row[key]))
        assert {t: result["results"][f"apb_planbench_{CONFIG}_{t}"][f"{key},none"] for t in TASKS} == {
            t: sum(v) / len(v) for t, v in ours.items()}
    sound = [float(r["sound"]) for r in rows]
    assert sum(sound) == 9  # the golds earn the reward; the hedges, wrong answers and nonsense do not

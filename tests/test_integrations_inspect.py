"""Inspect AI tasks (extra `inspect`): apb/game through the entry point, scored by goal reached; offline, with
Inspect's mock model."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from apb.agents.act import english_action
from apb.integrations.game import GameSession
from apb.integrations.inspect_tasks import game


def scripted(texts):
    """Mock-model outputs with usage set (so the mock model counts no tokens, which needs a download)."""
    for text in texts:
        output = ModelOutput.from_content("mockllm/model", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        yield output


def gold_english(problem: int) -> list[str]:
    session = GameSession("blocksworld")
    session.reset(problem=problem)
    return [english_action(a, session.info) for a in session.info["gold_plan"]]


def run(task, outputs, tmp_path):
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def test_a_scripted_correct_transcript_scores_1_with_lengths_and_every_turn_logged(tmp_path):
    plan = gold_english(1)
    log = run(game(domain="blocksworld", problems="1"), scripted(plan), tmp_path)
    [sample] = log.samples
    [score] = sample.scores.values()
    assert score.value == "C"
    assert score.metadata["plan_length"] == score.metadata["optimal_length"] == len(plan) == 10
    assert score.metadata["invalid_actions"] == 0 and score.metadata["stop_reason"] == "goal"
    assert len([e for e in sample.events if e.event == "model"]) == len(plan)  # every turn in the log
    assert sample.messages[-1].text == plan[-1]
    assert log.results.scores[0].metrics["accuracy"].value == 1.0


def test_a_wrong_or_malformed_transcript_scores_0_without_a_crash(tmp_path):
    texts = ["stack block_a on top of block_b"] + ["}}}{{ not an action"] * 40
    log = run(game(domain="blocksworld", problems="1", max_steps=5, translator="template"), scripted(texts),
              tmp_path)
    [sample] = log.samples
    [score] = sample.scores.values()
    assert score.value == "I"
    assert score.metadata["steps"] == 5 and score.metadata["invalid_actions"] == 5
    first = score.metadata["transcript"][0]
    assert first["action"] == "(stack block_a block_b)" and not first["valid"]
    assert "because" in first["observation"]  # apb's explanation of the failure, not a bare "invalid"


def test_task_parameters_select_problems_agent_and_are_checked():
    task = game(domain="gripper", problems="1,3", agent="react", description="rule")
    assert [s.metadata["problem_id"] for s in task.dataset] == ["p01", "p03"]
    assert {s.metadata["spec"]["agent"] for s in task.dataset} == {"react"}
    from apb.eval.plan import EvalError

    with pytest.raises(EvalError, match="unknown agent"):
        game(domain="blocksworld", problems="1", agent="telepathy")


def test_inspect_eval_apb_game_on_the_command_line_writes_a_log(tmp_path):
    assert any(ep.name == "apb" for ep in entry_points(group="inspect_ai")), \
        "apb's inspect_ai entry point is not installed: reinstall apb (pip install -e '.[inspect]')"
    inspect = shutil.which("inspect", path=str(Path(sys.executable).parent)) or shutil.which("inspect")
    assert inspect, "the inspect command is not installed"
    env = {**os.environ, "INSPECT_LOG_DIR": str(tmp_path / "logs")}
    done = subprocess.run([inspect, "eval", "apb/game", "-T", "domain=blocksworld", "-T", "problems=1-2",
                           "--model", "mockllm/model", "--display", "none"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    [path] = list((tmp_path / "logs").glob("*.eval"))
    log = read_eval_log(str(path))
    assert log.status == "success" and len(log.samples) == 2
    # the mock model's default answer is no action: both episodes end without the goal
    assert all(next(iter(s.scores.values())).value == "I" for s in log.samples)


def answering(table, default="}}} no idea"):
    """A mock-model callable: the answer for the sample whose last user message is a key of `table`."""

    def outputs(messages, tools, tool_choice, config):
        text = table.get(messages[-1].text, default)
        return next(scripted([text]))

    return outputs


def test_acp_questions_scored_by_apbs_scorer_right_wrong_and_malformed(tmp_path):
    from apb.acp import extract, generate, score
    from apb.acp.evaluate import answer_text
    from apb.integrations.inspect_tasks import acp

    task = acp(domain="ferry", tasks="app,reach", formats="bool,mcq,gen", count=1, seed=0, shots=1)
    questions, _ = generate("ferry", tasks=["app", "reach"], formats=["bool", "mcq", "gen"], count=1, seed=0)
    assert len(task.dataset) == len(questions) >= 5
    by_text = {s.input[-1].text: s for s in task.dataset}
    right = {text: s.target for text, s in by_text.items()}
    log = run(task, answering(right), tmp_path / "right")
    for sample in log.samples:
        [value] = sample.scores.values()
        assert value.value == {"official": 1.0, "sound": 1.0}, (sample.id, value)
    wrong_answers = {"yes": "no", "no": "yes", "A": "B", "B": "A", "C": "A", "D": "A"}
    wrong = {text: wrong_answers.get(s.target, "(drive-truck nowhere)") for text, s in by_text.items()}
    log = run(acp(domain="ferry", tasks="app,reach", formats="bool,mcq,gen", count=1, seed=0, shots=1),
              answering(wrong), tmp_path / "wrong")
    by_id = {f"{q.group}-{q.id}": q for q in questions}
    for sample in log.samples:
        [value] = sample.scores.values()
        q = by_id[sample.id]
        expected = score(q, extract(wrong[sample.input[-1].text], q.task, q.format, (q.choices or {}).get("text")))
        assert value.value["official"] == float(expected.official)  # the same verdict as apb acp eval's
        if q.format != "gen":
            assert value.value["official"] == 0.0
    log = run(acp(domain="ferry", tasks="app", formats="bool", count=1, seed=0), answering({}), tmp_path / "bad")
    assert all(next(iter(s.scores.values())).value == {"official": 0.0, "sound": 0.0} for s in log.samples)
    assert answer_text(questions[0])  # the target is what a model is asked to write


def test_nl2pddl_scores_the_gold_problem_correct_and_garbage_unparseable(tmp_path):
    from apb.integrations.inspect_tasks import nl2pddl

    task = nl2pddl(dataset="blocksworld", count=2)
    gold = {s.input[-1].text: s.target for s in task.dataset}
    log = run(task, answering(gold), tmp_path / "gold")
    assert len(log.samples) >= 2
    for sample in log.samples:
        assert next(iter(sample.scores.values())).value == {"parseable": 1.0, "solvable": 1.0, "correct": 1.0}
    log = run(nl2pddl(dataset="blocksworld", count=2), answering({}), tmp_path / "garbage")
    for sample in log.samples:
        assert next(iter(sample.scores.values())).value == {"parseable": 0.0, "solvable": 0.0, "correct": 0.0}

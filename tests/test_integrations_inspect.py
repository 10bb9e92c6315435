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

from balance import ENTRIES, SEEDS, assert_at_chance
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
    # `inspect eval -T problems=1,3` passes a list (Inspect splits on commas): the same problems
    assert [s.metadata["problem_id"] for s in game(domain="gripper", problems=["1", "3"]).dataset] == ["p01", "p03"]
    from apb.eval.episode_specs import EvalError

    with pytest.raises(EvalError, match="unknown agent"):
        game(domain="blocksworld", problems="1", agent="telepathy")


SHIM = Path(__file__).resolve().parent / "tiktoken_shim"  # o200k_base without a download, for the mock model


def offline_env(tmp_path) -> dict:
    """The environment of an `inspect eval` subprocess: logs in tmp_path, and the tiktoken stand-in on PYTHONPATH
    (the mock model counts the tokens of its default answer with o200k_base, which tiktoken would download)."""
    path = os.pathsep.join(p for p in (str(SHIM), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "INSPECT_LOG_DIR": str(tmp_path / "logs"), "PYTHONPATH": path}


@pytest.fixture
def offline_tokens(monkeypatch):
    """In this process: the same stand-in, for mock outputs without usage (the mock model then counts tokens)."""
    import importlib.util

    import tiktoken.registry

    monkeypatch.setitem(tiktoken.registry.ENCODINGS, "o200k_base", None)  # restored (or removed) after the test
    spec = importlib.util.spec_from_file_location("apb_test_tiktoken_shim", SHIM / "sitecustomize.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


def inspect_command() -> str:
    assert any(ep.name == "apb" for ep in entry_points(group="inspect_ai")), \
        "apb's inspect_ai entry point is not installed: reinstall apb (pip install -e '.[inspect]')"
    inspect = shutil.which("inspect", path=str(Path(sys.executable).parent)) or shutil.which("inspect")
    assert inspect, "the inspect command is not installed"
    return inspect


def sample_errors(sample) -> list:
    """What went wrong in a sample: Inspect's error, or the error an apb episode recorded."""
    [score] = sample.scores.values()
    return [e for e in (sample.error, (score.metadata or {}).get("error")) if e]


@pytest.mark.parametrize("task, args, samples", [
    ("apb/game", ["domain=blocksworld", "problems=1-2"], 2),
    ("apb/acp", ["domain=ferry", "tasks=app,reach", "formats=bool,gen", "count=1"], 4),
    ("apb/nl2pddl", ["dataset=blocksworld", "count=2"], 2),
    ("apb/planbench", ["config=blocksworld_3", "task=t1", "instances=2-3"], 2),  # t1's first is instance 2
])
def test_inspect_eval_on_the_command_line_runs_every_sample_without_an_error(task, args, samples, tmp_path):
    command = [inspect_command(), "eval", task, *[a for arg in args for a in ("-T", arg)], "--model", "mockllm/model",
               "--display", "none"]
    done = subprocess.run(command, cwd=tmp_path, env=offline_env(tmp_path), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    [path] = list((tmp_path / "logs").glob("*.eval"))
    log = read_eval_log(str(path))
    assert log.status == "success" and len(log.samples) == samples
    for sample in log.samples:
        assert sample_errors(sample) == [], sample.id
        [score] = sample.scores.values()
        # the mock model's default answer ("Default output from mockllm/model") is no action and no answer
        assert score.value in ("I", {"official": 0.0, "sound": 0.0},
                               {"parseable": 0.0, "solvable": 0.0, "correct": 0.0}), (sample.id, score.value)
    if task == "apb/game":  # the episodes were played: the agent sent the mock's text, the env explained
        for sample in log.samples:
            [score] = sample.scores.values()
            assert score.metadata["steps"] > 0 and score.metadata["stop_reason"] != "error"
            assert score.metadata["transcript"][0]["observation"].startswith("I cannot")


def test_the_tasks_by_their_registered_names_score_1_for_right_and_0_for_wrong_answers(offline_tokens, tmp_path):
    """apb/game, apb/acp and apb/nl2pddl as `inspect eval` finds them (the entry point), the mock model's answers
    without usage (so it counts tokens, as on the command line): right scores 1, wrong 0, no sample errors."""
    def plain(texts):
        return (ModelOutput.from_content("mockllm/model", t) for t in texts)

    def play(task, args, outputs, where):
        model = get_model("mockllm/model", custom_outputs=outputs)
        [log] = inspect_eval(task, task_args=args, model=model, log_dir=str(tmp_path / where), display="none")
        assert log.status == "success", log.error
        log = read_eval_log(log.location)
        assert all(sample_errors(s) == [] for s in log.samples)
        return [next(iter(s.scores.values())).value for s in log.samples]

    game_args = {"domain": "blocksworld", "problems": "1", "max_steps": 12}
    assert play("apb/game", game_args, plain(gold_english(1)), "game-right") == ["C"]
    assert play("apb/game", game_args, plain(["stack block_a on top of block_b"] * 12), "game-wrong") == ["I"]
    acp_args = {"domain": "ferry", "tasks": "app", "formats": "bool", "count": 1, "shots": 0}
    from apb.integrations.inspect_tasks import acp, nl2pddl

    gold = {s.input[-1].text: s.target for s in acp(**acp_args).dataset}
    flip = {text: {"yes": "no", "no": "yes"}[target] for text, target in gold.items()}
    assert play("apb/acp", acp_args, answering(gold, usage=False), "acp-right") == [
        {"official": 1.0, "sound": 1.0}] * len(gold)
    assert play("apb/acp", acp_args, answering(flip, usage=False), "acp-wrong") == [
        {"official": 0.0, "sound": 0.0}] * len(gold)
    nl_args = {"dataset": "blocksworld", "count": 1}
    problems = {s.input[-1].text: s.target for s in nl2pddl(**nl_args).dataset}
    assert play("apb/nl2pddl", nl_args, answering(problems, usage=False), "nl-right") == [
        {"parseable": 1.0, "solvable": 1.0, "correct": 1.0}]
    assert play("apb/nl2pddl", nl_args, answering({}, usage=False), "nl-wrong") == [
        {"parseable": 0.0, "solvable": 0.0, "correct": 0.0}]


def answering(table, default="}}} no idea", usage=True):
    """A mock-model callable: the answer for the sample whose last user message is a key of `table` (with usage set
    unless `usage=False`, when the mock model counts the tokens)."""

    def outputs(messages, tools, tool_choice, config):
        text = table.get(messages[-1].text, default)
        return next(scripted([text])) if usage else ModelOutput.from_content("mockllm/model", text)

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


def test_planbench_scored_by_planbenchs_verdict_and_apbs_sound_one(tmp_path):
    """apb/planbench: the gold scores 1 on both verdicts; a plan buried in a hedge earns PlanBench's verdict (its
    reading takes the action lines) but not apb's; nonsense scores 0; each equals `apb planbench eval`'s."""
    from apb.integrations.inspect_tasks import planbench
    from apb.planbench.questions import questions, verdict

    args = {"config": "blocksworld_3", "task": "t1", "instances": "2-4"}
    task = planbench(**args)
    assert len(task.dataset) == 3
    gold = {s.input[-1].text: s.target for s in task.dataset}
    log = run(task, answering(gold), tmp_path / "gold")
    assert [next(iter(s.scores.values())).value for s in log.samples] == [{"official": 1.0, "sound": 1.0}] * 3
    hedged = {text: "I am not sure, maybe:\n" + target for text, target in gold.items()}
    log = run(planbench(**args), answering(hedged), tmp_path / "hedge")
    assert [next(iter(s.scores.values())).value for s in log.samples] == [{"official": 1.0, "sound": 0.0}] * 3
    by_query = {q.record["query"]: q for q in questions("blocksworld_3", "t1", instances={2, 3, 4})}
    log = run(planbench(**args), answering({}), tmp_path / "nonsense")
    for sample in log.samples:
        expected = verdict(by_query[sample.input[-1].text], "}}} no idea")
        assert next(iter(sample.scores.values())).value == {"official": float(expected["official"]),
                                                             "sound": float(expected["sound"])} == {
            "official": 0.0, "sound": 0.0}


def failing_model(messages, tools, tool_choice, config):
    raise ConnectionError("401 Unauthorized: invalid API key")


@pytest.mark.parametrize("make", [lambda: game(domain="blocksworld", problems="1", max_steps=3),
                                  lambda: __import__("apb.integrations.inspect_tasks", fromlist=["x"]).nl2pddl(
                                      dataset="blocksworld", count=1)],
                         ids=["game", "nl2pddl"])
def test_a_model_error_is_the_samples_error_never_a_wrong_answer(make, tmp_path):
    """apb/game recorded a 401 as a failed episode (log status success, accuracy 0), so retries never fired."""
    model = get_model("mockllm/model", custom_outputs=failing_model)
    [log] = inspect_eval(make(), model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "error"
    assert "401 Unauthorized" in str(log.error)
    [sample] = read_eval_log(log.location).samples
    assert sample.error is not None and "401 Unauthorized" in sample.error.message and not sample.scores


@pytest.mark.parametrize("seed", SEEDS)
def test_acp_samples_have_balanced_targets_so_a_constant_answer_scores_at_chance(seed):
    from apb.integrations.inspect_tasks import acp

    samples = list(acp(domain="ferry", tasks="app", formats="bool,mcq", count=ENTRIES, seed=seed).dataset)
    for fmt in ("bool", "mcq"):
        mine = [s for s in samples if s.metadata["question"]["format"] == fmt]
        assert len(mine) == ENTRIES
        assert_at_chance(fmt, mine, lambda answer, sample: answer == sample.target, f"{fmt} seed {seed}")


def test_a_model_that_always_says_yes_scores_half_through_inspect_eval(tmp_path):
    from apb.integrations.inspect_tasks import acp

    task = acp(domain="ferry", tasks="app", formats="bool", count=40, seed=0)
    log = run(task, scripted(["yes"] * 40), tmp_path)
    scores = [next(iter(s.scores.values())).value["sound"] for s in log.samples]
    assert len(scores) == 40 and sum(scores) == 20


def test_no_seed_or_stop_is_sent_where_inspects_responses_api_ignores_them():
    """Inspect's OpenAI provider warns on every call that the Responses API ignores `seed` (and `stop_seqs`); the
    stop sequences are applied to the answer instead."""
    import asyncio

    from apb.integrations.inspect_tasks import InspectLLM

    seen = []

    class Api:
        responses_api = True

    class Model:
        api = Api()

        async def generate(self, chat, config):
            seen.append(config)
            return next(scripted(["(pick-up a)\nObservation: more"]))

    message = [{"role": "user", "content": "act"}]
    answer = asyncio.run(InspectLLM(Model()).acomplete(message, seed=3, stop=["\nObservation"]))
    assert seen[-1].seed is None and seen[-1].stop_seqs is None and answer.text == "(pick-up a)"
    Api.responses_api = False  # chat completions take both
    answer = asyncio.run(InspectLLM(Model()).acomplete(message, seed=3, stop=["\nObservation"]))
    assert seen[-1].seed == 3 and seen[-1].stop_seqs == ["\nObservation"]
    assert answer.text == "(pick-up a)\nObservation: more"  # the server applies them (this one does not)

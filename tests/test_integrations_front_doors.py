"""The LLM-eval frameworks through their own front doors, as their users run them: each framework's command line
(`inspect eval`, `lm_eval`) in a subprocess, its OpenAI-compatible client pointed by the environment at a model
server the test owns (apb.bench.llm_server, on 127.0.0.1). The README's commands themselves run in
test_integrations_readme.py; this file checks the providers and failures users meet."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from apb.bench.llm_server import AnswerTable, LLMServer


# ---- Inspect AI -----------------------------------------------------------------------------------------------
def command(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"the {name} command is not installed"
    return found


def gold_plans(domain: str, problems) -> dict[str, list[str]]:
    """The task text of each problem (what the game's first user message holds) -> its gold plan in English."""
    from apb.agents.act import english_action
    from apb.integrations.game import GameSession

    plans = {}
    for problem in problems:
        session = GameSession(domain)
        task = session.reset(problem=problem)
        plans[task] = [english_action(a, session.info) for a in session.info["gold_plan"]]
        session.close()
    return plans


def inspect_eval(args: list[str], server: LLMServer, tmp_path: Path, *, extra_env: dict | None = None):
    """`inspect eval ARGS` against the server; returns (completed process, the run's log read back)."""
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    logs = tmp_path / "logs"
    env = {**os.environ, **server.env(), "INSPECT_LOG_DIR": str(logs), **(extra_env or {})}
    done = subprocess.run([command("inspect"), "eval", *args, "--display", "none"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    paths = list(logs.glob("*.eval"))
    assert len(paths) == 1, (done.returncode, done.stderr[-3000:])
    return done, read_eval_log(str(paths[0]))


GAME = ["apb/game", "-T", "domain=blocksworld", "-T", "problems=1-2"]


def test_inspect_game_with_an_openai_model_playing_the_gold_plan_scores_1(tmp_path):
    plans = gold_plans("blocksworld", [1, 2])
    with LLMServer(AnswerTable(markers=plans)) as server:
        done, log = inspect_eval([*GAME, "--model", "openai/gpt-4o-mini"], server, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert log.status == "success" and log.eval.model == "openai/gpt-4o-mini"
    assert log.results.scores[0].metrics["accuracy"].value == 1.0
    assert len(log.samples) == 2
    for sample in log.samples:
        [score] = sample.scores.values()
        assert score.value == "C" and score.metadata["stop_reason"] == "goal"
        assert score.metadata["plan_length"] == score.metadata["optimal_length"]
        assert len([e for e in sample.events if e.event == "model"]) == score.metadata["plan_length"]
    # every turn went to the server, as the OpenAI client sends it
    assert len(server.requests) == sum(len(p) for p in plans.values())
    assert {r["model"] for r in server.requests} == {"gpt-4o-mini"}


@pytest.mark.parametrize("mode, options, error", [
    ("401", [], "401"),  # not retried: Inspect stops at a refused key
    ("500", ["--max-retries", "1"], "InternalServerError"),  # after Inspect's (and the OpenAI client's) retries
])
def test_inspect_game_against_a_failing_server_ends_with_the_logs_status_error(mode, options, error, tmp_path):
    """A model error is the sample's error and the run's (status `error`), not an episode scored 0."""
    with LLMServer(status=int(mode)) as server:
        _, log = inspect_eval([*GAME, "--model", "openai/gpt-4o-mini", *options], server, tmp_path)
    assert server.requests  # the model was asked, and failed
    assert log.status == "error", [next(iter(s.scores.values())).metadata for s in log.samples or [] if s.scores]
    assert error in log.error.message
    assert all(s.error is not None and not s.scores for s in log.samples or [])


def acp_gold(args: dict) -> dict[str, str]:
    from apb.integrations.inspect_tasks import acp

    return {s.input[-1].text: s.target for s in acp(**args).dataset}


def test_inspect_acp_through_an_ollama_style_provider_scores_the_gold_answers_1(tmp_path):
    """`--model ollama/NAME` with OLLAMA_BASE_URL: the provider of a local OpenAI-compatible server."""
    args = {"domain": "ferry", "tasks": "app", "formats": "bool,mcq", "count": 1}
    with LLMServer(AnswerTable(texts=acp_gold(args))) as server:
        done, log = inspect_eval(["apb/acp", *[a for k, v in args.items() for a in ("-T", f"{k}={v}")],
                                  "--model", "ollama/llama3.2"], server, tmp_path)
    assert done.returncode == 0 and log.status == "success", done.stderr[-3000:]
    assert len(log.samples) == 2
    assert [next(iter(s.scores.values())).value for s in log.samples] == [{"official": 1.0, "sound": 1.0}] * 2
    assert {r["model"] for r in server.requests} == {"llama3.2"}


def test_inspect_nl2pddl_through_a_vllm_server_scores_the_gold_problem_correct(tmp_path):
    """`--model vllm/NAME` with VLLM_BASE_URL: Inspect connects to the running server instead of starting vLLM."""
    from apb.integrations.inspect_tasks import nl2pddl

    gold = {s.input[-1].text: s.target for s in nl2pddl(dataset="blocksworld", count=1).dataset}
    with LLMServer(AnswerTable(texts=gold)) as server:
        done, log = inspect_eval(["apb/nl2pddl", "-T", "dataset=blocksworld", "-T", "count=1", "--model",
                                  "vllm/HuggingFaceTB/SmolLM2-135M-Instruct"], server, tmp_path)
    assert done.returncode == 0 and log.status == "success", done.stderr[-3000:]
    [sample] = log.samples
    assert next(iter(sample.scores.values())).value == {"parseable": 1.0, "solvable": 1.0, "correct": 1.0}
    assert {r["model"] for r in server.requests} == {"HuggingFaceTB/SmolLM2-135M-Instruct"}

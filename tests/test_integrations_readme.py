"""The README's "Use apb from other frameworks" examples run as written where their framework is installed: its
`py` blocks (with the outputs they state), its `apb` commands, and the frameworks' own commands (`inspect eval`,
`lm_eval`, `vf-eval`) against a local OpenAI-compatible server the test starts (apb.bench.llm_server), answering
with the gold plans and answers, so each command's scores are 1.0 (`apb serve` runs in test_integrations_openenv.py).
Paths under /tmp/ move to the test's folder; `$OPENAI_BASE_URL` and the like are the server's."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from string import Template

import pytest

from apb.bench.llm_server import AnswerTable, LLMServer

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"
TESTS = Path(__file__).resolve().parent


def section() -> str:
    return GUIDE.read_text(encoding="utf-8").split("## Use apb from other frameworks", 1)[1]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section(), flags=re.S)


def needs(code: str) -> list[str]:
    """The top-level modules a block imports that are not apb (the frameworks it needs)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    frameworks = {"integrations.verifiers": "verifiers", "integrations.openenv": "openenv",
                  "integrations.reasoning_gym": "reasoning_gym", "integrations.inspect_tasks": "inspect_ai",
                  "integrations.gem": "gem"}
    for part, module in frameworks.items():
        if part in code:
            names.add(module)
    return sorted(names - {"apb"})


def test_the_section_has_examples_for_every_framework():
    text = section()
    for name in ("inspect eval apb/game", "load_environment", "apb serve openenv", "apb_blocksworld",
                 "apb acp export --format lm-eval", "gem.make", "apb nl2pddl export --format lm-eval"):
        assert name in text
    assert len(blocks("py")) >= 3


@pytest.mark.parametrize("index", range(len(blocks("py"))))
def test_python_example_runs_and_prints_what_it_says(index, capsys):
    code = blocks("py")[index]
    for module in needs(code):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (an optional extra)")
    exec(compile(code, f"README integrations block {index + 1}", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out.splitlines()
    stated = [line.split("# -> ", 1)[1].strip() for line in code.splitlines() if "print(" in line and "# -> " in line]
    assert printed == stated


def test_apb_commands_of_the_section_exit_0(tmp_path):
    commands = [line.strip() for block in blocks("sh") for line in block.splitlines()
                if line.strip().startswith("apb ") and not line.strip().startswith("apb serve")]
    assert commands
    for command in commands:
        args = [a.replace("/tmp/", f"{tmp_path}/") for a in shlex.split(command)][1:]
        done = subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)


# ---- the frameworks' own commands, as written -----------------------------------------------------------------
def lines(prefix: str) -> list[str]:
    return [line.strip() for block in blocks("sh") for line in block.splitlines() if line.strip().startswith(prefix)]


def as_run(command: str, tmp_path: Path, env: dict) -> list[str]:
    """The command's arguments with /tmp/ moved to tmp_path and $VARIABLES from env (as a shell would)."""
    return [Template(a).safe_substitute(env).replace("/tmp/", f"{tmp_path}/") for a in shlex.split(command)]


def executable(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"the {name} command is not installed"
    return found


def task_args(args: list[str]) -> dict[str, str]:
    return dict(args[i + 1].split("=", 1) for i, a in enumerate(args) if a == "-T")


class Gold(AnswerTable):
    """The server's answers: a game's next gold action (`markers`), else the gold answer of the question asked
    (`texts`), for the commands about to run."""

    def learn_inspect(self, args: list[str]) -> None:
        """The gold of the samples `inspect eval TASK -T ...` will ask about (only those: a game's task text is also
        the description an nl2pddl sample gives)."""
        from apb.integrations import inspect_tasks

        self.markers, self.texts = {}, {}
        task, options = args[2], task_args(args)
        built = getattr(inspect_tasks, task.split("/", 1)[1])(**options)
        for sample in built.dataset:
            if task == "apb/game":
                self.learn_plan(options["domain"], sample.metadata["spec"]["problem"])
            else:
                self.texts[sample.input[-1].text] = sample.target

    def learn_games(self, domain: str, problems: str) -> None:
        """The gold plans of a selection of problems (as `apb eval` reads `problems`)."""
        from apb.eval.episode_specs import parse_problems, resolve_problems

        self.markers, self.texts = {}, {}
        for problem in resolve_problems(domain, "test", parse_problems(problems)):
            self.learn_plan(domain, problem)

    def learn_plan(self, domain: str, problem) -> None:
        from apb.agents.act import english_action
        from apb.integrations.game import GameSession

        session = GameSession(domain)
        text = session.reset(problem=problem)
        self.markers[text] = [english_action(a, session.info) for a in session.info["gold_plan"]]
        session.close()

    def learn_exports(self, apb_commands: list[list[str]]) -> None:
        """The gold of the questions and pairs the section's `apb ... export` commands exported."""
        from apb.acp import read_questions
        from apb.acp.evaluate import answer_text, build_messages
        from apb.nl2pddl.cli import pairs_file
        from apb.nl2pddl.planetarium import normalise, read_rows
        from apb.nl2pddl.runner import domain_file_for, messages_for

        self.markers, self.texts = {}, {}
        for args in apb_commands:
            if "--questions" in args:
                for q in read_questions(args[args.index("--questions") + 1]):
                    self.texts[build_messages(q, [], False)[-1]["content"]] = answer_text(q)
            if "--pairs" in args:
                pairs = Path(pairs_file(args[args.index("--pairs") + 1]))
                for row in normalise(read_rows(pairs), str(pairs)):
                    domain = domain_file_for(row, pairs.parent).read_text(encoding="utf-8")
                    self.texts[messages_for(row, domain, [])[-1]["content"]] = row["problem_pddl"]


@pytest.fixture(scope="module")
def gold_server():
    with LLMServer(Gold()) as server:
        yield server


def offline(server: LLMServer, tmp_path: Path) -> dict:
    """The commands' environment: the server, no network for Hugging Face's libraries, and tiktoken's o200k_base
    from the test stand-in (Inspect's mock model counts tokens with it; see the README)."""
    path = os.pathsep.join(p for p in (str(TESTS / "tiktoken_shim"), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, **server.env(), "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "PYTHONPATH": path,
            "INSPECT_LOG_DIR": str(tmp_path / "inspect-logs")}


@pytest.mark.parametrize("command", lines("inspect eval"))
def test_inspect_commands_of_the_section_run_and_score_the_gold_answers_1(command, gold_server, tmp_path):
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import read_eval_log

    env = offline(gold_server, tmp_path)
    args = as_run(command, tmp_path, env)
    gold_server.table.learn_inspect(args)
    done = subprocess.run([executable("inspect"), *args[1:], "--display", "none"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    [path] = (tmp_path / "inspect-logs").glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success" and log.samples, log.error
    assert all(s.error is None for s in log.samples)
    if "mockllm/" in command or "closed-loop" in command:
        return  # the mock model's answer is no action; closed-loop asks for plans, which the server does not write
    metrics = {(score.name, name): metric.value for score in log.results.scores
               for name, metric in score.metrics.items() if name != "stderr"}
    assert metrics and all(v == 1.0 for v in metrics.values()), (command, metrics)


def test_lm_eval_commands_of_the_section_run_and_score_the_gold_answers_1(gold_server, tmp_path):
    pytest.importorskip("lm_eval")
    env = offline(gold_server, tmp_path)
    exports = [as_run(c, tmp_path, env) for c in lines("apb ") if not c.startswith("apb serve")]
    for args in exports:
        done = subprocess.run([sys.executable, "-m", "apb", *args[1:]], capture_output=True, text=True, env=env)
        assert done.returncode == 0, (args, done.stderr)
    gold_server.table.learn_exports(exports)
    commands = lines("lm_eval ")
    assert len(commands) == 2 and all("local-chat-completions" in c for c in commands)
    for command in commands:
        args = as_run(command, tmp_path, env)
        before = set((tmp_path / "lm-results").rglob("results_*.json"))
        done = subprocess.run([executable("lm_eval"), *args[1:]], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        [path] = set((tmp_path / "lm-results").rglob("results_*.json")) - before
        results = json.loads(path.read_text(encoding="utf-8"))["results"]
        scores = {(task, key): value for task, metrics in results.items() for key, value in metrics.items()
                  if key.split(",")[0] in ("official", "sound", "parseable", "solvable", "correct")}
        assert scores and all(v == 1.0 for v in scores.values()), (command, scores)


def test_vf_eval_command_of_the_section_plays_the_gold_plans_to_reward_1(gold_server, tmp_path):
    """Run in verifiers' own venv (CI: .ci/run), after tools/verifiers_harness.py prepared and locked verifiers'
    chat program: UV_FROZEN=1 keeps its set-up off the network, as the README says."""
    pytest.importorskip("verifiers.v1")
    [command] = lines("vf-eval ")
    env = {**offline(gold_server, tmp_path), "UV_FROZEN": "1"}
    args = as_run(command, tmp_path, env)
    domain, problems = args[args.index("--env.taskset.domain") + 1], args[args.index("--env.taskset.problems") + 1]
    gold_server.table.learn_games(domain, problems)
    done = subprocess.run([executable("vf-eval"), *args[1:]], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    [traces] = (tmp_path / "vf-runs").rglob("traces.jsonl")
    episodes = [json.loads(line) for line in traces.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(episodes) == len(gold_server.table.markers), done.stdout[-3000:]
    for episode in episodes:
        assert episode["ok"] and not episode["errors"], episode["errors"]  # vf-eval exits 0 on errors too
        [trace] = episode["traces"]
        assert trace["rewards"]["goal_reached"]["score"] == 1.0
        assert trace["metrics"]["plan_length"] == trace["metrics"]["optimal_length"]

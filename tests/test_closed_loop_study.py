"""The closed-loop study on Baking with scripted LLMs: open-loop solves study problem 1 from a correct plan; the
closed-loop agent recovers from a wrong ingredient (failure, explanation, corrected plan) on every study problem;
the study's prompts carry its workflow; examples/closed_loop_study.yaml runs and `apb report` prints Table 1."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import gymnasium
import pytest
from test_agents_loop import done_count, kind_of  # the prompt kinds of the loop agents' tests

import apb.envs  # noqa: F401  (registers apb/<Name>-v0)
from apb.agents import make_agent, run_episode
from apb.agents.act import english_action
from apb.agents.closed_loop import ClosedLoopAgent
from apb.agents.open_loop import OpenLoopGroundingAgent
from apb.eval.config import load_config
from apb.llm.scripted import ScriptedLLM

ROOT = Path(__file__).resolve().parent.parent
STUDY_FILE = ROOT / "examples" / "closed_loop_study.yaml"
EXPLANATION = "sugar must be measured out and poured, not flour: flour_1 is not sugar."


def study_env(problem: int):
    return gymnasium.make("apb/Baking-v0", split="study", problem=problem, max_episode_steps=50)


def wrong_ingredient(info: dict) -> tuple[int, str]:
    """(index, action): the gold plan's first pour of sugar, with a flour poured instead (a precondition failure)."""
    gold = info["gold_plan"]
    index = next(i for i, a in enumerate(gold) if a.startswith("(pour-sugar"))
    name, _powder, *rest = gold[index].strip("()").split()
    flour = next(o for o, t in sorted(info["objects"].items()) if t == "powder" and o.startswith("flour"))
    return index, "(" + " ".join([name, flour, *rest]) + ")"


def responder(info: dict, *, mistake: bool = False):
    """Answers both agents' prompts from the gold plan; with `mistake`, every plan until the failure pours a flour at
    the first pour of sugar, and every plan after the explanation is the rest of the gold plan."""
    gold = info["gold_plan"]
    english = [english_action(a, info) for a in gold]
    index, wrong = wrong_ingredient(info)
    state = {"explained": not mistake}

    def numbered(lines):
        return "\n".join([f"{i}. {t}" for i, t in enumerate(lines, 1)] + ["[PLAN END]"])

    def respond(messages: list[dict]) -> str:
        kind, last = kind_of(messages), messages[-1]["content"]
        if kind == "explain":
            state["explained"] = True
            return EXPLANATION
        if kind == "open-plan":
            return "\n".join([*(a.strip("()").split()[0] for a in gold), "[PLAN END]"])
        if kind == "ground":
            step = int(re.search(r"Step (\d+) of the plan", last).group(1))
            chosen = re.search(r"already chosen: (.*)\.", last)
            return gold[step - 1].strip("()").split()[1:][len(chosen.group(1).split("; ")) if chosen else 0]
        done = done_count(last)
        if not state["explained"]:
            return numbered([*english[done:index], english_action(wrong, info), *english[index + 1:]])
        return numbered(english[done:])

    return respond


def test_open_loop_solves_study_problem_1_from_a_correct_plan():
    env = study_env(1)
    info = env.reset()[1]
    result = run_episode(env, OpenLoopGroundingAgent(llm=ScriptedLLM(responder(info))))
    assert result.success and result.actions == info["gold_plan"]


@pytest.mark.parametrize("horizon", [1, 5])
@pytest.mark.parametrize("problem", [1, 2, 3, 4])
def test_closed_loop_recovers_from_a_wrong_ingredient(problem, horizon):
    env = study_env(problem)
    info = env.reset()[1]
    llm = ScriptedLLM(responder(info, mistake=True))
    result = run_episode(env, make_agent(f"closed-loop:horizon={horizon}", llm=llm), max_steps=50)
    assert result.success, (result.stop_reason, result.detail, result.error)
    _index, wrong = wrong_ingredient(info)
    assert result.invalid_actions == 1
    assert [a for a in result.actions if a != wrong] == info["gold_plan"]
    kinds = [kind_of(c["messages"]) for c in llm.calls]
    assert kinds.count("explain") == 1
    after = kinds.index("explain")
    assert kinds[after + 1] == "plan"  # the replan right after the explanation
    replan = llm.calls[after + 1]["messages"][-1]["content"]
    assert EXPLANATION in replan and "avoiding all past mistakes" in replan
    assert "I cannot pour flour_1" in replan  # the failure feedback, in words


def test_closed_loop_prompts_follow_the_study_workflow():
    env = study_env(1)
    observation, info = env.reset()
    agent = ClosedLoopAgent(llm=ScriptedLLM([]), horizon=5)
    agent.reset(observation, info)
    system = agent.planning_messages(info)[0]["content"]
    assert "I carry out the first 5 actions of your plan" in system
    assert "- put a pan A into an oven B\n    A: the filled pan that will be put into the oven" in system
    task = agent.planning_messages(info)[-1]["content"]
    assert "Currently, " in task and "My goal is that dessert_1 is a souffle" in task
    one = ClosedLoopAgent(llm=ScriptedLLM([]), horizon=1).planning_messages(info)[0]["content"]
    assert "I carry out only the first action of your plan" in one


def test_the_study_experiment_file_and_its_table(tmp_path, capsys):
    from apb.cli import main
    from apb.eval.report import write_report
    from apb.eval.runner import run_eval

    config = load_config(STUDY_FILE)
    config.llm = "scripted:study"
    specs = config.episodes()
    assert len(specs) == 3 * 4 * 5 and {s.horizon for s in specs} == {50}
    assert {s.agent for s in specs} == {"open-loop", "closed-loop:horizon=5", "closed-loop:horizon=1"}
    assert {(s.split, s.domain) for s in specs} == {("study", "baking")}
    info = study_env(1).reset()[1]
    chosen = [s for s in specs if s.problem == 1 and s.seed == 0]
    llm = ScriptedLLM(responder(info))
    asyncio.run(run_eval(chosen, tmp_path / "run", concurrency=1, llms={"scripted:study": llm}))
    write_report([tmp_path / "run"])
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "The closed-loop study's Table 1" in report
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "<td>closed-loop H=5</td><td>1/1 (3/5)</td>" in html.replace(" class='name'", "")
    assert "| closed-loop H=1 | 1/1 (4/5) | – (5/5) | – (5/5) | – (5/5) |" in report
    assert "| open-loop | 1/1 (4/5) | – (3/5) | – (1/5) | – (0/5) |" in report
    assert main(["report", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"closed-loop H=5\s*│\s*1/1 \(3/5\)\s*│\s*– \(5/5\)\s*│\s*– \(4/5\)\s*│\s*– \(2/5\)", out), out


def test_agent_names_carry_options_and_bad_ones_are_named(tmp_path):
    from apb.agents import AgentError
    from apb.agents.registry import agent_spec
    from apb.eval.config import ConfigError

    assert agent_spec("closed-loop:horizon=5,max-replans=none") == ("closed-loop", {"horizon": 5, "max_replans": None})
    assert make_agent("closed-loop:horizon=5", llm=ScriptedLLM([])).horizon == 5
    for bad in ("closed-loop:depth=3", "closed-loop:horizon"):
        with pytest.raises(AgentError):
            make_agent(bad, llm=ScriptedLLM([]))
    (tmp_path / "exp.yaml").write_text('domains: [baking]\nagents: [open-loop, "closed-loop:depth=3"]\n')
    with pytest.raises(ConfigError, match=r"exp\.yaml:2: agents: .*takes no option 'depth'"):
        load_config(tmp_path / "exp.yaml")

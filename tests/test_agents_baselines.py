"""The symbolic baselines (random, planners, oracle), the human agent and the random bench on bundled domains."""

from __future__ import annotations

import io
import json

import gymnasium as gym
import pytest
from rich.console import Console

import apb.envs  # noqa: F401  (registers the ids)
import apb.planners.downward as downward
from apb.agents.base import AgentError, StopEpisode
from apb.agents.baselines import OracleAgent, PlannerAgent, RandomAgent, episode_seed
from apb.agents.episode import run_episode
from apb.agents.human import HumanAgent
from apb.bench.random_baseline import add_bench_random_parser, print_random_report, run_random_bench
from apb.domains.paper import table2 as paper_table2
from apb.engine.errors import ApbError
from apb.envs.registration import ENV_NAMES, env_id

DOMAINS = list(ENV_NAMES)


def make_env(domain: str, **kwargs):
    return gym.make(env_id(domain), **kwargs)


# ---- random -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", ["blocksworld", "ferry", "rovers"])
def test_random_agent_is_reproducible_per_seed(domain):
    env = make_env(domain)
    runs = [run_episode(env, RandomAgent(seed=seed), options={"problem": 2}).actions for seed in (3, 3, 4)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_random_agent_reseeds_per_episode_from_seed_and_problem():
    env = make_env("blocksworld")
    agent = RandomAgent(seed=7)
    first = run_episode(env, agent, options={"problem": 3}).actions
    run_episode(env, agent, options={"problem": 5})
    again = run_episode(env, agent, options={"problem": 3}).actions
    assert first == again
    assert episode_seed(7, "p03") == episode_seed(7, "p03") != episode_seed(8, "p03")


@pytest.mark.parametrize("domain", DOMAINS)
def test_random_agent_only_sends_admissible_actions(domain):
    env = make_env(domain)
    observation, info = env.reset(options={"problem": 1})
    agent = RandomAgent(seed=0)
    agent.reset(observation, info)
    for _ in range(24):
        action = agent.act(observation, info)
        assert action in info["admissible_actions"]
        observation, _, terminated, truncated, info = env.step(action)
        assert info["action_valid"]
        if terminated or truncated:
            break


def test_random_agent_stops_at_a_dead_end():
    agent = RandomAgent(seed=0)
    agent.reset("", {"problem_id": "x", "admissible_actions": []})
    with pytest.raises(StopEpisode) as stop:
        agent.act("", {"admissible_actions": []})
    assert stop.value.reason == "dead end"


def test_random_agent_declares_finish_in_require_finish_envs():
    env = make_env("visitall", require_finish=True)
    results = [run_episode(env, RandomAgent(seed=s), options={"problem": 1}) for s in range(10)]
    assert any(r.success for r in results)
    assert all(r.actions[-1] == "(finish)" for r in results if r.success)


# ---- planners -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("planner", ["bfs", "astar", "gbfs"])
@pytest.mark.parametrize("domain", DOMAINS)
def test_planner_agent_solves_problem_one(domain, planner):
    agent = PlannerAgent(planner, timeout=120)
    result = run_episode(make_env(domain), agent, options={"problem": 1})
    assert result.success, (result.stop_reason, result.detail)
    assert result.invalid_actions == 0
    (event,) = [e for e in result.pre_events if e["type"] == "planner"]
    assert event["planner"] == planner and event["status"] == "solved"
    assert event["plan_length"] == len(result.steps)
    assert set(event) >= {"planner", "status", "plan_length", "expanded", "seconds"}


def test_planner_agent_finishes_once_then_stops_with_require_finish():
    env = make_env("ferry", require_finish=True)
    result = run_episode(env, PlannerAgent("astar"), options={"problem": 1})
    assert result.success and result.actions[-1] == "(finish)"
    assert result.actions.count("(finish)") == 1


def test_planner_agent_reports_a_budget_failure_as_a_stop():
    env = make_env("depot")
    result = run_episode(env, PlannerAgent("bfs", max_nodes=1), options={"problem": 1})
    assert result.stop_reason == "agent_stopped" and result.error is None
    assert result.detail.startswith("bfs: node_limit")
    (event,) = result.pre_events
    assert event["status"] == "node_limit" and event["plan_length"] is None


@pytest.mark.parametrize("planner", ["fd-opt", "fd-sat"])
def test_fast_downward_agents_without_the_extra_stop_with_a_reason(planner, monkeypatch):
    def not_installed():
        raise ApbError(downward.NOT_INSTALLED)

    monkeypatch.setattr(downward, "find_driver", not_installed)
    result = run_episode(make_env("blocksworld"), PlannerAgent(planner), options={"problem": 1})
    assert result.stop_reason == "agent_stopped" and result.error is None
    assert "Fast Downward is not installed" in result.detail and planner in result.detail
    assert result.pre_events[0]["status"] == "error"


def test_planner_agent_refuses_an_unknown_planner():
    with pytest.raises(AgentError, match="unknown planner"):
        PlannerAgent("dijkstra")


def test_planner_agent_names():
    assert [PlannerAgent(p).name for p in ("bfs", "astar", "gbfs", "fd-opt", "fd-sat")] == [
        "bfs", "astar", "gbfs", "fd-opt", "fd-sat"]
    assert RandomAgent().name == "random" and OracleAgent().name == "oracle" and HumanAgent().name == "human"


# ---- oracle -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", DOMAINS)
def test_oracle_solves_problem_one(domain):
    env = make_env(domain)
    result = run_episode(env, OracleAgent(), options={"problem": 1})
    assert result.success and result.invalid_actions == 0
    assert len(result.steps) == len(env.reset(options={"problem": 1})[1]["gold_plan"])


def test_oracle_stops_cleanly_without_gold_plan():
    agent = OracleAgent()
    with pytest.raises(StopEpisode) as stop:
        agent.reset("task", {"gold_plan": None})
    assert stop.value.reason == "no gold plan"


def test_plan_followers_stop_when_the_env_rejects_an_action():
    agent = OracleAgent()
    agent.reset("task", {"gold_plan": ["(a)", "(b)"]})
    assert agent.act("task", {}) == "(a)"
    with pytest.raises(StopEpisode, match=r"rejected \(a\): nope"):
        agent.act("nope", {"action_valid": False, "failure": {"text": "nope"}})


def test_oracle_finish_then_plan_exhausted():
    agent = OracleAgent()
    agent.reset("task", {"gold_plan": ["(a)"]})
    assert agent.act("", {}) == "(a)"
    assert agent.act("", {"action_valid": True}) == "(finish)"
    with pytest.raises(StopEpisode, match="plan exhausted"):
        agent.act("", {"action_valid": True})


# ---- human --------------------------------------------------------------------------------------------------------
def scripted(lines):
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


def human(lines):
    out = io.StringIO()
    return HumanAgent(read=scripted(lines), console=Console(file=out, width=200, highlight=False)), out


def test_human_agent_plays_ferry_in_pddl_and_english():
    agent, out = human(["", ":goal", ":actions", ":help", ":domain", ":state", "(board car_0 loc_0)",
                        "sail the ferry from loc_0 to loc_1", "bogus words"])
    env = make_env("ferry")
    result = run_episode(env, agent, options={"problem": 1})
    assert result.stop_reason == "agent_stopped" and result.detail == "end of input"
    assert result.actions == ["(look-around)", "(board car_0 loc_0)", "(sail loc_0 loc_1)", "bogus words"]
    assert [s.action_valid for s in result.steps] == [True, True, True, False]
    text = out.getvalue()
    assert "My goal is that car_0 is at loc_1" in text
    assert "(board car_0 loc_0)" in text and "Commands:" in text and "I operate a ferry" in text
    assert "= (sail loc_0 loc_1)" in text  # the English line is shown as the PDDL it became
    assert "I cannot understand 'bogus words' as an action" in text
    inputs = [e for s in result.steps for e in s.events if e["type"] == "human"]
    assert [e["method"] for e in inputs] == ["pddl", "template", None]


def test_human_agent_quits():
    agent, _ = human(["(board car_0 loc_0)", ":quit"])
    result = run_episode(make_env("ferry"), agent, options={"problem": 1})
    assert result.stop_reason == "agent_stopped" and result.detail == "quit"
    assert result.actions == ["(board car_0 loc_0)"]


def test_human_agent_can_solve_a_problem():
    env = make_env("ferry")
    plan = env.reset(options={"problem": 1})[1]["gold_plan"]
    agent, _ = human(plan)
    result = run_episode(env, agent, options={"problem": 1})
    assert result.success and result.stop_reason == "goal"


# ---- random bench -------------------------------------------------------------------------------------------------
def test_random_bench_on_a_tiny_setting():
    report = run_random_bench(["ferry", "gripper"], seeds=1, steps=24)
    assert [r["domain"] for r in report["rows"]] == ["ferry", "gripper"]
    ferry, gripper = report["rows"]
    assert ferry["problems"] == 20 and len(ferry["solved_per_seed"]) == 1
    assert 0 <= ferry["coverage"] <= 20 and ferry["paper"] == 1.0
    assert gripper["paper"] is None
    assert report["totals"]["paper"] == 1.0 and report["totals"]["problems"] == 20
    assert report == run_random_bench(["ferry", "gripper"], seeds=1, steps=24) | {"apb_version": report["apb_version"]}
    out = io.StringIO()
    print_random_report(report, Console(file=out, width=160))
    assert "ferry" in out.getvalue() and "-" in out.getvalue()
    json.dumps(report)


def test_random_bench_rejects_an_unknown_domain():
    with pytest.raises(ApbError, match="unknown bundled domain"):
        run_random_bench(["chess"], seeds=1)


def test_paper_table2_has_every_column():
    table = paper_table2()
    assert table["visitall"]["random"] == 14.4 and table["floortile"]["BrFS"] == 18
    assert table["_sum"]["random"] == 28.8 and table["_sum"]["ReAct"] == 173
    assert sum(row["random"] for name, row in table.items() if name != "_sum") == pytest.approx(28.8)
    assert sum(row["Act"] for name, row in table.items() if name != "_sum") == 147


def test_bench_random_parser():
    import argparse

    parser = argparse.ArgumentParser()
    add_bench_random_parser(parser.add_subparsers(dest="bench"))
    args = parser.parse_args(["random", "--domains", "ferry", "--seeds", "2", "--json"])
    assert (args.domains, args.seeds, args.steps, args.json) == ("ferry", 2, 24, True)


@pytest.mark.filterwarnings("ignore::apb.engine.PDDLWarning")  # movie-complex's undeclared requirement
def test_random_bench_on_the_reference_problems(reference):
    report = run_random_bench(["movie", "gripper"], seeds=1, reference=reference)
    movie, gripper = report["rows"]
    assert movie["reference_problems"] == 20 and len(movie["reference_solved_per_seed"]) == 1
    assert "reference_coverage" not in gripper  # the 13th domain has no AutoPlanBench counterpart
    out = io.StringIO()
    print_random_report(report, Console(file=out, width=160))
    assert "reference (20)" in out.getvalue()

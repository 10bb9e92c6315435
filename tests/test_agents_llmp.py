"""The llm+p agent with scripted LLM answers: a correct problem, renamed objects, missing implied goal facts, a wrong
goal and garbage are each planned (or not), executed and scored against the env's true problem as expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from apb.agents import make_agent
from apb.agents.base import StopEpisode
from apb.agents.llm_plus_p import extract_problem_pddl
from apb.envs.text_env import PDDLTextEnv
from apb.llm.scripted import ScriptedLLM
from apb.nl2pddl import domain_path

DATA = Path(__file__).parent / "data" / "nl2pddl"


def run(answers: list[str], gold: str = "bw_fully_specified.pddl", domain: Path | None = None, **options):
    """(goal reached, stop reason, the llm+p events) of one episode on the gold problem with scripted answers."""
    env = PDDLTextEnv(domain_file=domain or domain_path("blocksworld"), problem_file=DATA / gold)
    agent = make_agent("llm+p", llm=ScriptedLLM(answers), **options)
    obs, info = env.reset()
    reached, reason = False, ""
    try:
        agent.reset(obs, info)
        for _ in range(50):
            obs, _, terminated, _, info = env.step(agent.act(obs, info))
            if terminated:
                reached = bool(info.get("goal_reached"))
                break
    except StopEpisode as stop:
        reason = stop.reason
    events = [*getattr(agent, "_deferred", []), *agent.events]
    return reached, reason, [e for e in events if e["type"] == "llm+p"]


def text(name: str) -> str:
    return (DATA / name).read_text()


def test_correct_problem_is_planned_and_equivalent():
    reached, _, events = run([f"Here you go:\n```pddl\n{text('bw_fully_specified.pddl')}\n```"])
    assert reached and events[-1]["equivalence"] == "equivalent" and events[-1]["parseable"]
    assert "(define (problem bw-tower)" in events[-1]["problem_pddl"]


def test_renamed_objects_are_mapped_back_to_the_envs():
    reached, _, events = run([text("bw_renamed.pddl")])
    assert reached and events[-1]["equivalence"] == "equivalent"
    assert events[-1]["mapping"] == {"red": "b1", "green": "b2", "blue": "b3", "yellow": "b4"}


def test_missing_implied_goal_facts_are_still_correct():
    reached, _, events = run([text("bw_missing_goal_clear.pddl")])
    assert reached and events[-1]["equivalence"] == "equivalent"


def test_wrong_goal_is_not_equivalent_and_fails():
    reached, reason, events = run([text("bw_underspecified.pddl")])
    assert not reached and events[-1]["equivalence"] == "not_equivalent"
    assert "not finished" in reason  # the plan ran out before the true goal


def test_garbage_is_retried_then_stops():
    reached, reason, events = run(["I cannot do that.", "(define (problem x) (:domain blocksworld) (:objects"])
    assert not reached and "does not parse" in reason
    assert [e["parseable"] for e in events] == [False, False]
    reached, _, events = run(["no PDDL here", text("bw_gold.pddl")])
    assert reached and [e["parseable"] for e in events] == [False, True]


def test_unsolvable_problem_stops_with_the_planners_status():
    reached, reason, events = run([text("bw_unsolvable.pddl")])
    assert not reached and "unsolvable" in reason and events[-1]["equivalence"] == "not_equivalent"


def test_works_on_a_bundled_env_with_its_english_task():
    env = PDDLTextEnv("gripper", problem=1)
    obs, info = env.reset()
    agent = make_agent("llm+p", llm=ScriptedLLM([info["problem_pddl"]]))
    agent.reset(obs, info)
    agent.act(obs, info)
    events = agent.pop_events()  # reset's events come with the first step's
    assert events[0]["type"] == "llm" and obs in events[0]["messages"][1]["content"]
    assert next(e for e in events if e["type"] == "llm+p")["equivalence"] == "equivalent"


@pytest.mark.parametrize(("answer", "expected"), [
    ("```\n(define (problem p) (:domain d))\n```", "(define (problem p) (:domain d))"),
    ("Sure! (define (problem p) (:objects a) ; a (\n) trailing text", "(define (problem p) (:objects a) ; a (\n)"),
    ("no pddl", "no pddl"),
])
def test_extract_problem_pddl(answer, expected):
    assert extract_problem_pddl(answer) == expected

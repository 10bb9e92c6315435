"""Agents: Basic, CoT, Act, ReAct, closed-loop and open-loop planning, PDDL variants, random, planner, human.

    from apb.agents import make_agent, run_episode
    agent = make_agent("react", llm=make_llm("local"), example=build_example("blocksworld"))
    result = run_episode(gymnasium.make("apb/Blocksworld-v0"), agent, options={"problem": 1})
"""

from apb.agents.base import FINISH, LOOK_AROUND, Agent, AgentError, BaseAgent, StopEpisode
from apb.agents.episode import EpisodeResult, StepRecord, run_episode
from apb.agents.examples import Example, ExampleStep, build_example
from apb.agents.registry import AGENTS, agent_class, agent_view, is_deterministic, make_agent, needs_llm

__all__ = ["AGENTS", "FINISH", "LOOK_AROUND", "Agent", "AgentError", "BaseAgent", "EpisodeResult",
           "Example", "ExampleStep", "StepRecord", "StopEpisode", "agent_class", "agent_view", "build_example",
           "is_deterministic", "make_agent", "needs_llm", "run_episode"]

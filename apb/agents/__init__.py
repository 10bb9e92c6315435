"""Agents: Basic, CoT, Act, ReAct, closed-loop and open-loop planning, PDDL variants, random, planner, human."""

"""Planners on a grounded task: breadth-first search, A* (LM-cut or h_max), greedy best-first search (h_FF, with
h_FF's preferred operators on request), a random walk, and an optional Fast Downward backend. `solve(task, planner)`
runs any of them.
"""

from apb.planners.astar import astar
from apb.planners.bfs import breadth_first_search
from apb.planners.downward import fast_downward
from apb.planners.gbfs import greedy_best_first
from apb.planners.heuristics import FF, HEURISTICS, Blind, GoalCount, HAdd, Heuristic, HMax, LMCut, make_heuristic
from apb.planners.random_walk import random_walk
from apb.planners.result import STATUSES, SearchResult
from apb.planners.solve import PLANNERS, solve

__all__ = [
    "FF",
    "HEURISTICS",
    "PLANNERS",
    "STATUSES",
    "Blind",
    "GoalCount",
    "HAdd",
    "HMax",
    "Heuristic",
    "LMCut",
    "SearchResult",
    "astar",
    "breadth_first_search",
    "fast_downward",
    "greedy_best_first",
    "make_heuristic",
    "random_walk",
    "solve",
]

"""Planning with learned knowledge. `greedy_policy`: greedy policy execution with a learned heuristic: from each
state, the successor with the lowest estimated cost to go, one step of lookahead, no open list.

Cycles: a state is never entered twice (the visited set covers the whole run), so the execution cannot loop. When
every successor of the current state was visited (or there is none), it backtracks: it returns to the previous
state of its path and takes that state's next-best successor not visited yet (the estimates of a state's
successors are computed once, in one batch, and kept while the state is on the path). A goal successor is taken at
once. So the execution is a depth-first search ordered by the estimates; without backtracking it is the plain
greedy policy of the literature. The plan it returns is checked by the engine (`task.validate`) first.

apb.planners.knowledge's `solve_with_knowledge(task, path, search=...)` plans with a knowledge file of any learner:
this policy, or greedy best-first search (apb.planners.learned_search) with the learned heuristic.
"""

from __future__ import annotations

import time

from apb.engine import Task
from apb.planners.knowledge_files import StateHeuristic
from apb.planners.result import ERROR, NODE_LIMIT, SOLVED, STEP_LIMIT, UNSOLVABLE, Budget, SearchResult
from apb.planners.space import Successors

PLANNER = "greedy-policy"


def greedy_policy(task: Task, heuristic: StateHeuristic, *, timeout: float | None = None,
                  max_steps: int | None = None, backtrack: bool = True, cpu_time: bool = False) -> SearchResult:
    """Runs the policy of `heuristic` on `task` (see the module docstring); `max_steps` bounds the states
    expanded (forward steps and backtracks alike), `timeout` the seconds (of CPU time with `cpu_time`). `extra`
    has `backtracks`."""
    budget = Budget(timeout, max_steps, time.process_time if cpu_time else time.perf_counter)
    successors = Successors(task)
    is_goal = task.is_goal_bits
    actions = task.actions
    root = task.initial_state.bits
    visited = {root}
    path: list[tuple[int, int]] = []  # (action index, state bits) taken so far
    options: list[list[tuple[float, int, int]]] = []  # per state on the path: untried (h, action, child), best last
    bits = root
    expanded = generated = evaluated = backtracks = 0
    name = getattr(heuristic, "name", "learned")

    def result(status: str, message: str = "", plan=None) -> SearchResult:
        return SearchResult(status, PLANNER, plan, expanded, generated, evaluated, budget.elapsed(), name, message,
                            {"backtracks": backtracks})

    while not is_goal(bits):
        stop = budget.exceeded(expanded)
        if stop == NODE_LIMIT:
            return result(STEP_LIMIT, f"step limit of {max_steps} reached")
        if stop:
            return result(stop, budget.limit_message(stop))
        expanded += 1
        children = [(a, c) for a, c in successors(bits) if c not in visited]
        generated += len(children)
        goal = next(((a, c) for a, c in children if is_goal(c)), None)
        if goal is not None:
            path.append(goal)
            bits = goal[1]
            break
        if children:
            values = heuristic([c for _, c in children])
            evaluated += len(children)
            ranked = sorted(((v, a, c) for v, (a, c) in zip(values, children)), key=lambda t: (t[0], t[1]))
            ranked.reverse()  # pop() takes the best
            options.append(ranked)
        elif not path:
            return result(UNSOLVABLE, "the initial state has no successor")
        elif not backtrack:
            return result(STEP_LIMIT, "stuck: every successor was visited (run with backtracking)")
        else:
            options.append([])
        while True:
            ranked = options[-1]
            while ranked and ranked[-1][2] in visited:
                ranked.pop()
            if ranked:
                _, action, child = ranked.pop()
                path.append((action, child))
                visited.add(child)
                bits = child
                break
            options.pop()  # nothing left here: back to the previous state of the path
            if not path:
                return result(UNSOLVABLE, "every reachable state was visited without reaching the goal")
            if not backtrack:
                return result(STEP_LIMIT, "stuck: every successor was visited (run with backtracking)")
            path.pop()
            backtracks += 1
            bits = path[-1][1] if path else root
    plan = [actions[a] for a, _ in path]
    check = task.validate([str(a) for a in plan])
    if not check.valid:  # cannot happen with the engine's own successors; never hand out an unchecked plan
        return result(ERROR, f"the plan failed the engine's validation: {check}")
    return result(SOLVED, plan=plan)


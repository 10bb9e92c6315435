"""The planning problem a PlanBench record is judged on, as PlanBench's evaluation builds it.

- t1, t2, t3, t7, t8: the config's instance `instance_id`; t5: the config's generalized instance;
- t4 (plan reuse): the instance with the goal PlanBench writes into its `new_instance`, the facts the plan prefix
  made true (the query's last goal minus its initial conditions);
- t6 (replanning): the instance with the initial state PlanBench writes into its `new_instance`, the state after the
  plan's first K steps with the facts the query says unexpectedly became true and false.
The released results files no longer hold `new_instance` (PlanBench deletes it once judged): t4's and t6's problems
are read back from the query, which states them exactly in the config's wording (apb.planbench.wording).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from apb.engine import Domain, Literal, Task, load_domain, load_problem
from apb.engine.errors import ApbError
from apb.planbench.wording import Wording, wording_for


class ProblemUnknown(Exception):
    """The record's problem cannot be built (a missing instance, a query apb cannot read back)."""


@lru_cache(maxsize=64)
def _domain(text: str) -> Domain:
    return load_domain(text)


@lru_cache(maxsize=4096)
def _task(domain_text: str, problem_text: str) -> Task:
    return Task(_domain(domain_text), load_problem(problem_text, _domain(domain_text)))


def domain_of(config) -> Domain:
    """The config's domain, parsed once."""
    return _domain(config.domain_text())


def base_task(config, instance_id: int, generalized: bool = False) -> Task:
    """The config's instance (its generalized one for t5) as a grounded task."""
    try:
        text = config.generalized_instance_text(instance_id) if generalized else config.instance_text(instance_id)
        return _task(config.domain_text(), text)
    except ApbError as err:
        raise ProblemUnknown(str(err)) from None


_STATEMENT = re.compile(r"As initial conditions I have that, (?P<init>.*?)\.\s*\n\s*My goal is to have that "
                        r"(?P<goal>.*?)\.?\s*(?:I want to minimize[^\n]*)?\n", re.DOTALL)
_EVENT = re.compile(r'After executing the action "(?P<action>[^"\n]*)" at step (?P<step>\d+) in the plan, the '
                    r"following facts unexpectedly became true: (?P<add>[^\n]*)\n"
                    r"The following facts became unexpectedly false: (?P<remove>[^\n]*)")


def _last_statement(query: str) -> tuple[str, str, str]:
    """(initial conditions, goal, the text after them) of the query's last [STATEMENT]."""
    tail = query.rsplit("[STATEMENT]", 1)[-1]
    match = _STATEMENT.search(tail)
    if match is None:
        raise ProblemUnknown("the query's last [STATEMENT] states no initial conditions and goal")
    return match["init"], match["goal"], tail[match.end():]


def _facts(wording: Wording, text: str, what: str) -> list[str]:
    facts = wording.facts(text)
    if facts is None:
        raise ProblemUnknown(f"the query's {what} do not read as the config's facts: {text[:120]!r}")
    return facts


def _literals(facts) -> tuple[Literal, ...]:
    out = []
    for fact in sorted(set(facts)):
        name, *args = fact[1:-1].split()
        out.append(Literal(name, tuple(args)))
    return tuple(out)


def _with(task: Task, *, init=None, goal=None) -> Task:
    problem = task.problem
    changed = replace(problem, init=_literals(init) if init is not None else problem.init,
                      goal=_literals(goal) if goal is not None else problem.goal)
    return Task(task.domain, changed)


def reuse_task(config, instance_id: int, query: str) -> Task:
    """t4: the instance with the goal the plan prefix reaches (its new facts)."""
    task = base_task(config, instance_id)
    wording = wording_for(config, task.problem.objects)
    init, goal, _ = _last_statement(query)
    new = set(_facts(wording, goal, "goal")) - set(_facts(wording, init, "initial conditions"))
    return _with(task, goal=new)


def replanning_task(config, instance_id: int, query: str) -> Task:
    """t6: the instance from the state the unexpected event left."""
    task = base_task(config, instance_id)
    wording = wording_for(config, task.problem.objects)
    init, _, rest = _last_statement(query)
    start = _facts(wording, init, "initial conditions")
    plan_text = rest.split("[PLAN]", 1)[-1].split("[PLAN END]", 1)[0]
    steps = [wording.action(line) for line in plan_text.split("\n") if line.strip()]
    event = _EVENT.search(rest)
    if event is None or any(s is None for s in steps):
        raise ProblemUnknown("the query states no plan and unexpected event apb can read")
    k = int(event["step"])
    try:
        state = task.state_from_facts(start)
        for action, _ in steps[:k]:
            state = task.apply(state, action)
    except ApbError as err:
        raise ProblemUnknown(f"the query's plan prefix does not execute: {err}") from None
    facts = set(task.facts(state)) | set(task.static_facts)
    facts |= set(_facts(wording, event["add"], "new facts"))
    facts -= set(_facts(wording, event["remove"], "lost facts"))
    return _with(task, init=facts)


def new_instance_task(config, instance_id: int, new_instance: dict) -> Task:
    """The problem PlanBench wrote into a record's `new_instance` (t4, t6 responses files: its parser's model, whose
    `instance` holds `init` `pred` and `goal` as `[name, [args]]`) on the instance's objects."""
    task = base_task(config, instance_id)
    try:
        model = new_instance["instance"]
        init = ["(" + " ".join([str(p), *map(str, args)]) + ")" for p, args in model["init"]["pred"]]
        goal = ["(" + " ".join([str(p), *map(str, args)]) + ")" for p, args in model["goal"]]
        return _with(task, init=init, goal=goal)
    except (KeyError, TypeError, ValueError, ApbError) as err:
        raise ProblemUnknown(f"the record's new_instance is not PlanBench's model of a problem: {err}") from None

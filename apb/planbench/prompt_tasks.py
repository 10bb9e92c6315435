"""PlanBench's prompt files (plan-bench's tasks t1-t8), written as its prompt generation writes them.

`generate(config, stem)` returns the file's JSON object: `task`, `prompt_type`, `domain` and `instances`, one record
per instance with PlanBench's keys in PlanBench's order. Randomness is PlanBench's: one Mersenne Twister stream
(Python's `random`, which PlanBench uses through the module functions), seeded as the released files were (`Stream`)
and every draw PlanBench makes is made here in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import yaml

from apb.datasets.planbench import PlanBenchConfig
from apb.planbench.instances import Instance
from apb.planbench.render import (
    atoms_text,
    fill_template,
    gold_plan_text,
    plan_lines,
    state_text,
)
from apb.prompts import load_prompt

EXECUTOR_SEED = 10  # the seed each Executor of PlanBench's current code sets when it is built
# How the released files drew their random numbers (found by search over seeds, docs/planbench.md): t3's with the
# current code (seed 42, reseeded 10 at each executor), t4, t6, t7's and t8_1's with an earlier one (seed 10, never
# reseeded).
CURRENT_CODE = (42, True)
EARLIER_CODE = (10, False)


class Stream:
    """PlanBench's global random stream: `executor()` reseeds it as building an Executor does."""

    def __init__(self, seeding: tuple[int, bool] = EARLIER_CODE) -> None:
        start, self.reseed = seeding
        self.rng = random.Random(start)

    def executor(self) -> None:
        if self.reseed:
            self.rng.seed(EXECUTOR_SEED)

    def prefix(self, plan: list[str]) -> int:
        """The executor's random plan prefix length (1 for plans shorter than 2)."""
        return 1 if len(plan) < 2 else self.rng.choice(range(1, len(plan)))


RELEASED_VARIANTS = ("prompts", "results")  # the released prompt files; the queries of its results/responses files


@cache
def earlier_intros() -> dict:
    """task stem -> config -> the domain intro the released results/responses files were asked with, where it is
    not the config's current one."""
    return yaml.safe_load(load_prompt("planbench/earlier_intros.yaml"))


def intro(data: dict, stem: str, variant: str, key: str = "domain_intro") -> str:
    """The config's domain intro as the variant's files have it."""
    if variant == "results":
        return earlier_intros().get(stem, {}).get(data["domain_name"], data[key])
    return data[key]


def header(stem: str, data: dict) -> dict:
    return {"task": stem, "prompt_type": "oneshot", "domain": data["domain_name"], "instances": []}


def statement(inst: Instance, with_plan: bool, data: dict, goal: str | None = None, init: str | None = None) -> str:
    """t1's block: the instance's initial conditions and goal (PlanBench's problem parse), with its plan or not."""
    init_text = atoms_text(inst.init_atoms, data) if init is None else init
    goal_text = atoms_text(inst.goal_atoms, data) if goal is None else goal
    return fill_template(init_text, goal_text, plan_lines(inst.plan, data) if with_plan else "", data)


def one_shot_ids(config: PlanBenchConfig) -> list[tuple[int, int]]:
    """(example, instance) of the one-shot tasks: example i, instance i+1 for i = start..end."""
    return [(i, i + 1) for i in range(int(config.data["start"]), int(config.data["end"]) + 1)]


def task_ids(config: PlanBenchConfig) -> list[int]:
    return list(range(int(config.data["start"]), int(config.data["end"]) + 1))


def t1(config: PlanBenchConfig, stem: str, variant: str = "prompts", generalized: bool = False) -> dict:
    """Plan generation (and t5's generalization). The released results files' queries were asked with an earlier
    intro and end with a newline after `[PLAN]`."""
    data = config.data
    out = header(stem, data)
    tail = "\n" if variant == "results" and not generalized else ""
    for example, number in one_shot_ids(config):
        ex, inst = Instance(config, example, generalized), Instance(config, number, generalized)
        query = intro(data, stem, variant) + statement(ex, True, data) + statement(inst, False, data) + tail
        out["instances"].append({"instance_id": number, "example_instance_ids": [example], "query": query,
                                 "ground_truth_plan": gold_plan_text(inst.plan, data)})
    return out


def t5(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    return t1(config, stem, variant, generalized=True)


def _optimality(inst: Instance, with_plan: bool, data: dict) -> str:
    init, goal = state_text(inst.init, data), state_text(inst.goal, data)
    head = (f"\n[STATEMENT]\nAs initial conditions I have that, {init.strip()}.\nMy goal is to have that {goal}. "
            "I want to minimize the time taken to achieve my goal.\nMy plan is as follows:\n\n[PLAN]")
    if not with_plan:
        return head + " "
    cost = len(inst.plan)
    return head + plan_lines(inst.plan, data) + f"The total time to execute the plan is {cost} minute" + \
        ("s.\n" if cost > 1 else ".\n")


def t2(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    data = config.data
    out = header(stem, data)
    for example, number in one_shot_ids(config):
        ex, inst = Instance(config, example), Instance(config, number)
        query = data["domain_intro_cost"] + _optimality(ex, True, data) + _optimality(inst, False, data)
        out["instances"].append({"instance_id": number, "example_instance_ids": [example], "query": query,
                                 "ground_truth_plan": gold_plan_text(inst.plan, data)})
    return out


def _execution(inst: Instance, stream: Stream, with_answer: bool, data: dict) -> tuple[str, list[str]]:
    stream.executor()
    prefix = inst.plan[:stream.prefix(inst.plan)]
    final = inst.progress(inst.init, prefix)
    text = (f"\n[STATEMENT]\nAs initial conditions I have that, {state_text(inst.init, data).strip()}.\n "
            f"I have executed the following action sequence:\n\n[ACTION SEQUENCE]"
            f"{plan_lines(prefix, data, '[ACTION SEQUENCE END]')}[RESULTING STATE]\n")
    if with_answer:
        text += f"{state_text(final, data)}\n"
    return text, sorted(final)


def t7(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    """Plan execution. The released `ground_truth_plan` lists the resulting facts in a Python set's iteration order
    (random per process: docs/planbench.md); here they are sorted."""
    data = config.data
    out = header(stem, data)
    stream = Stream()
    for example, number in one_shot_ids(config):
        query = data["domain_intro"]
        answer: list[str] = []
        for i, with_answer in ((example, True), (number, False)):
            inst = Instance(config, i)
            if not inst.plan:
                continue
            text, answer = _execution(inst, stream, with_answer, data)
            query += text
        out["instances"].append({"instance_id": number, "example_instance_ids": [example], "query": query,
                                 "ground_truth_plan": answer})
    return out


def _goal_reformulation(config: PlanBenchConfig, stem: str, blocks: Callable) -> dict:
    data = config.data
    out = header(stem, data)
    stream = Stream()
    for number in task_ids(config):
        inst = Instance(config, number)
        stream.executor()
        final = inst.progress(inst.init, inst.plan)
        goal_order = list(range(len(inst.goal)))
        stream.rng.shuffle(goal_order)  # paraphrase_goal shuffles the goal facts (only their count is used)
        init, goal = atoms_text(inst.init_atoms, data), atoms_text(inst.goal_atoms, data)
        plan = plan_lines(inst.plan, data)
        record = {"query": data["domain_intro"] + blocks(inst, stream, init, goal, plan, state_text(final, data)),
                  "ground_truth_plan": plan, "instance_id": number}
        if stem.startswith("task_8_1"):
            record["single_goal_instances"] = 1 if len(inst.goal) == 1 else 0
        out["instances"].append(record)
    return out


def _shuffled(inst: Instance, stream: Stream, init: str, goal: str, plan: str, full: str) -> str:
    init_atoms, goal_atoms = list(inst.init_atoms), list(inst.goal_atoms)
    stream.rng.shuffle(init_atoms)
    stream.rng.shuffle(goal_atoms)
    data = inst.config.data
    return fill_template(init, goal, plan, data) + fill_template(init, atoms_text(goal_atoms, data), "", data)


def t8_1(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    return _goal_reformulation(config, stem, _shuffled)


def t8_2(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    def blocks(inst, stream, init, goal, plan, full):
        data = inst.config.data
        return fill_template(init, full, plan, data) + fill_template(init, goal, "", data)
    return _goal_reformulation(config, stem, blocks)


def t8_3(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    def blocks(inst, stream, init, goal, plan, full):
        data = inst.config.data
        return fill_template(init, goal, plan, data) + fill_template(init, full, "", data)
    return _goal_reformulation(config, stem, blocks)

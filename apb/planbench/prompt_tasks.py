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
# How a released file drew its random numbers (apb/prompts/planbench/randomness.yaml says which file which way):
CURRENT_CODE = (42, True)  # the released code: seed 42, reseeded 10 each time an executor is built
EARLIER_CODE = (10, False)  # an earlier code: seed 10, one stream


class Stream:
    """PlanBench's global random stream: `executor()` reseeds it as building an Executor does."""

    def __init__(self, seeds: tuple[int, bool] = CURRENT_CODE) -> None:
        start, self.reseed = seeds
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
    """The intros the released files were written with where they are not the config's current one:
    `prompts` -> config -> intro (every task but t2), `results` -> task stem -> config -> intro."""
    return yaml.safe_load(load_prompt("planbench/earlier_intros.yaml"))


@cache
def _randomness() -> dict:
    return yaml.safe_load(load_prompt("planbench/randomness.yaml"))


def seeding(data: dict, stem: str, variant: str) -> tuple[int, bool]:
    """The seeding the variant's released file of this config and task was drawn with (CURRENT_CODE by default)."""
    earlier = _randomness()["earlier"].get(variant, {}).get(stem, [])
    return EARLIER_CODE if data["domain_name"] in earlier else CURRENT_CODE


def intro(data: dict, stem: str, variant: str, key: str = "domain_intro") -> str:
    """The config's domain intro as the variant's files have it."""
    earlier = earlier_intros()
    if variant == "results" and data["domain_name"] in earlier["results"].get(stem, {}):
        return earlier["results"][stem][data["domain_name"]]
    if key == "domain_intro" and data["domain_name"] in earlier["prompts"]:
        return earlier["prompts"][data["domain_name"]]
    return data[key]


def start(config: PlanBenchConfig, stem: str, variant: str) -> tuple[dict, dict, Stream]:
    """(the config's data, the file's header with no records yet, the random stream) of a task that draws."""
    data = config.data
    return data, header(stem, data), Stream(seeding(data, stem, variant))


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
        query = (intro(data, stem, variant, "domain_intro_cost") + _optimality(ex, True, data) +
                 _optimality(inst, False, data))
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
    data, out, stream = start(config, stem, variant)
    for example, number in one_shot_ids(config):
        query = intro(data, stem, variant)
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


def _goal_reformulation(config: PlanBenchConfig, stem: str, variant: str, blocks: Callable) -> dict:
    data, out, stream = start(config, stem, variant)
    for number in task_ids(config):
        inst = Instance(config, number)
        stream.executor()
        final = inst.progress(inst.init, inst.plan)
        goal_order = list(range(len(inst.goal)))
        stream.rng.shuffle(goal_order)  # paraphrase_goal shuffles the goal facts (only their count is used)
        init, goal = atoms_text(inst.init_atoms, data), atoms_text(inst.goal_atoms, data)
        plan = plan_lines(inst.plan, data)
        text = blocks(inst, stream, init, goal, plan, state_text(final, data))
        record = {"query": intro(data, stem, variant) + text,
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
    return _goal_reformulation(config, stem, variant, _shuffled)


def t8_2(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    def blocks(inst, stream, init, goal, plan, full):
        data = inst.config.data
        return fill_template(init, full, plan, data) + fill_template(init, goal, "", data)
    return _goal_reformulation(config, stem, variant, blocks)


def t8_3(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    def blocks(inst, stream, init, goal, plan, full):
        data = inst.config.data
        return fill_template(init, goal, plan, data) + fill_template(init, full, "", data)
    return _goal_reformulation(config, stem, variant, blocks)


def t4(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    """Plan reuse: an instance with its plan, then the same initial state with the state after a random prefix of
    that plan as the goal; the gold is that prefix. `new_instance` holds the new problem (see `new_instance`): its
    goal is what the prefix made true, as PlanBench's executor writes it."""
    data, out, stream = start(config, stem, variant)
    for number in task_ids(config):
        inst = Instance(config, number)
        stream.executor()
        stream.prefix(inst.plan)  # the first random prefix (PlanBench draws it and shows the whole plan)
        init, goal = state_text(inst.init, data).strip(), state_text(inst.goal, data)
        query = intro(data, stem, variant) + (
            f"\n[STATEMENT]\nAs initial conditions I have that, {init}.\nMy goal is to have that {goal}.\n"
            f"My plan is as follows:\n\n[PLAN]{plan_lines(inst.plan, data)} ")
        prefix = inst.plan[:stream.prefix(inst.plan)]
        reached = inst.progress(inst.init, prefix)
        query += (f"\n[STATEMENT]\nAs initial conditions I have that, {init}.\nMy goal is to have that "
                  f"{state_text(reached, data)}.\nMy plan is as follows:\n\n[PLAN]")
        out["instances"].append({"instance_id": number, "query": query,
                                 "ground_truth_plan": gold_plan_text(prefix, data),
                                 "new_instance": new_instance(sorted(inst.init), sorted(reached - inst.init))})
    return out


def new_instance(init: list[str], goal: list[str]) -> dict:
    """The problem part of PlanBench's `new_instance` (its model parser's dict): the initial and goal facts as
    `[predicate, [args]]`, sorted (PlanBench lists them in a Python set's order; the domain part is not written)."""
    def fact(key: str) -> list:
        name, *args = key.split("_")
        return [name, args]
    return {"instance": {"init": {"functions": [], "pred": [fact(k) for k in init]}, "goal": [fact(k) for k in goal]}}

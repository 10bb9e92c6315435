"""Procedural datasets for reasoning-gym: plan generation scored by apb's plan validator, and ACP questions scored
by apb's ACP scorer (extra `reasoning-gym`).

    import reasoning_gym
    import apb.integrations.reasoning_gym  # registers apb_<domain> for every bundled domain with a generator
    data = reasoning_gym.create_dataset("apb_blocksworld", size=100, seed=0, params={"blocks": 5}, max_length=12)
    entry = data[0]
    entry["question"], entry["answer"], entry["metadata"]     # task, an optimal plan, how to re-create the problem
    data.score_answer(entry["answer"], entry)                  # 1.0: apb's validator accepts it

Each entry is a problem drawn by the domain's apb generator (`params`: its size parameters, such as blocks,
balls, cars; see `apb generate DOMAIN --param`), solved optimally by A* + LM-cut, and kept when its optimal
length is within `min_length`..`max_length` (the difficulty knob). `view`: `nl` (the domain's curated English
description and the problem in English, as the games show them) or `pddl` (domain and problem PDDL).
`score_answer` is 1.0 exactly when `Task.validate` accepts the answer as plan text of the entry's problem (one PDDL
action per line, `;` comments allowed), else 0.0: the answer is only ever read as text (never opened as a path), and
an answer that is not a plan (not a string, not plan text, NUL bytes, over 1,000,000 characters) scores 0.0, never
raises.

`apb_acp_<task>` (app, prog, reach, areach, val, just, land, nexta): ACP questions about `domain` in `format`
(bool, mcq, gen; nexta: gen), generated with proved gold by `apb.acp.generate`; the prompt is `apb acp eval`'s
(zero-shot), `answer` the gold as a model is asked to write it, and `score_answer` apb's sound verdict on the
extracted answer (a reward for training: a hedge such as `yes no` or an unreadable answer scores 0.0; ACPBench's
official reading, kept by `apb acp eval` and the other reports, gives credit to some hedges).

`apb_planbench_<task>` (t1 to t8_3, every task `apb planbench prompts` writes): PlanBench's prompts of a `config`
(default blocksworld; `folder`, `variant` as `apb planbench prompts`), in an order the seed picks; `answer` the
gold as the prompt asks for it, `score_answer` apb's sound verdict (PlanBench's verdict, which reads a plan out of a
hedge, is in `apb planbench eval`'s reports, never a reward).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field, make_dataclass
from functools import lru_cache
from typing import Any

from apb.integrations import require

require("reasoning_gym", "reasoning-gym")

from reasoning_gym.dataset import ProceduralDataset  # noqa: E402
from reasoning_gym.factory import DATASETS, register_dataset  # noqa: E402

from apb.engine.errors import ApbError  # noqa: E402
from apb.prompts import fill_prompt  # noqa: E402

PREFIX = "apb_"
MAX_ATTEMPTS = 200  # generated candidates per entry before giving up on the length bounds


@dataclass
class ApbPlanConfig:
    """One domain's plan-generation dataset: generator parameters, optimal-length bounds, view, size and seed."""

    domain: str = "blocksworld"
    params: dict[str, int] = field(default_factory=dict)
    min_length: int = 1
    max_length: int = 20
    view: str = "nl"
    timeout: float = 30.0
    size: int = 500
    seed: int | None = None

    def validate(self) -> None:
        from apb.domains.registry import generator

        module = generator(self.domain)
        unknown = sorted(set(self.params) - set(module.PARAMETERS))
        if unknown:
            raise ApbError(f"{PREFIX}{self.domain}: unknown parameter(s) {', '.join(unknown)}; the generator takes "
                           f"{', '.join(module.PARAMETERS)}")
        if not 1 <= self.min_length <= self.max_length:
            raise ApbError(f"{PREFIX}{self.domain}: min_length {self.min_length} and max_length {self.max_length} "
                           "need 1 <= min_length <= max_length")
        if self.view not in ("nl", "pddl"):
            raise ApbError(f"{PREFIX}{self.domain}: unknown view {self.view!r}: use nl or pddl")


class ApbPlanDataset(ProceduralDataset):
    """Entries `{"question", "answer" (an optimal plan), "metadata"}`; entry i depends only on (seed, i)."""

    domain = "blocksworld"  # each registered subclass fixes its domain

    def __init__(self, config: ApbPlanConfig) -> None:
        config.domain = self.domain
        super().__init__(config=config, seed=config.seed, size=config.size)

    def __getitem__(self, idx: int) -> dict[str, Any]:
        from apb.domains.registry import domain_file, generator
        from apb.engine import format_plan, load_task
        from apb.planners import solve

        config: ApbPlanConfig = self.config
        generate = generator(self.domain).generate
        domain_path = domain_file(self.domain)
        for attempt in range(MAX_ATTEMPTS):
            seed = zlib.crc32(f"{self.seed}:{idx}:{attempt}".encode())
            problem = generate(seed, **config.params)
            task = load_task(domain_path, problem)
            if task.is_goal(task.initial_state):
                continue
            result = solve(task, "astar", timeout=config.timeout)
            if result.status != "solved" or not config.min_length <= len(result.plan) <= config.max_length:
                continue
            plan = [str(a) for a in result.plan]
            return {"question": question(self.domain, problem, plan[0], config.view),
                    "answer": format_plan(plan, cost_comment=False).strip(),
                    "metadata": {"source_dataset": PREFIX + self.domain, "source_index": idx,
                                 "domain": self.domain, "generator_seed": seed, "params": dict(config.params),
                                 "problem_pddl": problem, "optimal_length": len(plan),
                                 "difficulty": {"params": dict(config.params), "optimal_length": len(plan)}}}
        params = config.params or "the default parameters"
        raise ApbError(f"{PREFIX}{self.domain}: no problem with an optimal plan of {config.min_length}.."
                       f"{config.max_length} steps in {MAX_ATTEMPTS} generated candidates for {params}: widen the "
                       "length bounds or change params")

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """1.0 when apb's validator accepts `answer` as plan text of the entry's problem, else 0.0 (never raises)."""
        if not isinstance(answer, str) or not answer.strip():
            return 0.0
        meta = entry["metadata"]
        return 1.0 if _task(meta["domain"], meta["problem_pddl"]).validate(answer).valid else 0.0


@lru_cache(maxsize=256)
def _task(domain: str, problem_pddl: str):
    from apb.domains.registry import domain_file
    from apb.engine import load_task

    return load_task(domain_file(domain), problem_pddl)


def question(domain: str, problem: str, first_action: str, view: str) -> str:
    """The task text: English (curated templates) or PDDL, then the answer format with an example action."""
    from apb.domains.registry import domain_file

    task = _task(domain, problem)
    example = f"({task.domain.actions[0].name} ...)" if task.domain.actions else first_action
    if view == "pddl":
        return fill_prompt("integrations/plan_question_pddl", domain_pddl=domain_file(domain).read_text().strip(),
                           problem_pddl=problem.strip(), example=example)
    from apb.nl.render import DomainText, TaskText
    from apb.nl.sources import load_templates

    templates = load_templates(task.domain, "curated", domain_file=domain_file(domain))
    return fill_prompt("integrations/plan_question", example=example,
                       domain_description=DomainText(task.domain, templates).description().strip(),
                       problem_description=TaskText(task, templates).problem_description().strip())


@dataclass
class ApbACPConfig:
    """One ACP task's questions about a domain (bundled name or dataset folder): answer format, wording view."""

    task: str = "app"
    domain: str = "blocksworld"
    format: str = "bool"
    view: str = "nl"
    size: int = 500
    seed: int | None = None

    def validate(self) -> None:
        from apb.acp.records import FORMATS, task_formats

        if self.format not in task_formats(self.task):
            raise ApbError(f"{PREFIX}acp_{self.task}: format {self.format!r} is not one of "
                           f"{', '.join(task_formats(self.task))} (all formats: {', '.join(FORMATS)})")


class ApbACPDataset(ProceduralDataset):
    """ACP questions with proved gold (`apb.acp.generate`); `answer` is the gold as a model is asked to write it,
    `metadata["question"]` the whole question; `score_answer` is apb's sound scorer (1.0 or 0.0)."""

    task = "app"

    def __init__(self, config: ApbACPConfig) -> None:
        config.task = self.task
        super().__init__(config=config, seed=config.seed, size=config.size)

    def __getitem__(self, idx: int) -> dict[str, Any]:
        from apb.acp import generate
        from apb.acp.evaluate import answer_text, build_messages
        from apb.integrations.lm_eval import flatten

        config: ApbACPConfig = self.config
        for attempt in range(MAX_ATTEMPTS):
            seed = zlib.crc32(f"{self.seed}:{idx}:{attempt}".encode())
            # the entry's index numbers its question, so the golds are balanced across entries (apb.acp.balance)
            questions, _ = generate(config.domain, tasks=[self.task], formats=[config.format], count=1, seed=seed,
                                    view=config.view, start=idx, balance_seed=self.seed)
            if questions:
                q = questions[0]
                return {"question": flatten(build_messages(q, [], False)), "answer": answer_text(q),
                        "metadata": {"source_dataset": f"{PREFIX}acp_{self.task}", "source_index": idx,
                                     "domain": config.domain, "generator_seed": seed, "question": q.to_dict()}}
        raise ApbError(f"{PREFIX}acp_{self.task}: no {config.format} question about {config.domain} in "
                       f"{MAX_ATTEMPTS} attempts")

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """The sound verdict on the response `answer`, as `apb acp eval` scores it (no answer or a hedge scores 0)."""
        from apb.acp import Question
        from apb.acp.scorers import score_response

        if not isinstance(answer, str):
            return 0.0
        q = Question.from_dict(entry["metadata"]["question"])
        return 1.0 if score_response(q, answer)[1].sound else 0.0


@dataclass
class ApbPlanBenchConfig:
    """One PlanBench task's prompts for a config: the task, config, folder, prompt variant, size and seed."""

    task: str = "t1"
    config: str = "blocksworld"
    folder: str | None = None
    variant: str = "prompts"
    size: int = 500
    seed: int | None = None

    def validate(self) -> None:
        _planbench_questions(self.config, self.task, self.folder, self.variant)  # an unknown name is an ApbError


@lru_cache(maxsize=32)
def _planbench_questions(config: str, task: str, folder: str | None, variant: str) -> tuple:
    from apb.planbench.questions import questions

    found = tuple(questions(config, task, folder=folder, variant=variant))
    if not found:
        raise ApbError(f"{PREFIX}planbench_{task}: PlanBench's {config} has no prompts for {task}")
    return found


class ApbPlanBenchDataset(ProceduralDataset):
    """Entries `{"question" (PlanBench's system message and query), "answer" (the gold), "metadata"}`; entry i is
    prompt (i + an offset the seed picks) of the task file; `score_answer` is apb's sound verdict (1.0 or 0.0)."""

    task = "t1"

    def __init__(self, config: ApbPlanBenchConfig) -> None:
        config.task = self.task
        super().__init__(config=config, seed=config.seed, size=config.size)

    def __getitem__(self, idx: int) -> dict[str, Any]:
        from apb.integrations.lm_eval import flatten
        from apb.planbench.questions import gold_answer

        config: ApbPlanBenchConfig = self.config
        items = _planbench_questions(config.config, self.task, config.folder, config.variant)
        q = items[(idx + zlib.crc32(f"{self.seed}".encode())) % len(items)]
        return {"question": flatten(q.messages()), "answer": gold_answer(q),
                "metadata": {"source_dataset": f"{PREFIX}planbench_{self.task}", "source_index": idx,
                             "config": q.config, "folder": q.folder, "task": q.task,
                             "instance_id": q.record["instance_id"], "planbench": q.to_dict()}}

    def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
        """apb's sound verdict on the response (a hedge, a list of alternatives, no answer: 0.0; never raises)."""
        from apb.planbench.questions import PlanBenchQuestion, verdict

        if not isinstance(answer, str):
            return 0.0
        return 1.0 if verdict(PlanBenchQuestion.from_dict(entry["metadata"]["planbench"]), answer)["sound"] else 0.0


def register_all() -> list[str]:
    """Registers apb_<domain> for every bundled domain with a generator, apb_acp_<task> for the eight ACP tasks and
    apb_planbench_<task> for PlanBench's tasks (idempotent); returns the names."""
    from apb.acp.records import TASKS
    from apb.domains.registry import domain_names, generator
    from apb.planbench.questions import TASKS as PLANBENCH_TASKS

    names = []
    for task in PLANBENCH_TASKS:
        name = f"{PREFIX}planbench_{task}"
        if name not in DATASETS:
            cls = type(f"ApbPlanBenchDataset_{task}", (ApbPlanBenchDataset,), {"task": task})
            config = make_dataclass(f"ApbPlanBenchConfig_{task}", [("task", str, field(default=task))],
                                    bases=(ApbPlanBenchConfig,))
            register_dataset(name, cls, config)
        names.append(name)
    for task in TASKS:
        name = f"{PREFIX}acp_{task}"
        if name not in DATASETS:
            cls = type(f"ApbACPDataset_{task}", (ApbACPDataset,), {"task": task})
            fmt = "gen" if task == "nexta" else "bool"
            config = make_dataclass(f"ApbACPConfig_{task}", [("task", str, field(default=task)),
                                                             ("format", str, field(default=fmt))],
                                    bases=(ApbACPConfig,))
            register_dataset(name, cls, config)
        names.append(name)
    for domain in domain_names():
        try:
            generator(domain)
        except ImportError:
            continue
        name = PREFIX + domain
        if name not in DATASETS:
            cls = type(f"ApbPlanDataset_{domain}", (ApbPlanDataset,), {"domain": domain})
            config = make_dataclass(f"ApbPlanConfig_{domain}", [("domain", str, field(default=domain))],
                                    bases=(ApbPlanConfig,))
            register_dataset(name, cls, config)
        names.append(name)
    return names


DATASET_NAMES = register_all()

__all__ = ["DATASET_NAMES", "ApbACPConfig", "ApbACPDataset", "ApbPlanBenchConfig", "ApbPlanBenchDataset",
           "ApbPlanConfig", "ApbPlanDataset", "register_all"]

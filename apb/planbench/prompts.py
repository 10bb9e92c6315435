"""PlanBench's prompt files by task: `prompt_file(config, task)` gives the JSON object of a task's file and
`prompt_bytes` its bytes as PlanBench writes them (`json.dump(..., indent=4)`), so a file apb writes is byte for byte
the released one. A task is named by its released file's stem (`task_1_plan_generation`) or its short name (`t1`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from apb.datasets.dataset import DatasetError
from apb.datasets.planbench import PlanBenchConfig
from apb.planbench import prompt_analysis, prompt_replanning, prompt_tasks, prompt_verification
from apb.planbench.prompt_tasks import RELEASED_VARIANTS
from apb.planbench.verdicts import SHORT_NAMES

GENERATORS: dict[str, Callable[[PlanBenchConfig, str], dict]] = {  # task -> its prompt file's generator
    "t1": prompt_tasks.t1, "t2": prompt_tasks.t2, "t3": prompt_verification.t3, "t5": prompt_tasks.t5,
    "t4": prompt_tasks.t4, "t6": prompt_replanning.t6, "t7": prompt_tasks.t7, "t8_1": prompt_tasks.t8_1,
    "t8_2": prompt_tasks.t8_2, "t8_3": prompt_tasks.t8_3,
}


# tasks whose prompts hold a model's answers to another task (t3_1 verifies a model's t1 plans): not among GENERATORS,
# which the integrations serve as they are
MODEL_PLAN_TASKS = {"t3_1": prompt_verification.t3}
# llm_planning_analysis's variants of plan generation (apb.planbench.prompt_analysis): any config, PlanBench
# released no prompt files of them
ANALYSIS_GENERATORS: dict[str, Callable[..., dict]] = {
    "t1_zero": prompt_analysis.zero_shot, "t1_cot": prompt_analysis.state_tracking, "t1_pddl": prompt_analysis.pddl,
    "t1_zero_pddl": prompt_analysis.zero_shot_pddl,
}


def prompt_task(task: str) -> tuple[str, str]:
    """(short name, file stem) of a task given by either (apb.planbench.verdicts.SHORT_NAMES); DatasetError naming
    the tasks apb writes prompts for otherwise."""
    for short, stem in SHORT_NAMES.items():
        if task in (short, stem) and (short in GENERATORS or short in MODEL_PLAN_TASKS or short in ANALYSIS_GENERATORS):
            return short, stem
    raise DatasetError(f"unknown PlanBench task {task!r}", hint="tasks: " + ", ".join(
        f"{short} ({SHORT_NAMES[short]})" for short in (*GENERATORS, *MODEL_PLAN_TASKS, *ANALYSIS_GENERATORS)))


def prompt_file(config: PlanBenchConfig, task: str, variant: str = "prompts",
                instances: set[int] | None = None, llm_plans: dict[int, list[str]] | None = None) -> dict:
    """The prompt file of a task for a config, as a JSON object in PlanBench's layout. `variant` "results" gives the
    queries as the released results/responses files asked them (t1, t3 differ: apb.planbench.prompt_tasks);
    `instances` keeps only those instance ids; t3_1 (verification of a model's plans) takes the model's t1 plans
    (`llm_plans`: instance id -> `(name a b)` strings, as `read_llm_plans` reads them from a t1 results file)."""
    if variant not in RELEASED_VARIANTS:
        raise DatasetError(f"unknown prompt variant {variant!r}", hint=f"use one of: {', '.join(RELEASED_VARIANTS)}")
    short, stem = prompt_task(task)
    if short == "t5" and not config.has_generalized:
        raise DatasetError(f"PlanBench config {config.folder}/{config.name} has no generalized instances (t5)")
    if short == "t3_1":
        if llm_plans is None:
            raise DatasetError(f"{stem} verifies a model's t1 plans: give a t1 results file (--llm-plans FILE)")
        obj = MODEL_PLAN_TASKS[short](config, stem, variant, llm_plans)
    elif short in ANALYSIS_GENERATORS:  # instance by instance: their configs' gold plans are searched for
        obj = ANALYSIS_GENERATORS[short](config, stem, variant, instances)
    else:
        obj = GENERATORS[short](config, stem, variant)
    if instances is not None:  # e.g. a released file PlanBench stopped writing early (docs/planbench.md)
        obj["instances"] = [r for r in obj["instances"] if r["instance_id"] in instances]
    return obj


def prompt_bytes(obj: dict) -> bytes:
    """The file's bytes as PlanBench writes them."""
    return json.dumps(obj, indent=4).encode("utf-8")


def write_prompt_file(obj: dict, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(prompt_bytes(obj))
    return path


def read_llm_plans(path: str | Path) -> dict[int, list[str]]:
    """instance id -> `extracted_llm_plan` of a t1 results file (PlanBench's, or `apb planbench eval`'s), as lists
    of `(name a b)` strings (a plan text is split into its lines)."""
    import gzip

    path = Path(path)
    try:
        raw = path.read_bytes()
        data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    except (OSError, ValueError, EOFError) as err:
        raise DatasetError(f"cannot read the t1 results file: {err}", path=path) from None
    plans = {}
    for record in data.get("instances", []) if isinstance(data, dict) else []:
        plan = record.get("extracted_llm_plan") if isinstance(record, dict) else None
        if isinstance(plan, str):
            plan = [line.strip() for line in plan.splitlines() if line.strip()]
        if isinstance(plan, list) and isinstance(record.get("instance_id"), int):
            plans[record["instance_id"]] = [str(a) for a in plan]
    return plans

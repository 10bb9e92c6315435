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
from apb.planbench import prompt_tasks, prompt_verification

TASKS: dict[str, tuple[str, Callable[[PlanBenchConfig, str], dict]]] = {  # short name -> (file stem, generator)
    "t1": ("task_1_plan_generation", prompt_tasks.t1),
    "t2": ("task_2_plan_optimality", prompt_tasks.t2),
    "t3": ("task_3_plan_verification", prompt_verification.t3),
    "t5": ("task_5_plan_generalization", prompt_tasks.t5),
    "t7": ("task_7_plan_execution", prompt_tasks.t7),
    "t8_1": ("task_8_1_goal_shuffling", prompt_tasks.t8_1),
    "t8_2": ("task_8_2_full_to_partial", prompt_tasks.t8_2),
    "t8_3": ("task_8_3_partial_to_full", prompt_tasks.t8_3),
}
STEMS = {stem: short for short, (stem, _) in TASKS.items()}


def task_stem(task: str) -> str:
    """The file stem of a task given by stem or short name; DatasetError naming the tasks otherwise."""
    if task in STEMS:
        return task
    if task in TASKS:
        return TASKS[task][0]
    raise DatasetError(f"unknown PlanBench task {task!r}",
                       hint="tasks: " + ", ".join(f"{short} ({stem})" for short, (stem, _) in TASKS.items()))


def prompt_file(config: PlanBenchConfig, task: str) -> dict:
    """The prompt file of a task for a config, as a JSON object in PlanBench's layout."""
    stem = task_stem(task)
    generate = TASKS[STEMS[stem]][1]
    if stem == TASKS["t5"][0] and not config.has_generalized:
        raise DatasetError(f"PlanBench config {config.folder}/{config.name} has no generalized instances (t5)")
    return generate(config, stem)


def prompt_bytes(obj: dict) -> bytes:
    """The file's bytes as PlanBench writes them."""
    return json.dumps(obj, indent=4).encode("utf-8")


def write_prompt_file(obj: dict, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(prompt_bytes(obj))
    return path

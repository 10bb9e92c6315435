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
from apb.planbench import prompt_replanning, prompt_tasks, prompt_verification
from apb.planbench.prompt_tasks import RELEASED_VARIANTS
from apb.planbench.verdicts import SHORT_NAMES

GENERATORS: dict[str, Callable[[PlanBenchConfig, str], dict]] = {  # task -> its prompt file's generator
    "t1": prompt_tasks.t1, "t2": prompt_tasks.t2, "t3": prompt_verification.t3, "t5": prompt_tasks.t5,
    "t4": prompt_tasks.t4, "t6": prompt_replanning.t6, "t7": prompt_tasks.t7, "t8_1": prompt_tasks.t8_1,
    "t8_2": prompt_tasks.t8_2, "t8_3": prompt_tasks.t8_3,
}


def prompt_task(task: str) -> tuple[str, str]:
    """(short name, file stem) of a task given by either (apb.planbench.verdicts.SHORT_NAMES); DatasetError naming
    the tasks apb writes prompts for otherwise."""
    for short, stem in SHORT_NAMES.items():
        if task in (short, stem) and short in GENERATORS:
            return short, stem
    raise DatasetError(f"unknown PlanBench task {task!r}",
                       hint="tasks: " + ", ".join(f"{short} ({SHORT_NAMES[short]})" for short in GENERATORS))


def prompt_file(config: PlanBenchConfig, task: str, variant: str = "prompts",
                instances: set[int] | None = None) -> dict:
    """The prompt file of a task for a config, as a JSON object in PlanBench's layout. `variant` "results" gives the
    queries as the released results/responses files asked them (t1, t3 differ: apb.planbench.prompt_tasks);
    `instances` keeps only those instance ids."""
    if variant not in RELEASED_VARIANTS:
        raise DatasetError(f"unknown prompt variant {variant!r}", hint=f"use one of: {', '.join(RELEASED_VARIANTS)}")
    short, stem = prompt_task(task)
    if short == "t5" and not config.has_generalized:
        raise DatasetError(f"PlanBench config {config.folder}/{config.name} has no generalized instances (t5)")
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

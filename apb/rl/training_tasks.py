"""A learner's input: the training tasks of a dataset with their reference plans (every learner of apb rl train)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from apb.engine import Task
from apb.engine.errors import ApbError


@dataclass
class TrainingTask:
    """One training task: an id, the grounded task (built on first use) and its reference plan's action strings."""

    id: str
    load: Callable[[], Task]
    plan: Sequence[str] | None = None

    @property
    def name(self) -> str:
        return self.id

    @cached_property
    def task(self) -> Task:
        return self.load()


def training_tasks(dataset, numbers: tuple[int, int] | None = None,
                   progress: Callable[[str, int, int], None] | None = None, *,
                   smallest_first: bool = False) -> list[TrainingTask]:
    """The tasks of a dataset (apb.datasets) with their gold plans; `numbers` keeps problems numbered low..high;
    `smallest_first` orders them by file size. Tasks are grounded when first used (`.task`)."""
    out = []
    for k, (entry, number) in enumerate(zip(dataset.problems, dataset.numbers())):
        if numbers and not numbers[0] <= number <= numbers[1]:
            continue
        if progress:
            progress("loading tasks", k, len(dataset.problems))
        plan = dataset.gold_plan(entry.id)
        out.append(TrainingTask(entry.id, (lambda i=entry.id: dataset.task(i)),
                                plan.actions if plan is not None else None))
    if not out:
        raise ApbError(f"{dataset.name}: no training task in {numbers[0]}-{numbers[1]}" if numbers
                       else f"{dataset.name}: no training task")
    if smallest_first:
        size = {e.id: e.path.stat().st_size for e in dataset.problems}
        out.sort(key=lambda t: (size[t.id], t.id))
    return out

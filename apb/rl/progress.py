"""Progress of `apb rl train` / `apb rl eval` on stderr: a progress bar on a terminal, and lines at intervals when
stderr is a file or a pipe (nohup, CI, `2> log`), where a bar would print nothing readable until the end.

`reporter(console)` is a context manager giving an `update(stage, done, total)` callback and a `note(text)` for
lines that always print (an epoch's loss). Piped, a line is written when the stage changes and at least every
`INTERVAL` seconds while it lasts (checked on each update, so a stage whose updates come more than INTERVAL apart
reports at each update).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape

INTERVAL = 30.0  # seconds between progress lines when stderr is not a terminal (issue: at least one a minute)


class _Lines:
    def __init__(self, console: Console, label: str, interval: float) -> None:
        self.console, self.label, self.interval = console, label, interval
        self.start = self.last = time.monotonic()
        self.stage: str | None = None

    def update(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage != self.stage or now - self.last >= self.interval:
            self.stage, self.last = stage, now
            self.console.print(f"{escape(self.label)}: {escape(stage)} {done}/{total} ({now - self.start:.0f} s)")


@contextmanager
def reporter(console: Console, label: str = "training", *, interval: float = INTERVAL
             ) -> Iterator[tuple[Callable[[str, int, int], None], Callable[[str], None]]]:
    """(update, note) for the duration of the block: a rich bar on a terminal, lines otherwise."""
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=console, transient=True)
        task = progress.add_task(label, total=1)

        def update(stage: str, done: int, total: int) -> None:
            progress.update(task, description=stage, completed=done, total=total)

        with progress:
            yield update, lambda text: progress.console.print(escape(text))
        return
    lines = _Lines(console, label, interval)
    yield lines.update, lambda text: console.print(f"{escape(label)}: {escape(text)}")

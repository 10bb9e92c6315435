"""Stopping long engine work on time: grounding and task building take a `deadline` (a `time.monotonic()` value, or
None for none) and check it cheaply and often in their long loops (before every `CHECK_EVERY` items: `in_chunks`),
raising `DeadlineExceeded` once it has passed. Ctrl-C and SIGTERM need no check: `apb.stop` turns them into
KeyboardInterrupt, which Python raises between any two bytecodes of these loops.

The callers (`apb solve`'s `--timeout`, a runner's budget) set the deadline; the engine imports nothing to do so.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from apb.engine.errors import ApbError

# Items of a long loop between two looks at the clock: the dearest items (a join from one fact, a ground action)
# take microseconds, so a look comes every few milliseconds and costs nothing measurable.
CHECK_EVERY = 1024

__all__ = ["CHECK_EVERY", "DeadlineExceeded", "check_deadline", "deadline_after", "in_chunks"]


class DeadlineExceeded(ApbError):
    """Long engine work (grounding, building the ground actions) stopped because its deadline passed; `what` names
    the work."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"the time limit ran out during {what}")


def deadline_after(seconds: float | None) -> float | None:
    """The deadline `seconds` from now (None for no deadline)."""
    return None if seconds is None else time.monotonic() + seconds


def check_deadline(deadline: float | None, what: str) -> None:
    """Raises DeadlineExceeded naming `what` once `deadline` has passed."""
    if deadline is not None and time.monotonic() >= deadline:
        raise DeadlineExceeded(what)


def in_chunks(items: list, deadline: float | None, what: str) -> Iterator[list]:
    """The items of a long loop in slices of CHECK_EVERY, with a look at the clock before each (DeadlineExceeded
    once `deadline` has passed); without a deadline, the list itself, at no cost."""
    if deadline is None:
        yield items
        return
    for start in range(0, len(items), CHECK_EVERY):
        check_deadline(deadline, what)
        yield items[start:start + CHECK_EVERY]

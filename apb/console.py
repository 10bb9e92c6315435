"""The terminal consoles of every command: rich output that is never cut when piped.

rich wraps and crops to the terminal's width, and to 80 columns when the output is not a terminal (a pipe, a
file): tables and long lines written by `apb ... | tee log` lost their ends. `make_console` keeps the terminal's
width on a terminal and uses an unbounded width otherwise (`COLUMNS` still wins when set).
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPE_WIDTH = 100_000  # wide enough that nothing is cropped; rich pads nothing, so lines stay their own length


def make_console(*, stderr: bool = False) -> Console:
    """A rich Console on stdout (or stderr) without highlighting, soft-wrapped, never cropped when piped."""
    stream = sys.stderr if stderr else sys.stdout
    piped = not (hasattr(stream, "isatty") and stream.isatty())
    width = PIPE_WIDTH if piped and not os.environ.get("COLUMNS") else None
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=width)

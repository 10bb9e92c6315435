"""The terminal consoles of every command: rich output that is never cut when piped.

rich wraps and crops to the terminal's width, and to 80 columns when the output is not a terminal (a pipe, a
file): tables and long lines written by `apb ... | tee log` lost their ends. `make_console` keeps the terminal's
width on a terminal; otherwise (`COLUMNS` still wins when set) text is never wrapped or cut (soft wrap: each line
stays its own length), while rules and tables are laid out to `PIPE_WIDTH` columns, a wide terminal's width: a
rule filled an unbounded width with 100,000 characters.
`grounding_progress` is what the commands that ground a task (solve, validate, state) report while grounding.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console
from rich.markup import escape

PIPE_WIDTH = 200  # rules and tables when piped: a wide terminal's width (text lines are never cut: soft wrap)


def make_console(*, stderr: bool = False) -> Console:
    """A rich Console on stdout (or stderr) without highlighting, soft-wrapped (text is never cut), with rules and
    tables PIPE_WIDTH columns wide when piped."""
    stream = sys.stderr if stderr else sys.stdout
    piped = not (hasattr(stream, "isatty") and stream.isatty())
    width = PIPE_WIDTH if piped and not os.environ.get("COLUMNS") else None
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=width)


def print_table(console: Console, table, caption: str) -> None:
    """A rich table, then its caption (plain text) wrapped at the console's width (a terminal's, or PIPE_WIDTH when
    piped), not at the table's (a narrow table made a long caption a column of short lines) nor never (one line of
    500 characters)."""
    console.print(table)
    console.print(escape(caption), soft_wrap=False)


GROUNDING_QUIET_S = 3.0  # a grounding that ends sooner reports nothing


def grounding_progress(label: str, console: Console):
    """A `progress` callback for `load_task` / `Task` that prints to `console` once grounding has run
    GROUNDING_QUIET_S seconds, then at most every GROUNDING_QUIET_S seconds, and when a phase is done."""
    last = [0.0]

    def report(p) -> None:
        if p.seconds < GROUNDING_QUIET_S or (not p.done and p.seconds - last[0] < GROUNDING_QUIET_S):
            return
        last[0] = p.seconds
        if p.phase == "actions":
            text = f"{p.bindings:,} ground actions built"
        else:
            text = f"{'reachable' if p.done else 'round ' + str(p.rounds)}: {p.facts:,} facts, {p.bindings:,} bindings"
        console.print(f"[dim]grounding {escape(label)}: {text} ({p.seconds:.0f} s)[/dim]")
    return report


def errors_exit(console: Console, errors: int, what: str, cause: str = "an error") -> int:
    """The end of a command that ran items: with errors, a red line saying they are not scored and how to retry them,
    and exit 1 (apb.exit_codes.EXIT_NEGATIVE); else 0."""
    from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK

    if not errors:
        return EXIT_OK
    console.print(f"[red]{errors} {what} ended in {cause}[/red]: not scored; rerun with --resume to ask them again")
    return EXIT_NEGATIVE

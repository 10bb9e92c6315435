"""The exit codes of every `apb` command, defined once (the README's "Exit codes and output folders" section; the
top-level `apb --help` lists them from `MEANINGS`)."""

from __future__ import annotations

EXIT_OK = 0  # success
EXIT_NEGATIVE = 1  # finished, and the answer is negative or it found problems (invalid plan, an item in error, ...)
EXIT_BAD_INPUT = 2  # usage or input error: one line naming the flag, file or value and what to do; nothing written
EXIT_UNDECIDED = 3  # apb equiv: undecided within --max-states
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT), after keeping what finished
EXIT_TERMINATED = 143  # SIGTERM (128 + 15), handled like Ctrl-C (apb.stop)

MEANINGS = {
    EXIT_OK: "success",
    EXIT_NEGATIVE: "a negative answer or problems found (invalid plan, no plan, an item that ended in an error)",
    EXIT_BAD_INPUT: "usage or input error (one line naming the flag, file or value; nothing written)",
    EXIT_UNDECIDED: "undecided (apb equiv within --max-states)",
    EXIT_INTERRUPTED: "interrupted by Ctrl-C (what finished is kept)",
    EXIT_TERMINATED: "terminated by SIGTERM (what finished is kept)",
}

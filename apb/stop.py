"""Stopping a command: SIGTERM (what `kill`, `timeout`, systemd, Docker and job schedulers send) is handled like
Ctrl-C (SIGINT): the work in progress stops, what finished is kept, the run lock is freed, one line goes to stderr;
the exit code is 130 after Ctrl-C and 143 (128 + 15, the shell's code for SIGTERM) after SIGTERM.

`install()` is called first thing by `apb`'s entry point (before the imports, so a SIGTERM during start-up is handled
too); the handler raises KeyboardInterrupt in the main thread, which every command already handles.
"""

from __future__ import annotations

import signal
import threading

from apb.exit_codes import EXIT_INTERRUPTED, EXIT_TERMINATED

_received: list[int] = []


def _on_sigterm(signum, frame) -> None:
    _received.append(signum)
    raise KeyboardInterrupt("terminated")


def install() -> None:
    """SIGTERM raises KeyboardInterrupt in the main thread (a no-op outside the main thread)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)


def terminated() -> bool:
    """Whether the interruption came from SIGTERM (else it was Ctrl-C)."""
    return bool(_received)


def exit_code() -> int:
    return EXIT_TERMINATED if terminated() else EXIT_INTERRUPTED


def what() -> str:
    """The first word of the line printed on stderr: "interrupted" (Ctrl-C) or "terminated (SIGTERM)"."""
    return "terminated (SIGTERM)" if terminated() else "interrupted"

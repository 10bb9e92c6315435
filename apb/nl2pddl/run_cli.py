"""`apb nl2pddl build | import | eval | report` (see apb.nl2pddl.cli)."""

from __future__ import annotations


def add_run_parsers(sub) -> None:
    """Adds build, import, eval and report to the `nl2pddl` subparsers."""

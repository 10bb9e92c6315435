"""`apb planbench ...`: PlanBench's tasks on its released configs (`score`: apb.planbench.score_cli)."""

from __future__ import annotations

from apb.planbench.score_cli import add_score_parser


def add_parsers(commands) -> None:
    """Adds `planbench` and its subcommands to the `apb` command (see apb.cli.Commands)."""
    parser = commands.add_parser("planbench")
    sub = commands.add_subparsers(parser, dest="planbench_command", metavar="PLANBENCH_COMMAND", required=True)
    add_score_parser(sub)

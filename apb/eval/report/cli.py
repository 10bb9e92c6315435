"""`apb report DIR [DIR ...] [--out OUT]`: summarise one or more run folders (shards) into tables and an HTML page."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from apb.console import make_console, print_table
from apb.eval.metrics import load_run, summarize
from apb.eval.report.study_table import study_tables
from apb.eval.report.tables import coverage_caption, model_label
from apb.eval.report.writer import agent_label, coverage_matrix, coverage_tables, domain_label, write_report


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report files and print the coverage tables; user errors raise ApbError (exit 2 in `main`)."""
    console = make_console()
    dirs = [Path(d) for d in args.dirs]
    paths = write_report(dirs, Path(args.out) if args.out else None)
    episodes = load_run(dirs)
    rows = summarize(episodes)
    for table in coverage_tables(rows, episodes):
        header, body = coverage_matrix(table)
        title = f"Solved problems, mean over seeds ± se ({model_label(table.model)}, split {table.split})"
        view = Table(title=escape(title))
        for index, name in enumerate(header):
            view.add_column(escape(name), justify="left" if index == 0 else "right")
        for row in body:
            view.add_row(*(escape(cell) for cell in row))
        print_table(console, view, coverage_caption(table))
    for study in study_tables(episodes):  # a run of examples/closed_loop_study.yaml: the study's Table 1 layout
        header, body = study.matrix()
        view = Table(title=escape(f"The closed-loop study's Table 1: runs solved ({model_label(study.model)}, "
                                  "Baking, split study)"))
        for index, name in enumerate(header):
            view.add_column(escape(name), justify="left" if index == 0 else "right")
        for row in body:
            view.add_row(*(escape(cell) for cell in row))
        print_table(console, view, f"In brackets: the study's figures (GPT-4o, out of {study.runs}).")
    for row in rows:
        if row["errors"]:
            console.print(f"[yellow]{row['errors']} episode(s) crashed[/yellow] in "
                          f"{escape(domain_label(row['domain']))} / {escape(agent_label(row['agent']))}")
    for name, path in paths.items():
        console.print(f"wrote {escape(name)}: {escape(str(path))}")
    return 0


def add_parsers(commands) -> None:
    """Registers `apb report` (`commands`: apb.cli's Commands; the one hook of every package's cli.py)."""
    parser = commands.add_parser("report", description="Merge run folders (shards), compute Acc/Acc0/LF, tokens and "
                                                       "cost, and write summary.json, summary.csv, report.md and "
                                                       "report.html.")
    parser.add_argument("dirs", nargs="+", metavar="DIR", help="run folders (each with episodes/*.jsonl)")
    parser.add_argument("--out", help="folder for the report files (default: the first DIR)")
    parser.set_defaults(func=cmd_report)

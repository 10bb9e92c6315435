"""`apb nl2pddl ...`: score one generated problem, build a benchmark of pairs, run an LLM over pairs, report.

- `apb nl2pddl score GOLD PRED [--domain D] [--json]` prints (parseable, solvable, correct); exit 0 correct, 1 not;
- `apb nl2pddl build DATASET --count N --out DIR` writes pairs from a dataset (bundled domain, folder, ...);
- `apb nl2pddl import FILE --out DIR` converts Planetarium's released rows (JSON, JSONL, parquet) into pairs;
- `apb nl2pddl eval PAIRS --llm SPEC [--shots K] [--concurrency N] [--resume]` scores an LLM on pairs;
- `apb nl2pddl report DIR` tabulates a run per domain, abstract vs explicit and object count.
The main CLI adds the parser with `add_nl2pddl_parser(subparsers)`; bad input raises ApbError subclasses.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.markup import escape

from apb.console import make_console
from apb.nl2pddl.evaluate import assess


def add_nl2pddl_parser(subparsers) -> argparse.ArgumentParser:
    """Adds `nl2pddl` and its subcommands to the main parser's subparsers; returns the `nl2pddl` parser."""
    parser = subparsers.add_parser("nl2pddl", help="the NL->PDDL problem benchmark (Planetarium's task)")
    sub = parser.add_subparsers(dest="nl2pddl_command", metavar="NL2PDDL_COMMAND", required=True)
    p = sub.add_parser("score", help="(parseable, solvable, correct) of a generated problem against the gold one")
    p.add_argument("gold", metavar="GOLD", help="the gold PDDL problem file")
    p.add_argument("predicted", metavar="PRED", help="the generated PDDL problem file")
    p.add_argument("--domain", help="domain file or benchmark key (default: the shipped domain the gold problem's "
                                    "(:domain ...) names)")
    p.add_argument("--placeholder", action="store_true", help="the description names goal objects only by role")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)
    from apb.nl2pddl.run_cli import add_run_parsers

    add_run_parsers(sub)
    return parser


def cmd_score(args: argparse.Namespace) -> int:
    """Prints the (parseable, solvable, correct) triple and what decided it."""
    result = assess(Path(args.gold), Path(args.predicted), args.domain, placeholder=args.placeholder)
    code = 0 if result.evaluation.correct else 1  # 1: the generated problem is not correct (as apb equiv's "not")
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return code
    console = make_console()
    for name, value in result.evaluation._asdict().items():
        console.print(f"{name:10} {'[green]yes[/green]' if value else '[red]no[/red]'}")
    detail = result.error or result.reason
    if detail:
        console.print(escape(detail))
    return code

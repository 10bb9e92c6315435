"""`apb nl2pddl ...`: score one generated problem, build a benchmark of pairs, run an LLM over pairs, report.

- `apb nl2pddl score GOLD PRED [--domain D] [--json]` prints (parseable, solvable, correct); exit 0 correct, 1 not;
- `apb nl2pddl build DATASET --count N --out DIR` writes pairs from a dataset (bundled domain, folder, ...);
- `apb nl2pddl import FILE --out DIR` converts Planetarium's released rows (JSON, JSONL, parquet) into pairs;
- `apb nl2pddl eval PAIRS --llm SPEC [--shots K] [--concurrency N] [--resume]` scores an LLM on pairs;
- `apb nl2pddl report DIR` tabulates a run per domain, abstract vs explicit and object count.
`add_parsers(commands)` adds `nl2pddl` to the `apb` command (`apb nl2pddl export` is the integrations'); bad input
raises ApbError subclasses.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from rich.markup import escape

from apb.console import errors_exit, make_console
from apb.eval.rundir import open_run_dir, prepare_run_dir
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import (
    DEFAULT_CONCURRENCY,
    add_executor,
    add_item_run_flags,
    add_set_overwrite_flags,
    non_negative_int,
    positive_int,
    set_overwrite_options,
)
from apb.nl2pddl.build import PAIRS_FILE, build_pairs
from apb.nl2pddl.evaluate import assess
from apb.nl2pddl.planetarium import import_planetarium
from apb.nl2pddl.report import METRICS, write_report
from apb.nl2pddl.runner import run_pairs

LLM_HELP = ("the LLM: openai:<model>, anthropic:<model>, openai-compatible:<base_url>:<model>, local, "
            "local:<path.gguf>, scripted:<file>")


def add_parsers(commands) -> None:
    """Adds `nl2pddl` and its subcommands to the `apb` command (see apb.cli.Commands)."""
    parser = commands.add_parser("nl2pddl")
    sub = commands.add_subparsers(parser, dest="nl2pddl_command", metavar="NL2PDDL_COMMAND", required=True)
    p = sub.add_parser("score", help="(parseable, solvable, correct) of a generated problem against the gold one")
    p.add_argument("gold", metavar="GOLD", help="the gold PDDL problem file")
    p.add_argument("predicted", metavar="PRED", help="the generated PDDL problem file")
    p.add_argument("--domain", help="domain file or benchmark key (default: the shipped domain the gold problem's "
                                    "(:domain ...) names)")
    p.add_argument("--placeholder", action="store_true", help="the description names goal objects only by role")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("build", help="write (English description, gold PDDL problem) pairs from a dataset")
    p.add_argument("dataset", metavar="DATASET", help="bundled domain name, dataset folder or PDDLGym name")
    p.add_argument("--count", type=positive_int, default=20,
                   help="problems to take (default 20); abstract variants are extra")
    p.add_argument("--out", required=True, help="folder to write pairs.jsonl (and the domain file) into (must be "
                                                "empty unless --overwrite)")
    add_set_overwrite_flags(p, "pairs")
    p.add_argument("--split", help="the dataset's split (default: its test split)")
    p.add_argument("--concurrency", type=positive_int, default=DEFAULT_CONCURRENCY,
                   help=f"problems at a time (default {DEFAULT_CONCURRENCY}; with --executor ray: Ray workers)")
    add_executor(p, "problems")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("import", help="convert Planetarium's released rows (JSON, JSONL, parquet) into pairs")
    p.add_argument("rows", metavar="FILE", help="the rows file you downloaded (e.g. Planetarium's test split)")
    p.add_argument("--out", required=True, help="folder to write pairs.jsonl into (must be empty unless --overwrite)")
    add_set_overwrite_flags(p, "pairs")
    p.add_argument("--limit", type=positive_int, default=None, help="keep only the first N rows")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("eval", help="score an LLM on pairs: parseable, solvable, correct (resumable)")
    p.add_argument("pairs", metavar="PAIRS", help="pairs.jsonl, or a folder holding one")
    p.add_argument("--llm", required=True, metavar="SPEC", help=LLM_HELP)
    p.add_argument("--shots", type=non_negative_int, default=0,
                   help="examples of the same domain in each prompt (default 0)")
    add_item_run_flags(p, "pairs", at_once="pairs scored at once", where="OUT", skip="skip scored pairs, retry errors",
                       out="run folder (default: next to PAIRS, named after the LLM)")
    p.add_argument("--limit", type=positive_int, default=None, help="only the first N pairs")
    p.add_argument("--max-tokens", type=positive_int, default=2048, help="answer length cap (default 2048)")
    p.add_argument("--cache", choices=("rw", "replay", "off"), default="rw", help="the LLM answer cache mode")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("report", help="rates per domain, abstract vs explicit and object count; Planetarium's "
                                      "figures alongside")
    p.add_argument("folder", metavar="DIR", help="a run folder of `apb nl2pddl eval`")
    p.set_defaults(func=cmd_report)



def _settings(**settings) -> dict:
    return settings


def cmd_build(args: argparse.Namespace) -> int:
    settings = _settings(dataset=args.dataset, count=args.count, split=args.split)
    folder = {"kind": "nl2pddl-pairs", "settings": settings, "resumable": False, **set_overwrite_options(args)}
    prepare_run_dir(args.out, create=False, **folder)
    with open_run_dir(args.out, **folder):
        rows = build_pairs(args.dataset, args.count, args.out, split=args.split, executor=args.executor,
                           concurrency=args.concurrency)
    abstract = sum(r["init_is_abstract"] or r["goal_is_abstract"] for r in rows)
    make_console().print(f"wrote {len(rows)} pairs ({abstract} abstract) to {escape(str(Path(args.out) / PAIRS_FILE))}")
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    settings = _settings(rows=str(Path(args.rows).resolve()), limit=args.limit)
    folder = {"kind": "nl2pddl-pairs", "settings": settings, "resumable": False, **set_overwrite_options(args)}
    prepare_run_dir(args.out, create=False, **folder)
    with open_run_dir(args.out, **folder):
        rows = import_planetarium(args.rows, args.out, limit=args.limit)
    make_console().print(f"wrote {len(rows)} pairs to {escape(str(Path(args.out) / PAIRS_FILE))}")
    return EXIT_OK


def pairs_file(value: str) -> Path:
    """PAIRS as the commands take it: a pairs file, or a folder holding pairs.jsonl."""
    path = Path(value)
    return path / PAIRS_FILE if path.is_dir() else path


def cmd_eval(args: argparse.Namespace) -> int:
    from apb.eval.rundir import check_writable
    from apb.llm import make_llm, request_cap

    pairs = pairs_file(args.pairs)
    out = Path(args.out) if args.out else pairs.parent / ("run-" + re.sub(r"[^A-Za-z0-9._-]+", "_", args.llm))
    check_writable(out)
    cap = request_cap(args.llm, args.llm_concurrency, args.concurrency)
    llm = make_llm(args.llm, cache=args.cache, concurrency=cap)
    console = make_console(stderr=True)

    def progress(record: dict) -> None:
        marks = "".join("+" if record.get(m) else "-" for m in METRICS)
        console.print(f"{escape(str(record['id']))} {marks}" + (" (error)" if record.get("error") else ""))

    summary = run_pairs(pairs, llm, out, shots=args.shots,
                        concurrency=args.concurrency, resume=args.resume, overwrite=args.overwrite, limit=args.limit,
                        max_tokens=args.max_tokens, progress=progress, executor=args.executor,
                        llm_concurrency=args.llm_concurrency, cache=args.cache)
    report = write_report(out)
    overall = report["overall"]
    make_console().print(f"{overall['pairs']} pairs scored in {escape(str(out))} ({summary['ran']} now, "
                         f"{summary['skipped']} already done): parseable {overall['parseable']}%, solvable "
                         f"{overall['solvable']}%, correct {overall['correct']}%; {summary['errors']} error(s)")
    return errors_exit(console, summary["errors"], "pair(s)")


def cmd_report(args: argparse.Namespace) -> int:
    write_report(args.folder)
    make_console().print((Path(args.folder) / "report.md").read_text(encoding="utf-8"), markup=False)
    return EXIT_OK


def cmd_score(args: argparse.Namespace) -> int:
    """Prints the (parseable, solvable, correct) triple and what decided it."""
    result = assess(Path(args.gold), Path(args.predicted), args.domain, placeholder=args.placeholder)
    # 1: the generated problem is not correct (as apb equiv's "not")
    code = EXIT_OK if result.evaluation.correct else EXIT_NEGATIVE
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

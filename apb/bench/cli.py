"""`apb bench`: the engine benchmark (vs PDDLGym or pymimir) and the wiring of every benchmark's subcommand
(env, translate, llm, llm-throughput, random, ground; each module owns its own parser)."""

from __future__ import annotations

import argparse

from apb.bench.env import add_bench_env_parser
from apb.bench.ground import add_bench_ground_parser
from apb.bench.llm import add_bench_llm_parser
from apb.bench.llm_throughput import add_bench_llm_throughput_parser
from apb.bench.random_baseline import add_bench_random_parser
from apb.bench.translate import add_bench_translate_parser
from apb.console import make_console
from apb.engine import ApbError
from apb.flags import positive_float

err = make_console(stderr=True)


def add_parsers(commands) -> None:
    """Adds `apb bench` and its subcommands to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("bench")
    bench_sub = commands.add_subparsers(p, dest="bench", metavar="BENCH", required=True)
    b = bench_sub.add_parser("engine",
                             help="applicable+apply throughput and grounding time (vs PDDLGym, or --peer pymimir)")
    b.add_argument("--reference", help="AutoPlanBench data folder (default: $APB_REFERENCE or ../shared/...)")
    b.add_argument("--seconds", type=positive_float, default=1.0, help="random-walk time per problem (default 1)")
    b.add_argument("--ipc", help="IPC classical folder for the action-cost and ADL rows (default: ipc-classical "
                   "next to the reference folder; skipped when absent)")
    b.add_argument("--peer", choices=("pddlgym", "pymimir"), default="pddlgym",
                   help="pddlgym (default): every AutoPlanBench dataset vs PDDLGym; pymimir: 19 IPC domains "
                   "(smallest problem each) vs pymimir's grounded mode, steps/s and grounding time side by side")
    b.add_argument("--domains", help="with --peer pymimir: comma-separated IPC domain folders (default: all 19)")
    b.add_argument("--repeat", type=int, default=1,
                   help="with --peer pymimir: run the walks this many times and report each domain's lowest ratio "
                   "(default 1)")
    b.add_argument("--no-peer", action="store_true", help="skip the PDDLGym comparison")
    b.add_argument("--peer-python", help="python executable that has pddlgym installed (default: this one)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)
    add_bench_env_parser(bench_sub)
    add_bench_translate_parser(bench_sub)
    add_bench_llm_parser(bench_sub)
    add_bench_llm_throughput_parser(bench_sub)
    add_bench_random_parser(bench_sub)
    add_bench_ground_parser(bench_sub)


def cmd_bench(args: argparse.Namespace) -> int:
    from apb.bench.engine import print_engine_report, run_engine_bench
    from apb.bench.output import comma_list, show_report

    if args.peer == "pymimir":
        from apb.bench.mimir_peer import print_mimir_report, run_mimir_bench

        if args.no_peer or args.peer_python:
            raise ApbError("--peer pymimir runs in this interpreter and is the comparison itself: "
                           "drop --no-peer / --peer-python")
        report = run_mimir_bench(ipc=args.ipc, seconds=args.seconds, domains=comma_list(args.domains),
                                 progress=None if args.json else err, repeat=args.repeat)
        return show_report(report, print_mimir_report, args.json)
    if args.repeat != 1:
        raise ApbError("--repeat repeats the walks of --peer pymimir; the PDDLGym comparison runs once")
    if args.domains:
        raise ApbError("--domains selects IPC domains for --peer pymimir; the PDDLGym comparison runs every "
                       "reference dataset")
    report = run_engine_bench(reference=args.reference, seconds=args.seconds, peer=not args.no_peer,
                              peer_python=args.peer_python, progress=None if args.json else err, ipc=args.ipc)
    return show_report(report, print_engine_report, args.json)

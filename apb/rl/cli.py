"""`apb rl train DOMAIN --max-objects K --out DIR` and `apb rl eval DIR --objects A-B --problems N [--json]`."""

from __future__ import annotations

import argparse
import json

from apb.engine.errors import ApbError
from apb.exit_codes import EXIT_OK
from apb.rl.ipc_cli import add_ipc_parsers, add_train_flags, cmd_wl_train

# PyTorch's default (a thread per core) makes the small per-step forward passes of the policy far slower as soon as
# another process uses a core: `apb rl eval` of 10 Logistics problems took 45 s on one thread and did not finish in
# 10 minutes on the default threads, beside one other busy process on 2 cores
_THREADS = "PyTorch threads (default 1: more only help on idle cores, and slow small forward passes down otherwise)"


def add_parsers(commands) -> None:
    """Adds `apb rl` (train, eval) to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("rl")
    rl_sub = commands.add_subparsers(p, dest="rl", metavar="ACTION", required=True)
    t = rl_sub.add_parser("train", help="train a GNN policy on generated problems with at most K objects")
    t.add_argument("domain", help="a bundled domain with a size rule (blocksworld, gripper, ferry, logistics, ...), "
                   "or ipc2023:<domain> (--learner wl)")
    t.add_argument("--max-objects", type=int, help="largest training problem, in objects (gnn)")
    t.add_argument("--out", required=True, help="checkpoint folder (policy.pt, policy.json; written every epoch)")
    t.add_argument("--problems", type=int, default=40, help="training problems (default 40)")
    t.add_argument("--epochs", type=int, default=10, help="passes over the labelled states (default 10)")
    t.add_argument("--states", type=int, default=300,
                   help="sampled states per problem, each with an optimal and a non-optimal successor (default 300)")
    t.add_argument("--hidden", type=int, default=32, help="embedding size (default 32)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--threads", type=int, default=1, help=_THREADS)
    t.add_argument("--json", action="store_true", help="print the training summary as JSON")
    add_train_flags(t)
    t.set_defaults(func=cmd_rl_train)
    e = rl_sub.add_parser("eval", help="coverage and plan length of a trained policy on held-out larger problems")
    e.add_argument("checkpoint", help="a folder written by apb rl train")
    e.add_argument("--objects", required=True, help="problem sizes A-B in objects (e.g. 10-30)")
    e.add_argument("--problems", type=int, default=50, help="held-out problems (default 50)")
    e.add_argument("--seed", type=int, default=7919, help="seed of the held-out problems (default 7919)")
    e.add_argument("--optimal-timeout", type=float, default=60.0,
                   help="seconds of A* (LM-cut) per problem for the optimal length; 0: compare to the bound only")
    e.add_argument("--no-baselines", action="store_true", help="skip the random walk and BrFS baselines")
    e.add_argument("--threads", type=int, default=1, help=_THREADS)
    e.add_argument("--json", action="store_true", help="print the report as JSON")
    e.set_defaults(func=cmd_rl_eval)
    add_ipc_parsers(rl_sub)


def _need_torch() -> None:
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ApbError("apb rl needs the rl extra (PyTorch): pip install 'apb[rl]'") from None


def _progress(console, total_label: str):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, transient=True)
    task = progress.add_task(total_label, total=1)

    def update(stage: str, done: int, total: int) -> None:
        progress.update(task, description=stage, completed=done, total=total)

    return progress, update


def cmd_rl_train(args: argparse.Namespace) -> int:
    from rich.console import Console

    if args.learner == "wl":
        return cmd_wl_train(args)
    if args.max_objects is None:
        raise ApbError("--max-objects K is needed to train the gnn learner on generated problems")
    _need_torch()
    from apb.rl.problems import size_rule
    from apb.rl.train import TrainConfig, train

    size_rule(args.domain)
    for flag, value in (("--problems", args.problems), ("--epochs", args.epochs), ("--states", args.states),
                        ("--hidden", args.hidden), ("--threads", args.threads)):
        if value < 1:
            raise ApbError(f"{flag} must be at least 1, not {value}")
    config = TrainConfig(args.domain, args.max_objects, problems=args.problems, epochs=args.epochs,
                         states_per_problem=args.states, hidden=args.hidden, seed=args.seed, threads=args.threads)
    console = Console(stderr=True)
    progress, update = _progress(console, "training")
    with progress:
        _, result = train(config, args.out, update)
    summary = {"domain": args.domain, "max_objects": args.max_objects, "out": args.out, "samples": result.samples,
               "problems": result.problems, "skipped": result.skipped, "seconds": round(result.seconds, 1),
               "final_loss": result.epochs[-1]["loss"], "epochs": result.epochs}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        Console().print(f"trained {args.domain} policy on {result.samples} labelled states of {result.problems} "
                        f"problems (<= {args.max_objects} objects) in {result.seconds:.0f} s; final loss "
                        f"{summary['final_loss']}; checkpoint in {args.out}", markup=False, highlight=False)
    return EXIT_OK


def cmd_rl_eval(args: argparse.Namespace) -> int:
    from rich.console import Console

    _need_torch()
    from apb.rl.evaluate import evaluate
    from apb.rl.policy import GNNPolicy
    from apb.rl.problems import parse_range

    low, high = parse_range(args.objects)
    for flag, value in (("--problems", args.problems), ("--threads", args.threads)):
        if value < 1:
            raise ApbError(f"{flag} must be at least 1, not {value}")
    import torch

    torch.set_num_threads(args.threads)
    policy = GNNPolicy.load(args.checkpoint)
    progress, update = _progress(Console(stderr=True), "evaluating")
    with progress:
        report = evaluate(policy, low, high, args.problems, seed=args.seed, optimal_timeout=args.optimal_timeout,
                          baselines=not args.no_baselines, progress=update)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_eval_report(report, Console())
    return EXIT_OK


def print_eval_report(report: dict, console) -> None:
    from rich.table import Table

    table = Table(title=f"{report['domain']} GNN policy (trained on <= {report['trained_max_objects']} objects)",
                  caption="length ratio: plan length over the optimum (A*, when it finished) or an admissible lower "
                          "bound; random walk and BrFS at the policy's budget")
    columns = ["objects", "problems", "coverage", "length ratio", "vs optimum"]
    if "random_coverage" in report:
        columns += ["random", "BrFS"]
    for column in columns:
        table.add_column(column, justify="right")
    for row in [*report["sizes"], {**report, "objects": "all"}]:
        cells = [str(row["objects"]), str(row["problems"]), f"{row['coverage']:.0%}",
                 "-" if row["mean_length_ratio"] is None else f"{row['mean_length_ratio']:.2f}",
                 str(row["ratio_to_optimal"])]
        if "random_coverage" in report:
            cells += [f"{row['random_coverage']:.0%}", f"{row['bfs_coverage']:.0%}"]
        table.add_row(*cells)
    console.print(table)

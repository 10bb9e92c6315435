"""`apb rl train SOURCE --out FILE [--time-limit S]` (training tasks, a knowledge file), `apb rl train DOMAIN
--max-objects K --out DIR` (generated problems) and `apb rl eval DIR --objects A-B --problems N [--json]`."""

from __future__ import annotations

import argparse
import json
import time

from apb.console import make_console
from apb.engine.errors import ApbError
from apb.exit_codes import EXIT_OK
from apb.planners.knowledge_files import DEFAULT_EPOCHS
from apb.rl.ipc_cli import add_ipc_parsers, add_train_flags, cmd_wl_train
from apb.rl.progress import reporter

# PyTorch's default (a thread per core) makes the small per-step forward passes of the policy far slower as soon as
# another process uses a core: `apb rl eval` of 10 Logistics problems took 45 s on one thread and did not finish in
# 10 minutes on the default threads, beside one other busy process on 2 cores
_THREADS = "PyTorch threads (default 1: more only help on idle cores, and slow small forward passes down otherwise)"


def add_parsers(commands) -> None:
    """Adds `apb rl` (train, eval) to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("rl")
    rl_sub = commands.add_subparsers(p, dest="rl", metavar="ACTION", required=True)
    t = rl_sub.add_parser("train", help="learn a domain's general policy / heuristic: from its training tasks (SOURCE "
                          "--out FILE), or from generated problems of a bundled domain (DOMAIN --max-objects K)")
    t.add_argument("domain", metavar="SOURCE",
                   help="training tasks: a dataset (ipc2023:<domain>, a folder, ...; its training split), or with "
                        "--max-objects a bundled domain with a size rule (blocksworld, gripper, ferry, logistics, ...)")
    t.add_argument("--out", required=True, help="the knowledge file (with --max-objects: a checkpoint folder, "
                                                "policy.pt and policy.json); written atomically as training improves")
    t.add_argument("--split", help="the source's split of training tasks (default: training where it exists, else "
                                   "every problem)")
    t.add_argument("--tasks", metavar="A-B", help="only the training tasks numbered A to B")
    t.add_argument("--validation", type=int, default=4,
                   help="training tasks held out to choose the best model (default 4, at most one in five)")
    t.add_argument("--resume", action="store_true", help="continue the training recorded in --out (gnn)")
    t.add_argument("--overwrite", action="store_true", help="replace an existing --out file (gnn)")
    t.add_argument("--max-objects", type=int, help="generated problems of a bundled domain: the largest, in objects")
    t.add_argument("--problems", type=int, default=40, help="with --max-objects: training problems (default 40)")
    t.add_argument("--epochs", type=int, help="passes over the labelled states (default 10 with --max-objects; else "
                                              f"until --time-limit, or {DEFAULT_EPOCHS})")
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


def cmd_rl_train(args: argparse.Namespace) -> int:
    if args.learner == "wl":
        return cmd_wl_train(args)
    _need_torch()
    epochs = 1 if args.epochs is None else args.epochs
    for flag, value in (("--problems", args.problems), ("--epochs", epochs), ("--states", args.states),
                        ("--hidden", args.hidden), ("--threads", args.threads)):
        if value < 1:
            raise ApbError(f"{flag} must be at least 1, not {value}")
    if args.validation < 0:
        raise ApbError(f"--validation must be 0 or more, not {args.validation}")
    if args.max_objects is not None:
        return _train_generated(args)
    return _train_tasks(args)


def _train_generated(args: argparse.Namespace) -> int:
    """`apb rl train DOMAIN --max-objects K`: generated problems of a bundled domain, a checkpoint folder."""
    from apb.rl.problems import size_rule
    from apb.rl.train import TrainConfig, train

    size_rule(args.domain)
    config = TrainConfig(args.domain, args.max_objects, problems=args.problems, epochs=args.epochs or 10,
                         states_per_problem=args.states, hidden=args.hidden, seed=args.seed, threads=args.threads)
    with reporter(make_console(stderr=True)) as (update, _):
        _, result = train(config, args.out, update)
    summary = {"domain": args.domain, "max_objects": args.max_objects, "out": args.out, "samples": result.samples,
               "problems": result.problems, "skipped": result.skipped, "seconds": round(result.seconds, 1),
               "final_loss": result.epochs[-1]["loss"], "epochs": result.epochs}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        make_console().print(f"trained {args.domain} policy on {result.samples} labelled states of {result.problems} "
                             f"problems (<= {args.max_objects} objects) in {result.seconds:.0f} s; final loss "
                             f"{summary['final_loss']}; checkpoint in {args.out}", markup=False)
    return EXIT_OK


def _train_tasks(args: argparse.Namespace) -> int:
    """`apb rl train SOURCE --out FILE`: the source's training tasks, a knowledge file."""
    from pathlib import Path

    from apb.datasets import resolve
    from apb.datasets.ipc2023 import TRAINING
    from apb.datasets.sources import ALL_SPLITS
    from apb.rl.learn import LearnConfig, learn
    from apb.rl.problems import parse_range
    from apb.rl.training_tasks import training_tasks

    if args.learner != "gnn":
        raise ApbError(f"--learner {args.learner}: not available in this apb (gnn is)")
    out = Path(args.out)
    if out.is_dir():
        raise ApbError(f"--out {out} is a folder: name the knowledge file to write (e.g. {out}/gnn.dk)")
    if out.exists() and not (args.resume or args.overwrite):
        raise ApbError(f"--out {out} exists: --resume continues its training, --overwrite starts again")
    if args.resume and not out.exists():
        raise ApbError(f"--resume: there is no {out} to resume; leave --resume out to start")
    dataset = resolve(args.domain, ALL_SPLITS)
    split = args.split or (TRAINING if TRAINING in dataset.splits else None)
    if split:
        dataset = dataset.only(split)
    numbers = parse_range(args.tasks, "--tasks") if args.tasks else None
    config = LearnConfig(epochs=args.epochs, time_limit=args.time_limit, validation=args.validation,
                         states_per_problem=args.states, hidden=args.hidden, seed=args.seed, threads=args.threads,
                         resume=args.resume)
    started = time.monotonic()
    with reporter(make_console(stderr=True)) as (update, note):
        tasks = training_tasks(dataset, numbers, update)
        if config.time_limit is not None:  # the limit counts from the start: loading the tasks took some of it
            config.time_limit = max(1.0, config.time_limit - (time.monotonic() - started))
        _, result = learn(dataset.domain_text(), dataset.domain.name, tasks, config, out, update, note)
    summary = {"learner": "gnn", "domain": dataset.domain.name, **result.summary()}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        make_console().print(
            f"trained gnn knowledge of {dataset.domain.name} on {result.samples} samples of {result.tasks} tasks in "
            f"{result.seconds:.0f} s: {result.epochs_done} epochs ({result.stop_reason}), best epoch "
            f"{result.best_epoch} (validation score {result.best_score}); knowledge in {out}", markup=False)
    return EXIT_OK


def cmd_rl_eval(args: argparse.Namespace) -> int:
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
    with reporter(make_console(stderr=True), "evaluating") as (update, _):
        report = evaluate(policy, low, high, args.problems, seed=args.seed, optimal_timeout=args.optimal_timeout,
                          baselines=not args.no_baselines, progress=update)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_eval_report(report, make_console())
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

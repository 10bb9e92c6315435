"""`apb rl train SOURCE --learner wl`, `apb rl plan DK DOMAIN TASK PLAN` (the IPC 2023 Learning Track's planner
interface) and `apb rl bench ipc2023` (apb.rl.ipc_bench): the learned-knowledge commands that need no PyTorch."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from apb.datasets import resolve
from apb.datasets.ipc2023 import TRAINING
from apb.engine import format_plan, load_task
from apb.engine.errors import ApbError
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import positive_float
from apb.planners.knowledge import SEARCHES
from apb.planners.knowledge_files import LEARNERS


def add_ipc_parsers(rl_sub) -> None:
    """Adds `plan` and `bench` to `apb rl`."""
    p = rl_sub.add_parser("plan", help="plan one task with a knowledge file (the IPC 2023 learning track's interface)")
    p.add_argument("knowledge", metavar="DK", help="a knowledge file written by apb rl train")
    p.add_argument("domain", metavar="DOMAIN", help="the domain's PDDL file")
    p.add_argument("task", metavar="TASK", help="the task's PDDL file")
    p.add_argument("plan", metavar="PLAN", help="where the plan is written (only a plan the engine validates)")
    p.add_argument("--time-limit", type=positive_float, default=1800.0,
                   help="CPU seconds for the whole run, parsing and grounding included, as Fast Downward's limits "
                   "(default 1800)")
    p.add_argument("--fallback", choices=("none", "ff"), default="none",
                   help="alternate the learned heuristic with h_FF (default none)")
    p.add_argument("--helpful", choices=("none", "ff"), default="ff",
                   help="greedy best-first search's preferred operators: FF's helpful actions, with dead ends its "
                        "relaxed plan proves pruned (default ff), or none")
    p.add_argument("--improve", type=float, default=1.0,
                   help="after the first plan, look for a cheaper one (restarting weighted A*, then plan reduction) "
                        "for this many times the first search's CPU time, at least 1 s each (default 1; 0: the "
                        "first plan, reduced by nothing)")
    p.add_argument("--search", choices=SEARCHES,
                   help="greedy best-first search, or greedy policy execution with backtracking "
                        "(apb.planners.learned_policy); default: policy for gnn knowledge, gbfs for wl")
    p.set_defaults(func=cmd_rl_plan)

    b = rl_sub.add_parser("bench", help="apb's learned planner vs LAMA-first on the IPC 2023 learning track's tests")
    b.add_argument("benchmark", choices=("ipc2023",), help="the benchmark (ipc2023; its folder is $APB_IPC2023)")
    b.add_argument("--split", default="easy",
                   help="easy, medium, hard, test (every size), or a folder laid out like the track's repository")
    b.add_argument("--time-limit", type=positive_float, default=60.0, help="seconds per task and planner (default 60)")
    b.add_argument("--knowledge", metavar="DIR", help="knowledge files of apb rl train, DIR/<domain>.json "
                   "(with --train-time: where training writes them)")
    b.add_argument("--train-time", type=positive_float, help="train each domain's WL model this many seconds first")
    b.add_argument("--domains", help="comma-separated domains (default: all ten)")
    b.add_argument("--tasks", help="task numbers, e.g. 1-5 or 1,3,7-9 (default: all)")
    b.add_argument("--costs", help="a reference cost file (the layout of solutions/upper_bounds.json)")
    b.add_argument("--planners", default="learned,lama",
                   help="comma-separated: wl, gnn (a learner's planner, labelled apb-<learner>), learned (every "
                   "learner with a knowledge file for the domain), lama (default learned,lama)")
    b.add_argument("--runs", metavar="FILE",
                   help="keep every finished run in this JSON lines file; started again with it, the benchmark runs "
                        "only what is missing (a learned planner again when its knowledge file changed)")
    b.add_argument("--json", action="store_true", help="print the results (every run included) as JSON")
    b.set_defaults(func=cmd_rl_bench)


def add_train_flags(t) -> None:
    """The flags `apb rl train` gains for the learners of this module."""
    t.add_argument("--learner", choices=sorted(LEARNERS), default="gnn",
                   help="gnn (the relational GNN policy) or wl (Weisfeiler-Leman features, numpy only)")
    t.add_argument("--time-limit", type=positive_float, default=None,
                   help="seconds of training, from the command's start (gnn: without --epochs, epochs run until then)")
    t.add_argument("--iterations", type=int, default=2, help="colour refinement rounds of the wl learner (default 2)")


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_wl_train(args: argparse.Namespace) -> int:
    from apb.rl.training_tasks import training_tasks
    from apb.rl.wl_train import WLConfig, train_wl

    if args.iterations < 0 or args.iterations > 8:
        raise ApbError(f"--iterations {args.iterations}: use 0 to 8 rounds of colour refinement")
    dataset = resolve(args.domain, "all")
    if TRAINING not in dataset.splits:
        raise ApbError(f"{args.domain}: no training split: the wl learner learns from a source's training tasks "
                       "and their reference plans (ipc2023:<domain>)")
    tasks = training_tasks(dataset.only(TRAINING), smallest_first=True)
    config = WLConfig(iterations=args.iterations, time_limit=args.time_limit)
    # the PDDL domain's name, as the gnn learner's (apb.planners.knowledge_files checks it against a task's)
    model = train_wl(dataset.domain.name, tasks, args.out, config, log=_log)
    summary = {"domain": dataset.name, "learner": "wl", "out": args.out, **model.training,
               "colours": len(model.colours)}
    print(json.dumps(summary, indent=2) if args.json else
          f"trained the wl model of {dataset.name} on {model.training['samples']} states of "
          f"{model.training['tasks']} training tasks in {model.training['seconds']} s "
          f"({len(model.colours)} colours); knowledge in {args.out}")
    return EXIT_OK


def cmd_rl_plan(args: argparse.Namespace) -> int:
    from apb.planners.knowledge import solve_with_knowledge

    task = load_task(args.domain, args.task)
    left = max(0.0, args.time_limit - time.process_time())  # the process's CPU time so far: start-up and grounding
    result = solve_with_knowledge(task, args.knowledge, timeout=left, search=args.search, fallback=args.fallback,
                                  helpful=args.helpful, improve=max(0.0, args.improve),
                                  reduce=args.improve > 0, cpu_time=True)
    if result.plan is None:
        print(f"; {result.planner}: {result.status} ({result.message}); expanded {result.expanded}")
        return EXIT_NEGATIVE
    Path(args.plan).write_text(format_plan(result.plan), encoding="utf-8")
    print(f"; {result.planner}: solved, cost {result.plan_cost:g}; expanded {result.expanded}, "
          f"{result.seconds:.2f} s of search; plan in {args.plan}")
    return EXIT_OK


def cmd_rl_bench(args: argparse.Namespace) -> int:
    from rich.console import Console

    from apb.rl.ipc_bench import planner_names, run_bench
    from apb.rl.ipc_table import print_table

    planners = planner_names(args.planners)
    report = run_bench(args.split, args.time_limit, knowledge=args.knowledge, train_time=args.train_time,
                       domains=args.domains, tasks=args.tasks, costs=args.costs, planners=planners, log=_log,
                       runs=args.runs)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report, Console())
    return EXIT_OK

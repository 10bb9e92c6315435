"""`apb solve` (a plan from a built-in or Fast Downward planner) and `apb state` (the state after a plan prefix, its
applicable actions, why an action is or is not applicable): the engine's tools on one grounded task."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.markup import escape

from apb.console import grounding_progress, make_console
from apb.engine import ActionError, ApbError, format_plan, load_task, read_plan
from apb.engine.deadline import DeadlineExceeded, deadline_after
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import non_negative_int, positive_float, positive_int
from apb.planners.knowledge import SEARCHES
from apb.planners.relaxed import relaxed_task
from apb.planners.result import TIMEOUT, SearchResult
from apb.planners.solve import HEURISTIC_PLANNERS, PLANNERS, solve

out = make_console()
err = make_console(stderr=True)


def add_parsers(commands) -> None:
    """Adds `solve` and `state` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("solve")
    p.add_argument("domain")
    p.add_argument("problem")
    p.add_argument("--planner", choices=PLANNERS, default="astar",
                   help="bfs, astar (LM-cut, optimal), gbfs (h_FF), lazy-gbfs (lazy h_FF, preferred operators: many "
                   "actions), random, fd-opt, fd-sat, learned (greedy search "
                   "with --knowledge, a file of any learner) (default: astar)")
    p.add_argument("--knowledge", metavar="DK", help="the knowledge file of apb rl train (--planner learned)")
    p.add_argument("--search", choices=SEARCHES, help="--planner learned: greedy policy execution or greedy "
                   "best-first search (default: policy for gnn knowledge, gbfs for wl)")
    p.add_argument("--timeout", type=positive_float, default=60.0, help="seconds, grounding included (default 60)")
    p.add_argument("--max-nodes", type=positive_int, default=None, help="expansion budget")
    p.add_argument("--max-steps", type=positive_int, default=None, help="step limit of the random walk (default 24)")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--output", "-o", help="write the plan to this file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)

    p = commands.add_parser("state")
    p.add_argument("domain")
    p.add_argument("problem")
    p.add_argument("--plan", help="plan file whose steps are applied first")
    p.add_argument("--steps", type=non_negative_int, default=None, help="apply only the first N steps of --plan")
    p.add_argument("--explain", metavar="ACTION", help='why "(act ...)" is (not) applicable in that state')
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_state)


def cmd_solve(args: argparse.Namespace) -> int:
    """`--timeout` covers grounding too: a task too large to ground in time ends as a timeout."""
    deadline = deadline_after(args.timeout)
    try:
        task = load_task(args.domain, args.problem, progress=grounding_progress(Path(args.problem).name, err),
                         deadline=deadline, same_domain=True)
        if args.planner in HEURISTIC_PLANNERS:  # the heuristics' shared tables, by the same deadline
            relaxed_task(task, deadline)
    except DeadlineExceeded as stopped:
        result = SearchResult(TIMEOUT, args.planner, seconds=args.timeout,
                              message=f"time limit of {args.timeout:g} s reached during {stopped.what}")
    else:
        result = solve(task, args.planner, timeout=max(deadline - time.monotonic(), 0.0), max_nodes=args.max_nodes,
                       max_steps=args.max_steps, seed=args.seed, knowledge=args.knowledge,
                       search=args.search)
    if args.output and result.plan is not None:
        Path(args.output).write_text(format_plan(result.plan), encoding="utf-8")
    if args.json:
        out.print_json(data=result.to_dict())
    else:
        if result.plan is not None:
            for action in result.plan:
                out.print(escape(str(action)))
        status = "[green]solved[/green]" if result.status == "solved" else f"[red]{result.status}[/red]"
        length = f", plan length {len(result.plan)}, cost {result.plan_cost:g}" if result.plan is not None else ""
        message = f" ({escape(result.message)})" if result.message else ""
        err.print(f"; {result.planner}: {status}{length}; expanded {result.expanded}, generated {result.generated}, "
                  f"{result.seconds:.3f} s{message}")
    return EXIT_OK if result.status == "solved" else EXIT_NEGATIVE


def cmd_state(args: argparse.Namespace) -> int:
    if args.steps is not None and not args.plan:
        raise ApbError(f"--steps {args.steps} applies the first steps of a plan: pass --plan PLAN too")
    plan = read_plan(args.plan) if args.plan else None
    if plan is not None and args.steps is not None and args.steps > len(plan.steps):
        raise ApbError(f"--steps {args.steps}: {args.plan} has {len(plan.steps)} steps; pass at most that many")
    task = load_task(args.domain, args.problem, progress=grounding_progress(Path(args.problem).name, err),
                     same_domain=True)
    state = task.initial_state
    applied = 0
    failure = None
    if plan is not None:
        steps = plan.steps if args.steps is None else plan.steps[: args.steps]
        for step in steps:
            try:
                action = task.parse_action(step.text)
            except ActionError as error:
                raise ApbError(f"{args.plan}:{step.line}: {error.message}") from None
            unmet = task.explain(state, action)
            if unmet:
                failure = {"step": applied, "line": step.line, "action": str(action), "unmet": unmet}
                break
            state = task.successor(state, action)
            applied += 1
    report = {
        "steps_applied": applied,
        "facts": sorted(task.facts(state)),
        "applicable": [str(a) for a in task.applicable(state)],
        "goal_reached": task.is_goal(state),
        "unsatisfied_goals": task.unsatisfied_goals(state),
    }
    if failure:
        report["plan_failure"] = failure
    if args.explain:
        try:
            action = task.parse_action(args.explain)
        except ActionError as error:
            raise ApbError(f"--explain {args.explain!r}: {error.message}") from None
        unmet = task.explain(state, action)
        report["explain"] = {"action": str(action), "applicable": not unmet, "unmet": unmet}
    if args.json:
        out.print_json(data=report)
    else:
        _print_state(report)
    return EXIT_NEGATIVE if failure else EXIT_OK


def _print_state(report: dict) -> None:
    failure = report.get("plan_failure")
    if failure:
        out.print(f"[red]Plan stops at step {failure['step'] + 1}[/red] (line {failure['line']}): "
                  + escape(f"{failure['action']} is not applicable; unmet: {', '.join(failure['unmet'])}"))
    out.print(f"[bold]State after {report['steps_applied']} step(s)[/bold] ({len(report['facts'])} facts):")
    for fact in report["facts"]:
        out.print(f"  {escape(fact)}")
    out.print(f"[bold]Applicable actions[/bold] ({len(report['applicable'])}):")
    for action in report["applicable"]:
        out.print(f"  {escape(action)}")
    if report["goal_reached"]:
        out.print("[green]Goal reached.[/green]")
    else:
        out.print("[bold]Unsatisfied goals:[/bold] " + escape(", ".join(report["unsatisfied_goals"])))
    if "explain" in report:
        ex = report["explain"]
        if ex["applicable"]:
            out.print(escape(f"{ex['action']} is applicable."))
        else:
            out.print(escape(f"{ex['action']} is not applicable: unmet {', '.join(ex['unmet'])}"))

"""`apb validate`: one plan against its domain and problem, or every gold plan of a dataset folder (AutoPlanBench,
PlanBench or apb layouts). Exit 0 valid, 1 invalid, 2 bad input."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from apb.console import grounding_progress, make_console
from apb.datasets.layouts import dataset_domain, plan_pairs
from apb.engine import ApbError, Task, ValidationResult, load_domain, load_problem, load_task, read_plan
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK

INPUT_KINDS = {"syntax", "unknown_action", "wrong_arity", "unknown_object", "type_mismatch"}

out = make_console()
err = make_console(stderr=True)


def add_parsers(commands) -> None:
    """Adds `validate` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("validate", description="apb validate DOMAIN PROBLEM PLAN | apb validate DATASET_DIR. "
                                                    "Exit 0 valid, 1 invalid, 2 bad input.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--json", action="store_true", help="machine-readable result (single plan)")
    p.set_defaults(func=cmd_validate)


def _plan_failure_text(result: ValidationResult, plan_name: str) -> str:
    where = f"{plan_name}:{result.line}" if result.line else plan_name
    if result.kind == "goal_not_reached":
        return f"goal not reached after {result.steps} step(s); unsatisfied goals: {', '.join(result.unmet)}"
    if result.kind == "unmet_preconditions":
        return (f"{where}: step {result.failed_step + 1} {result.failed_action} is not applicable; "
                f"unmet preconditions: {', '.join(result.unmet)}")
    return f"{where}: step {result.failed_step + 1}: {result.reason}"


def cmd_validate(args: argparse.Namespace) -> int:
    if len(args.paths) == 1:
        return _validate_dataset(Path(args.paths[0]))
    if len(args.paths) != 3:
        raise ApbError("usage: apb validate DOMAIN PROBLEM PLAN   or   apb validate DATASET_DIR")
    domain, problem, plan_path = args.paths
    task = load_task(domain, problem, progress=grounding_progress(Path(problem).name, err), same_domain=True)
    result = task.validate_file(plan_path)
    if args.json:
        out.print_json(data=_validation_json(result, plan_path))
    if result.kind in INPUT_KINDS:
        raise ApbError(_plan_failure_text(result, plan_path))
    if not result.valid:
        if not args.json:
            out.print(f"[red]Plan invalid[/red]: {escape(_plan_failure_text(result, plan_path))}")
        return EXIT_NEGATIVE
    if not args.json:
        cost = f", cost {result.cost:g}" if task.has_costs else ""
        out.print(f"[green]Plan valid[/green]: {result.steps} step(s){cost}, goal reached.")
    return EXIT_OK


def _validation_json(result: ValidationResult, plan: str) -> dict:
    return {"plan": plan, "valid": result.valid, "steps": result.steps, "failed_step": result.failed_step,
            "failed_action": result.failed_action, "line": result.line, "kind": result.kind,
            "unmet": result.unmet, "reason": result.reason, "cost": result.cost}


def _validate_dataset(folder: Path) -> int:
    domain = load_domain(dataset_domain(folder))
    pairs = plan_pairs(folder)
    if not pairs:
        raise ApbError(f"{folder}: no gold-plan folders found (expected e.g. orig_gold_plans/ or plans/)")
    checked = valid = 0
    orphans = []
    for pair in pairs:
        if pair.problem is None:
            orphans.append(pair.plan)
            continue
        checked += 1
        try:
            task = Task(domain, load_problem(pair.problem, domain))
            result = task.validate(pair.plan_steps(read_plan(pair.plan)))
        except ApbError as error:
            out.print(f"[red]FAIL[/red] {escape(str(pair.plan))}: {escape(str(error))}")
            continue
        if result.valid:
            valid += 1
        else:
            out.print(f"[red]FAIL[/red] {escape(_plan_failure_text(result, str(pair.plan)))}")
    for plan in orphans:
        out.print(f"[yellow]skipped[/yellow] {escape(str(plan))}: no matching problem file")
    colour = "green" if valid == checked else "red"
    out.print(f"[{colour}]{valid}/{checked} plans valid[/{colour}]"
              + (f" ({len(orphans)} skipped: no problem file)" if orphans else ""))
    return EXIT_OK if valid == checked else EXIT_NEGATIVE

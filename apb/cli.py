"""The `apb` command: validate, solve, state, domains, generate, describe, play, run, eval, report, nl generate,
examples build, cache, bench.

Exit codes, the same for every command (the README's table): 0 success, 1 a negative answer or problems found
(invalid plan, no plan found, not equivalent, a wrong answer, audit findings, an item that ended in an error),
2 usage or input errors (one line naming the flag, file or value, and what to do; nothing written), 130
interrupted by Ctrl-C (after keeping what was finished), 143 the same after SIGTERM (apb.stop). User errors never
print a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

from rich.markup import escape

from apb import __version__
from apb.bench.cli import add_bench_parser
from apb.console import grounding_progress, make_console
from apb.datasets.layouts import dataset_domain, plan_pairs
from apb.engine import (
    ActionError,
    ApbError,
    PDDLWarning,
    Task,
    ValidationResult,
    format_plan,
    load_domain,
    load_problem,
    load_task,
    read_plan,
)
from apb.flags import add_llm_concurrency, at_most, non_negative_int, positive_float, positive_int
from apb.stop import exit_code as interrupted_code
from apb.stop import what as interrupted_word

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2
MAX_GENERATED = 10_000  # apb generate --count: more would run for days
MAX_DUPLICATES = 1_000  # apb generate stops after this many duplicate problems in a row


class CommandParser(argparse.ArgumentParser):
    """argparse with a usage error on one line (flag, value, what to do) and exit code 2."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
INPUT_KINDS = {"syntax", "unknown_action", "wrong_arity", "unknown_object", "type_mismatch"}

out = make_console()
err = make_console(stderr=True)


class BadInput(ApbError):
    """A problem with the command's input found by the CLI itself (exit 2)."""


# ---- validate ------------------------------------------------------------------------------------------------
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
        raise BadInput("usage: apb validate DOMAIN PROBLEM PLAN   or   apb validate DATASET_DIR")
    domain, problem, plan_path = args.paths
    task = load_task(domain, problem, progress=grounding_progress(Path(problem).name, err))
    result = task.validate_file(plan_path)
    if args.json:
        out.print_json(data=_validation_json(result, plan_path))
    if result.kind in INPUT_KINDS:
        raise BadInput(_plan_failure_text(result, plan_path))
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
        raise BadInput(f"{folder}: no gold-plan folders found (expected e.g. orig_gold_plans/ or plans/)")
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


# ---- solve ---------------------------------------------------------------------------------------------------
def cmd_solve(args: argparse.Namespace) -> int:
    from apb.planners import solve

    task = load_task(args.domain, args.problem, progress=grounding_progress(Path(args.problem).name, err))
    result = solve(task, args.planner, timeout=args.timeout, max_nodes=args.max_nodes, max_steps=args.max_steps,
                   seed=args.seed)
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


# ---- state ---------------------------------------------------------------------------------------------------
def cmd_state(args: argparse.Namespace) -> int:
    task = load_task(args.domain, args.problem, progress=grounding_progress(Path(args.problem).name, err))
    state = task.initial_state
    applied = 0
    failure = None
    if args.plan:
        plan = read_plan(args.plan)
        steps = plan.steps if args.steps is None else plan.steps[: args.steps]
        for step in steps:
            try:
                action = task.parse_action(step.text)
            except ActionError as error:
                raise BadInput(f"{args.plan}:{step.line}: {error.message}") from None
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
            raise BadInput(f"--explain {args.explain!r}: {error.message}") from None
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


# ---- domains and generate ------------------------------------------------------------------------------------
def cmd_domains(args: argparse.Namespace) -> int:
    from apb import domains

    names = domains.domain_names()
    if not args.stats:
        rows = [{"name": n, "problems": {s: len(domains.problem_files(n, s)) for s in domains.SPLITS}}
                for n in names]
        if args.json:
            out.print_json(data=rows)
        else:
            for row in rows:
                counts = ", ".join(f"{k} {v}" for k, v in row["problems"].items() if v)
                out.print(f"{row['name']:12s} {counts}")
        return EXIT_OK
    stats = [st.to_dict() for n in names for s in domains.SPLITS if (st := domains.split_stats(n, s))]
    if args.json:
        out.print_json(data=stats)
        return EXIT_OK
    print_domain_stats(stats)
    return EXIT_OK


def print_domain_stats(stats: list[dict]) -> None:
    """Two tables that fit 80 columns: per split (ours / the paper's Table 6 averages), and per domain."""
    from rich.table import Table

    from apb.domains.paper import table6

    paper = table6()

    def pair(value: float, ref: dict, key: str) -> str:
        return f"{value:.1f}" + (f" / {ref[key]:.1f}" if key in ref else "")

    splits = Table(title="Bundled problems: ours / the paper's (AutoPlanBench Table 6)", box=None,
                   pad_edge=False)
    for column in ("domain", "split", "n", "opt. length", "goal facts", "init facts", "objects"):
        splits.add_column(column, justify="left" if column in ("domain", "split") else "right", no_wrap=True)
    for st in stats:
        ref = paper.get(st["name"], {}) if st["split"] != "scaled" else {}
        star = "" if st["optimal_plans"] == st["problems"] else "*"
        splits.add_row(st["name"], st["split"], str(st["problems"]),
                       pair(st["avg_optimal_plan_length"], ref, "avg_optimal_plan_length") + star,
                       pair(st["avg_goal_facts"], ref, "avg_goal_facts"), pair(st["avg_init_facts"], ref,
                                                                                "avg_init_facts"),
                       pair(st["avg_objects"], ref, "avg_objects"))
    out.print(splits)
    out.print("* not every plan is proven optimal (some come from a satisficing planner)", markup=False)
    shapes = Table(title="Domain files: ours / the paper's", box=None, pad_edge=False)
    for column in ("domain", "actions", "predicates", "types"):
        shapes.add_column(column, justify="left" if column == "domain" else "right", no_wrap=True)
    for st in {st["name"]: st for st in stats}.values():
        ref = paper.get(st["name"], {})
        shapes.add_row(st["name"], *(f"{st[key]}" + (f" / {int(ref[key])}" if key in ref else "")
                                     for key in ("actions", "predicates", "types")))
    out.print(shapes)


def _parse_params(pairs: list[str]) -> dict:
    params: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise BadInput(f"--param {pair!r}: write it as NAME=VALUE, e.g. --param blocks=6")
        try:
            params[key] = int(value)
        except ValueError:
            params[key] = value
    return params


def cmd_generate(args: argparse.Namespace) -> int:
    import shutil

    from apb import domains
    from apb.domains.builder import build, write_set

    folder = domains.domain_dir(args.domain)
    module = domains.generator(args.domain)
    params = _parse_params(args.param or [])
    unknown = sorted(set(params) - set(module.PARAMETERS))
    if unknown:
        raise BadInput(f"unknown parameter(s) {', '.join(unknown)} for {args.domain}: "
                       f"it takes {', '.join(f'{k} (default {v})' for k, v in module.PARAMETERS.items())}")
    from apb.eval.rundir import check_writable

    out_dir = check_writable(args.out)
    if (out_dir / "problems").is_dir() and any((out_dir / "problems").iterdir()) and not args.force:
        raise BadInput(f"{out_dir / 'problems'} is not empty: choose another --out or pass --force")
    if args.count < 1:
        raise BadInput("--count must be at least 1")
    candidates = ((args.seed + i, params) for i in range(args.count * 10))
    start = time.perf_counter()
    def log(line: str) -> None:
        if not args.json:
            err.print(escape(line))

    built = build(load_domain(folder / "domain.pddl"), module.generate, candidates, count=args.count,
                  timeout=args.timeout, log=log, max_duplicates=MAX_DUPLICATES)
    if not built:
        raise BadInput(f"no solvable problem came out of seeds {args.seed}.. with {params or 'default parameters'}")
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / "domain.pddl", out_dir / "domain.pddl")
    write_set(out_dir, [(f"p{i:02d}", b) for i, b in enumerate(built, start=1)], clear=args.force)
    report = {"domain": args.domain, "out": str(out_dir), "problems": len(built), "params": params,
              "plan_lengths": [b.length for b in built], "optimal": [b.optimal for b in built],
              "seconds": round(time.perf_counter() - start, 3)}
    if args.json:
        out.print_json(data=report)
    else:
        out.print(f"wrote {len(built)} problem(s) with gold plans to {escape(str(out_dir))} "
                  f"(plan lengths {report['plan_lengths']}, {report['seconds']:.1f} s)")
    return EXIT_OK if len(built) == args.count else EXIT_NEGATIVE


# ---- describe and play ---------------------------------------------------------------------------------------
def cmd_describe(args: argparse.Namespace) -> int:
    from apb.envs.text_env import PDDLTextEnv

    problem = args.problem
    env = PDDLTextEnv(args.domain, split=args.split, description=args.description, problem=problem)
    obs, info = env.reset(options={"problem": env.problem_ids[0] if problem is None else problem})
    if args.json:
        out.print_json(data={"domain": info["domain"], "problem_id": info["problem_id"],
                             "description": env.description, "templates": env.templates.source,
                             "domain_text": info["domain_description"], "problem_text": obs,
                             "action_schemas": info["action_schemas"]})
        return EXIT_OK
    if not args.problem_only:
        out.rule(f"[bold]Domain {escape(info['domain'])}[/bold]")
        out.print(f"[dim]wording: {escape(env.templates.source)}[/dim]")  # on its own line: a path never cut
        out.print(escape(info["domain_description"]))
    if not args.domain_only:
        out.rule(f"[bold]Problem {escape(info['problem_id'])}[/bold]")
        out.print(escape(obs))
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from apb.agents.human import play
    from apb.envs.text_env import PDDLTextEnv

    problem = args.problem
    env = PDDLTextEnv(args.domain, split=args.split, description=args.description, problem=problem,
                      require_finish=args.require_finish)
    first = env.problem_ids[0] if problem is None else problem
    summary = play(env, out, lambda prompt: out.input(prompt), problem=first, seed=args.seed,
                   max_steps=args.max_steps)
    return EXIT_OK if summary["goal_reached"] else EXIT_NEGATIVE


def cmd_examples_build(args: argparse.Namespace) -> int:
    from apb.agents.examples import build_example
    from apb.agents.thoughts import THOUGHTS_FILE, save_thoughts, write_thoughts

    example = build_example(args.domain)
    llm = None
    if args.llm:
        from apb.llm import make_llm

        llm = make_llm(args.llm, concurrency=args.llm_concurrency)
    report = write_thoughts(example, llm)
    # never into the installed package: the current folder unless --out says where
    path = Path(args.out) if args.out else Path(f"{args.domain}_{THOUGHTS_FILE}")
    save_thoughts(example, report, path)
    for step, thought in zip(example.steps, report.thoughts):
        out.print(f"[dim]Think:[/dim] {escape(thought)}\n[bold]{escape(step.text)}[/bold]")
    replaced = f"; {len(report.replaced)} unusable LLM thought(s) replaced by template thoughts" if report.replaced \
        else ""
    out.print(f"wrote {escape(str(path))} ({len(report.thoughts)} thoughts, {report.source}, "
              f"{report.llm_calls} LLM call(s){replaced})")
    return EXIT_OK


# ---- entry point ---------------------------------------------------------------------------------------------
def _add_env_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments that pick an environment's problem and wording (describe, play)."""
    p.add_argument("domain", help="bundled domain name or dataset folder")
    p.add_argument("--problem", help="problem number (1 = p01) or id; default: the first of the split")
    p.add_argument("--split", help="bundled: test (default), example or scaled; a dataset folder: one of its "
                   "splits (default: its test problems)")
    p.add_argument("--description", default="curated",
                   help="curated | rule | pddl | path of an nl.yaml / AutoPlanBench json / PDDLGym-style YAML")


def build_parser() -> argparse.ArgumentParser:
    from apb.planners import PLANNERS

    parser = CommandParser(prog="apb", description="PDDL planning tasks as text games: engine tools.")
    parser.add_argument("--version", action="version", version=f"apb {__version__}")
    parser.add_argument("--cache-dir", metavar="DIR",
                        help="folder of the LLM answer cache (default: $APB_CACHE_DIR, else $XDG_CACHE_HOME/apb, else "
                             "~/.cache/apb)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="validate a plan, or every gold plan of a dataset folder",
                       description="apb validate DOMAIN PROBLEM PLAN | apb validate DATASET_DIR. Exit 0 valid, "
                                   "1 invalid, 2 bad input.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--json", action="store_true", help="machine-readable result (single plan)")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("solve", help="find a plan with a built-in or Fast Downward planner")
    p.add_argument("domain")
    p.add_argument("problem")
    p.add_argument("--planner", choices=PLANNERS, default="astar",
                   help="bfs, astar (LM-cut, optimal), gbfs (h_FF), random, fd-opt, fd-sat (default: astar)")
    p.add_argument("--timeout", type=positive_float, default=60.0, help="seconds (default 60)")
    p.add_argument("--max-nodes", type=positive_int, default=None, help="expansion budget")
    p.add_argument("--max-steps", type=positive_int, default=None, help="step limit of the random walk (default 24)")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--output", "-o", help="write the plan to this file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("state", help="the state after a plan prefix, its applicable actions, explanations")
    p.add_argument("domain")
    p.add_argument("problem")
    p.add_argument("--plan", help="plan file whose steps are applied first")
    p.add_argument("--steps", type=non_negative_int, default=None, help="apply only the first N steps of --plan")
    p.add_argument("--explain", metavar="ACTION", help='why "(act ...)" is (not) applicable in that state')
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_state)

    p = sub.add_parser("domains", help="list the bundled domains (--stats: Table-6 style statistics)")
    p.add_argument("--stats", action="store_true", help="per domain and split: problems and averages")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_domains)

    p = sub.add_parser("generate", help="generate new problems with gold plans for a bundled domain")
    p.add_argument("domain")
    p.add_argument("--out", required=True, help="folder to write domain.pddl, problems/ and plans/ into")
    p.add_argument("--count", type=at_most(MAX_GENERATED), default=5,
                   help=f"problems to generate (default 5, at most {MAX_GENERATED})")
    p.add_argument("--seed", type=non_negative_int, default=0, help="first seed; problem i uses seed + i")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="generator parameter (repeatable)")
    p.add_argument("--timeout", type=positive_float, default=60.0, help="seconds per problem for A*, then for GBFS")
    p.add_argument("--force", action="store_true", help="replace problems already in --out")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("describe", help="print a domain's and a problem's text as agents see it")
    _add_env_arguments(p)
    p.add_argument("--domain-only", action="store_true", help="only the domain text")
    p.add_argument("--problem-only", action="store_true", help="only the problem text")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_describe)

    p = sub.add_parser("play", help="play a problem in the terminal (PDDL or English actions)")
    _add_env_arguments(p)
    p.add_argument("--require-finish", action="store_true", help="the episode ends only when you type (finish)")
    p.add_argument("--max-steps", type=positive_int, default=None, help="step limit (default: none)")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("examples", help="one-shot examples of the bundled domains")
    examples_sub = p.add_subparsers(dest="examples", metavar="ACTION", required=True)
    e = examples_sub.add_parser("build", help="write the thoughts of a domain's CoT/ReAct example (LLM or template)")
    e.add_argument("domain")
    e.add_argument("--llm", help="LLM spec that writes the thoughts (default: the template thought writer)")
    add_llm_concurrency(e)
    e.add_argument("--out", help="file to write (default: DOMAIN_example_thoughts.yaml in the current folder; the "
                   "shipped file is apb/domains/DOMAIN/example_thoughts.yaml of a source checkout)")
    e.set_defaults(func=cmd_examples_build)

    from apb.acp.cli import add_acp_parser
    from apb.equivalence.cli import add_equiv_parser
    from apb.eval.cli import add_eval_parser, add_run_parser
    from apb.eval.report.cli import add_report_parser
    from apb.llm.cli import add_cache_parser
    from apb.nl.cli import add_nl_parser
    from apb.nl2pddl.cli import add_nl2pddl_parser
    from apb.rl.cli import add_rl_parser

    add_nl_parser(sub)
    add_cache_parser(sub)
    add_run_parser(sub)
    add_eval_parser(sub)
    add_report_parser(sub)
    add_equiv_parser(sub)
    add_nl2pddl_parser(sub)
    add_acp_parser(sub)
    from apb.integrations.cli import add_integration_parsers

    add_integration_parsers(sub)
    add_rl_parser(sub)

    add_bench_parser(sub)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    if issubclass(category, PDDLWarning):
        err.print(f"[yellow]warning[/yellow]: {escape(str(message))}")
    else:
        err.print(f"[yellow]warning[/yellow]: {category.__name__}: {escape(str(message))}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    warnings.showwarning = _show_warning
    if args.cache_dir:
        import os

        os.environ["APB_CACHE_DIR"] = str(Path(args.cache_dir).expanduser())
    try:
        return args.func(args)
    except ApbError as error:
        err.print(f"[red]error[/red]: {escape(str(error))}")
        return EXIT_BAD_INPUT
    except OSError as error:  # a path the checks could not foresee (a disk that fills, a folder removed meanwhile)
        where = f"{error.filename}: " if error.filename else ""
        err.print(f"[red]error[/red]: {escape(where + (error.strerror or str(error)))}; check the path and permissions")
        return EXIT_BAD_INPUT
    except RecursionError:
        err.print("[red]error[/red]: the input is nested too deeply to process; simplify it")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as stop:
        summary = getattr(stop, "summary", None)  # the runner's RunInterrupted: what finished
        word = interrupted_word()  # "interrupted" (Ctrl-C) or "terminated (SIGTERM)"
        if summary:
            err.print(f"{word}: {summary['finished']} of {summary['total']} {summary['noun']}(s) finished and "
                      f"kept in {escape(summary['out'])}; rerun the same command with --resume for the rest")
        else:  # every resumable command has a --resume flag
            resume = " (finished work is kept: rerun with --resume)" if hasattr(args, "resume") else ""
            err.print(f"{word}{resume}")
        _exit_now(interrupted_code())
        return interrupted_code()


def _exit_now(code: int) -> None:
    """Ends the process at once when worker threads are still running (an LLM call, a search): what finished is
    on disk already, and waiting for them would keep a Ctrl-C from taking effect for many seconds."""
    import os
    import threading

    if threading.active_count() > 1 and threading.current_thread() is threading.main_thread():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    sys.exit(main())

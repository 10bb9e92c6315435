"""`apb planbench prompts | eval | score | report`: PlanBench's tasks on its released configs.

- `apb planbench score FILE --config NAME --task STEM --out OUT` writes PlanBench's verdicts (apb.planbench.score_cli);
- `apb planbench prompts --config NAME --task STEM --out FILE` writes a task's prompt file as PlanBench does;
- `apb planbench eval --config NAME --tasks t1,t2 --llm SPEC --out DIR` runs an LLM on them (apb.planbench.runs);
- `apb planbench report DIR...` prints the leaderboard table (`apb report DIR` shows it too: report_section).
`add_parsers(commands)` adds the command to `apb`; bad input raises ApbError subclasses (one line, exit 2).
"""

from __future__ import annotations

import argparse
import time

from rich.markup import escape

from apb.console import errors_exit, make_console
from apb.datasets.planbench import FOLDERS
from apb.eval.run_kinds import register_run_kind
from apb.exit_codes import EXIT_OK
from apb.flags import add_item_run_flags, positive_int
from apb.planbench import RUN_KIND
from apb.planbench.score_cli import add_score_parser

out = make_console()
err = make_console(stderr=True)
CONFIG_HELP = "a PlanBench config: a config file's stem from plan-bench or llm_planning_analysis (e.g. blocksworld)"
MAX_TOKENS_DEFAULT = 2048  # apb.planbench.runs.MAX_TOKENS (not imported: the CLI loads the runner lazily)
FOLDER_HELP = f"the PlanBench folder whose config to use when both have the stem ({' or '.join(FOLDERS)}; default " \
              f"{FOLDERS[0]})"


def add_parsers(commands) -> None:
    """Adds `planbench` and its subcommands to the `apb` command (see apb.cli.Commands); `apb report` shows
    `apb planbench eval` runs (apb.eval.run_kinds)."""
    register_run_kind(RUN_KIND, _report_section)
    parser = commands.add_parser("planbench")
    sub = commands.add_subparsers(parser, dest="planbench_command", metavar="PLANBENCH_COMMAND", required=True)
    p = sub.add_parser("prompts", help="write a task's prompt file as PlanBench does (byte for byte its release)")
    p.add_argument("--config", required=True, help=CONFIG_HELP)
    p.add_argument("--folder", choices=FOLDERS, help=FOLDER_HELP)
    p.add_argument("--task", required=True, help="the task: a released file's stem (task_1_plan_generation) or t1, "
                                                 "t2, t3, t4, t5, t6, t7, t8_1, t8_2, t8_3")
    p.add_argument("--variant", choices=("prompts", "results"), default="prompts",
                   help="prompts (default): as the released prompt files; results: as the queries of the released "
                        "results/responses files (earlier intros and randomness for t1, t3)")
    p.add_argument("--instances", help="only these instance ids (comma-separated; ranges as 2-10)")
    p.add_argument("--llm-plans", help="t3_1 (task_3_plan_verification_with_llm_plans): the t1 results file whose "
                                       "extracted plans are verified")
    p.add_argument("--out", required=True, help="the JSON file to write")
    p.set_defaults(func=cmd_prompts)
    add_score_parser(sub)

    e = sub.add_parser("eval", help="ask an LLM a config's task prompts; PlanBench's responses/results layout, "
                                    "resumable")
    e.add_argument("--config", required=True, help=CONFIG_HELP)
    e.add_argument("--folder", choices=FOLDERS, help=FOLDER_HELP)
    e.add_argument("--tasks", default="t1", help="comma-separated tasks (t1,t2,t3,t4,t5,t6,t7,t8_1,t8_2,t8_3; default "
                                                 "t1)")
    e.add_argument("--llm", required=True, help="LLM spec: openai:<model>, anthropic:<model>, "
                                                "openai-compatible:<base_url>:<model>, local, scripted:<file>, "
                                                "replay:<released responses or results file>")
    e.add_argument("--variant", choices=("prompts", "results"), default="prompts",
                   help="the prompts asked: as the released prompt files (default) or as the released results files "
                        "asked them (use results to replay a released results file of t1 or t3)")
    e.add_argument("--engine", help="the model folder of the responses/results layout (default: from the spec)")
    e.add_argument("--instances", help="only these instance ids (comma-separated; ranges as 2-10)")
    e.add_argument("--max-tokens", type=positive_int, default=MAX_TOKENS_DEFAULT,
                   help=f"the longest answer asked for (default {MAX_TOKENS_DEFAULT})")
    add_item_run_flags(e, "prompts", at_once="prompts at a time", where="--out",
                       skip="skip answered prompts, retry LLM errors", out="output folder (required)")
    e.add_argument("--cache", default="rw", choices=("rw", "replay", "off"), help="LLM answer cache mode")
    e.add_argument("--no-progress", action="store_true")
    e.set_defaults(func=cmd_eval)

    r = sub.add_parser("report", help="the leaderboard table of runs: config x task, instances, % correct "
                                      "(PlanBench's verdict and apb's sound one)")
    r.add_argument("dirs", nargs="+", metavar="DIR", help="folders of apb planbench eval runs")
    r.add_argument("--json", action="store_true", help="print the rows as JSON")
    r.set_defaults(func=cmd_report)


def _report_section(dirs):
    from apb.planbench.report_section import report_section  # loaded when `apb report` meets a PlanBench run

    return report_section(dirs)


def cmd_prompts(args: argparse.Namespace) -> int:
    from apb.datasets.planbench import load_config
    from apb.planbench.prompts import prompt_file, write_prompt_file

    config = load_config(args.config, args.folder)
    started = time.perf_counter()
    from apb.planbench.prompts import read_llm_plans

    plans = read_llm_plans(args.llm_plans) if args.llm_plans else None
    obj = prompt_file(config, args.task, args.variant, _instances(args.instances), plans)
    path = write_prompt_file(obj, args.out)
    out.print(f"{len(obj['instances'])} prompts ({obj['task']}, {config.folder}/{config.name}) -> "
              f"{escape(str(path))} in {time.perf_counter() - started:.1f} s")
    return EXIT_OK


def _instances(text: str | None) -> set[int] | None:
    from apb.planbench.questions import parse_instances

    return parse_instances(text)


def cmd_eval(args: argparse.Namespace) -> int:
    import sys

    from apb.eval.episode_specs import EvalError
    from apb.eval.rundir import check_writable
    from apb.llm import make_llm, request_cap
    from apb.planbench.runs import evaluate

    if not args.out:
        raise EvalError("apb planbench eval needs --out DIR (the run folder)")
    check_writable(args.out)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    cap = request_cap(args.llm, args.llm_concurrency, args.concurrency)
    llm = make_llm(args.llm, cache=args.cache, concurrency=cap)
    summary = evaluate(args.config, tasks, llm, args.out, folder=args.folder, engine=args.engine, variant=args.variant,
                       instances=_instances(args.instances), max_tokens=args.max_tokens,
                       concurrency=args.concurrency, resume=args.resume, overwrite=args.overwrite,
                       progress=not args.no_progress and sys.stderr.isatty(), executor=args.executor,
                       llm_concurrency=args.llm_concurrency, cache=args.cache)
    answered = max(summary["answered"], 1)
    out.print(f"{summary['total']} prompt(s): {summary['ran']} asked now, {summary['skipped']} done before; "
              f"{summary['answered']} answered: PlanBench {summary['official'] / answered:.1%}, sound "
              f"{summary['sound'] / answered:.1%}; {summary['errors']} LLM error(s) (not scored) -> "
              f"{escape(str(args.out))}")
    return errors_exit(err, summary["errors"], "prompt(s)", "an LLM error")


def cmd_report(args: argparse.Namespace) -> int:
    import json

    from apb.planbench.leaderboard import leaderboard_rows, leaderboard_table

    rows = leaderboard_rows(args.dirs)
    if args.json:
        out.print_json(json.dumps(rows))
    else:
        out.print(leaderboard_table(rows))
    return EXIT_OK

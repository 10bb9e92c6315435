"""`apb planbench prompts | eval | score | report`: PlanBench's tasks on its released configs.

- `apb planbench score FILE --config NAME --task STEM --out OUT` writes PlanBench's verdicts (apb.planbench.score_cli);
- `apb planbench prompts --config NAME --task STEM --out FILE` writes a task's prompt file as PlanBench does;
- `apb planbench eval --config NAME --tasks t1,t2 --llm SPEC --out DIR` runs an LLM on them (apb.planbench.runs);
- `apb planbench report DIR...` prints the leaderboard table.
`add_parsers(commands)` adds the command to `apb`; bad input raises ApbError subclasses (one line, exit 2).
"""

from __future__ import annotations

import argparse
import time

from rich.markup import escape

from apb.console import make_console
from apb.datasets.planbench import FOLDERS
from apb.exit_codes import EXIT_OK
from apb.planbench.score_cli import add_score_parser

out = make_console()
err = make_console(stderr=True)
CONFIG_HELP = "a PlanBench config: a config file's stem from plan-bench or llm_planning_analysis (e.g. blocksworld)"
FOLDER_HELP = f"the PlanBench folder whose config to use when both have the stem ({' or '.join(FOLDERS)}; default " \
              f"{FOLDERS[0]})"


def add_parsers(commands) -> None:
    """Adds `planbench` and its subcommands to the `apb` command (see apb.cli.Commands)."""
    parser = commands.add_parser("planbench")
    sub = commands.add_subparsers(parser, dest="planbench_command", metavar="PLANBENCH_COMMAND", required=True)
    p = sub.add_parser("prompts", help="write a task's prompt file as PlanBench does (byte for byte its release)")
    p.add_argument("--config", required=True, help=CONFIG_HELP)
    p.add_argument("--folder", choices=FOLDERS, help=FOLDER_HELP)
    p.add_argument("--task", required=True, help="the task: a released file's stem (task_1_plan_generation) or t1, "
                                                 "t2, t3, t5, t7, t8_1, t8_2, t8_3")
    p.add_argument("--out", required=True, help="the JSON file to write")
    p.set_defaults(func=cmd_prompts)
    add_score_parser(sub)


def cmd_prompts(args: argparse.Namespace) -> int:
    from apb.datasets.planbench import load_config
    from apb.planbench.prompts import prompt_file, write_prompt_file

    config = load_config(args.config, args.folder)
    started = time.perf_counter()
    obj = prompt_file(config, args.task)
    path = write_prompt_file(obj, args.out)
    out.print(f"{len(obj['instances'])} prompts ({obj['task']}, {config.folder}/{config.name}) -> "
              f"{escape(str(path))} in {time.perf_counter() - started:.1f} s")
    return EXIT_OK

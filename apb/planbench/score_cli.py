"""`apb planbench score FILE --config NAME --task STEM --out OUT`: PlanBench's verdicts and apb's sound verdict on
every record of a released responses or results file (apb.planbench.verdicts); the flags say which keys hold what.
`add_score_parser(sub)` adds it to `apb planbench`'s subcommands."""

from __future__ import annotations

import argparse
import time

from rich.markup import escape

from apb.console import make_console
from apb.exit_codes import EXIT_OK
from apb.planbench.score_files import read_released, score_file, tally, write_released
from apb.planbench.verdicts import READINGS, Keys, check_task


def add_score_parser(sub) -> None:
    p = sub.add_parser("score", help="PlanBench's verdicts (and apb's sound verdict) on a responses or results file")
    p.add_argument("file", metavar="FILE", help="a PlanBench responses or results file (.json or .json.gz)")
    p.add_argument("--config", required=True, help="the config's file stem (blocksworld, mystery_blocksworld_3, ...)")
    p.add_argument("--folder", choices=("plan-bench", "llm_planning_analysis"), default=None,
                   help="whose config and code (default: plan-bench when it has the config)")
    p.add_argument("--task", required=True, help="the task file's stem (task_1_plan_generation, ...) or t1..t8_3")
    p.add_argument("--out", required=True, help="where to write the scored file (.gz: gzipped)")
    p.add_argument("--response-key", default=Keys.response, help=f"the key of the response (default {Keys.response})")
    p.add_argument("--query-key", default=Keys.query, help=f"the key of the prompt (default {Keys.query})")
    p.add_argument("--id-key", default=Keys.instance, help=f"the key of the instance id (default {Keys.instance})")
    p.add_argument("--gold-key", default=Keys.gold, help=f"the key of the ground truth (default {Keys.gold})")
    p.add_argument("--translation-key", default=Keys.translation,
                   help=f"the key of a translator model's answer (default {Keys.translation})")
    p.add_argument("--reading", choices=READINGS, default="auto",
                   help="how responses are read: text (PlanBench's text_to_plan), translation (the record's "
                        "translator answer), pddl (a PDDL plan); auto: pddl for *_pddl tasks, translation when the "
                        "record has one, else text")
    p.set_defaults(func=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    from apb.datasets.planbench import load_config

    console = make_console()
    check_task(args.task)
    config = load_config(args.config, args.folder)
    keys = Keys(args.response_key, args.query_key, args.id_key, args.gold_key, args.translation_key)
    data = read_released(args.file)
    began = time.perf_counter()
    scored = score_file(data, config, args.task, keys=keys, reading_flag=args.reading)
    seconds = time.perf_counter() - began
    write_released(scored, args.out)
    counts = tally(scored["instances"], args.task)
    n = counts["scored"] or 1
    official = "; ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in counts.items() if k.startswith("llm_"))
    console.print(f"{counts['scored']} of {counts['records']} records scored in {seconds:.2f} s: PlanBench's "
                  f"{official}; apb's sound verdict {counts['apb_correct']} ({100 * counts['apb_correct'] / n:.1f}%)"
                  f" -> {escape(str(args.out))}")
    return EXIT_OK

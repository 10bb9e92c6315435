"""`apb serve openenv` (an integration's server), `apb acp export`, `apb nl2pddl export` and `apb planbench export`
(`--format lm-eval`: tasks for another framework). `add_parsers(commands)` adds `serve` to the apb command and asks
for `export` under `acp`, `nl2pddl` and `planbench` (commands.extend: those packages never import this one)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from apb.console import make_console
from apb.exit_codes import EXIT_OK
from apb.flags import non_negative_int, port_number, positive_float, positive_int

out = make_console()
err = make_console(stderr=True)


def cmd_serve_openenv(args: argparse.Namespace) -> int:
    from apb.integrations import require

    require("openenv.core", "openenv")
    from apb.integrations.openenv import create_app, serve_app

    check_listen(args.host, args.port)
    problem = int(args.problem) if args.problem and args.problem.isdigit() else args.problem
    app = create_app(args.domain, problem=problem, split=args.split, description=args.description,
                     max_steps="default" if args.max_steps is None else args.max_steps, hints=args.hints,
                     max_sessions=args.max_sessions, idle_timeout=args.idle_timeout, max_body=args.max_body)
    err.print(f"apb {escape(args.domain)} OpenEnv server on http://{args.host}:{args.port} (/health /reset /step "
              f"/state /ws): at most {args.max_sessions} sessions, idle ones closed after {args.idle_timeout:g} s, "
              f"bodies up to {args.max_body} bytes")
    serve_app(app, host=args.host, port=args.port)
    return EXIT_OK


def check_listen(host: str, port: int) -> None:
    """ApbError (one line, exit 2) when the server could not listen on host:port (unknown host, port in use), before
    anything is loaded."""
    import socket

    from apb.engine.errors import ApbError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        raise ApbError(f"cannot listen on {host}:{port}: {error.strerror or error}; choose another --host or --port"
                       ) from None


def cmd_acp_export(args: argparse.Namespace) -> int:
    from apb.acp import read_questions
    from apb.eval.rundir import open_run_dir, prepare_run_dir
    from apb.integrations.lm_eval import GROUP, export_lm_eval

    settings = {"questions": str(Path(args.questions).resolve()), "format": args.format, "shots": args.shots,
                "cot": args.cot}
    prepare_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, create=False,
                    resumable=False)
    questions = read_questions(args.questions, scored_by="apb acp export (its process_results scores against the gold)")
    with open_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, resumable=False):
        names = export_lm_eval(questions, args.out, shots=args.shots, cot=args.cot)
    out.print(f"{len(names)} lm-eval task(s) -> {escape(str(args.out))}: {', '.join(names)} (tag {GROUP})")
    print_lm_eval_command(args.out, GROUP)
    return EXIT_OK


def cmd_nl2pddl_export(args: argparse.Namespace) -> int:
    from apb.eval.rundir import fingerprint_files, open_run_dir, prepare_run_dir
    from apb.integrations.lm_eval import NL2PDDL_GROUP, export_nl2pddl_lm_eval
    from apb.nl2pddl.cli import pairs_file
    from apb.nl2pddl.planetarium import read_pairs

    pairs = pairs_file(args.pairs)
    read_pairs(pairs)  # a missing, empty or malformed pairs file (any bad row) is refused before DIR is touched
    settings = {"pairs": fingerprint_files([pairs]), "format": args.format, "shots": args.shots}
    prepare_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, create=False,
                    resumable=False)
    with open_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, resumable=False):
        names = export_nl2pddl_lm_eval(pairs, args.out, shots=args.shots)
    out.print(f"{len(names)} lm-eval task(s) -> {escape(str(args.out))}: {', '.join(names)} (tag {NL2PDDL_GROUP})")
    print_lm_eval_command(args.out, NL2PDDL_GROUP)
    return EXIT_OK


def print_lm_eval_command(folder, group: str) -> None:
    """How to run the export: the command that works with an API model (see lm_eval_command), on its own line."""
    from apb.integrations.lm_eval import lm_eval_command

    out.print("run them against an OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY; MODEL: the model it "
              "serves):")
    out.print(escape(lm_eval_command(Path(folder).resolve(), group)), soft_wrap=True)


def cmd_planbench_export(args: argparse.Namespace) -> int:
    from apb.eval.rundir import open_run_dir, prepare_run_dir
    from apb.integrations.lm_eval import PLANBENCH_GROUP, export_planbench_lm_eval
    from apb.planbench.questions import parse_instances

    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    settings = {"config": args.config, "folder": args.folder, "tasks": tasks, "instances": args.instances,
                "format": args.format}
    instances = parse_instances(args.instances)  # bad ids are refused before DIR is touched
    prepare_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, create=False,
                    resumable=False)
    with open_run_dir(args.out, kind="lm-eval-tasks", settings=settings, overwrite=args.overwrite, resumable=False):
        names = export_planbench_lm_eval(args.config, tasks, args.out, folder=args.folder, instances=instances)
    out.print(f"{len(names)} lm-eval task(s) -> {escape(str(args.out))}: {', '.join(names)} (tag "
              f"{PLANBENCH_GROUP})")
    print_lm_eval_command(args.out, PLANBENCH_GROUP)
    return EXIT_OK


def add_parsers(commands) -> None:
    """Adds `serve`, and `export` under `acp`, `nl2pddl` and `planbench`, to the `apb` command (see
    apb.cli.Commands)."""
    _add_serve_parser(commands)
    commands.extend("nl2pddl", _add_nl2pddl_export_parser)
    commands.extend("acp", _add_acp_export_parser)
    commands.extend("planbench", _add_planbench_export_parser)


def _add_planbench_export_parser(planbench_sub) -> None:
    e = planbench_sub.add_parser("export", help="write a config's PlanBench tasks as another framework's tasks "
                                                "(lm-eval)")
    e.add_argument("out", metavar="DIR", help="folder to write the tasks into (must be empty unless --overwrite)")
    e.add_argument("--format", choices=["lm-eval"], default="lm-eval", help="the framework (lm-eval)")
    e.add_argument("--config", required=True, help="a PlanBench config's file stem (blocksworld, ...)")
    e.add_argument("--folder", choices=("plan-bench", "llm_planning_analysis"), default=None,
                   help="whose config (default: plan-bench when it has the stem)")
    e.add_argument("--tasks", default="t1", help="comma-separated tasks: t1 to t8_3 (those apb planbench prompts "
                                                 "writes) or their file stems (default t1)")
    e.add_argument("--instances", help="only these instance ids (2,5,10-20)")
    e.add_argument("--overwrite", action="store_true", help="replace the tasks an earlier export wrote into DIR")
    e.set_defaults(func=cmd_planbench_export)


def _add_acp_export_parser(acp_sub) -> None:
    e = _add_export_parser(acp_sub, "questions", "group",
                           "--questions", "apb questions (apb acp generate's --out) or ACPBench files")
    e.add_argument("--cot", action="store_true", help="ask for reasoning before the answer")
    e.set_defaults(func=cmd_acp_export)


def _add_nl2pddl_export_parser(nl2pddl_sub) -> None:
    e = _add_export_parser(nl2pddl_sub, "pairs", "domain",
                           "--pairs", "pairs.jsonl (apb nl2pddl build or import), or its folder")
    e.set_defaults(func=cmd_nl2pddl_export)


def _add_export_parser(sub, items: str, unit: str, source: str, source_help: str):
    """`apb COMMAND export` under COMMAND's subcommands `sub`: the folder, format, source, shots and overwrite flags
    every export shares."""
    e = sub.add_parser("export", help=f"write the {items} as another framework's tasks (lm-eval)")
    e.add_argument("out", metavar="DIR", help="folder to write the tasks into (must be empty unless --overwrite)")
    e.add_argument("--format", choices=["lm-eval"], default="lm-eval", help="the framework (lm-eval)")
    e.add_argument(source, required=True, help=source_help)
    e.add_argument("--shots", type=non_negative_int, default=0,
                   help=f"examples of the same {unit} in each prompt (default 0)")
    e.add_argument("--overwrite", action="store_true", help="replace the tasks an earlier export wrote into DIR")
    return e


def _add_serve_parser(commands) -> None:
    p = commands.add_parser("serve")
    serve_sub = commands.add_subparsers(p, dest="server", metavar="SERVER", required=True)
    s = serve_sub.add_parser("openenv", help="an OpenEnv environment server for a domain's text game (extra: openenv)")
    s.add_argument("--domain", default="blocksworld", help="bundled domain name or dataset folder")
    s.add_argument("--port", type=port_number, default=8000, help="TCP port to listen on (default 8000)")
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    s.add_argument("--problem", help="the problem a reset without one plays, every time (default: the split's "
                                     "first); 'random': a choice seeded by the reset's seed")
    s.add_argument("--split", default="test")
    s.add_argument("--description", default="curated", help="curated | rule | pddl | obfuscated | shuffled | a file")
    s.add_argument("--max-steps", type=positive_int, default=None,
                   help="step limit of an episode (default: the split's, twice its longest gold plan, at least 24)")
    s.add_argument("--hints", action="store_true", help="list the applicable actions after each observation")
    s.add_argument("--max-sessions", type=positive_int, default=8,
                   help="WebSocket sessions (episodes) at once (default 8); one more is told the server is full")
    s.add_argument("--idle-timeout", type=positive_float, default=300.0,
                   help="seconds after which an idle session is closed, freeing its place (default 300)")
    s.add_argument("--max-body", type=positive_int, default=64 * 1024,
                   help="largest request body or WebSocket message in bytes (default 65536); larger ones get 413")
    s.set_defaults(func=cmd_serve_openenv)

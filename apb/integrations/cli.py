"""`apb serve openenv`: one command that starts an integration's server. `add_serve_parser(sub)` adds it."""

from __future__ import annotations

import argparse

from rich.console import Console

err = Console(stderr=True, highlight=False, soft_wrap=True)


def cmd_serve_openenv(args: argparse.Namespace) -> int:
    from apb.integrations import require

    require("openenv.core", "openenv")
    from apb.integrations.openenv import serve

    err.print(f"apb {args.domain} OpenEnv server on http://{args.host}:{args.port} (/health /reset /step /state /ws)")
    problem = int(args.problem) if args.problem and args.problem.isdigit() else args.problem
    serve(args.domain, host=args.host, port=args.port, problem=problem, split=args.split,
          description=args.description, max_steps=args.max_steps, hints=args.hints)
    return 0


def add_serve_parser(sub) -> None:
    p = sub.add_parser("serve", help="serve apb's games to other frameworks (openenv)")
    serve_sub = p.add_subparsers(dest="server", metavar="SERVER", required=True)
    s = serve_sub.add_parser("openenv", help="an OpenEnv environment server for a domain's text game (extra: openenv)")
    s.add_argument("--domain", default="blocksworld", help="bundled domain name or dataset folder")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    s.add_argument("--problem", help="the problem a reset without one plays (default: the split's first)")
    s.add_argument("--split", default="test")
    s.add_argument("--description", default="curated", help="curated | rule | pddl | obfuscated | shuffled | a file")
    s.add_argument("--max-steps", type=int, default=24, help="step limit of an episode (default 24)")
    s.add_argument("--hints", action="store_true", help="list the applicable actions after each observation")
    s.set_defaults(func=cmd_serve_openenv)

"""`apb describe`: a domain's and a problem's text as agents see it. `add_env_arguments` is the arguments that pick
an environment's problem and wording, shared with `apb play` (apb.agents.cli)."""

from __future__ import annotations

import argparse

from rich.markup import escape

from apb.console import make_console
from apb.exit_codes import EXIT_OK

out = make_console()


def add_parsers(commands) -> None:
    """Adds `describe` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("describe")
    add_env_arguments(p)
    p.add_argument("--domain-only", action="store_true", help="only the domain text")
    p.add_argument("--problem-only", action="store_true", help="only the problem text")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_describe)


def add_env_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments that pick an environment's problem and wording (describe, play)."""
    p.add_argument("domain", help="bundled domain name or dataset folder")
    p.add_argument("--problem", help="problem number (1 = p01) or id; default: the first of the split")
    p.add_argument("--split", help="bundled: test (default), example or scaled; a dataset folder: one of its "
                   "splits (default: its test problems)")
    p.add_argument("--description", default="curated",
                   help="curated | rule | pddl | path of an nl.yaml / AutoPlanBench json / PDDLGym-style YAML")


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

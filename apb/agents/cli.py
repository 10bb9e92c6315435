"""`apb play` (a problem in the terminal, PDDL or English actions) and `apb examples build` (the thoughts of a
domain's CoT/ReAct one-shot example, by an LLM or the template writer)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from apb.console import make_console
from apb.envs.cli import add_env_arguments
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import add_llm_concurrency, non_negative_int, positive_int

out = make_console()


def add_parsers(commands) -> None:
    """Adds `play` and `examples` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("play")
    add_env_arguments(p)
    p.add_argument("--require-finish", action="store_true", help="the episode ends only when you type (finish)")
    p.add_argument("--max-steps", type=positive_int, default=None, help="step limit (default: none)")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.set_defaults(func=cmd_play)

    p = commands.add_parser("examples")
    examples_sub = commands.add_subparsers(p, dest="examples", metavar="ACTION", required=True)
    e = examples_sub.add_parser("build", help="write the thoughts of a domain's CoT/ReAct example (LLM or template)")
    e.add_argument("domain")
    e.add_argument("--llm", help="LLM spec that writes the thoughts (default: the template thought writer)")
    add_llm_concurrency(e)
    e.add_argument("--out", help="file to write (default: DOMAIN_example_thoughts.yaml in the current folder; the "
                   "shipped file is apb/domains/DOMAIN/example_thoughts.yaml of a source checkout)")
    e.set_defaults(func=cmd_examples_build)


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

"""The `apb` command: wires each package's commands into one parser and runs the one asked for.

Each package registers its own commands in its `cli.py` through one hook, `add_parsers(commands)` (see `Commands`);
`COMMANDS` below is the one table of every top-level command with its group and one-line help, from which `apb --help`
is written. Exit codes (apb.exit_codes, the README's table) are the same for every command; user errors (ApbError)
print one line and exit 2, never a traceback; Ctrl-C and SIGTERM (apb.stop) keep what finished.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
import threading
import warnings
from pathlib import Path

from rich.markup import escape

from apb import __version__
from apb.console import make_console
from apb.engine import ApbError, PDDLWarning
from apb.exit_codes import EXIT_BAD_INPUT, MEANINGS
from apb.stop import exit_code as interrupted_code
from apb.stop import what as interrupted_word

DESCRIPTION = ("apb turns classical PDDL planning domains into text games (Gymnasium environments) for LLM and RL "
               "agents: play and evaluate agents and LLMs on them, run ACPBench-style reasoning questions, the "
               "NL->PDDL benchmark and PDDL equivalence, train learned policies, serve the games to other "
               "frameworks, and use the PDDL engine and planners on their own.")
COMMANDS = (  # (group, ((command, one-line help), ...)): the order of `apb --help`
    ("play and evaluate", (
        ("describe", "print a domain's and a problem's text as agents see it"),
        ("play", "play a problem in the terminal (PDDL or English actions)"),
        ("run", "run one agent on one problem with a live transcript"),
        ("eval", "run agents x domains x problems x seeds; JSONL trajectories, resumable"),
        ("report", "summary tables, coverage vs the paper, and an HTML report of runs"))),
    ("benchmarks (ACP, NL->PDDL, equivalence)", (
        ("acp", "ACPBench-style reasoning questions: generate, eval, report, answer, audit, export"),
        ("planbench", "PlanBench's tasks on its released configs: prompts, eval, score (two verdicts), report, export"),
        ("nl2pddl", "the NL->PDDL problem benchmark (Planetarium's task): score, build, import, eval, report, export"),
        ("equiv", "are two PDDL problems the same task up to renaming? (exit 0 yes, 1 no, 2 bad input, 3 unknown)"))),
    ("engine tools", (
        ("validate", "validate a plan, or every gold plan of a dataset folder"),
        ("solve", "find a plan with a built-in or Fast Downward planner"),
        ("state", "the state after a plan prefix, its applicable actions, explanations"),
        ("domains", "list the bundled domains (--stats: Table-6 style statistics)"),
        ("generate", "generate new problems with gold plans for a bundled domain or ipc2023:<domain>"))),
    ("language and LLMs", (
        ("nl", "NL templates of a domain: generate an nl.yaml with an LLM"),
        ("examples", "one-shot examples of the bundled domains"),
        ("cache", "inspect or clear the LLM answer cache"))),
    ("RL", (("rl", "learned policies and heuristics (GNN, WL): train, plan, evaluate; the IPC 2023 learning track"),)),
    ("serve and integrate", (("serve", "serve apb's games to other frameworks (openenv)"),)),
    ("performance", (("bench", "performance benchmarks"),)),
)
HELP = {name: line for _, commands in COMMANDS for name, line in commands}
err = make_console(stderr=True)


class Commands:
    """What each package's `add_parsers(commands)` receives: `add_parser(name, ...)` adds a command of COMMANDS (whose
    line is its help; a `help=` here is not shown), `add_subparsers(parser, ...)` its subcommands, and `extend(name,
    add)` runs `add(subcommands)` on another package's command once all are added (it is never imported)."""

    def __init__(self, sub) -> None:  # what the parser's add_subparsers returned
        self._sub = sub
        self._subcommands: dict = {}  # id(a command's parser) -> its subcommands
        self._extensions: list = []

    def add_parser(self, name: str, **kwargs) -> argparse.ArgumentParser:
        if name not in HELP:
            raise LookupError(f"apb {name}: add it to COMMANDS in apb/cli.py (its group and one-line help)")
        kwargs.pop("help", None)
        return self._sub.add_parser(name, **kwargs)

    def add_subparsers(self, parser: argparse.ArgumentParser, **kwargs):
        self._subcommands[id(parser)] = action = parser.add_subparsers(**kwargs)
        return action

    def extend(self, name: str, add) -> None:
        self._extensions.append((name, add))

    def finish(self) -> None:
        """Runs the extensions; checks that COMMANDS and the registered commands agree; lists them in its order."""
        for name, add in self._extensions:
            add(self._subcommands[id(self._sub.choices[name])])
        registered = dict(self._sub.choices)
        if set(registered) != set(HELP):
            raise LookupError(f"COMMANDS in apb/cli.py and the registered commands differ: "
                              f"{sorted(set(registered) ^ set(HELP))}")
        self._sub.choices.clear()  # the same dict as the parser's own map: kept, in the table's order
        self._sub.choices.update((name, registered[name]) for name in HELP)


def command_table(width: int) -> str:
    """The description of `apb --help`: what apb is, then the commands by group, each with its one-line help."""
    column = max(map(len, HELP)) + 4
    lines = textwrap.wrap(DESCRIPTION, width)
    for group, commands in COMMANDS:
        lines += ["", f"{group}:"]
        for name, line in commands:
            lines += textwrap.wrap(line, width, initial_indent=f"  {name:<{column - 2}}",
                                   subsequent_indent=" " * column)
    return "\n".join(lines)


class CommandParser(argparse.ArgumentParser):
    """argparse with a usage error on one line (flag, value, what to do) and exit code 2."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from apb.acp import cli as acp
    from apb.agents import cli as agents
    from apb.bench import cli as bench
    from apb.datasets import cli as datasets
    from apb.domains import cli as domains
    from apb.envs import cli as envs
    from apb.equivalence import cli as equivalence
    from apb.eval import cli as evaluation
    from apb.integrations import cli as integrations
    from apb.llm import cli as llm
    from apb.nl import cli as nl
    from apb.nl2pddl import cli as nl2pddl
    from apb.planbench import cli as planbench
    from apb.planners import cli as planners
    from apb.rl import cli as rl

    width = max(shutil.get_terminal_size().columns - 2, 40)  # argparse's own width
    exits = "exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in MEANINGS.items())
    parser = CommandParser(prog="apb", description=command_table(width), epilog="\n".join(textwrap.wrap(exits, width)),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"apb {__version__}")
    parser.add_argument("--cache-dir", metavar="DIR", help="folder of the LLM answer cache (default: $APB_CACHE_DIR, "
                                                            "else $XDG_CACHE_HOME/apb, else ~/.cache/apb)")
    commands = Commands(parser.add_subparsers(dest="command", metavar="COMMAND",
                                              help="one of the commands above; apb COMMAND --help: its flags"))
    for package in (datasets, planners, domains, equivalence, llm, nl, envs, agents, rl, evaluation, nl2pddl, acp,
                    planbench, integrations, bench):  # any order: extensions run in finish()
        package.add_parsers(commands)
    commands.finish()
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
        _exit_now(interrupted_code(), command=argv is None)
        return interrupted_code()


def _exit_now(code: int, command: bool = False) -> None:
    """Ends at once when threads run or as the apb command: what finished is on disk; freeing a grounding is slow."""
    if (command or threading.active_count() > 1) and threading.current_thread() is threading.main_thread():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    sys.exit(main())

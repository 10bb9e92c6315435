"""`apb cache stats [--json]` and `apb cache clear [--model M] [--yes]`: the LLM answer cache from the shell.

`add_parsers(commands)` adds the `cache` command to the `apb` command; the handlers return exit codes.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.markup import escape

from apb.exit_codes import EXIT_OK
from apb.llm.base import LLMError
from apb.llm.cache import CACHE_ENV, ResponseCache

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"  # pragma: no cover


def _cache(args: argparse.Namespace) -> ResponseCache:
    return ResponseCache(args.path, mode="rw")


def cmd_cache_stats(args: argparse.Namespace) -> int:
    """Entries, size and entries per model of the cache."""
    stats = _cache(args).stats()
    if args.json:
        out.print_json(data=stats.to_dict())
        return EXIT_OK
    if not stats.exists:
        out.print(f"No LLM cache at {escape(stats.path)} yet (it is created by the first cached call).")
        return EXIT_OK
    out.print(f"LLM cache [bold]{escape(stats.path)}[/bold]: {stats.entries} entries, {_size(stats.size_bytes)}")
    if stats.models:
        from rich.table import Table

        table = Table(show_header=True, header_style="bold")
        table.add_column("model", no_wrap=True)
        table.add_column("entries", justify="right")
        for model, count in stats.models.items():
            table.add_row(escape(model), str(count))
        out.print(table)
    return EXIT_OK


def cmd_cache_clear(args: argparse.Namespace) -> int:
    """Deletes every entry, or those of `--model`; asks first unless `--yes`."""
    cache = _cache(args)
    count = cache.count(args.model)
    what = f"{count} cached answer(s)" + (f" of {args.model}" if args.model else "")
    if count == 0:
        out.print(f"Nothing to clear: no cached answers{escape(f' of {args.model}' if args.model else '')} in "
                  f"{escape(str(cache.path))}.")
        return EXIT_OK
    if not args.yes:
        if not sys.stdin.isatty():
            raise LLMError(f"refusing to delete {what} from {cache.path} without confirmation: pass --yes")
        answer = out.input(f"Delete {escape(what)} from {escape(str(cache.path))}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            out.print("Nothing deleted.")
            return EXIT_OK
    deleted = cache.clear(args.model)
    out.print(f"Deleted {deleted} cached answer(s)" + (escape(f" of {args.model}") if args.model else "")
              + f" from {escape(str(cache.path))}.")
    return EXIT_OK


def add_parsers(commands) -> None:
    """Adds `cache stats` and `cache clear` to the `apb` command (see apb.cli.Commands)."""
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--path", default=None,
                       help=f"the cache file (default: ${CACHE_ENV}/llm.sqlite, else ~/.cache/apb/llm.sqlite)")
    parser = commands.add_parser("cache")
    actions = commands.add_subparsers(parser, dest="cache_command", metavar="ACTION", required=True)
    p = actions.add_parser("stats", parents=[where], help="entries, size on disk and entries per model")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=cmd_cache_stats)
    p = actions.add_parser("clear", parents=[where], help="delete cached answers (all, or of one model)")
    p.add_argument("--model", default=None, help="only this model (gpt-4o, or provider:model as in stats)")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=cmd_cache_clear)

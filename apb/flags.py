"""argparse types shared by every command's flags: a bad value is a one-line usage error (exit 2) naming the flag
and the value, before any work."""

from __future__ import annotations

import argparse

from apb.request_caps import caps_text

MAX_GENERATED = 10_000  # problems or questions a generate command makes per run (more would run for days)
MAX_NUM_ENVS = 1024  # envs in one vector env a benchmark builds


def _whole(value: str, low: int, requirement: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < low:
        raise argparse.ArgumentTypeError(f"{value} must be {requirement}")
    return number


def positive_int(value: str) -> int:
    """argparse type: an integer >= 1 (counts, limits, budgets)."""
    return _whole(value, 1, "at least 1")


def at_most(high: int):
    """argparse type: an integer from 1 to `high` (counts whose work grows with them)."""

    def whole(value: str) -> int:
        number = _whole(value, 1, "at least 1")
        if number > high:
            raise argparse.ArgumentTypeError(f"{value} is more than {high}, the most this takes")
        return number

    whole.__name__ = f"at_most_{high}"
    return whole


def port_number(value: str) -> int:
    """argparse type: a TCP port, 1-65535."""
    number = _whole(value, 1, "at least 1")
    if number > 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port: ports are 1-65535")
    return number


def non_negative_int(value: str) -> int:
    """argparse type: an integer >= 0 (seeds, offsets)."""
    return _whole(value, 0, "0 or more")


def positive_float(value: str) -> float:
    """argparse type: a number > 0 (seconds, budgets)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not number > 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"{value} must be a positive number")
    return number


LLM_CONCURRENCY_HELP = ("LLM requests in flight at most (the provider's request cap; default: --concurrency for an "
                        "openai-compatible server, else the provider's safe default: "
                        f"{caps_text(without=frozenset({'openai-compatible'}))})")
DEFAULT_CONCURRENCY = 4  # items at a time: apb eval, apb acp eval and apb nl2pddl eval alike


def add_llm_concurrency(parser: argparse.ArgumentParser) -> None:
    """`--llm-concurrency N`, the same on every command that calls an LLM (see `apb.llm.request_cap`)."""
    parser.add_argument("--llm-concurrency", type=positive_int, metavar="N", help=LLM_CONCURRENCY_HELP)


def add_executor(parser: argparse.ArgumentParser, noun: str) -> None:
    """`--executor thread|ray`, the same on every command that runs items through the one runner."""
    parser.add_argument("--executor", choices=("thread", "ray"), default="thread",
                        help=f"thread (default): {noun} in threads of this process; ray: {noun} as Ray tasks on a "
                             "local instance, or the cluster at $RAY_ADDRESS (pip install 'apb[ray]')")


def add_item_run_flags(parser: argparse.ArgumentParser, noun: str, *, at_once: str, where: str, skip: str,
                       out: str) -> None:
    """`--concurrency`, `--llm-concurrency`, `--executor`, `--resume`, `--overwrite` and `--out` of a command whose
    LLM runs items on the one runner (`apb acp eval`, `apb nl2pddl eval`); `where` names the run folder."""
    parser.add_argument("--concurrency", type=positive_int, default=DEFAULT_CONCURRENCY,
                        help=f"{at_once} (default {DEFAULT_CONCURRENCY})")
    add_llm_concurrency(parser)
    add_executor(parser, noun)
    parser.add_argument("--resume", action="store_true", help=f"continue the run in {where} (same settings): {skip}")
    parser.add_argument("--overwrite", action="store_true", help=f"delete the earlier run in {where} and start again")
    parser.add_argument("--out", help=out)


def add_set_overwrite_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """`--overwrite` and `--overwrite-results` of a command that writes a generated set (questions, pairs)."""
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace the {what} an earlier run wrote into --out (only the files it wrote; yours are "
                             "kept)")
    parser.add_argument("--overwrite-results", action="store_true",
                        help="with --overwrite, also delete the results of runs on the old set kept inside --out "
                             "(e.g. the eval/ of apb acp eval); without it --overwrite refuses, naming them")


def set_overwrite_options(args: argparse.Namespace) -> dict:
    """The folder-rule keywords (`overwrite`, `overwrite_results`) of `add_set_overwrite_flags`'s flags."""
    return {"overwrite": bool(args.overwrite or args.overwrite_results), "overwrite_results": args.overwrite_results}

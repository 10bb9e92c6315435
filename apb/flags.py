"""argparse types shared by every command's flags: a bad value is a one-line usage error (exit 2) naming the flag
and the value, before any work."""

from __future__ import annotations

import argparse


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
                        "openai-compatible server, else the provider's safe default: openai 8, anthropic 8, local 1)")
DEFAULT_CONCURRENCY = 4  # items at a time: apb eval, apb acp eval and apb nl2pddl eval alike


def add_llm_concurrency(parser: argparse.ArgumentParser) -> None:
    """`--llm-concurrency N`, the same on every command that calls an LLM (see `apb.llm.request_cap`)."""
    parser.add_argument("--llm-concurrency", type=positive_int, metavar="N", help=LLM_CONCURRENCY_HELP)


def add_executor(parser: argparse.ArgumentParser, noun: str) -> None:
    """`--executor thread|ray`, the same on every command that runs items through the one runner."""
    parser.add_argument("--executor", choices=("thread", "ray"), default="thread",
                        help=f"thread (default): {noun} in threads of this process; ray: {noun} as Ray tasks on a "
                             "local instance, or the cluster at $RAY_ADDRESS (pip install 'apb[ray]')")

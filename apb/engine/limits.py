"""Bounds on text a model writes: every entry point that scores or executes model text refuses text past them with
a verdict (an invalid plan, no answer, a syntax failure), never an exception, so a call answers in bounded time.

- `MAX_ANSWER_CHARS`: a whole answer (a plan, an ACP response) — 1,000,000 characters, far above what a model
  writes (a 32k-token reply is about 130,000 characters);
- `MAX_PROBLEM_CHARS`: a PDDL problem written by a model (NL->PDDL answers, equivalence on text) — 100,000
  characters (Planetarium's largest problems are a few thousand; parsing a megabyte takes seconds);
- `MAX_TURN_CHARS`: one turn of a text game (an env step, a translator's input) — 65,536 characters;
- nesting: PDDL parentheses nest at most `apb.engine.sexpr.MAX_NESTING` (100) levels; plan lines do not nest.
Lone surrogates (which JSON-decoded replies can carry, and which no UTF-8 file or JSON response can hold) are
replaced by U+FFFD where text is echoed or stored (`clean`).
"""

from __future__ import annotations

import re

from apb.engine.sexpr import MAX_NESTING

MAX_ANSWER_CHARS = 1_000_000
MAX_TURN_CHARS = 65_536
MAX_PROBLEM_CHARS = 100_000
_SURROGATE = re.compile("[\ud800-\udfff]")

__all__ = ["MAX_ANSWER_CHARS", "MAX_NESTING", "MAX_PROBLEM_CHARS", "MAX_TURN_CHARS", "clean", "has_surrogates",
           "over_limit"]


def over_limit(text: str, limit: int = MAX_ANSWER_CHARS, what: str = "answer") -> str | None:
    """Why `text` is refused (longer than `limit` characters), else None."""
    if len(text) <= limit:
        return None
    if len(text) == limit + 1:  # read only up to the bound + 1 (a file a CLI scorer reads): its length is unknown
        return f"the {what} is over the limit of {limit:,} characters: it is not read"
    return f"the {what} is {len(text):,} characters long, over the limit of {limit:,}: it is not read"


def has_surrogates(text: str) -> bool:
    """Whether the text holds a lone surrogate (not encodable as UTF-8)."""
    return _SURROGATE.search(text) is not None


def clean(text: str) -> str:
    """The text with each lone surrogate replaced by U+FFFD, so it can be written as UTF-8 or sent as JSON."""
    return _SURROGATE.sub("\ufffd", text) if has_surrogates(text) else text

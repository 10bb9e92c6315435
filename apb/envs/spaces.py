"""A text space that accepts any printable text (Gymnasium's default `Text` charset has no spaces)."""

from __future__ import annotations

import string
from typing import Any

from gymnasium.spaces import Text

# What `sample()` draws from: printable ASCII without the vertical tab and form feed.
SAMPLE_CHARSET = "".join(c for c in string.printable if c not in "\x0b\x0c\r")


class PrintableText(Text):
    """Text of `min_length`..`max_length` characters; `contains` accepts every printable Unicode character plus
    newline and tab (object names and templates are not limited to ASCII), `sample` draws from ASCII."""

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, str) or not self.min_length <= len(x) <= self.max_length:
            return False
        return x.isprintable() or x.replace("\n", "").replace("\t", "").isprintable()

    def __repr__(self) -> str:
        return f"PrintableText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, PrintableText) and self.min_length == other.min_length
                and self.max_length == other.max_length)

    __hash__ = None  # mutable like every gymnasium space

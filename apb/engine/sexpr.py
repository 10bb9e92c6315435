"""Reads PDDL text into nested lists of atoms that remember where they came from (for error messages)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from apb.engine.errors import PDDLSyntaxError

# How deeply parentheses may nest. Real PDDL nests a few levels (the 147 IPC domains stay far below); formulas are
# processed recursively further on, so deeper text is refused here with a message instead of exhausting Python's
# recursion limit somewhere inside (a goal of 2,000 nested `and`s did).
MAX_NESTING = 100
# A '?' always starts a new token, as in Fast Downward's reader: `(aircraft?a)` is `(aircraft ?a)`.
_TOKEN = re.compile(r";[^\n]*|\(|\)|\?[^\s();?]*|[^\s();?]+")


class Source:
    """PDDL text with its file name; turns character offsets into line and column."""

    def __init__(self, text: str, name: str | None = None) -> None:
        self.text = text[1:] if text.startswith("\ufeff") else text  # a UTF-8 byte-order mark is not PDDL
        self.name = name
        self._line_starts: list[int] | None = None

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def error(self, cls: type, message: str, offset: int | None, hint: str | None = None):
        """An error of class `cls` located at `offset` in this source."""
        line = column = None
        if offset is not None:
            line, column = self.position(offset)
        return cls(message, file=self.name, line=line, column=column, hint=hint)


class Atom(str):
    """A lower-cased symbol with the offset where it starts in its source."""

    offset: int

    def __new__(cls, text: str, offset: int) -> Atom:
        obj = super().__new__(cls, text)
        obj.offset = offset
        return obj


@dataclass
class SList:
    """A parenthesised list; `offset` is where its '(' is, `end` where its ')' is."""

    items: list = field(default_factory=list)
    offset: int = 0
    end: int = 0

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def __iter__(self):
        return iter(self.items)

    @property
    def head(self) -> str | None:
        """The first item if it is a symbol (the keyword of a section or the predicate of an atom)."""
        if self.items and isinstance(self.items[0], Atom):
            return self.items[0]
        return None


def read(source: Source) -> SList:
    """Reads the single top-level list of a PDDL text (the `(define ...)`)."""
    stack: list[SList] = []
    top: list[SList] = []
    text = source.text
    for match in _TOKEN.finditer(text):
        token = match.group()
        start = match.start()
        if token[0] == ";":
            continue
        if token == "(":
            if len(stack) >= MAX_NESTING:
                raise source.error(PDDLSyntaxError, f"parentheses nest more than {MAX_NESTING} levels deep here",
                                   start, "flatten the formula: (and a (and b c)) is (and a b c)")
            stack.append(SList([], start))
        elif token == ")":
            if not stack:
                if len(top) > 1:  # the first form closed early and more PDDL followed: the extra ')' is there
                    line, column = source.position(top[0].offset)
                    raise source.error(PDDLSyntaxError,
                                       f"this ')' closes the '(' at line {line}, column {column} but more PDDL "
                                       "follows it", top[0].end, "there is one ')' too many here or before here")
                raise source.error(PDDLSyntaxError, "unexpected ')' with no matching '('", start,
                                   "remove it or add the missing '('")
            node = stack.pop()
            node.end = start
            if stack:
                stack[-1].items.append(node)
            else:
                top.append(node)
        else:
            if not stack:
                raise source.error(PDDLSyntaxError, f"unexpected {token!r} outside any '(...)'", start,
                                   "a PDDL file is one '(define ...)' form")
            stack[-1].items.append(Atom(token.lower(), start))
    if stack:
        raise _unclosed_error(source, stack)
    if not top:
        raise source.error(PDDLSyntaxError, "expected '(define ...)' but the text is empty", 0)
    if len(top) > 1:
        raise source.error(PDDLSyntaxError, "expected a single '(define ...)' form, found more after it",
                           top[1].offset, "put one domain or problem per file")
    return top[0]


_SECTION_HEADS = {":requirements", ":types", ":constants", ":predicates", ":action", ":functions", ":derived",
                  ":durative-action", ":domain", ":objects", ":init", ":goal", ":metric", ":constraints"}


def _unclosed_error(source: Source, stack: list[SList]) -> PDDLSyntaxError:
    """Where a ')' is missing: before the first section nested inside another one, else at the unclosed '('."""
    outer = stack[0]
    for section in outer.items:
        if not isinstance(section, SList):
            continue
        misplaced = _nested_section(section)
        if misplaced is not None:
            line, column = source.position(section.offset)
            return source.error(PDDLSyntaxError,
                                f"unbalanced parentheses: the '({section.head or ''}' at line {line}, column {column} "
                                f"is not closed before the next section '({misplaced.head}' starts", misplaced.offset,
                                "add the missing ')' before this line")
    opened = stack[-1]
    line, column = source.position(opened.offset)
    return source.error(PDDLSyntaxError,
                        f"unbalanced parentheses: the '(' at line {line}, column {column} is never closed",
                        len(source.text), "add the missing ')'")


def _nested_section(node: SList) -> SList | None:
    """The first list inside `node` (at any depth) that starts with a section keyword such as ':action'."""
    for item in node.items:
        if isinstance(item, SList):
            if item.head in _SECTION_HEADS:
                return item
            found = _nested_section(item)
            if found is not None:
                return found
    return None

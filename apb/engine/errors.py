"""Errors a user can cause in the engine: bad PDDL, bad plans, bad actions.

They live here so that `apb.engine` imports nothing from the rest of `apb`; `apb.errors` re-exports them.
"""

from __future__ import annotations

from collections.abc import Sequence


class ApbError(Exception):
    """Base class of every error apb raises on purpose."""


class PDDLError(ApbError):
    """A PDDL file or text is invalid; names the file, line and column and what was expected."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, hint: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(str(self))

    @property
    def location(self) -> str:
        """`file:line:column` as far as known."""
        parts = [self.file or "<text>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text


class PDDLSyntaxError(PDDLError):
    """The text is not well-formed PDDL (parentheses, sections, parameter lists)."""


class PDDLSemanticError(PDDLError):
    """Well-formed PDDL that does not make sense: unknown predicate, type or object, wrong arity."""


class UnsupportedFeatureError(PDDLError):
    """The PDDL uses a feature beyond STRIPS + typing + negative preconditions + equality."""


class PDDLWarning(UserWarning):
    """Tolerated sloppiness, e.g. a requirement used but not declared."""


class PlanError(ApbError):
    """A plan file or plan text cannot be read: names the file and line."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        where = file or "<plan>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}")


ACTION_ERROR_KINDS = ("syntax", "unknown_action", "wrong_arity", "unknown_object", "type_mismatch",
                      "unmet_preconditions")


class ActionError(ApbError):
    """A ground action text is unusable; `kind` says why (see ACTION_ERROR_KINDS)."""

    def __init__(self, kind: str, message: str, *, action: str | None = None,
                 unmet: Sequence[str] = ()) -> None:
        if kind not in ACTION_ERROR_KINDS:
            raise ValueError(f"unknown ActionError kind {kind!r}")
        self.kind = kind
        self.message = message
        self.action = action
        self.unmet = list(unmet)
        super().__init__(message)


class NotApplicableError(ActionError):
    """The action is well-formed but its preconditions do not hold in the state."""

    def __init__(self, action: str, unmet: Sequence[str]) -> None:
        super().__init__("unmet_preconditions",
                         f"{action} is not applicable: unmet preconditions {', '.join(unmet)}",
                         action=action, unmet=unmet)


class InputFileError(ApbError):
    """An input file that cannot be read: missing, a folder, unreadable, or not UTF-8 text."""


def decode_problem(err: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8: 'byte 0xe9 at offset 123 (line 4)'."""
    data = err.object if isinstance(err.object, bytes | bytearray) else b""
    line = data[: err.start].count(b"\n") + 1
    bad = data[err.start: err.start + 1].hex() if data else "?"
    return f"byte 0x{bad} at offset {err.start} (line {line})"

"""Reading the files a command is given: the one owner of "is this a file apb can read, and what does it say?".

Every file a user hands apb (a domain, a problem, a plan, an experiment file, scripted responses, a data file) is
checked before it is read, by `read_input(path, what, limit=...)`:

- it must be a regular file: a folder, a FIFO (named pipe), a device (`/dev/zero`) or a socket is refused with that
  reason (never "not found", never a read that blocks or grows without end); it is opened without blocking, so a
  FIFO with no writer is refused at once;
- it must be at most `limit` bytes (a limit per kind of file, below); a file growing while it is read is cut at
  the limit and refused;
- it must be text: UTF-8 without NUL bytes (a binary or UTF-16 file is refused naming the offset of the first NUL,
  text that is not UTF-8 the offset and line of the first bad byte).

Line ends are read as `Path.read_text` reads them (`\\r\\n` and `\\r` become `\\n`). The error is `InputFileError`
naming the file, unless the caller passes `error=` (a function of the reason) to raise its own kind (a PlanError,
a DatasetError, ...). `file_problem(path)` says why a path is not a readable regular file (None when it is), for
checks made before a file is read.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

from apb.engine.errors import InputFileError, decode_problem

MB = 1_000_000
# The limits per kind of file (bytes): far above any real input, far below what exhausts memory.
MAX_PDDL_BYTES = 100 * MB  # a domain or problem (100,000 blocks' problem: about 6 MB)
MAX_PLAN_BYTES = 50 * MB  # a plan file (a million steps)
MAX_CONFIG_BYTES = 5 * MB  # an experiment YAML, a description or settings file
MAX_SCRIPT_BYTES = 100 * MB  # scripted LLM responses
MAX_DATA_BYTES = 1_000 * MB  # a data file of records (questions, pairs, episodes)
MAX_TEXT_BYTES = MAX_PDDL_BYTES  # anything else

__all__ = ["MAX_CONFIG_BYTES", "MAX_DATA_BYTES", "MAX_PDDL_BYTES", "MAX_PLAN_BYTES", "MAX_SCRIPT_BYTES",
           "MAX_TEXT_BYTES", "file_problem", "kind_of", "read_input", "read_jsonl"]

Fail = Callable[[str], Exception]


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is ('a folder', 'a FIFO (named pipe)', ...), None for a file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def kind_of(path: str | os.PathLike) -> str | None:
    """What is at `path`: 'a regular file', 'a folder', 'a FIFO (named pipe)', 'a device', 'a socket'; None when
    nothing is (or it cannot be looked at)."""
    try:
        return _kind(os.stat(path).st_mode) or "a regular file"
    except OSError:
        return None


def _not_regular(what: str, kind: str) -> str:
    return f"the {what} is {kind}, not a regular file; pass the path of a file"


def file_problem(path: str | os.PathLike, what: str = "file") -> str | None:
    """Why `path` is not a regular file apb can read ('domain file not found', 'the domain file is a FIFO (named
    pipe), ...'), or None when it is one. Does not open the file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return f"{what} not found; check the path"
    except OSError as err:
        return f"cannot read the {what}: {err.strerror or err}"
    kind = _kind(info.st_mode)
    return None if kind is None else _not_regular(what, kind)


def read_input(path: str | os.PathLike, what: str = "file", *, limit: int = MAX_TEXT_BYTES,
               error: Fail | None = None, head: int | None = None) -> str:
    """The text of a regular file of at most `limit` bytes, UTF-8 without NUL bytes; else `error(reason)` is
    raised (default: InputFileError('PATH: reason')) naming what is wrong and what to do. With `head` (a scorer's
    bound + 1), a longer file is not refused: only its first `head` characters are read and returned, so the scorer
    answers it as it answers text past its bound in process (`apb.engine.limits`)."""
    path = Path(path)

    def fail(reason: str) -> Exception:
        return error(reason) if error is not None else InputFileError(f"{path}: {reason}")

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)  # without blocking: a FIFO with no writer opens at once, and is refused below
    except FileNotFoundError:
        raise fail(f"{what} not found; check the path") from None
    except IsADirectoryError:
        raise fail(_not_regular(what, "a folder")) from None
    except OSError as err:
        raise fail(f"cannot read the {what}: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise fail(_not_regular(what, kind))
        if head is not None:
            limit = min(limit, 4 * head)  # UTF-8: at most 4 bytes a character
        elif info.st_size > limit:
            raise fail(f"the {what} is {info.st_size:,} bytes, over the limit of {limit:,} for a {what}: "
                       "it is not read")
        data = _read_at_most(fd, limit + 1)
    except OSError as err:
        raise fail(f"cannot read the {what}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    cut = head is not None and len(data) > limit  # the first `head` characters are wanted, not the whole file
    if cut:
        data = data[:limit]
    elif len(data) > limit:  # grew while it was read
        raise fail(f"the {what} is over the limit of {limit:,} bytes for a {what}: it is not read")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise fail(f"the {what} is binary, not text (a NUL byte at offset {nul}); pass a UTF-8 text file")
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(data, final=not cut)  # a character cut at the end
    except UnicodeDecodeError as err:
        raise fail(f"the {what} is not UTF-8 text ({decode_problem(err)}); re-save it as UTF-8") from None
    if "\r" in text:  # line ends as Path.read_text reads them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if head is None else text[:head]


def _read_at_most(fd: int, size: int) -> bytes:
    """Up to `size` bytes of an open file, read in chunks until its end."""
    chunks: list[bytes] = []
    left = size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 24))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_jsonl(path: str | os.PathLike, what: str = "file", *, limit: int = MAX_DATA_BYTES,
               error: Fail | None = None) -> list[tuple[int, dict]]:
    """The JSON objects of a JSON lines file (read as `read_input` reads it) with their line numbers, blank lines
    skipped. `error(message)` is raised with the whole message ('FILE: reason', or 'FILE:LINE: invalid JSON ...'
    for a line that is not a JSON object); default InputFileError."""
    def fail(message: str) -> Exception:
        return error(message) if error is not None else InputFileError(message)

    text = read_input(path, what, limit=limit, error=lambda reason: fail(f"{path}: {reason}"))
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise fail(f"{path}:{number}: invalid JSON ({err.msg})") from None
        if not isinstance(record, dict):
            raise fail(f"{path}:{number}: expected a JSON object per line")
        records.append((number, record))
    return records

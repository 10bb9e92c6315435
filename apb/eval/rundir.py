"""The one rule for output folders, for every command that writes a run or a generated set into a folder.

A run writes its settings (everything that changes a result) into `OUT/run.json`. A new run into a folder that
is not empty is refused unless `resume` (the settings must match; the error names the keys that differ) or
`overwrite` (the folder's apb content is deleted first; a folder apb did not write is never deleted). A lock file,
`OUT/.apb-lock`, stops a second run into the same folder with a message naming the first (its pid, host, start time
and command); the lock of a run that was killed is detected as stale and taken over.

    with open_run_dir(out, kind="episodes", settings={...}, resume=args.resume, overwrite=args.overwrite):
        ...  # write into out

`check_writable(path)` is the pre-flight check of an output path (before anything runs); every problem is a
`RunDirError` naming the path and what to do.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from apb import __version__
from apb.engine.errors import ApbError

RUN_FILE = "run.json"
LOCK_FILE = ".apb-lock"
# Settings whose keys are prefixed with one of these are compared only where both runs have the key (agent
# options of agents the other run did not have, data of domains it did not run).
PARTIAL_PREFIXES = ("agent_options.", "data.")


class RunDirError(ApbError):
    """An output folder that cannot be used as asked (not empty, settings differ, locked, not writable)."""


def check_writable(path: str | Path, *, what: str = "--out", folder: bool = True) -> Path:
    """Checks, without writing anything, that `path` can be created or written: no file where a folder must be
    (or the reverse), the nearest existing parent is a writable folder. Returns the path."""
    target = Path(path).expanduser()
    if folder and target.exists() and not target.is_dir():
        raise RunDirError(f"{what} {target}: a file is in the way (a folder is needed here); choose another path")
    if not folder and target.is_dir():
        raise RunDirError(f"{what} {target}: a folder is in the way (a file is needed here); choose another path")
    parent = target if folder and target.exists() else target.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise RunDirError(f"{what} {target}: {parent} is a file, so nothing can be created under it; choose another "
                          "path")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RunDirError(f"{what} {target}: no permission to write in {parent}; choose a folder you can write to")
    return target


def fingerprint_files(paths: list[Path]) -> str:
    """A short hash of files' names and contents (the data version of a run)."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(path.name.encode())
        digest.update(b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _content(out: Path) -> list[Path]:
    return [p for p in out.iterdir() if p.name != LOCK_FILE] if out.is_dir() else []


def differing_settings(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The setting keys whose values differ (keys with a partial prefix only where both have them)."""
    keys = []
    for key in sorted(set(before) | set(now)):
        if key.startswith(PARTIAL_PREFIXES) and (key not in before or key not in now):
            continue
        if before.get(key) != now.get(key):
            keys.append(key)
    return keys


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def read_run_file(out: Path) -> dict[str, Any] | None:
    path = out / RUN_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise RunDirError(f"{path}: cannot read the run's settings ({err}); fix or delete that file, or use --overwrite"
                          ) from None
    return data if isinstance(data, dict) else None


def prepare_run_dir(out: str | Path, *, kind: str, settings: dict[str, Any], resume: bool = False,
                    overwrite: bool = False, create: bool = True, resumable: bool = True) -> dict[str, Any] | None:
    """Applies the folder rule (see the module docstring); returns the earlier run's record (resume) or None.
    With `create=False` only checks (nothing is written)."""
    out = check_writable(out)
    if resume and overwrite:
        raise RunDirError("--resume and --overwrite contradict each other: pass one of them")
    content = _content(out)
    before = read_run_file(out) if content else None
    if content and overwrite:
        if before is None:
            raise RunDirError(f"{out}: not a folder apb wrote (no {RUN_FILE}), so --overwrite will not delete it; "
                              "choose an empty or new --out")
        if create:
            for path in content:
                shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        before = None
    elif content and not resume:
        what = f"an earlier {before.get('kind', 'apb')} run" if before else "files"
        options = "pass --resume to continue that run, --overwrite to replace it," if resumable else \
            "pass --overwrite to replace it"
        raise RunDirError(f"{out}: the folder is not empty (it holds {what}); {options} or choose another --out "
                          "(nothing was changed)")
    elif content and resume:
        if before is None:
            raise RunDirError(f"{out}: cannot resume: the folder has no {RUN_FILE} (not an apb run of this version), "
                              "so its settings cannot be checked; choose another --out")
        if before.get("kind") != kind:
            raise RunDirError(f"{out}: cannot resume: it holds a {before.get('kind')!r} run, not {kind!r}; choose "
                              "another --out")
        changed = differing_settings(before.get("settings") or {}, settings)
        if changed:
            detail = "; ".join(f"{k}: {_show((before.get('settings') or {}).get(k))} before, {_show(settings.get(k))} "
                               "now" for k in changed[:6])
            raise RunDirError(f"{out}: cannot resume with different settings ({detail}); rerun with the same settings, "
                              "or use another --out (or --overwrite) for the new ones")
    if create:
        out.mkdir(parents=True, exist_ok=True)
        merged = dict((before or {}).get("settings") or {})
        merged.update(settings)
        record = {"kind": kind, "apb_version": __version__, "settings": merged,
                  "created": (before or {}).get("created") or _now()}
        (out / RUN_FILE).write_text(json.dumps(record, indent=1, sort_keys=True, default=str) + "\n",
                                    encoding="utf-8")
    return before


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class RunLock:
    """`OUT/.apb-lock`: held while a run writes into OUT. A second run gets a RunDirError naming the first; the
    lock of a process that no longer exists (on this host) is stale and taken over."""

    def __init__(self, out: str | Path) -> None:
        self.path = Path(out) / LOCK_FILE
        self.held = False

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": _now(),
              "command": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv))[:300]}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                other = self._read()
                if other is not None and other.get("host") == me["host"] and isinstance(other.get("pid"), int) \
                        and not _alive(other["pid"]):
                    with contextlib.suppress(FileNotFoundError):
                        self.path.unlink()  # a killed run's lock
                    continue
                if other is None:  # being written this instant, or unreadable
                    raise RunDirError(f"{self.path.parent}: another run holds its lock ({self.path}); wait for it, "
                                      "or delete that file if no run is using the folder") from None
                raise self._busy(other) from None
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(me) + "\n")
            self.held = True
            return
        raise RunDirError(f"{self.path}: could not take the run lock; delete it if no run is using the folder")

    def check(self) -> None:
        """RunDirError naming the run that holds the lock, if one does (without taking it)."""
        other = self._read() if self.path.is_file() else None
        if other is not None and not (other.get("host") == socket.gethostname() and isinstance(other.get("pid"), int)
                                      and not _alive(other["pid"])):
            raise self._busy(other)

    def _busy(self, other: dict) -> RunDirError:
        return RunDirError(f"{self.path.parent}: another run is writing here (pid {other.get('pid')} on "
                           f"{other.get('host')}, started {other.get('started')}: {other.get('command')}); wait for "
                           "it to finish or stop it, or choose another --out")

    def _read(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def release(self) -> None:
        if self.held:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self.held = False


@contextlib.contextmanager
def open_run_dir(out: str | Path, *, kind: str, settings: dict[str, Any], resume: bool = False,
                 overwrite: bool = False, resumable: bool = True) -> Iterator[dict[str, Any] | None]:
    """Checks the folder rule, takes the lock, writes `run.json`; yields the earlier run's record (or None) and
    releases the lock on exit, whatever happens."""
    lock = RunLock(out)
    lock.check()  # a live run's lock is named before anything else
    prepare_run_dir(out, kind=kind, settings=settings, resume=resume, overwrite=overwrite, create=False,
                    resumable=resumable)
    lock.acquire()
    try:
        yield prepare_run_dir(out, kind=kind, settings=settings, resume=resume, overwrite=overwrite,
                              resumable=resumable)
    finally:
        lock.release()

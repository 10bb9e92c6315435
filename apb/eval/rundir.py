"""The one rule for output folders, for every command that writes a run or a generated set into a folder.

A run writes its settings (everything that changes a result) into `OUT/run.json`, and when it ends (finished, failed
or interrupted) the paths of the files it wrote in OUT (`files`, relative: `episodes/<id>.jsonl`); a report written
into the folder later (`apb report`, `apb acp report`, `apb nl2pddl report`) adds its files to that list
(`record_derived`). A new run into a folder that is not empty is refused unless `resume` (the settings must match;
the error names the keys that differ) or `overwrite`: that deletes only the files `files` lists, and the folders
they leave empty (never a file of yours such as `OUT/notes.ipynb` or `OUT/episodes/notes.txt`), so no report of the
old run is left beside the new one; it refuses, naming them, when OUT holds results of other runs (a sub-folder with
its own run.json, such as the `eval/` an `apb acp eval` writes inside a question set) unless `overwrite_results`
says to delete them too. A run that failed or was interrupted before writing anything leaves no run.json behind (a
rerun is not blocked). A lock file, `OUT/.apb-lock`, stops a second run into the same folder with a message naming
the first (its pid, host, start time and command); the lock of a run that was killed is detected as stale and taken
over.

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


_OWN = {LOCK_FILE, RUN_FILE, RUN_FILE + ".tmp"}


def _tree(out: Path) -> set[str]:
    """The relative paths (posix) of the files under `out` (a symbolic link is a file: never followed), the
    folder's own run.json and lock left out."""
    found = set()
    for root, dirs, files in os.walk(out):
        here = Path(root).relative_to(out)
        links = [d for d in dirs if (Path(root) / d).is_symlink()]
        for name in files + links:
            found.add((here / name).as_posix())
    return found - _OWN


def _listed(out: Path, listed: list) -> set[str]:
    """The files a run.json's `files` names: relative paths; a folder (as earlier versions listed them) stands for
    the files under it."""
    paths = set()
    for name in listed:
        path = out / str(name)
        if path.is_dir() and not path.is_symlink():
            paths |= {f"{Path(str(name)).as_posix()}/{p}" for p in _tree(path)}
        else:
            paths.add(Path(str(name)).as_posix())
    return paths - _OWN


def _delete(out: Path, paths: set[str]) -> None:
    """Deletes the files (relative to `out`) and then every folder they leave empty, up to `out`."""
    parents = set()
    for name in sorted(paths):
        path = out / name
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)  # another run's results, deleted as a whole (--overwrite-results)
        parents |= set(Path(name).parents)
    for parent in sorted(parents, key=lambda p: len(p.parts), reverse=True):
        if parent != Path(".") and (out / parent).is_dir() and not any((out / parent).iterdir()):
            (out / parent).rmdir()


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
                    overwrite: bool = False, create: bool = True, resumable: bool = True,
                    overwrite_results: bool | None = None) -> dict[str, Any] | None:
    """Applies the folder rule (see the module docstring); returns the earlier run's record (resume) or None.
    With `create=False` only checks (nothing is written). `overwrite_results`: None when the command has no
    `--overwrite-results` flag, else whether it was given."""
    out = check_writable(out)
    RunLock(out).check()  # a live run is named before anything else
    if resume and overwrite:
        raise RunDirError("--resume and --overwrite contradict each other: pass one of them")
    content = _content(out)
    before = read_run_file(out) if content else None
    if content and overwrite:
        if before is None:
            raise RunDirError(f"{out}: not a folder apb wrote (no {RUN_FILE}), so --overwrite will not delete it; "
                              "choose an empty or new --out")
        doomed = _overwritable(out, content, before, resumable=resumable, overwrite_results=overwrite_results)
        if create:
            _delete(out, doomed)
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


def _overwritable(out: Path, content: list[Path], before: dict[str, Any], *, resumable: bool,
                  overwrite_results: bool | None) -> set[str]:
    """What `--overwrite` deletes in `out` (relative paths): the files its run.json lists, run.json, and (with
    `overwrite_results`) other runs' results; a RunDirError naming them when that cannot be done safely."""
    listed = before.get("files")
    if not isinstance(listed, list) and all(p.name == RUN_FILE for p in content):
        return {RUN_FILE}  # a run killed before it wrote anything
    if not isinstance(listed, list):
        finish = " or pass --resume to finish that run" if resumable else ""
        raise RunDirError(f"{out}: its {RUN_FILE} does not list the files its run wrote (that run was killed, or "
                          "written by an older apb), so --overwrite cannot tell them from yours; nothing was changed: "
                          f"empty the folder yourself,{finish} or choose another --out")
    files = _listed(out, listed)
    tops = {Path(name).parts[0] for name in files}
    others = [p for p in content if p.name != RUN_FILE and p.name not in tops]
    results = [p for p in others if p.is_dir() and not p.is_symlink() and _holds_run(p)]
    if results and not overwrite_results:
        names = ", ".join(f"{p.name}/" for p in results)
        what = "pass --overwrite-results to delete them too" if overwrite_results is False else \
            "move or delete them first"
        raise RunDirError(f"{out}: holds the results of other runs ({names}), which --overwrite would leave "
                          f"describing data that no longer exists; nothing was changed: {what}, or choose another "
                          "--out")
    for path in results:
        RunLock(path).check()  # never under a live run
    return files | {RUN_FILE} | {p.name for p in results}


def _holds_run(folder: Path) -> bool:
    """Whether `folder` (or a folder inside it) is an apb run (has a run.json)."""
    return (folder / RUN_FILE).is_file() or any(folder.rglob(RUN_FILE))


def _record_files(out: Path, files: list[str]) -> None:
    """Writes the paths a run wrote into its run.json (what a later --overwrite may delete)."""
    path = out / RUN_FILE
    with contextlib.suppress(RunDirError, OSError):
        record = read_run_file(out)
        if record is not None:
            record["files"] = files
            tmp = path.with_name(RUN_FILE + ".tmp")
            tmp.write_text(json.dumps(record, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")
            os.replace(tmp, path)


def record_derived(out: str | Path, paths: list[str | Path]) -> None:
    """Adds files derived from a run (a report written into its folder) to the run's `files`, so --overwrite removes
    them with the run instead of leaving them beside the next one. A folder that is not a run is left alone."""
    out = Path(out)
    record = None
    with contextlib.suppress(RunDirError, OSError):
        record = read_run_file(out)
    if record is None or not isinstance(record.get("files"), list):
        return
    names = []
    for path in paths:
        with contextlib.suppress(ValueError):
            names.append(Path(path).resolve().relative_to(out.resolve()).as_posix())
    _record_files(out, sorted(set(record["files"]) | set(names)))


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
        if other is None:
            return
        here = other.get("host") == socket.gethostname() and isinstance(other.get("pid"), int)
        if not (here and (other["pid"] == os.getpid() or not _alive(other["pid"]))):  # not ours, not a killed run's
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
                 overwrite: bool = False, resumable: bool = True,
                 overwrite_results: bool | None = None) -> Iterator[dict[str, Any] | None]:
    """Checks the folder rule, takes the lock, writes `run.json`; yields the earlier run's record (or None). On exit,
    whatever happens, records the files the run wrote in run.json (or removes run.json, and the folder it created,
    when a run that failed wrote nothing) and releases the lock."""
    out = Path(out)
    lock = RunLock(out)
    options = {"kind": kind, "settings": settings, "resume": resume, "overwrite": overwrite, "resumable": resumable,
               "overwrite_results": overwrite_results}
    prepare_run_dir(out, create=False, **options)
    created = not out.exists()
    lock.acquire()
    empty = False
    try:
        before = prepare_run_dir(out, **options)
        earlier = _listed(out, (before or {}).get("files") or [])
        foreign = _tree(out) - earlier  # yours, kept (resume, overwrite)
        finished = False
        try:
            yield before
            finished = True
        finally:
            written = sorted(_tree(out) - foreign)
            empty = not finished and not written and before is None
            if empty:
                with contextlib.suppress(OSError):
                    (out / RUN_FILE).unlink()
            else:
                _record_files(out, written)
    finally:
        lock.release()
        if empty and created:
            with contextlib.suppress(OSError):
                out.rmdir()

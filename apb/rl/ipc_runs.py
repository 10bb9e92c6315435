"""The runs file of `apb rl bench ipc2023 --runs FILE`: one JSON line per finished planner run, appended and fsynced
as soon as it is judged, so that an interrupted benchmark started again with the same file runs only what is
missing.

A line is {"domain", "task", "planner", "time_limit", "knowledge", "record"}: `knowledge` is the SHA-256 of the
knowledge file the learned planner used ("" for LAMA-first), so retraining a domain reruns its learned planner and
nothing else; `record` is what `apb.rl.ipc_bench.judge` made of the run. A run is reused only for the same domain,
task, planner, time limit and knowledge. A last line cut short (the process killed while writing it) is dropped
when the file is opened; any other line that is not such an object is an error naming the file and line.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from apb.engine.errors import ApbError
from apb.engine.input_files import read_jsonl

FIELDS = ("domain", "task", "planner", "time_limit", "knowledge", "record")


def digest(path: Path | None) -> str:
    """The SHA-256 of a knowledge file ("" for none)."""
    if path is None:
        return ""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class RunLog:
    """Finished runs by (domain, task, planner, time limit, knowledge digest); `add` appends one."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.done: dict[tuple, dict] = {}
        self.reused = 0
        if self.path.exists():
            self._drop_partial_line()
            for number, line in read_jsonl(self.path, "runs file", error=ApbError):
                if not all(k in line for k in FIELDS) or not isinstance(line["record"], dict):
                    raise ApbError(f"{self.path}:{number}: not a run of apb rl bench (fields {', '.join(FIELDS)}): "
                                   "pass another --runs file")
                self.done[self._key(line["domain"], line["task"], line["planner"], line["time_limit"],
                                    line["knowledge"])] = line["record"]

    @staticmethod
    def _key(domain: str, task: str, planner: str, limit: float, knowledge: str) -> tuple:
        return domain, task, planner, float(limit), knowledge

    def _drop_partial_line(self) -> None:
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as handle:
                handle.truncate(keep)

    def get(self, domain: str, task: str, planner: str, limit: float, knowledge: str) -> dict | None:
        """The record of a finished run with these settings, or None."""
        record = self.done.get(self._key(domain, task, planner, limit, knowledge))
        if record is not None:
            self.reused += 1
        return record

    def add(self, domain: str, task: str, planner: str, limit: float, knowledge: str, record: dict) -> None:
        """Appends a finished run (flushed and fsynced)."""
        line = {"domain": domain, "task": task, "planner": planner, "time_limit": float(limit),
                "knowledge": knowledge, "record": record}
        self.done[self._key(domain, task, planner, limit, knowledge)] = record
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

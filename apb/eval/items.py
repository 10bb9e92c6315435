"""What the one runner runs: items of any kind (an episode, an ACP question, an NL->PDDL pair, a study cell), and
where their results are kept.

An item has an `id` (unique in its run: the resume key), a `model` (the LLM spec it needs, or None) and
`run(out_dir, llm, stop) -> record`: it does its work and returns its result record, a dict whose `error` is a
message when the item could not be done (an LLM error, a crash), else None. An error is never a wrong answer:
the runner counts it as an error, shows it in every summary, and runs the item again on `--resume`.
An item raises `ItemInterrupted` when `stop` is set while it runs (Ctrl-C): nothing is recorded for it.

A kind (`ItemKind`) says how its results are stored and read back (`TrajectoryStore`: one JSONL trajectory per
episode, written by the item itself; `RecordStore`: one line per item in `results.jsonl`, appended and fsynced by
the runner) and what counts as a success. Counts are per item, never per attempt: the latest record of an id wins.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from apb.eval.trajectory import FINAL_SUFFIX, PART_SUFFIX, TrajectoryError, json_line, read_trajectory

RESULTS_FILE = "results.jsonl"


class ItemInterrupted(BaseException):
    """Raised inside a running item when the run is being stopped (Ctrl-C): the item is abandoned."""


class Item(Protocol):
    id: str
    model: str | None

    def run(self, out_dir: Path, llm: Any, stop: threading.Event | None) -> dict: ...


def is_error(record: dict | None) -> bool:
    return bool(record and record.get("error"))


def latest_by_id(records) -> dict[str, dict]:
    """Records by id, the latest of an id winning (an item run again by --resume counts once), in the order of
    their last appearance."""
    latest: dict[str, dict] = {}
    for record in records:
        if isinstance(record, dict) and "id" in record:
            latest.pop(str(record["id"]), None)
            latest[str(record["id"])] = record
    return latest


class TrajectoryStore:
    """Episodes: `OUT/episodes/<id>.jsonl`, written by the episode itself (a `.part` file until its footer); the
    record of an episode is its footer."""

    def __init__(self, out: str | Path) -> None:
        self.folder = Path(out) / "episodes"

    def read(self) -> tuple[dict[str, dict], list[str]]:
        """(footer by episode id, the problems of the files that do not read back whole), in one pass."""
        found, problems = {}, []
        for path in sorted(self.folder.glob("*" + FINAL_SUFFIX)) if self.folder.is_dir() else ():
            try:
                found[path.name[: -len(FINAL_SUFFIX)]] = read_trajectory(path)["footer"]
            except TrajectoryError as err:
                problems.append(str(err))
        return found, problems

    def records(self) -> dict[str, dict]:
        return self.read()[0]

    def prepare(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for stale in self.folder.glob("*" + PART_SUFFIX):
            stale.unlink()

    def write(self, record: dict) -> None:
        """Nothing to do: the episode wrote its trajectory."""


class RecordStore:
    """One JSON line per finished item in `OUT/results.jsonl`, appended, flushed and fsynced as each finishes."""

    def __init__(self, out: str | Path, name: str = RESULTS_FILE) -> None:
        self.path = Path(out) / name
        self._lock = threading.Lock()

    def _lines(self) -> list[str]:
        if not self.path.is_file():
            return []
        return self.path.read_text(encoding="utf-8", errors="replace").split("\n")

    def read(self) -> tuple[dict[str, dict], list[str]]:
        """(the latest record of each id, the damaged lines), in one pass over the file."""
        parsed, problems = [], []
        lines = self._lines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                parsed.append(json.loads(line))
            except json.JSONDecodeError:
                if number == len(lines):  # the line being written when a run was stopped: dropped by prepare()
                    continue
                problems.append(f"{self.path}:{number}: a damaged result line")
        return latest_by_id(parsed), problems

    def records(self) -> dict[str, dict]:
        return self.read()[0]

    def prepare(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_file():
            text = self.path.read_text(encoding="utf-8", errors="replace")
            if text and not text.endswith("\n"):  # a line cut short by an interruption: the item runs again
                with open(self.path, "r+", encoding="utf-8") as handle:
                    handle.truncate(len(text[: text.rfind("\n") + 1].encode("utf-8")))

    def write(self, record: dict) -> None:
        line = json_line(record)
        with self._lock, open(self.path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())


@dataclass(frozen=True)
class ItemKind:
    """A kind of item: its name (in run.json), its noun in summaries, what its success is called and how a record
    says it, and its store."""

    name: str
    noun: str
    outcome: str
    success: Callable[[dict], bool]
    store: Callable[[Path], Any]


EPISODES = ItemKind("episodes", "episode", "solved", lambda r: bool(r.get("success")), TrajectoryStore)

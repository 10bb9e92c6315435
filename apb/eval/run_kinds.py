"""Run folders of other kinds in `apb report`: a package whose runs are not episodes (PlanBench's prompt runs) registers
its kind here from its cli.py's `add_parsers` (`register_run_kind(kind, section)`), and `apb report` shows each such
folder through it. The report stays below the packages it reports on; this module imports nothing heavy (every
`apb` command loads it).

`section(dirs)` gets the run folders of its kind (their run.json says `kind`) and returns a `ReportSection`: the rows
summary.json keeps under `key`, the section of report.md and of report.html, what `apb report` prints, and episodes
for the report's viewer (apb.eval.metrics.Episode objects: a plan drawn as steps on its problem).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ReportSection:
    key: str  # summary.json's key for the rows
    rows: list[dict[str, Any]]
    markdown: str
    html: str
    console: list[Any] = field(default_factory=list)  # rich renderables `apb report` prints
    episodes: list[Any] = field(default_factory=list)  # shown in the episode viewer (not in the coverage tables)


RUN_KINDS: dict[str, Callable[[list[Path]], ReportSection]] = {}


def register_run_kind(kind: str, section: Callable[[list[Path]], ReportSection]) -> None:
    """`apb report` shows the run folders whose run.json has this `kind` through `section`."""
    RUN_KINDS[kind] = section


def split_dirs(dirs: list[Path]) -> tuple[list[Path], list[ReportSection]]:
    """(the folders of episodes, a section per registered kind among the others) in the given order."""
    from apb.eval.rundir import read_run_file

    episodes: list[Path] = []
    kinds: dict[str, list[Path]] = {}
    for folder in map(Path, dirs):
        run = read_run_file(folder) if folder.is_dir() else None
        kind = run.get("kind") if run else None
        if kind in RUN_KINDS:
            kinds.setdefault(kind, []).append(folder)
        else:
            episodes.append(folder)
    return episodes, [RUN_KINDS[kind](folders) for kind, folders in kinds.items()]

"""Domain knowledge files: what `apb rl train` writes and the learned planners read, whatever the learner.

A knowledge file is one JSON header line, then the learner's payload (bytes, its own format):

    {"format": "apb-knowledge", "version": 1, "learner": "gnn", "domain": "blocksworld", "domain_pddl": "...",
     "finished": false, "stop_reason": "interrupted", "epochs_done": 3, "epochs_planned": 10, ...}\\n<payload>

`finished` is true when training ended by its own rule (its epochs, its time limit) and false while it runs or
after it was stopped (SIGTERM, Ctrl-C); `stop_reason` says which ("epochs", "time-limit", "running",
"interrupted"). Files are written atomically (`write_knowledge`: a temporary file beside it, fsynced, then
`os.replace`), so a reader sees the previous version or the new one, never half of one.

`load_knowledge(path)` checks the file (a regular file, bounded in size, the header) and warns in one line
(`KnowledgeWarning`) when the training did not finish; `Knowledge.heuristic(task)` turns it into a
`StateHeuristic` for that task: `h(states) -> list[float]`, the estimated cost to go of each state (state bits, as
the planners' search code holds them, or `State`s), in one batch. Learners are `LEARNERS`: name -> the module
whose `heuristic(knowledge, task)` builds it (imported on first use, so loading a file needs no PyTorch).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from apb.engine.errors import ApbError
from apb.engine.task import Task

FORMAT = "apb-knowledge"
VERSION = 1
MAX_BYTES = 1 << 30  # a knowledge file larger than this is refused (the GNN's are well under 1 MB)
MAX_HEADER = 4 << 20  # the header line (it carries the domain's PDDL)
DEFAULT_EPOCHS = 20  # apb rl train on training tasks with neither --epochs nor --time-limit
LEARNERS: dict[str, str] = {
    "gnn": "apb.rl.gnn_knowledge",  # the relational GNN value function (apb.rl.model)
}


class KnowledgeWarning(UserWarning):
    """A knowledge file whose training did not finish is being used."""


class StateHeuristic(Protocol):
    """A learned estimate of the cost to go, evaluated on a batch of states of one task."""

    name: str

    def __call__(self, states: Sequence[Any]) -> list[float]: ...


@dataclass
class Knowledge:
    """One knowledge file: its header (a dict) and the learner's payload."""

    path: Path
    header: dict
    payload: bytes

    @property
    def learner(self) -> str:
        return self.header["learner"]

    @property
    def domain(self) -> str:
        return self.header.get("domain", "")

    @property
    def finished(self) -> bool:
        return bool(self.header.get("finished"))

    def status(self) -> str:
        """One line: the learner, the domain and how far its training got."""
        done, planned = self.header.get("epochs_done"), self.header.get("epochs_planned")
        epochs = f"{done} of {planned} epochs" if planned else f"{done} epochs"
        how = "finished" if self.finished else f"unfinished ({self.header.get('stop_reason', 'running')})"
        return f"{self.path}: {self.learner} knowledge of {self.domain}, training {how} after {epochs}"

    def heuristic(self, task: Task) -> StateHeuristic:
        """The learned estimate for states of `task` (ApbError when the task is of another domain)."""
        if self.domain and task.domain.name != self.domain:
            raise ApbError(f"{self.path} was trained on domain {self.domain!r}, not on {task.domain.name!r}")
        import importlib

        return importlib.import_module(LEARNERS[self.learner]).heuristic(self, task)


def load_knowledge(path: str | os.PathLike, *, warn: bool = True) -> Knowledge:
    """Reads a knowledge file (ApbError naming the file when it is not one); warns (KnowledgeWarning, one line)
    when its training did not finish."""
    path = Path(path).expanduser()
    try:
        info = path.stat()
    except OSError:
        raise ApbError(f"{path}: no such knowledge file (write one with apb rl train SOURCE --out {path})") from None
    if not stat.S_ISREG(info.st_mode):
        raise ApbError(f"{path} is not a regular file: a knowledge file is what apb rl train --out writes")
    if info.st_size > MAX_BYTES:
        raise ApbError(f"{path} has {info.st_size:,} bytes, more than a knowledge file's {MAX_BYTES:,}")
    with path.open("rb") as f:
        line = f.readline(MAX_HEADER)
        payload = f.read()
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ApbError(f"{path} is not an apb knowledge file (its first line is not an {FORMAT} header): write one "
                       "with apb rl train SOURCE --out FILE")
    if header.get("version") != VERSION:
        raise ApbError(f"{path} is a knowledge file of version {header.get('version')!r}, this apb reads version "
                       f"{VERSION}: train it again")
    if header.get("learner") not in LEARNERS:
        raise ApbError(f"{path}: unknown learner {header.get('learner')!r} (known: {', '.join(sorted(LEARNERS))})")
    knowledge = Knowledge(path, header, payload)
    if warn and not knowledge.finished:
        warnings.warn(unfinished_line(knowledge), KnowledgeWarning, stacklevel=2)
    return knowledge


def unfinished_line(knowledge: Knowledge) -> str:
    """The one line said when an unfinished knowledge file is used."""
    return f"{knowledge.status()}: using the best model so far (resume with apb rl train ... --resume)"


def write_knowledge(path: str | os.PathLike, header: dict, payload: bytes) -> Path:
    """Writes a knowledge file atomically (see atomic_write); `header` gets `format` and `version`."""
    path = Path(path)
    if path.is_dir():
        raise ApbError(f"{path} is a folder: a knowledge file is a file (apb rl train SOURCE --out FILE)")
    line = json.dumps({"format": FORMAT, "version": VERSION, **header}, separators=(",", ":")).encode("utf-8")
    return atomic_write(path, line + b"\n" + payload)


def atomic_write(path: str | os.PathLike, data: bytes) -> Path:
    """Writes `data` to a temporary file beside `path`, fsyncs it and renames it over `path` (os.replace): a
    reader, or a process killed meanwhile, sees the old file or the new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def state_bits(states: Sequence[Any]) -> list[int]:
    """State bits of `states` (ints, or `State`s with `.bits`)."""
    return [s if isinstance(s, int) else s.bits for s in states]

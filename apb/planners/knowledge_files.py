"""Domain knowledge files: what `apb rl train` writes and the learned planners read, whatever the learner.

A knowledge file is one JSON object (this module owns the format; apb.planners.wl_model's files are knowledge
files too):

    {"kind": "gnn", "format": 1, "domain": "blocksworld",
     "training": {"finished": false, "stop_reason": "interrupted", "epochs_done": 3, "epochs_planned": 10, ...},
     "model": {...the learner's own...}}

`kind` names the learner (LEARNERS). `training.finished` is true when training ended by its own rule (its epochs,
its time limit, every task used) and false while it runs or after it was stopped (SIGTERM, Ctrl-C);
`training.stop_reason` says which ("epochs", "time-limit", "running", "interrupted"). Files are written
atomically (`write_knowledge`: a temporary file beside it, fsynced, then `os.replace`; removed if interrupted),
so a reader sees the previous version or the new one, never a part.

`load_knowledge(path)` checks the file (a regular file, bounded in size, a JSON object of a known kind) and warns in
one line (`KnowledgeWarning`) when its training did not finish; `Knowledge.heuristic(task)` turns it into a
`StateHeuristic` for that task: `h(states) -> list[float]`, the estimated cost to go of each state (state bits, as
the planners' search code holds them, or `State`s), in one batch. LEARNERS maps a kind to the module whose
`heuristic(knowledge, task)` builds it (imported on first use, so loading a file needs no PyTorch).
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

FORMAT = 1  # the "format" of the files this apb writes and reads
MAX_BYTES = 256 << 20  # a knowledge file larger than this is refused (the GNN's are well under 1 MB)
DEFAULT_EPOCHS = 20  # apb rl train on training tasks with neither --epochs nor --time-limit
LEARNERS: dict[str, str] = {
    "gnn": "apb.rl.gnn_knowledge",  # the relational GNN value function (apb.rl.model; imported by name, on use)
    "wl": "apb.planners.wl_model",  # the Weisfeiler-Leman feature model
}


class KnowledgeWarning(UserWarning):
    """A knowledge file whose training did not finish is being used."""


class StateHeuristic(Protocol):
    """A learned estimate of the cost to go, evaluated on a batch of states of one task."""

    name: str

    def __call__(self, states: Sequence[Any]) -> list[float]: ...


@dataclass
class Knowledge:
    """One knowledge file: its JSON object."""

    path: Path
    data: dict

    @property
    def learner(self) -> str:
        return self.data["kind"]

    @property
    def domain(self) -> str:
        return str(self.data.get("domain") or "")

    @property
    def training(self) -> dict:
        training = self.data.get("training")
        return training if isinstance(training, dict) else {}

    @property
    def finished(self) -> bool:
        return bool(self.training.get("finished"))

    def status(self) -> str:
        """One line: the learner, the domain and how far its training got."""
        training = self.training
        done, planned = training.get("epochs_done"), training.get("epochs_planned")
        if done is None:
            progress = f"{training.get('tasks', '?')} tasks"
        else:
            progress = f"{done} of {planned} epochs" if planned else f"{done} epochs"
        how = "finished" if self.finished else f"unfinished ({training.get('stop_reason', 'running')})"
        return f"{self.path}: {self.learner} knowledge of {self.domain}, training {how} after {progress}"

    def heuristic(self, task: Task) -> StateHeuristic:
        """The learned estimate for states of `task` (ApbError when the task is of another domain)."""
        if self.domain and task.domain.name != self.domain:
            raise ApbError(f"{self.path} was trained on domain {self.domain!r}, not on {task.domain.name!r}")
        import importlib

        try:
            module = importlib.import_module(LEARNERS[self.learner])
        except ImportError as err:  # the gnn learner's PyTorch
            raise ApbError(f"{self.path}: {self.learner} knowledge needs {err.name or 'a missing package'}: pip "
                           "install 'apb[rl]'") from None
        return module.heuristic(self, task)


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
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ApbError(f"{path} is not an apb knowledge file (a JSON object with a kind): write one with apb rl "
                       "train SOURCE --out FILE")
    if data.get("format") != FORMAT:
        raise ApbError(f"{path} is a knowledge file of format {data.get('format')!r}, this apb reads format "
                       f"{FORMAT}: train it again")
    if data["kind"] not in LEARNERS:
        raise ApbError(f"{path}: unknown learner {data['kind']!r} (known: {', '.join(sorted(LEARNERS))})")
    knowledge = Knowledge(path, data)
    if warn and not knowledge.finished:
        warnings.warn(unfinished_line(knowledge), KnowledgeWarning, stacklevel=2)
    return knowledge


def unfinished_line(knowledge: Knowledge) -> str:
    """The one line said when an unfinished knowledge file is used."""
    return f"{knowledge.status()}: using the best model so far (resume with apb rl train ... --resume)"


def write_knowledge(path: str | os.PathLike, data: dict) -> Path:
    """Writes a knowledge file atomically (see atomic_write); `data` gets `format`."""
    path = Path(path)
    if path.is_dir():
        raise ApbError(f"{path} is a folder: a knowledge file is a file (apb rl train SOURCE --out FILE)")
    return atomic_write(path, json.dumps({**data, "format": FORMAT}, separators=(",", ":")).encode("utf-8"))


def atomic_write(path: str | os.PathLike, data: bytes) -> Path:
    """Writes `data` to a temporary file beside `path`, fsyncs it and renames it over `path` (os.replace): a
    reader, or a process killed meanwhile, sees the old file or the new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _file_mode(path))  # mkstemp's 0600 would make the file private
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _file_mode(path: Path) -> int:
    """The mode a new file gets (0666 less the umask), or the mode of the file being replaced."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def state_bits(states: Sequence[Any]) -> list[int]:
    """State bits of `states` (ints, or `State`s with `.bits`)."""
    return [s if isinstance(s, int) else s.bits for s in states]

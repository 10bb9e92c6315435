"""The IPC 2023 Learning Track as a problem source: `ipc2023:<domain>` (or a domain folder of the benchmark).

The track's data is not bundled: apb reads a folder laid out like its public benchmark repository
(ipc2023-learning/benchmarks): `<domain>/domain.pddl`, `<domain>/training/easy/p*.pddl`,
`<domain>/testing/<easy|medium|hard>/p*.pddl`, reference plans in `solutions/<domain>/<training|testing>/easy/`
and reference costs in `solutions/upper_bounds.json`. The folder is `$APB_IPC2023` (or `root=`).

Splits: `training` (the learner's tasks, with reference plans), `easy`, `medium`, `hard` (the test tasks that are
there: the public repository has the easy ones) and the view `test` (every test task). Ids are `<split>/p01`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry, natural_sorted
from apb.domains.ipc2023 import DOMAINS
from apb.engine import load_domain

PREFIX = "ipc2023:"
ROOT_ENV = "APB_IPC2023"
TRAINING = "training"
TEST_SIZES = ("easy", "medium", "hard")
COSTS_FILE = Path("solutions") / "upper_bounds.json"
_HINT = (f"set ${ROOT_ENV} to a copy of the track's benchmark repository (github.com/ipc2023-learning/benchmarks: "
         "<domain>/domain.pddl, <domain>/training/easy, <domain>/testing/<size>)")


def ipc2023_root(root: str | os.PathLike | None = None) -> Path:
    """The benchmark folder: `root`, else `$APB_IPC2023`; DatasetError saying how to set it when there is none."""
    text = os.fspath(root) if root is not None else os.environ.get(ROOT_ENV)
    if not text:
        raise DatasetError(f"no IPC 2023 Learning Track folder: ${ROOT_ENV} is not set", hint=_HINT)
    path = Path(text).expanduser()
    if not path.is_dir():
        raise DatasetError("no such IPC 2023 Learning Track folder", path=path, hint=_HINT)
    return path


def is_ipc2023_domain_folder(path: Path) -> bool:
    """True for `<root>/<domain>` of the benchmark layout: domain.pddl with training/ or testing/ beside it."""
    return (path / "domain.pddl").is_file() and ((path / TRAINING).is_dir() or (path / "testing").is_dir())


def from_ipc2023(domain: str, root: str | os.PathLike | None = None) -> Dataset:
    """The track's domain `domain` with every split found under the benchmark folder (see the module docstring)."""
    base = ipc2023_root(root)
    name = domain.strip().lower()
    folder = base / name
    if not (folder / "domain.pddl").is_file():
        found = sorted(p.name for p in base.iterdir() if (p / "domain.pddl").is_file()) if base.is_dir() else []
        raise DatasetError(f"no IPC 2023 domain {domain!r} here", path=base,
                           hint=f"domains here: {', '.join(found) or 'none'}; the track's: {', '.join(DOMAINS)}")
    entries: list[ProblemEntry] = []
    folders = [(TRAINING, folder / TRAINING / "easy", TRAINING)] + [
        (size, folder / "testing" / size, "testing") for size in TEST_SIZES]
    for split, problems, kind in folders:
        if not problems.is_dir():
            continue
        plans = base / "solutions" / name / kind / "easy" if split in (TRAINING, "easy") else None
        for path in natural_sorted(problems.glob("p*.pddl")):
            plan = plans / f"{path.stem}.plan" if plans is not None else None
            entries.append(ProblemEntry(f"{split}/{path.stem}", path, plan if plan and plan.is_file() else None,
                                        split))
    if not entries:
        raise DatasetError("no training or test tasks in this domain folder", path=folder, hint=_HINT)
    tests = [e.id for e in entries if e.split != TRAINING]
    return Dataset(f"ipc2023-{name}", "ipc2023", folder, folder / "domain.pddl", load_domain(folder / "domain.pddl"),
                   entries, views={"test": tests} if tests else None)


def reference_costs(root: str | os.PathLike) -> dict[str, float]:
    """The reference costs C* of a benchmark folder, keyed `<domain>/<training|testing>/<size>/<file>` (empty when
    the folder has no `solutions/upper_bounds.json`)."""
    path = Path(root) / COSTS_FILE
    return read_costs(path) if path.is_file() else {}


def read_costs(path: str | os.PathLike) -> dict[str, float]:
    """A reference cost file in the layout of `solutions/upper_bounds.json` (task path -> cost)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise DatasetError("no such reference cost file", path=path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DatasetError(f"cannot read the reference costs: {err}", path=path) from None
    return {str(key): float(value) for key, value in data.items() if isinstance(value, int | float)}


def cost_key(dataset: Dataset, entry: ProblemEntry) -> str:
    """The key of a task in `reference_costs`: `blocksworld/testing/easy/p01.pddl`."""
    kind = TRAINING + "/easy" if entry.split == TRAINING else f"testing/{entry.split}"
    return f"{dataset.root.name}/{kind}/{entry.path.name}"

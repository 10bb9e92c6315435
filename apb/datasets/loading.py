"""`load_dataset`: a dataset folder or PDDLGym domain with every split, its layout detected from the files."""

from __future__ import annotations

from pathlib import Path

from apb.datasets.autoplanbench import from_autoplanbench, is_autoplanbench
from apb.datasets.dataset import Dataset, DatasetError
from apb.datasets.folder import from_folder
from apb.datasets.pddlgym_library import from_pddlgym, pddlgym_root
from apb.engine.input_files import file_problem

PDDLGYM_PREFIX = "pddlgym:"


def load_dataset(source: str | Path) -> Dataset:
    """Loads a dataset, detecting its layout: an AutoPlanBench folder, a plain folder with `domain.pddl`, a PDDLGym
    domain (`"baking"`, `"pddlgym:baking"`, `.../pddl/baking.pddl` or its problem folder).
    """
    if isinstance(source, str) and source.lower().startswith(PDDLGYM_PREFIX):
        return from_pddlgym(source[len(PDDLGYM_PREFIX):])
    path = Path(source).expanduser()
    if path.is_file() and path.name == "domain.pddl":
        path = path.parent
    if path.is_dir():
        if (path / "domain.pddl").is_file():
            return from_autoplanbench(path) if is_autoplanbench(path) else from_folder(path)
        name = path.name.removesuffix("_test")
        if (path.parent / f"{name}.pddl").is_file():  # a PDDLGym problem folder
            return from_pddlgym(name, root=path.parent)
        return from_folder(path)  # raises the no-domain error with its hint
    if path.is_file() and path.suffix == ".pddl" and any(
            (path.parent / f"{path.stem}{suffix}").is_dir() for suffix in ("", "_test")):
        return from_pddlgym(path.stem, root=path.parent)
    if isinstance(source, str) and source and not path.suffix and len(path.parts) == 1:
        if pddlgym_root() is None:
            raise DatasetError("no such file or folder, and no PDDLGym library to look the name up in", path=path,
                               hint="pass a dataset folder, or install pddlgym / set $APB_PDDLGYM_ROOT for "
                               "PDDLGym's domains")
        return from_pddlgym(source)  # a bare name: PDDLGym's library (the error lists its domains)
    if path.exists():  # a FIFO, a device, a file that is no dataset: say what it is
        raise DatasetError(file_problem(path, "dataset source") or "not a dataset folder, PDDL problem file or "
                           "PDDLGym domain file", path=path,
                           hint="pass a dataset folder, a PDDLGym domain name or a PDDLGym domain file")
    raise DatasetError("no such file or folder", path=path,
                       hint="pass a dataset folder, a PDDLGym domain name or a PDDLGym domain file")

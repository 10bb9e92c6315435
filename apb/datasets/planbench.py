"""PlanBench's configs and instances (both folders of its release: `plan-bench`, `llm_planning_analysis`).

Served from the archive bundled with apb (`planbench_data/planbench.tar.xz`, PlanBench's MIT licence beside it), or
from a user's PlanBench clone when `$APB_PLANBENCH` names a folder holding `plan-bench/` and
`llm_planning_analysis/`. `load_config(name, folder)` gives a `PlanBenchConfig` (the config's YAML, its domain and
instance texts); `planbench_dataset("blocksworld")` is the problem source `resolve("planbench:blocksworld")` serves.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tarfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry
from apb.engine import Domain, load_domain

PREFIX = "planbench:"
FOLDERS = ("plan-bench", "llm_planning_analysis")
DEFAULT_FOLDER = FOLDERS[0]
ENV = "APB_PLANBENCH"
ARCHIVE = Path(__file__).with_name("planbench_data") / "planbench.tar.xz"
TEST_SPLIT = "test"
GENERALIZED_SPLIT = "generalized"
# PlanBench's domain families as Gymnasium games (apb/PlanBench-<Family>-v0, apb.planbench.game): family -> the
# config it plays by default (any config of the family via config=)
GAME_FAMILIES = {
    "Blocksworld": "blocksworld",
    "MysteryBlocksworld": "mystery_blocksworld",
    "RandomBlocksworld": "random_blocksworld",
    "Logistics": "logistics",
    "ObfuscatedDeceptiveLogistics": "obfuscated_deceptive_logistics",
    "ObfuscatedRandomizedLogistics": "obfuscated_randomized_logistics",
    "Depots": "depots",
    "Sokoban": "sokoban",
}
GAME_STEP_LIMIT = 100
_CONFIG = re.compile(r"^(?P<folder>[^/]+)/configs/(?P<stem>[^/]+)\.yaml$")


def _root() -> Path | None:
    """The user's PlanBench clone ($APB_PLANBENCH), or None for the bundled archive."""
    value = os.environ.get(ENV)
    if not value:
        return None
    root = Path(value).expanduser()
    if not all((root / folder).is_dir() for folder in FOLDERS):
        raise DatasetError(f"${ENV} is not a PlanBench clone", path=root,
                           hint=f"set it to a folder holding {' and '.join(FOLDERS)}/, or unset it to use the "
                           "release bundled with apb")
    return root


@cache
def _archive() -> dict[str, bytes]:
    """Every file of the bundled archive by its path (read once per process)."""
    with tarfile.open(ARCHIVE, mode="r:xz") as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}


def _read(rel: str) -> str | None:
    """The text of a release file (`plan-bench/instances/...`), or None when there is no such file."""
    root = _root()
    if root is None:
        data = _archive().get(rel)
        return None if data is None else data.decode("utf-8")
    path = root / rel
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _config_files() -> dict[tuple[str, str], str]:
    """(folder, stem) -> YAML path of every config of both folders."""
    root = _root()
    if root is None:
        found = [m for rel in _archive() if (m := _CONFIG.match(rel))]
        return {(m["folder"], m["stem"]): m.group(0) for m in found if m["folder"] in FOLDERS}
    return {(folder, p.stem): f"{folder}/configs/{p.name}"
            for folder in FOLDERS for p in sorted((root / folder / "configs").glob("*.yaml"))}


def _parse_config(rel: str) -> dict | None:
    """A config's YAML as a dict, or None for a file that is no instance config (a template, a mask)."""
    try:
        data = yaml.safe_load(_read(rel) or "")
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("instance_dir", "domain_file")):
        return None
    return data


def config_names(folder: str = DEFAULT_FOLDER) -> list[str]:
    """The config stems of one folder (`plan-bench` or `llm_planning_analysis`) that name instances, sorted."""
    _check_folder(folder)
    return sorted(stem for (f, stem), rel in _config_files().items() if f == folder and _parse_config(rel))


def _check_folder(folder: str) -> None:
    if folder not in FOLDERS:
        raise DatasetError(f"unknown PlanBench folder {folder!r}", hint=f"use one of: {', '.join(FOLDERS)}")


@dataclass(frozen=True)
class PlanBenchConfig:
    """One PlanBench config: its name (file stem), folder, raw YAML dict, and its domain and instance texts."""

    name: str
    folder: str
    data: dict = field(compare=False, repr=False)

    def _instances_rel(self, key: str) -> str:
        return f"{self.folder}/instances/{self.data[key]}"

    def _text(self, rel: str, what: str) -> str:
        text = _read(rel)
        if text is None:
            raise DatasetError(f"PlanBench config {self.folder}/{self.name}: no {what} {rel}")
        return text

    def domain_text(self) -> str:
        """The domain PDDL text (the config's `domain_file`)."""
        return self._text(self._instances_rel("domain_file"), "domain file")

    def instance_rel(self, i: int, generalized: bool = False) -> str:
        """The release path of instance i (`<folder>/instances/<instance_dir>/instance-i.pddl`)."""
        folder = self._instances_rel("generalized_instance_dir" if generalized else "instance_dir")
        return f"{folder}/{self.data.get('instances_template', 'instance-{}.pddl').format(i)}"

    def instance_text(self, i: int) -> str:
        """The PDDL text of instance i of the config's `instance_dir`."""
        return self._text(self.instance_rel(i), "instance")

    @property
    def has_generalized(self) -> bool:
        """True when the config names a `generalized_instance_dir` (t5's instances)."""
        return isinstance(self.data.get("generalized_instance_dir"), str)

    def generalized_instance_text(self, i: int) -> str:
        """The PDDL text of instance i of the config's `generalized_instance_dir` (t5, plan generalization)."""
        if not self.has_generalized:
            raise DatasetError(f"PlanBench config {self.folder}/{self.name} has no generalized_instance_dir")
        return self._text(self.instance_rel(i, generalized=True), "generalized instance")

    def instance_files(self, generalized: bool = False) -> list[str]:
        """The names in the config's instance folder (what PlanBench's `os.listdir` counts)."""
        return _listdir(self._instances_rel("generalized_instance_dir" if generalized else "instance_dir"))

    def instance_ids(self, generalized: bool = False) -> list[int]:
        """start..end as the config says, only the instances that exist."""
        start, end = int(self.data.get("start", 1)), int(self.data.get("end", self.data.get("n_instances", 0)))
        if generalized and not self.has_generalized:
            return []
        return [i for i in range(start, end + 1) if _exists(self.instance_rel(i, generalized))]


def _listdir(rel_dir: str) -> list[str]:
    """The names of the entries of a release folder (files and folders directly in it)."""
    root = _root()
    if root is not None:
        path = root / rel_dir
        return sorted(p.name for p in path.iterdir()) if path.is_dir() else []
    prefix = rel_dir.rstrip("/") + "/"
    return sorted({rel[len(prefix):].split("/", 1)[0] for rel in _archive() if rel.startswith(prefix)})


def _exists(rel: str) -> bool:
    root = _root()
    return rel in _archive() if root is None else (root / rel).is_file()


def load_config(name: str, folder: str | None = None) -> PlanBenchConfig:
    """A PlanBench config by its file stem (`blocksworld`, `mystery_blocksworld_3`, `sokoban` ...); `folder`
    picks `plan-bench` or `llm_planning_analysis` when both hold the stem (default `plan-bench`)."""
    if folder is not None:
        _check_folder(folder)
    files = _config_files()
    for candidate in ([folder] if folder else FOLDERS):
        rel = files.get((candidate, name))
        if rel is not None and (data := _parse_config(rel)) is not None:
            return PlanBenchConfig(name, candidate, data)
    where = [folder] if folder else list(FOLDERS)
    known = "; ".join(f"{f}: {', '.join(config_names(f))}" for f in where)
    raise DatasetError(f"unknown PlanBench config {name!r}", hint=f"configs: {known}")


def parse_source(text: str) -> tuple[str, str | None]:
    """`planbench:<config>` or `planbench:<folder>/<config>` -> (config, folder or None)."""
    body = text[len(PREFIX):] if text.lower().startswith(PREFIX) else text
    folder, _, name = body.rpartition("/")
    return name, (folder or None)


def _cache_root() -> Path:
    """Where the bundled archive is unpacked for sources that need files: `$APB_CACHE_DIR/planbench/<digest>`."""
    base = os.environ.get("APB_CACHE_DIR") or str(Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache") / "apb")
    digest = hashlib.sha256(ARCHIVE.read_bytes()).hexdigest()[:16]
    return Path(base).expanduser() / "planbench" / digest


def _files_root() -> Path:
    """A folder holding the release's files: the clone, or the archive unpacked once (atomically) in the cache."""
    root = _root()
    if root is not None:
        return root
    target = _cache_root()
    if not (target / ".complete").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
        with tarfile.open(fileobj=io.BytesIO(ARCHIVE.read_bytes()), mode="r:xz") as tar:
            try:
                tar.extractall(tmp, filter="data")
            except TypeError:  # Python before 3.10.12 has no extraction filters (the archive is apb's own)
                tar.extractall(tmp)
        (tmp / ".complete").write_text("")
        try:
            tmp.rename(target)
        except OSError:  # another process unpacked it first
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    return target


def planbench_dataset(source: str) -> Dataset:
    """`planbench:<config>` (or `<folder>/<config>`) as a Dataset: split `test` is the config's instances
    (start..end), split `generalized` its generalized instances where it has them; ids are `instance-N`."""
    name, folder = parse_source(source)
    config = load_config(name, folder)
    root = _files_root()
    entries = [ProblemEntry(f"instance-{i}", root / config.instance_rel(i), None, TEST_SPLIT)
               for i in config.instance_ids()]
    entries += [ProblemEntry(f"{GENERALIZED_SPLIT}/instance-{i}", root / config.instance_rel(i, True), None,
                             GENERALIZED_SPLIT) for i in config.instance_ids(generalized=True)]
    if not entries:
        raise DatasetError(f"PlanBench config {config.folder}/{name} has no instances", path=root)
    domain_path = root / config.folder / "instances" / config.data["domain_file"]
    return Dataset(dataset_name(name), "planbench", domain_path.parent, domain_path, _domain(str(domain_path)),
                   entries)


def dataset_name(config: str) -> str:
    """The name a config's episodes and report rows go by: `planbench-<config>`."""
    return f"planbench-{config}"


@cache
def _domain(path: str) -> Domain:
    return load_domain(Path(path))


def config_of(source: Any) -> PlanBenchConfig | None:
    """The config a `planbench:` source names, else None."""
    if isinstance(source, str) and source.lower().startswith(PREFIX):
        return load_config(*parse_source(source))
    return None

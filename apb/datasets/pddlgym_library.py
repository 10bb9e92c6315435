"""PDDLGym's domain library (`pddl/<name>.pddl`, problems in `pddl/<name>/` and `pddl/<name>_test/`), read
from an installed `pddlgym` package's data files or from a folder, without importing pddlgym.

PDDLGym's extra conventions are normalised into standard PDDL before our parser sees the text:
- an `(:actions p q ...)` declaration (PDDLGym reads it even from a `;` comment, where it usually is) names the
  action predicates; a real `(:actions ...)` section is removed;
- the action predicates' declarations, their literal in each operator's precondition and their facts in the
  problems' `:init` are removed (PDDLGym ignores those init facts too).
Removed text is overwritten with spaces, so parse errors keep the original file, line and column.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
import re
from collections.abc import Iterable
from pathlib import Path

from apb.datasets.dataset import Dataset, DatasetError, ProblemEntry, read_text
from apb.engine import PDDLSemanticError, UnsupportedFeatureError, parse_domain
from apb.engine.parser import SUPPORT_HINT
from apb.engine.sexpr import Atom, SList, Source, read

ROOT_ENV = "APB_PDDLGYM_ROOT"
SPLITS = {"train": "", "test": "_test"}  # split -> problem folder suffix
_COMMENTED_ACTIONS = re.compile(r";[^\n]*?\(\s*:actions\b([^()\n]*)\)", re.IGNORECASE)
_INSTALL_HINT = f"pip install pddlgym, pass root= (the folder with <name>.pddl files), or set ${ROOT_ENV}"


def pddlgym_root(root: str | Path | None = None) -> Path | None:
    """The folder of PDDLGym's domain files: `root`, else `$APB_PDDLGYM_ROOT`, else the installed package's
    `pddl/` (found with importlib's finder, so pddlgym is not imported); None when none exists.
    """
    if root is None:
        root = os.environ.get(ROOT_ENV) or None
    if root is None:
        try:
            spec = importlib.util.find_spec("pddlgym")
        except (ImportError, ValueError):
            spec = None
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        return next((Path(loc) / "pddl" for loc in locations if (Path(loc) / "pddl").is_dir()), None)
    path = Path(root).expanduser()
    if (path / "pddl").is_dir() and not any(path.glob("*.pddl")):  # the package folder rather than its pddl/
        path = path / "pddl"
    return path if path.is_dir() else None


def pddlgym_domains(root: str | Path | None = None) -> list[str]:
    """Names of the library's domains that have problems (`<name>.pddl` plus `<name>/` or `<name>_test/`)."""
    library = _library(root)
    return sorted(p.stem for p in library.glob("*.pddl") if _problem_files(library, p.stem))


def from_pddlgym(name: str, root: str | Path | None = None) -> Dataset:
    """Loads PDDLGym's domain `name` (e.g. "baking"): splits `train` and `test`, ids like `train/problem0`,
    problems in PDDLGym's order (sorted file names), so index i of a split is PDDLGym's problem i.
    """
    library = _library(root)
    key = name.strip().lower()
    domain_file = library / f"{key}.pddl"
    problems = _problem_files(library, key) if key and Path(key).name == key else []
    if not problems or not domain_file.is_file():
        available = pddlgym_domains(library)
        close = difflib.get_close_matches(key, available, n=3)
        reason = (f"PDDLGym's {key}.pddl has no problem folder {key}/ or {key}_test/" if domain_file.is_file()
                  else f"no PDDLGym domain {name!r}")
        raise DatasetError(reason, path=library,
                           hint=(f"did you mean {', '.join(close)}? " if close else "")
                           + f"available: {', '.join(available) or 'none'}")
    text = read_text(domain_file, "domain")
    actions = action_predicates(text, str(domain_file))
    domain = parse_domain(standard_domain(text, str(domain_file), actions), str(domain_file))
    entries = [ProblemEntry(f"{split}/{path.stem}", path, None, split) for split, path in problems]

    def problem_filter(problem_text: str, file_name: str) -> str:
        return standard_problem(problem_text, file_name, actions)

    return Dataset(key, "pddlgym", library, domain_file, domain, entries, {}, problem_filter)


def _library(root: str | Path | None) -> Path:
    library = pddlgym_root(root)
    if library is not None:
        return library
    if root is not None:
        raise DatasetError("no such folder (expected PDDLGym's pddl/ folder of <name>.pddl files)", path=root)
    if os.environ.get(ROOT_ENV):
        raise DatasetError(f"no such folder (set by ${ROOT_ENV})", path=os.environ[ROOT_ENV],
                           hint=f"point ${ROOT_ENV} at PDDLGym's pddl/ folder or unset it")
    raise DatasetError("PDDLGym's domain library was not found: pddlgym is not installed", hint=_INSTALL_HINT)


def _problem_files(library: Path, name: str) -> list[tuple[str, Path]]:
    files = []
    for split, suffix in SPLITS.items():
        folder = library / f"{name}{suffix}"
        if folder.is_dir():
            files.extend((split, path) for path in sorted(folder.glob("*.pddl")))
    return files


# ---- normalisation -----------------------------------------------------------------------------------------
def action_predicates(text: str, file_name: str | None = None) -> frozenset[str]:
    """The action predicates of a PDDLGym domain: names in its `(:actions ...)` declaration (a section or a
    `;` comment) that are declared predicates.
    """
    root = read(Source(text, file_name))
    names: list[str] = []
    for section in _sections(root, ":actions"):
        names.extend(str(item) for item in section.items[1:] if isinstance(item, Atom))
    if not names:
        for match in _COMMENTED_ACTIONS.finditer(text):
            names.extend(match.group(1).lower().split())
    declared = {str(p.head) for section in _sections(root, ":predicates") for p in section.items[1:]
                if isinstance(p, SList) and p.head is not None}
    return frozenset(names) & declared


def standard_domain(text: str, file_name: str | None, actions: frozenset[str]) -> str:
    """The domain text without the `(:actions ...)` section and the action predicates (same line numbers)."""
    source = Source(text, file_name)
    root = read(source)
    _refuse_probabilistic(source, root)
    spans: list[SList] = list(_sections(root, ":actions"))
    for section in _sections(root, ":predicates"):
        spans.extend(p for p in section.items[1:] if isinstance(p, SList) and p.head in actions)
    whole_preconditions: list[SList] = []
    for action in _sections(root, ":action"):
        items = action.items
        for i, item in enumerate(items[:-1]):
            if isinstance(item, Atom) and item == ":precondition" and isinstance(items[i + 1], SList):
                precondition = items[i + 1]
                if precondition.head in actions:
                    whole_preconditions.append(precondition)
                else:
                    spans.extend(_conjuncts(precondition, actions))
        removed = {id(node) for node in spans} | {id(node) for node in whole_preconditions}
        for node in _find(action, actions):
            if id(node) not in removed:
                raise source.error(PDDLSemanticError, f"PDDLGym action predicate {node.head!r} used outside the "
                                   "precondition's conjunction", node.offset,
                                   "an action predicate may only be a positive literal of the precondition")
    return _blank(text, spans, replacements=whole_preconditions)


def standard_problem(text: str, file_name: str | None, actions: frozenset[str]) -> str:
    """The problem text without the action facts in `:init` (same line numbers)."""
    if not actions:
        return text
    root = read(Source(text, file_name))
    spans = [fact for section in _sections(root, ":init") for fact in section.items[1:]
             if isinstance(fact, SList) and fact.head in actions]
    return _blank(text, spans)


def _sections(root: SList, head: str) -> Iterable[SList]:
    return (node for node in root.items if isinstance(node, SList) and node.head == head)


def _conjuncts(node: SList, actions: frozenset[str]) -> list[SList]:
    """The action literals among the conjuncts of `(and ...)` (nested ands included)."""
    found = []
    if node.head == "and":
        for item in node.items[1:]:
            if isinstance(item, SList):
                if item.head in actions:
                    found.append(item)
                else:
                    found.extend(_conjuncts(item, actions))
    return found


def _find(node: SList, names: frozenset[str]) -> Iterable[SList]:
    """Every list below `node` whose head is one of `names` (the `:action` name itself is an atom, not a list)."""
    for item in node.items:
        if isinstance(item, SList):
            if item.head in names:
                yield item
            yield from _find(item, names)


def _refuse_probabilistic(source: Source, root: SList) -> None:
    """PPDDL (some PDDLGym domains) gets the engine's UnsupportedFeatureError, not an unknown-requirement error."""
    for section in _sections(root, ":requirements"):
        for item in section.items[1:]:
            if item == ":probabilistic-effects":
                raise source.error(UnsupportedFeatureError, "unsupported PDDL feature: probabilistic effects "
                                   "(':probabilistic-effects')", item.offset, SUPPORT_HINT)
    for node in _find(root, frozenset({"probabilistic"})):
        raise source.error(UnsupportedFeatureError, "unsupported PDDL feature: probabilistic effects "
                           "('probabilistic')", node.offset, SUPPORT_HINT)


def _blank(text: str, spans: Iterable[SList], replacements: Iterable[SList] = ()) -> str:
    """Overwrites each list with spaces (newlines kept); each of `replacements` becomes an empty `()`."""
    chars = list(text)
    for node, keep in [(n, "") for n in spans] + [(n, "()") for n in replacements]:
        for i in range(node.offset, node.end + 1):
            if chars[i] != "\n":
                chars[i] = " "
        for j, char in enumerate(keep):
            chars[node.offset + j] = char
    return "".join(chars)

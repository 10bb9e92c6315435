"""Imports Planetarium's released rows (the Hugging Face dataset the user downloaded: JSON, JSON lines or parquet,
or the SQLite database its dataset_generator.py writes: tables problems and splits) into apb's pair format, so the
official test set runs through `apb nl2pddl eval`.

Planetarium's rows already have apb's field names (`natural_language`, `problem_pddl`, `init`, `goal`,
`init_is_abstract`, `goal_is_abstract`, `is_placeholder`, `num_objects`, `domain`, ...); the importer checks them,
keeps every field, and points each row at the shipped domain file of its `domain`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_DATA_BYTES, file_problem, read_input, read_jsonl
from apb.nl2pddl.build import PAIRS_FILE, write_rows
from apb.nl2pddl.registry import domain_name_of, domain_path, is_domain_key

REQUIRED = ("natural_language", "problem_pddl", "domain")
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


class PairsFormatError(ApbError):
    """A rows file that cannot be read as NL->PDDL pairs."""


def read_rows(path: str | Path) -> list[dict]:
    """Rows of a .json (a list, or {"rows": [...]}), .jsonl or .parquet file (parquet needs pyarrow), or of the
    SQLite database (.db, .sqlite) Planetarium's dataset generator writes."""
    return [row for _, row in _placed_rows(Path(path))]


def _placed_rows(path: Path) -> list[tuple[str, dict]]:
    """The rows with their places: `FILE:LINE` in a JSON lines file, `FILE: row N` elsewhere."""
    if path.suffix.lower() not in (".json", ".parquet", *SQLITE_SUFFIXES) and file_problem(path) is None:
        return [(f"{path}:{number}", row) for number, row in read_jsonl(path, "pairs file", error=PairsFormatError)]
    return [(f"{path}: row {number}", row) for number, row in enumerate(_rows(path), 1)]


def _rows(path: Path) -> list[dict]:
    if (reason := file_problem(path, "pairs file")) is not None:  # missing, a folder, a FIFO, a device
        raise PairsFormatError(f"{path}: {reason} (give a .json, .jsonl or .parquet file of rows)")
    suffix = path.suffix.lower()
    if suffix in SQLITE_SUFFIXES:
        return _sqlite_rows(path)
    if suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise PairsFormatError(f"{path}: reading parquet needs pyarrow: pip install pyarrow, or convert the "
                                   "file to JSON lines") from None
        return pq.read_table(path).to_pylist()
    text = read_input(path, "pairs file", limit=MAX_DATA_BYTES)
    try:  # .json (JSON lines are read by _placed_rows)
        data = json.loads(text)
        data = data.get("rows", data) if isinstance(data, dict) else data
    except json.JSONDecodeError as err:
        raise PairsFormatError(f"{path}:{err.lineno}: invalid JSON: {err.msg}") from None
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise PairsFormatError(f"{path}: expected a list of objects (one per pair)")
    return data


def _sqlite_rows(path: Path) -> list[dict]:
    """The `problems` table of the SQLite database Planetarium's dataset generator writes, each row with its splits
    (`splits` table: split type -> split) when the database has them."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise PairsFormatError(f"{path}: cannot open the database: {err}") from None
    try:
        connection.row_factory = sqlite3.Row
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "problems" not in tables:
            raise PairsFormatError(f"{path}: no problems table: expected the database Planetarium's "
                                   "dataset_generator.py writes")
        rows = [dict(r) for r in connection.execute("SELECT * FROM problems ORDER BY id")]
        if "splits" in tables:
            splits: dict = {}
            for r in connection.execute("SELECT problem_id, split_type, split FROM splits"):
                splits.setdefault(r[0], {})[r[1]] = r[2]
            for row in rows:
                row["splits"] = splits.get(row["id"], {})
        return rows
    except sqlite3.Error as err:
        raise PairsFormatError(f"{path}: not Planetarium's database: {err}") from None
    finally:
        connection.close()


def normalise(rows: list[dict], origin: str, *, base: Path | None = None,
              places: list[str] | None = None) -> list[dict]:
    """Rows with every required field, an `id`, boolean flags and a shipped domain; PairsFormatError otherwise,
    naming the row (`places`: each row's FILE:LINE) and the field. With `base` (the folder of the pairs file) each
    row is checked whole before any work: its domain_file inside that folder, its gold problem parsed."""
    out = []
    domains: dict[Path, object] = {}  # the parsed domain of each domain file, for the golds
    for number, row in enumerate(rows, 1):
        where = places[number - 1] if places else f"{origin}: row {number}"
        missing = [name for name in REQUIRED if not row.get(name)]
        if missing:
            raise PairsFormatError(f"{where}: no {', '.join(missing)}")
        for name in ("natural_language", "problem_pddl", "domain"):
            if not isinstance(row[name], str):
                raise PairsFormatError(f"{where}: field {name!r} is {str(row[name])[:40]!r}, not text")
        domain = str(row["domain"])
        if not row.get("domain_file") and not is_domain_key(domain):
            raise PairsFormatError(f"{where}: domain {domain!r} is not a shipped benchmark domain "
                                   "and the row has no domain_file")
        if base is not None:
            check_gold(row, base, where, domains)
        row = dict(row)
        row["id"] = str(row.get("id", number))
        for flag in ("init_is_abstract", "goal_is_abstract", "is_placeholder"):
            row[flag] = bool(row.get(flag, False))
        out.append(row)
    return out


def read_pairs(path: str | Path) -> list[dict]:
    """The rows of a pairs file (or Planetarium's rows), each checked before any work (`normalise` with the file's
    folder as base); PairsFormatError for a file that holds none."""
    path = Path(path)
    placed = _placed_rows(path)
    rows = normalise([row for _, row in placed], str(path), base=path.resolve().parent,
                     places=[place for place, _ in placed])
    if not rows:
        raise PairsFormatError(f"{path}: the file holds no pairs; write some with apb nl2pddl build or apb nl2pddl "
                               "import (nothing was run)")
    return rows


def domain_file_for(row: dict, base: Path, where: str = "") -> Path:
    """The row's domain file: its domain_file (relative to the pairs file's folder, and inside it) or the shipped
    domain it names."""
    if row.get("domain_file"):
        name = row["domain_file"]
        path = (base / str(name)).resolve()
        if not isinstance(name, str) or not path.is_relative_to(base.resolve()):
            raise PairsFormatError(f"{where or 'a pair'}: field 'domain_file' is {str(name)[:60]!r}, outside the "
                                   f"pairs' folder {base}; a domain file is named relative to it, inside it")
        return path
    key = row["domain"] if is_domain_key(row["domain"]) else domain_name_of(row["problem_pddl"]) or row["domain"]
    return domain_path(key)


def check_gold(row: dict, base: Path, where: str, domains: dict) -> None:
    """PairsFormatError unless the row's gold problem parses against its domain (a gold only Planetarium's lenient
    parser reads is kept: it is scored as such); `domains` caches the parsed domain files."""
    from apb.engine import load_domain
    from apb.nl2pddl.evaluate import LENIENT_ERRORS, parse_problem_text

    path = domain_file_for(row, base, where)
    try:
        domain = domains.get(path) or domains.setdefault(path, load_domain(path))
    except ApbError as error:
        raise PairsFormatError(f"{where}: the pair's domain file does not load: {error}") from None
    try:
        parse_problem_text(row["problem_pddl"], domain, where)
    except ApbError as error:
        if not any(sign in str(error) for sign in LENIENT_ERRORS):
            raise PairsFormatError(f"{where}: field 'problem_pddl' (the gold) does not parse: {error}") from None


def import_planetarium(path: str | Path, out: str | Path, *, limit: int | None = None) -> list[dict]:
    """Converts Planetarium's rows file into DIR/pairs.jsonl (every row checked first); returns the rows."""
    rows = read_pairs(path)[:limit]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_rows(rows, out / PAIRS_FILE)
    return rows

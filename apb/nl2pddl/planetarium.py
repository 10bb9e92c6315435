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
from apb.engine.input_files import MAX_DATA_BYTES, file_problem, read_input
from apb.nl2pddl.build import PAIRS_FILE, write_rows
from apb.nl2pddl.registry import is_domain_key

REQUIRED = ("natural_language", "problem_pddl", "domain")
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


class PairsFormatError(ApbError):
    """A rows file that cannot be read as NL->PDDL pairs."""


def read_rows(path: str | Path) -> list[dict]:
    """Rows of a .json (a list, or {"rows": [...]}), .jsonl or .parquet file (parquet needs pyarrow), or of the
    SQLite database (.db, .sqlite) Planetarium's dataset generator writes."""
    path = Path(path)
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
    try:
        if suffix == ".json":
            data = json.loads(text)
            data = data.get("rows", data) if isinstance(data, dict) else data
        else:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
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


def normalise(rows: list[dict], origin: str) -> list[dict]:
    """Rows with every required field, an `id`, boolean flags and a shipped domain; PairsFormatError otherwise."""
    out = []
    for number, row in enumerate(rows, 1):
        missing = [name for name in REQUIRED if not row.get(name)]
        if missing:
            raise PairsFormatError(f"{origin}: row {number} has no {', '.join(missing)}")
        domain = str(row["domain"])
        if not row.get("domain_file") and not is_domain_key(domain):
            raise PairsFormatError(f"{origin}: row {number}: domain {domain!r} is not a shipped benchmark domain "
                                   "and the row has no domain_file")
        row = dict(row)
        row["id"] = str(row.get("id", number))
        for flag in ("init_is_abstract", "goal_is_abstract", "is_placeholder"):
            row[flag] = bool(row.get(flag, False))
        out.append(row)
    return out


def import_planetarium(path: str | Path, out: str | Path, *, limit: int | None = None) -> list[dict]:
    """Converts Planetarium's rows file into DIR/pairs.jsonl; returns the rows."""
    rows = normalise(read_rows(path), str(path))[:limit]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_rows(rows, out / PAIRS_FILE)
    return rows

"""`apb planbench score`'s files: a released responses or results file (JSON, or gzipped JSON) in, the same file
with every record's verdicts out (apb.planbench.verdicts), and the counts it prints."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from apb.engine.errors import InputFileError
from apb.planbench.verdicts import DEFAULT_KEYS, Keys, score_records, task_kind


def read_released(path: str | Path) -> dict:
    """A PlanBench responses/results file: `{"instances": [...], ...}` (a bare list is taken as the instances)."""
    path = Path(path)
    try:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise InputFileError(f"{path}: file not found; check the path") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a folder, expected a PlanBench responses or results file") from None
    except (OSError, EOFError, gzip.BadGzipFile) as err:
        raise InputFileError(f"{path}: cannot read it: {err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputFileError(f"{path}: not JSON ({err}); give a PlanBench responses or results file") from None
    if isinstance(data, list):
        data = {"instances": data}
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise InputFileError(f"{path}: no 'instances' list; give a PlanBench responses or results file")
    return data


def write_released(data: dict, path: str | Path) -> None:
    """Writes the file as PlanBench does (JSON, indent 4), gzipped when the name ends in .gz."""
    path = Path(path)
    text = json.dumps(data, indent=4)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".gz":
            path.write_bytes(gzip.compress(text.encode("utf-8")))
        else:
            path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise InputFileError(f"{path}: cannot write it: {err.strerror or err}") from None


def score_file(data: dict, config, task: str, *, keys: Keys = DEFAULT_KEYS, reading_flag: str = "auto") -> dict:
    """The file with every record scored (all other keys kept)."""
    return {**data, "instances": score_records(config, task, data["instances"], keys=keys, reading_flag=reading_flag)}


def tally(records: list, task: str) -> dict:
    """Counts: records, responses scored, PlanBench's correct ones (t3: binary, with type, with explanation), apb's."""
    scored = [r for r in records if isinstance(r, dict) and "apb_correct" in r]
    counts = {"records": len(records), "scored": len(scored),
              "apb_correct": sum(bool(r["apb_correct"]) for r in scored)}
    if task_kind(task) == "verification":
        for key in ("llm_correct_binary", "llm_correct_w_type", "llm_correct_w_expl"):
            counts[key] = sum(bool(r.get(key)) for r in scored)
    else:
        counts["llm_correct"] = sum(bool(r.get("llm_correct")) for r in scored)
    return counts

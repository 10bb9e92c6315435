"""ACP question and result files, read and written: apb JSONL (every field, PDDL, state and proofs), ACPBench's
JSON layout (`<task>/test.<fmt>.json`; the release's own files are read by `apb.acp.importer`), and append-only
JSONL result files that survive interruption."""

from __future__ import annotations

import json
from pathlib import Path

from apb.acp.errors import ACPError
from apb.acp.importer import import_file, released_files
from apb.acp.record_check import check_question
from apb.acp.records import Question
from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_DATA_BYTES, file_problem, read_input, read_jsonl

QUESTIONS_FILE = "questions.jsonl"
ACPBENCH_DIR = "acpbench"


def write_questions(questions: list[Question], out: str | Path, *, split: str = "test") -> list[Path]:
    """Writes `OUT/questions.jsonl` (apb) and `OUT/acpbench/<task>/<split>.<fmt>.json` (ACPBench's format)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / QUESTIONS_FILE]
    with open(written[0], "w", encoding="utf-8") as handle:
        for q in questions:
            handle.write(json.dumps(q.to_dict()) + "\n")
    groups: dict[tuple[str, str], list[dict]] = {}
    for q in questions:
        groups.setdefault((q.task, q.format), []).append(q.acpbench())
    for (task, fmt), records in sorted(groups.items()):
        path = out / ACPBENCH_DIR / task / f"{split}.{fmt}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


def read_questions(source: str | Path, *, scored_by: str | None = None) -> list[Question]:
    """Questions from apb JSONL, an ACPBench JSON(.gz) file, or a folder holding either. Every record is checked
    before any work (`apb.acp.record_check`: one line naming the record and the field); `scored_by` (the command
    that scores against the gold) refuses a record without gold."""
    path = Path(source).expanduser()
    if path.is_dir():
        if (path / QUESTIONS_FILE).is_file():
            return read_questions(path / QUESTIONS_FILE, scored_by=scored_by)
        files = released_files(path)
        if not files:
            raise ACPError(f"{path}: no questions here: expected {QUESTIONS_FILE} (apb acp generate) or ACPBench's "
                           "<task>/{dev,test}.{bool,mcq,gen}.json[.gz] files")
        return [q for f in files for q in import_file(f, gold_needed=scored_by)]
    if not path.exists():
        raise ACPError(f"{path}: no such file or folder")
    if (reason := file_problem(path, "questions file")) is not None:  # a FIFO, a device: never read
        raise ACPError(f"{path}: {reason}")
    if path.suffix == ".jsonl":
        questions = []
        for number, record in read_jsonl(path, "questions file", error=ACPError):
            if "task" not in record or "format" not in record or "id" not in record:
                raise ACPError(f"{path}:{number}: not an apb ACP question (no id/task/format); ACPBench's files are "
                               "JSON arrays (.json or .json.gz)")
            question = Question.from_dict({**record, "held_out": bool(record.get("held_out"))
                                           or "answer" not in record})
            questions.append(check_question(question, f"{path}:{number}", gold_needed=scored_by))
        return questions
    return import_file(path, gold_needed=scored_by)


def read_results(path: Path) -> list[dict]:
    """The records of a results file, skipping a last line cut short by an interruption."""
    if not path.is_file():
        return []
    records = []
    try:
        lines = read_input(path, "results file", limit=MAX_DATA_BYTES).splitlines()
    except ApbError as err:
        raise ACPError(str(err)) from None
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                continue  # the line being written when the run stopped
            raise ACPError(f"{path}:{number}: damaged results line; remove it and rerun with --resume") from None
        if not isinstance(record, dict) or "id" not in record:
            raise ACPError(f"{path}:{number}: not a result of apb acp eval (a JSON object with an id); pass the "
                           "results.jsonl an apb acp eval wrote")
        records.append(record)
    return records

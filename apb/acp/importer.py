"""Reads ACPBench's released files: `<task>/{dev,test}.{bool,mcq,gen}.json[.gz]`, each a JSON array of records.

Bool records: id, group, context, question, answer (yes/no). MCQ records add choices {text, label} and query,
with a letter as the answer. Generative records add PDDL_domain and PDDL_problem (whose :init is the question's
state). The task and format come from the record's group, else from the folder and file name. A held-out split
has no `answer`: its questions are read without gold (`Question.held_out`); the commands that score refuse them
through `require_gold`, answering (`apb acp answer --agent solver`) does not need it.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from apb.acp.errors import ACPError
from apb.acp.record_check import check_question
from apb.acp.records import FORMATS, GROUP_ALIASES, GROUPS, TASKS, Question, parse_group

REQUIRED = ("id", "group", "context", "question")
_DOMAIN = re.compile(r"\(\s*domain\s+([^\s()]+)", re.IGNORECASE)
_CONTEXT_DOMAIN = re.compile(r"This is an? ([\w\-]+) domain", re.IGNORECASE)


def _error(message: str) -> ACPError:
    return ACPError(message)


def read_json_array(path: Path) -> list:
    """The JSON array of a .json or .json.gz file; ACPError naming the file when it is not one."""
    try:
        raw = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise _error(f"{path}: no such file") from None
    except UnicodeDecodeError as err:
        raise _error(f"{path}: not UTF-8 text (byte offset {err.start}); re-save it as UTF-8") from None
    except (OSError, gzip.BadGzipFile, EOFError) as err:
        raise _error(f"{path}: cannot read the file: {err}") from None
    except json.JSONDecodeError as err:
        raise _error(f"{path}:{err.lineno}: not ACPBench's format: invalid JSON ({err.msg}); expected a JSON array "
                     "of question records") from None
    if not isinstance(data, list):
        raise _error(f"{path}: not ACPBench's format: expected a JSON array of question records, got a "
                     f"{type(data).__name__}")
    return data


def _from_name(path: Path) -> tuple[str | None, str | None]:
    """(task, format) from `<task>/<split>.<fmt>.json[.gz]`."""
    parts = path.name.split(".")
    fmt = parts[1] if len(parts) >= 3 else None
    fmt = {"mc": "mcq"}.get(fmt, fmt)
    folder = path.parent.name.lower()
    task = folder if folder in TASKS else GROUP_ALIASES.get(folder)
    if task is None:
        task = next((t for t, name in GROUPS.items() if name == folder), None)
    return task, fmt if fmt in FORMATS else None


def import_file(path: str | Path, *, gold_needed: str | None = None) -> list[Question]:
    """The questions of one released file (ACPError naming the file and record when one is malformed; every record
    checked by `apb.acp.record_check`, `gold_needed` as there)."""
    path = Path(path)
    records = read_json_array(path)
    name_task, name_fmt = _from_name(path)
    questions = []
    for i, record in enumerate(records):
        where = f"{path}: record {i}"
        if not isinstance(record, dict):
            raise _error(f"{where}: not ACPBench's format: expected an object with {', '.join(REQUIRED)}")
        missing = [key for key in REQUIRED if key not in record]
        if missing:
            raise _error(f"{where}: not ACPBench's format: missing {', '.join(missing)}")
        parsed = parse_group(record["group"]) or ((name_task, name_fmt) if name_task and name_fmt else None)
        if parsed is None:
            raise _error(f"{where}: unknown group {record['group']!r}: expected e.g. applicable_actions_bool, "
                         "progression_mc or landmarks_gen")
        task, fmt = parsed
        if fmt == "mcq" and not isinstance(record.get("choices"), dict):
            raise _error(f"{where}: an MCQ record needs choices {{text, label}}")
        domain_pddl = str(record.get("PDDL_domain") or "")
        match = _DOMAIN.search(domain_pddl) or _CONTEXT_DOMAIN.search(str(record["context"]))
        questions.append(check_question(Question(
            id=record["id"], task=task, format=fmt, domain=match.group(1).lower() if match else "",
            answer=record.get("answer"), held_out="answer" not in record, domain_pddl=domain_pddl,
            problem_pddl=str(record.get("PDDL_problem") or ""),
            view="acpbench", context=str(record["context"]), question=str(record["question"]),
            choices=record.get("choices"), query=record.get("query"), source="acpbench", origin=str(path)),
            where, gold_needed=gold_needed))
    return questions


def require_gold(questions: list[Question], source: str | Path, command: str) -> None:
    """ACPError (one line) when a question carries no gold answer: `command` scores against the gold."""
    missing = [q for q in questions if q.held_out]
    if missing:
        raise _error(f"{source}: {len(missing)} of {len(questions)} question(s) carry no gold answer (e.g. id "
                     f"{missing[0].id}); {command} scores answers against the gold: give it a file whose records "
                     "have `answer` (`apb acp answer FILE --agent solver` answers a file without gold)")


def released_files(root: str | Path) -> list[Path]:
    """Every `<task>/{dev,test}.{bool,mcq,gen}.json[.gz]` under a folder, sorted."""
    root = Path(root)
    found = [p for p in root.rglob("*") if p.is_file() and re.fullmatch(r"(dev|test|train)\.(bool|mcq|mc|gen)"
                                                                          r"\.json(\.gz)?", p.name)]
    return sorted(found)

"""`apb nl2pddl report DIR`: parseable / solvable / correct rates of a run, overall, per domain, abstract vs explicit
descriptions and by object count, next to Planetarium's published headline figures. Writes DIR/summary.json and
DIR/report.md."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import yaml

from apb.eval.items import latest_by_id
from apb.eval.rundir import record_derived
from apb.nl2pddl.planetarium import PairsFormatError
from apb.nl2pddl.runner import RESULTS_FILE

FIGURES = Path(__file__).parent / "planetarium_figures.yaml"
METRICS = ("parseable", "solvable", "correct")
OBJECT_BINS = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 10**9))


def read_results(folder: str | Path) -> list[dict]:
    """The result records of a run folder (DIR/results.jsonl), one per pair: the latest record of a pair wins (an
    error retried by --resume counts once)."""
    path = Path(folder) / RESULTS_FILE
    if not path.is_file():
        raise PairsFormatError(f"{path}: no results here (run `apb nl2pddl eval PAIRS --out {folder}` first)")
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                raise PairsFormatError(f"{path}:{number}: a damaged result line") from None
    return list(latest_by_id(records).values())


def _rates(records: list[dict]) -> dict:
    """Rates over the scored pairs; pairs that ended in an error (an LLM call that failed) are counted apart."""
    scored = [r for r in records if not r.get("error")]
    n = len(scored)
    row = {"pairs": n, "errors": len(records) - n}
    for metric in METRICS:
        row[metric] = round(100.0 * sum(bool(r.get(metric)) for r in scored) / n, 1) if n else None
    row["llm_errors"] = sum(bool(r.get("llm_error")) for r in records)
    for key in ("input_tokens", "output_tokens"):
        row[key] = sum(r.get(key) or 0 for r in records)
    row["cost_usd"] = round(sum(r.get("cost_usd") or 0.0 for r in records), 6)
    return row


def _objects_bin(count) -> str:
    if not isinstance(count, int):
        return "unknown"
    for low, high in OBJECT_BINS:
        if low <= count <= high:
            return f"{low}-{high}" if high < 10**9 else f"{low}+"
    return "0"


def _abstraction(record: dict) -> str:
    init = "abstract" if record.get("init_is_abstract") else "explicit"
    goal = "abstract" if record.get("goal_is_abstract") else "explicit"
    return f"init {init}, goal {goal}"


def summarize(records: list[dict]) -> dict:
    """Rates overall and grouped by domain, abstraction and object count; Planetarium's figures alongside."""
    groups: dict[str, dict[str, list]] = {"domain": defaultdict(list), "abstraction": defaultdict(list),
                                          "objects": defaultdict(list)}
    for record in records:
        groups["domain"][str(record.get("domain"))].append(record)
        groups["abstraction"][_abstraction(record)].append(record)
        groups["objects"][_objects_bin(record.get("num_objects"))].append(record)
    return {"overall": _rates(records),
            **{name: {key: _rates(rows) for key, rows in sorted(group.items())} for name, group in groups.items()},
            "planetarium": yaml.safe_load(FIGURES.read_text(encoding="utf-8"))}


def _table(title: str, rows: dict[str, dict]) -> list[str]:
    lines = [f"## {title}", "", "| | pairs | parseable % | solvable % | correct % | errors |",
             "|---|---:|---:|---:|---:|---:|"]
    for key, row in rows.items():
        cells = [str(row[m]) if row[m] is not None else "-" for m in METRICS]
        lines.append(f"| {key} | {row['pairs']} | " + " | ".join(cells) + f" | {row.get('errors', '-')} |")
    return [*lines, ""]


def markdown(summary: dict) -> str:
    """The report as Markdown."""
    lines = ["# NL->PDDL results", ""]
    lines += _table("Overall", {"this run": summary["overall"]})
    lines += _table("By domain", summary["domain"])
    lines += _table("Abstract vs explicit descriptions", summary["abstraction"])
    lines += _table("By number of objects", summary["objects"])
    if summary["overall"].get("errors"):
        lines += [f"{summary['overall']['errors']} pair(s) ended in an error (an LLM call that failed) and are not "
                  "scored; rerun `apb nl2pddl eval` with --resume to ask them again.", ""]
    figures = summary["planetarium"]
    published = {row["model"]: {"pairs": "-", **{m: row.get(m) for m in METRICS}} for row in figures["rows"]}
    lines += _table(f"Planetarium's published figures ({figures['source']})", published)
    return "\n".join(lines)


def write_report(folder: str | Path) -> dict:
    """Writes DIR/summary.json and DIR/report.md from DIR/results.jsonl; returns the summary."""
    folder = Path(folder)
    summary = summarize(read_results(folder))
    (folder / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    (folder / "report.md").write_text(markdown(summary), encoding="utf-8")
    record_derived(folder, [folder / "summary.json", folder / "report.md"])  # --overwrite removes them with the run
    return summary

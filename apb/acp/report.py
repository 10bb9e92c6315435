"""`apb acp report`: accuracy per task x format x domain (official and sound scorer, with standard errors) from the
results of `apb acp eval`, next to the ACPBench papers' published figures where they apply."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import yaml

from apb.acp.errors import ACPError
from apb.acp.evaluate import RESULTS_FILE
from apb.acp.question_files import read_results
from apb.acp.records import FORMATS, TASKS
from apb.eval.items import latest_by_id
from apb.eval.rundir import record_derived

SUMMARY_FILE = "acp_summary.json"
REPORT_FILE = "acp_report.md"


@cache
def paper_figures() -> dict:
    """The published figures shown next to ours (apb/acp/paper_figures.yaml)."""
    return yaml.safe_load((Path(__file__).with_name("paper_figures.yaml")).read_text(encoding="utf-8"))


def _cell(rows: list[dict]) -> dict:
    """Accuracies over the answered questions; questions whose LLM call failed are counted as `errors`, not as
    wrong answers (`apb acp eval --resume` asks them again). With no answered question the accuracies are None (no
    figure: the row is an error, never 0%)."""
    answered = [r for r in rows if not r.get("error")]
    n = len(answered)
    out = {"n": n, "errors": len(rows) - n}
    for scorer in ("official", "sound"):
        correct = sum(1 for r in answered if r.get(scorer))
        p = correct / n if n else None
        out[scorer] = round(p, 4) if n else None
        out[f"{scorer}_se"] = round(math.sqrt(p * (1 - p) / n), 4) if n else None
    out["extracted"] = round(sum(1 for r in answered if r.get("extracted")) / n, 4) if n else None
    out["cost_usd"] = round(sum(r.get("cost") or 0.0 for r in rows), 6)
    return out


def summarize(folders: list[str | Path]) -> dict:
    """Rows per (task, format, domain) and per (task, format) over every results file of the folders."""
    results = []
    for folder in folders:
        path = Path(folder)
        path = path / RESULTS_FILE if path.is_dir() else path
        if not path.is_file():
            raise ACPError(f"{path}: no results here: run apb acp eval QUESTIONS --llm SPEC --out DIR first")
        # a question asked again (an error retried) counts once: its last answer
        results.extend(latest_by_id(read_results(path)).values())
    if not results:
        raise ACPError("the results files are empty")
    order = {t: i for i, t in enumerate(TASKS)}
    forder = {f: i for i, f in enumerate(FORMATS)}
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        groups.setdefault((r.get("task"), r.get("format"), r.get("domain") or "?"), []).append(r)
        groups.setdefault((r.get("task"), r.get("format"), "all"), []).append(r)
    rows = []
    for (task, fmt, domain), members in sorted(groups.items(), key=lambda kv: (
            order.get(kv[0][0], 99), forder.get(kv[0][1], 9), kv[0][2] != "all", kv[0][2])):
        rows.append({"task": task, "format": fmt, "domain": domain, **_cell(members)})
    paper = paper_figures()
    notes = {fmt: entry for entry in paper.values() for fmt in entry["formats"]}
    return {"questions": len(results), "overall": _cell(results), "rows": rows,
            "paper": {fmt: {"source": e["source"], "notes": e["notes"]} for fmt, e in notes.items()}}


def markdown(summary: dict) -> str:
    """The summary as a markdown table, with the papers' figures below it."""
    lines = ["| task | format | domain | n | official | sound | extracted | errors |",
             "|---|---|---|---|---|---|---|---|"]
    for row in summary["rows"]:
        if not row["n"]:  # every question of the row errored: no accuracy to show
            lines.append(f"| {row['task']} | {row['format']} | {row['domain']} | 0 | error | error | - | "
                         f"{row['errors']} |")
            continue
        lines.append(f"| {row['task']} | {row['format']} | {row['domain']} | {row['n']} | "
                     f"{row['official']:.1%} ± {row['official_se']:.1%} | {row['sound']:.1%} ± {row['sound_se']:.1%} "
                     f"| {row['extracted']:.0%} | {row['errors']} |")
    overall = summary["overall"]
    errors = (f" {overall['errors']} question(s) ended in an LLM error and are not scored (rerun apb acp eval with "
              "--resume to ask them again).") if overall["errors"] else ""
    scores = (f"official {overall['official']:.1%}, sound {overall['sound']:.1%}" if overall["n"]
              else "no accuracy (every question ended in an error)")
    lines += ["", f"Overall: {summary['questions']} questions, {overall['n']} answered, {scores}, "
              f"cost ${overall['cost_usd']:.4f}.{errors}",
              "", "Published figures:"]
    for fmt, entry in summary["paper"].items():
        lines.append(f"- {fmt}: {entry['source']}; " + "; ".join(entry["notes"]))
    return "\n".join(lines) + "\n"


def write_report(folders: list[str | Path], out: str | Path | None = None) -> tuple[dict, list[Path]]:
    """Writes acp_summary.json and acp_report.md into `out` (default: the first folder)."""
    summary = summarize(folders)
    target = Path(out or folders[0])
    if target.is_file():
        target = target.parent
    target.mkdir(parents=True, exist_ok=True)
    paths = [target / SUMMARY_FILE, target / REPORT_FILE]
    paths[0].write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(summary), encoding="utf-8")
    record_derived(target, paths)  # the run's --overwrite removes them with it
    return summary, paths

"""Reports of evaluation runs: summary.json / summary.csv, report.md and one self-contained report.html.

The coverage table follows the layout of AutoPlanBench's Table 2 (solved problems per domain x agent, mean over
seeds ± standard error) and says how many of the split's problems each domain ran ("3 of 20 problems"). The paper's
figures stand alongside only where the run covered the paper's 20 test problems (split test): a count out of 3 is
not set beside a count out of 20, nor scaled to it (the paper's problems are not equally hard).
No `None` or empty field reaches a reader: missing values are "n/a", "–" or "not run"; no model is "no LLM".
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from apb.eval.metrics import Episode, load_run, solved_by_plan_length, summarize, unfinished_episodes
from apb.eval.report.html_page import render_html
from apb.eval.report.plots import Series, length_axis, length_note, plot_png, plot_text_rows
from apb.eval.report.study_table import study_tables
from apb.eval.report.tables import (
    CONTRACT_KEYS,
    NO_MODEL,
    CoverageTable,
    agent_label,
    cost_rows,
    coverage_caption,
    coverage_matrix,
    coverage_tables,
    coverage_title,
    domain_label,
    metric_rows,
)
from apb.eval.run_kinds import ReportSection, split_dirs
from apb.eval.rundir import record_derived

__all__ = ["CONTRACT_KEYS", "agent_label", "coverage_matrix", "coverage_tables", "domain_label", "read_runs",
           "render_markdown", "write_csv", "write_report"]


# ---- summary files --------------------------------------------------------------------------------------------
def _csv_value(key: str, value: Any) -> Any:
    """A CSV cell: "n/a" for an unknown value (pandas reads it as NaN), "no LLM" for a run without a model."""
    if key == "model" and not value:
        return NO_MODEL
    if isinstance(value, dict):
        return ";".join(f"{k}={v}" for k, v in value.items()) or "none"
    return "n/a" if value is None or value == "" else value


def write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    """summary.csv: the summary.json rows, one line each (dicts as `key=value;...`)."""
    keys = list(rows[0]) if rows else list(CONTRACT_KEYS)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(keys)
        for row in rows:
            writer.writerow([_csv_value(k, row[k]) for k in keys])


def md_table(header: list[str], rows: list[list[str]]) -> str:
    def clean(cell: str) -> str:
        return str(cell).replace("|", "\\|").replace("\n", " ") or "–"

    lines = ["| " + " | ".join(clean(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(clean(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(rows: list[dict[str, Any]], tables: list[CoverageTable], series: Series, unfinished: int,
                    plot_file: str | None, note: str | None = None, x_label: str = "optimal plan length") -> str:
    """report.md: coverage tables with their captions, metrics, cost and the plot's data."""
    out = ["# apb evaluation report", "",
           f"{sum(r['episodes'] for r in rows)} finished episodes, {unfinished} unfinished.", ""]
    for table in tables:
        out += [f"## {coverage_title(table)}", "", coverage_caption(table), "", md_table(*coverage_matrix(table)), ""]
    out += ["## Acc, Acc0, LF", "", md_table(*metric_rows(rows)), "", "## Cost", "", md_table(*cost_rows(rows)), "",
            f"## Solved by {x_label}", ""]
    if plot_file:
        out += [f"![solved by {x_label}]({plot_file})", ""]
    out += [md_table(["agent", x_label, "solved"], plot_text_rows(series)), ""]
    if note:
        out += [note, ""]
    return "\n".join(out)


def read_runs(dirs: list[Path]) -> tuple[list[Path], list[Episode], list[ReportSection]]:
    """(the folders of episodes, their finished episodes, a section per registered run kind among the other folders:
    apb.eval.run_kinds, e.g. PlanBench's prompt runs)."""
    episode_dirs, sections = split_dirs([Path(d) for d in dirs])
    episodes = load_run(episode_dirs) if episode_dirs or not sections else []
    return episode_dirs, episodes, sections


def write_report(dirs: list[Path], out_dir: Path | None = None, *,
                 runs: tuple[list[Path], list[Episode], list[ReportSection]] | None = None) -> dict[str, Path]:
    """Write summary.json, summary.csv, report.md, report.html (and plot.png with matplotlib) into `out_dir`
    (default: the first run folder); returns the paths written by name. `runs`: what `read_runs(dirs)` returned."""
    dirs = [Path(d) for d in dirs]
    episode_dirs, episodes, sections = runs if runs is not None else read_runs(dirs)
    unfinished = unfinished_episodes(episode_dirs, episodes) if episode_dirs else []
    rows = summarize(episodes)
    tables = coverage_tables(rows, episodes)
    series = solved_by_plan_length(episodes)
    out = Path(out_dir) if out_dir is not None else dirs[0]
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: out / name for name in ("summary.json", "summary.csv", "report.md", "report.html")}
    summary = {"episodes": len(episodes), "unfinished": len(unfinished), "runs": [str(d) for d in dirs],
               "rows": rows, **{section.key: section.rows for section in sections}}
    paths["summary.json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_csv(rows, paths["summary.csv"])
    x_label = length_axis(episodes)
    png = plot_png(series, x_label) if series else None
    if png is not None:
        paths["plot.png"] = out / "plot.png"
        paths["plot.png"].write_bytes(png)
    if episodes or not sections:
        markdown = render_markdown(rows, tables, series, len(unfinished), "plot.png" if png else None,
                                   length_note(episodes), x_label)
    else:  # only runs of other kinds (PlanBench's): their sections
        markdown = "# apb evaluation report\n"
    markdown += "".join("\n" + table.markdown() for table in study_tables(episodes))  # closed-loop study runs
    markdown += "".join("\n" + section.markdown for section in sections)  # PlanBench runs, ...
    paths["report.md"].write_text(markdown, encoding="utf-8")
    paths["report.html"].write_text(render_html(rows, tables, series, episodes, len(unfinished), png, sections),
                                    encoding="utf-8")
    record_derived(out, list(paths.values()))  # the run's --overwrite removes them with it
    return paths

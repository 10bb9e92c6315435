"""report.html: one self-contained page (inline CSS and script, the plot embedded) with the report's tables and the
episode viewer (apb.eval.report.viewer): every episode's steps beside the picture of each state, filters, and links
from the coverage table's cells."""

from __future__ import annotations

import base64
import html
from importlib import resources
from typing import Any

from apb.eval.metrics import Episode
from apb.eval.report.plots import Series, length_axis, length_note, plot_svg, plot_text_rows
from apb.eval.report.study_table import study_tables
from apb.eval.report.tables import (
    CoverageTable,
    cost_rows,
    coverage_caption,
    coverage_matrix,
    coverage_title,
    mean_se_text,
    metric_rows,
    num,
)
from apb.eval.report.viewer import cell_link, viewer_html
from apb.eval.run_kinds import ReportSection


def _e(value: Any) -> str:
    return html.escape("–" if value is None or value == "" else str(value))


def _cells(row: list[str], tag: str = "td") -> str:
    return "".join(f"<{tag} class='name'>{_e(c)}</{tag}>" if i == 0 else f"<{tag}>{_e(c)}</{tag}>"
                   for i, c in enumerate(row))


def html_table(header: list[str], rows: list[list[str]]) -> str:
    return "<table><tr>" + _cells(header, "th") + "</tr>" + "".join(f"<tr>{_cells(r)}</tr>" for r in rows) + "</table>"


def _coverage_html(table: CoverageTable) -> str:
    """The coverage table with the paper's figure (where comparable) under the run's, in grey."""
    header, rows = coverage_matrix(table)
    parts = [f"<table><tr>{_cells(header, 'th')}</tr>"]
    for domain, row in zip(table.domains, rows):
        cells = []
        for agent in table.agents:
            paper = table.paper_cell(domain, agent)
            extra = f"<br><span class='paper'>paper {_e(paper)}</span>" if paper else ""
            cells.append(f"<td>{cell_link(domain, agent, table.cell(domain, agent))}{extra}</td>")
        parts.append(f"<tr><td class='name'>{_e(row[0])}</td><td>{_e(row[1])}</td>{''.join(cells)}</tr>")
    sums = []
    for agent in table.agents:
        paper = table.paper_sum(agent)
        extra = f"<br><span class='paper'>paper {_e(num(paper, 1))}</span>" if paper is not None else ""
        sums.append(f"<td>{_e(mean_se_text(*table.sums[agent]))}{extra}</td>")
    parts.append(f"<tr class='sum'><td class='name'>Sum</td><td>{_e(rows[-1][1])}</td>{''.join(sums)}</tr></table>")
    return "".join(parts)


def render_html(rows: list[dict[str, Any]], tables: list[CoverageTable], series: Series, episodes: list[Episode],
                unfinished: int, png: bytes | None, sections: list[ReportSection] = ()) -> str:
    """The whole page as one string; `sections`: the other run kinds' (apb.eval.run_kinds), before the viewer,
    which also lists their episodes."""
    css = resources.files("apb.eval.report").joinpath("templates/report.css").read_text(encoding="utf-8")
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>apb evaluation report</title>",
             f"<style>{css}</style></head><body><h1>apb evaluation report</h1>"]
    if episodes or not sections:
        parts += [f"<p>{len(episodes)} finished episodes, {unfinished} unfinished.</p>",
                  *_episode_tables(rows, tables, series, episodes, png)]
    parts += [section.html for section in sections]
    parts.append(viewer_html([*episodes, *(e for section in sections for e in section.episodes)]))
    parts.append("</body></html>")
    return "\n".join(parts)


def _episode_tables(rows: list[dict[str, Any]], tables: list[CoverageTable], series: Series, episodes: list[Episode],
                    png: bytes | None) -> list[str]:
    """The episodes' coverage, study, metrics and cost tables and the plot."""
    parts = []
    for table in tables:
        parts.append(f"<h2>{_e(coverage_title(table))}</h2><p class='note'>{_e(coverage_caption(table))}</p>"
                     f"{_coverage_html(table)}")
    for study in study_tables(episodes):  # a run of examples/closed_loop_study.yaml: the study's Table 1 layout
        parts.append(f"<h2>{_e(study.title())}</h2><p class='note'>{_e(study.caption())}</p>"
                     + html_table(*study.matrix()))
    parts.append("<h2>Acc, Acc0, LF</h2>" + html_table(*metric_rows(rows)))
    parts.append("<h2>Cost</h2>" + html_table(*cost_rows(rows)))
    x_label = length_axis(episodes)
    parts.append(f"<h2>Solved by {_e(x_label)}</h2>")
    if png is not None:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f"<img alt='share solved by {_e(x_label)}' src='data:image/png;base64,{data}'>")
    else:
        parts.append(plot_svg(series, x_label))
    parts.append(html_table(["agent", x_label, "solved"], plot_text_rows(series)))
    if note := length_note(episodes):
        parts.append(f"<p class='note'>{_e(note)}</p>")
    return parts

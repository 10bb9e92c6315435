"""Reports of evaluation runs: summary.json / summary.csv, report.md and one self-contained report.html.

The coverage table follows the layout of AutoPlanBench's Table 2 (solved problems per domain x agent, mean over
seeds ± standard error), with the paper's figures alongside when the run used the paper's problems (split test/orig).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from apb.bench.random_agent import REFERENCE_FOLDERS
from apb.eval.metrics import (
    Episode,
    load_run,
    mean_se,
    solved_by_plan_length,
    summarize,
    unfinished_episodes,
)

CONTRACT_KEYS = ("domain", "agent", "model", "split", "episodes", "solved", "acc", "acc0", "lf", "invalid_actions",
                 "llm_calls", "input_tokens", "output_tokens", "cost_usd", "errors")
PAPER_AGENT_NAMES = {"basic": "Basic", "cot": "CoT", "act": "Act", "react": "ReAct", "basic-pddl": "Basic-PDDL",
                     "act-pddl": "Act-PDDL", "random": "random", "bfs": "BrFS", "astar": "A*+LM-cut",
                     "gbfs": "GBFS+FF"}
PAPER_SPLITS = {"test"}  # bundled p01-p20, AutoPlanBench's 20 test problems (orig without the few-shot one)
AUTOPLANBENCH_FOLDERS = {folder: domain for domain, folder in REFERENCE_FOLDERS.items()}  # -> the paper's domain
PLOT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def paper_table2() -> dict[str, Any]:
    """AutoPlanBench Table 2 as shipped in apb/bench/paper_table2.json."""
    return json.loads(resources.files("apb.bench").joinpath("paper_table2.json").read_text(encoding="utf-8"))


def paper_figure(table: dict[str, Any], domain: str, agent: str) -> float | None:
    """The paper's solved count for a bundled domain and an apb agent name, None when the paper has none."""
    column = PAPER_AGENT_NAMES.get(agent.lower())
    values = table.get(domain.lower())
    if column is None or not isinstance(values, list):
        return None
    return values[table["_columns"].index(column)]


def paper_domain(domain: str, env_ids: set[str]) -> str:
    """The paper's name for a run's domain: AutoPlanBench's folders `gripper` and `movie-complex` are its Grippers
    and Movie (a bundled domain keeps its name: bundled `gripper` is a scaling set, not the paper's Grippers)."""
    if any(str(e).startswith("dataset:") for e in env_ids):
        return AUTOPLANBENCH_FOLDERS.get(domain.lower(), domain)
    return domain


def domain_label(domain: str) -> str:
    """Paper spelling of a domain name (`grippers` -> `Grippers`)."""
    return domain[:1].upper() + domain[1:]


def agent_label(agent: str) -> str:
    return PAPER_AGENT_NAMES.get(agent.lower(), agent)


def _agent_order(agent: str) -> tuple[int, str]:
    names = list(PAPER_AGENT_NAMES)
    return (names.index(agent), "") if agent in names else (len(names), agent)


def _num(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def _mean_se(mean: float | None, se: float | None, digits: int = 1) -> str:
    if mean is None:
        return "–"
    return f"{mean:.{digits}f}" + (f" ± {se:.{digits}f}" if se is not None else "")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _cost(row: dict[str, Any]) -> str:
    if row["cost_usd"] is None:
        return f"n/a ({row['unpriced']} unpriced)" if row.get("unpriced") else "n/a"
    return f"${row['cost_usd']:.4f}"


@dataclass
class CoverageTable:
    """Solved problems by domain x agent for one (model, split)."""

    model: str
    split: str
    domains: list[str]
    agents: list[str]
    cells: dict[tuple[str, str], dict[str, Any]]
    sums: dict[str, tuple[float | None, float | None]]
    paper: dict[tuple[str, str], float] = field(default_factory=dict)

    @property
    def show_paper(self) -> bool:
        return self.split.lower() in PAPER_SPLITS

    def cell(self, domain: str, agent: str) -> str:
        row = self.cells.get((domain, agent))
        return "" if row is None else _mean_se(row["solved_mean"], row["solved_se"])

    def paper_cell(self, domain: str, agent: str) -> str:
        value = self.paper.get((domain, agent))
        return "" if value is None or not self.show_paper else _num(value, 1)

    def paper_sum(self, agent: str) -> float | None:
        values = [self.paper[(d, agent)] for d in self.domains if (d, agent) in self.paper]
        return sum(values) if values and self.show_paper else None


def coverage_tables(rows: list[dict[str, Any]], episodes: list[Episode]) -> list[CoverageTable]:
    """One coverage table per (model, split); sums are per-seed totals over domains, then mean ± se."""
    table2 = paper_table2()
    tables = []
    for model, split in sorted({(r["model"], r["split"]) for r in rows}):
        mine = [r for r in rows if (r["model"], r["split"]) == (model, split)]
        domains = sorted({r["domain"] for r in mine})
        agents = sorted({r["agent"] for r in mine}, key=_agent_order)
        sums = {}
        for agent in agents:
            per_seed: dict[Any, int] = {}
            for e in episodes:
                if (e.key[2], e.key[3], e.key[1]) == (model, split, agent):  # the same normalised keys as rows
                    per_seed[e.seed] = per_seed.get(e.seed, 0) + e.success
            sums[agent] = mean_se([float(v) for v in per_seed.values()])
        sources: dict[str, set[str]] = defaultdict(set)
        for e in episodes:
            if (e.key[2], e.key[3]) == (model, split):
                sources[e.key[0]].add(str(e.header.get("env_id") or ""))
        paper = {(d, a): v for d in domains for a in agents
                 if (v := paper_figure(table2, paper_domain(d, sources[d]), a)) is not None}
        tables.append(CoverageTable(model, split, domains, agents, {(r["domain"], r["agent"]): r for r in mine},
                                    sums, paper))
    return tables


# ---- plot: solved problems against optimal plan length (paper's Figure 6) ------------------------------------
def plot_png(series: dict[str, dict[int, tuple[int, int]]], x_label: str = "optimal plan length") -> bytes | None:
    """A PNG of the share solved per optimal plan length, or None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(7, 4))
    for index, (label, cells) in enumerate(series.items()):
        lengths = list(cells)
        axes.plot(lengths, [s / n for s, n in cells.values()], marker="o", label=agent_label(label),
                  color=PLOT_COLOURS[index % len(PLOT_COLOURS)])
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(x_label)
    axes.set_ylabel("share of episodes solved")
    axes.set_ylim(-0.05, 1.05)
    axes.legend()
    axes.grid(alpha=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def plot_svg(series: dict[str, dict[int, tuple[int, int]]], x_label: str = "optimal plan length") -> str:
    """The same plot as an inline SVG, drawn without any plotting library."""
    lengths = sorted({length for cells in series.values() for length in cells})
    if not lengths:
        return "<p class='note'>No episode has a known optimal plan length.</p>"
    width, height, left, right, top, bottom = 640, 300, 50, 150, 15, 40
    low, high = lengths[0], max(lengths[-1], lengths[0] + 1)

    def x(length: float) -> float:
        return left + (length - low) / (high - low) * (width - left - right)

    def y(share: float) -> float:
        return top + (1 - share) * (height - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="share solved by {html.escape(x_label)}">',
             f'<line x1="{left}" y1="{y(0)}" x2="{width - right}" y2="{y(0)}" stroke="#444"/>',
             f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{y(1)}" stroke="#444"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>'
                     f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" y2="{y(tick):.1f}" stroke="#eee"/>')
    for length in lengths:
        parts.append(f'<text x="{x(length):.1f}" y="{y(0) + 16}" text-anchor="middle">{length}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 5}" text-anchor="middle">'
                 f'{html.escape(x_label)}</text>')
    for index, (label, cells) in enumerate(series.items()):
        colour = PLOT_COLOURS[index % len(PLOT_COLOURS)]
        points = " ".join(f"{x(length):.1f},{y(s / n):.1f}" for length, (s, n) in cells.items())
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        for length, (s, n) in cells.items():
            parts.append(f'<circle cx="{x(length):.1f}" cy="{y(s / n):.1f}" r="3" fill="{colour}">'
                         f'<title>{html.escape(label)}: {s}/{n} solved at length {length}</title></circle>')
        legend_y = top + 14 * index + 5
        parts.append(f'<rect x="{width - right + 10}" y="{legend_y}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{width - right + 25}" y="{legend_y + 9}">{html.escape(agent_label(label))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _length_text(episode: Episode) -> str:
    if episode.optimal_plan_length is not None:
        return f"optimal plan length {episode.optimal_plan_length}"
    if episode.reference_length is not None:
        return f"gold plan length {episode.reference_length} (not known to be optimal)"
    return "plan length unknown"


def length_axis(episodes: list[Episode]) -> str:
    """What the plot's lengths are: optimal, gold (not known optimal), or optimal where known, else gold."""
    known = [e for e in episodes if e.reference_length is not None]
    gold = sum(1 for e in known if e.optimal_plan_length is None)
    if not gold:
        return "optimal plan length"
    return "gold plan length" if gold == len(known) else "plan length (optimal, else gold)"


def length_note(episodes: list[Episode]) -> str | None:
    """A note for the plot and LF when some episodes measure against a gold plan not known to be optimal."""
    gold = sum(1 for e in episodes if e.optimal_plan_length is None and e.reference_length is not None)
    if not gold:
        return None
    return (f"{gold} episode(s) have no known optimal length (e.g. AutoPlanBench's problems, whose gold plans are "
            "not all optimal); their plan length and LF (marked *) use the gold plan's length.")


def plot_text_rows(series: dict[str, dict[int, tuple[int, int]]]) -> list[list[str]]:
    """The plot's data as table rows: agent, optimal length, solved/episodes."""
    return [[agent_label(label), str(length), f"{s}/{n}"] for label, cells in series.items()
            for length, (s, n) in cells.items()]


# ---- summary files --------------------------------------------------------------------------------------------
def _csv_value(value: Any) -> Any:
    if isinstance(value, dict):
        return ";".join(f"{k}={v}" for k, v in value.items())
    return "" if value is None else value


def write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    keys = list(rows[0]) if rows else list(CONTRACT_KEYS)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(keys)
        for row in rows:
            writer.writerow([_csv_value(row[k]) for k in keys])


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    def clean(cell: str) -> str:
        return str(cell).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(clean(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(clean(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def coverage_matrix(table: CoverageTable) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a coverage table as text (run value, then the paper's in brackets)."""
    header = ["domain", *(agent_label(a) for a in table.agents)]
    rows = []
    for domain in table.domains:
        cells = []
        for agent in table.agents:
            paper = table.paper_cell(domain, agent)
            cells.append(table.cell(domain, agent) + (f" (paper {paper})" if paper else ""))
        rows.append([domain_label(domain), *cells])
    sums = []
    for agent in table.agents:
        paper = table.paper_sum(agent)
        sums.append(_mean_se(*table.sums[agent]) + (f" (paper {_num(paper, 1)})" if paper is not None else ""))
    rows.append(["Sum", *sums])
    return header, rows


def metric_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["domain", "agent", "model", "split", "episodes", "seeds", "solved", "Acc", "Acc0", "LF",
              "invalid actions", "look-arounds", "errors", "stop reasons"]
    body = [[domain_label(r["domain"]), agent_label(r["agent"]), r["model"], r["split"], str(r["episodes"]),
             str(r["seeds"]), str(r["solved"]), _pct(r["acc"]) + (f" ± {_pct(r['acc_se'])}" if r["acc_se"] else ""),
             _pct(r["acc0"]), _num(r["lf"]) + ("*" if r.get("lf_gold_n") else ""), str(r["invalid_actions"]),
             str(r["look_arounds"]), str(r["errors"]),
             ", ".join(f"{k}: {v}" for k, v in r["stop_reasons"].items())] for r in rows]
    return header, body


def cost_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    header = ["domain", "agent", "model", "LLM calls", "calls by role", "input tokens", "output tokens",
              "cached tokens", "cost"]
    body = [[domain_label(r["domain"]), agent_label(r["agent"]), r["model"], str(r["llm_calls"]),
             ", ".join(f"{k}: {v}" for k, v in r["llm_calls_by_role"].items()), str(r["input_tokens"]),
             str(r["output_tokens"]), str(r["cached_tokens"]), _cost(r)] for r in rows]
    return header, body


def render_markdown(rows: list[dict[str, Any]], tables: list[CoverageTable], series: dict, unfinished: int,
                    plot_file: str | None, note: str | None = None, x_label: str = "optimal plan length") -> str:
    out = ["# apb evaluation report", "",
           f"{sum(r['episodes'] for r in rows)} finished episodes, {unfinished} unfinished.", ""]
    for table in tables:
        out += [f"## Coverage: solved problems ({table.model or 'no LLM'}, split {table.split})", "",
                "Mean over seeds ± standard error" + ("; the paper's Table 2 figure (GPT-4, out of 20) in brackets."
                                                     if table.show_paper else "."), ""]
        out += [_md_table(*coverage_matrix(table)), ""]
    out += ["## Acc, Acc0, LF", "", _md_table(*metric_rows(rows)), "", "## Cost", "", _md_table(*cost_rows(rows)), "",
            f"## Solved by {x_label}", ""]
    if plot_file:
        out += [f"![solved by {x_label}]({plot_file})", ""]
    out += [_md_table(["agent", x_label, "solved"], plot_text_rows(series)), ""]
    if note:
        out += [note, ""]
    return "\n".join(out)


# ---- HTML -----------------------------------------------------------------------------------------------------
def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _html_table(header: list[str], rows: list[list[str]], sum_row: bool = False) -> str:
    parts = ["<table><tr>" + "".join(f"<th class='name'>{_e(h)}</th>" if i == 0 else f"<th>{_e(h)}</th>"
                                     for i, h in enumerate(header)) + "</tr>"]
    for index, row in enumerate(rows):
        css = " class='sum'" if sum_row and index == len(rows) - 1 else ""
        parts.append(f"<tr{css}>" + "".join(f"<td class='name'>{_e(c)}</td>" if i == 0 else f"<td>{_e(c)}</td>"
                                            for i, c in enumerate(row)) + "</tr>")
    parts.append("</table>")
    return "".join(parts)


def _coverage_html(table: CoverageTable) -> str:
    head = "".join(f"<th>{_e(agent_label(a))}</th>" for a in table.agents)
    parts = [f"<table><tr><th class='name'>domain</th>{head}</tr>"]
    for domain in table.domains:
        cells = []
        for agent in table.agents:
            paper = table.paper_cell(domain, agent)
            extra = f"<br><span class='paper'>paper {_e(paper)}</span>" if paper else ""
            cells.append(f"<td>{_e(table.cell(domain, agent))}{extra}</td>")
        parts.append(f"<tr><td class='name'>{_e(domain_label(domain))}</td>{''.join(cells)}</tr>")
    sums = []
    for agent in table.agents:
        paper = table.paper_sum(agent)
        extra = f"<br><span class='paper'>paper {_e(_num(paper, 1))}</span>" if paper is not None else ""
        sums.append(f"<td>{_e(_mean_se(*table.sums[agent]))}{extra}</td>")
    parts.append(f"<tr class='sum'><td class='name'>Sum</td>{''.join(sums)}</tr></table>")
    return "".join(parts)


def _episode_html(episode: Episode) -> str:
    h, f = episode.header, episode.footer
    mark = "<span class='ok'>solved</span>" if episode.success else "<span class='fail'>not solved</span>"
    summary = (f"{_e(domain_label(str(h.get('domain'))))} · {_e(agent_label(str(h.get('agent'))))} · "
               f"{_e(h.get('model'))} · {_e(h.get('problem_id'))} · seed {_e(h.get('seed'))} · {mark} · "
               f"{_e(f.get('steps'))} steps · {_e(f.get('invalid_actions'))} invalid · {_e(f.get('stop_reason'))}")
    parts = [f"<details><summary>{summary}</summary>",
             f"<p class='note'>episode {_e(episode.episode_id)}; {_e(_length_text(episode))}; "
             f"file {_e(episode.path.name)}</p>"]
    if episode.error:
        parts.append(f"<p class='fail'>error: {_e(episode.error)}</p>")
    if f.get("detail") and f.get("detail") != episode.error:
        parts.append(f"<p class='note'>{_e(f.get('detail'))}</p>")
    parts.append("<table class='steps'><tr><th>#</th><th>action</th><th>feedback</th><th>LLM outputs</th></tr>")
    for step in episode.steps:
        css = "" if step.get("action_valid") else " class='invalid'"
        outputs = []
        for event in step.get("events") or []:
            if event.get("type") == "llm":
                outputs.append(f"<details><summary>{_e(event.get('role'))}</summary>"
                               f"<pre>{_e(event.get('text'))}</pre></details>")
            elif event.get("type") == "translation":
                outputs.append(f"<div class='note'>translated by {_e(event.get('method'))}: "
                               f"{_e(event.get('input'))} → {_e(event.get('action'))}</div>")
        parts.append(f"<tr{css}><td>{_e(step.get('index'))}</td><td>{_e(step.get('action'))}</td>"
                     f"<td>{_e(step.get('observation'))}</td><td>{''.join(outputs)}</td></tr>")
    parts.append("</table></details>")
    return "".join(parts)


def render_html(rows: list[dict[str, Any]], tables: list[CoverageTable], series: dict, episodes: list[Episode],
                unfinished: int, png: bytes | None) -> str:
    css = resources.files("apb.eval").joinpath("templates/report.css").read_text(encoding="utf-8")
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>apb evaluation report</title>",
             f"<style>{css}</style></head><body><h1>apb evaluation report</h1>",
             f"<p>{len(episodes)} finished episodes, {unfinished} unfinished.</p>"]
    for table in tables:
        parts.append(f"<h2>Coverage: solved problems ({_e(table.model or 'no LLM')}, split {_e(table.split)})</h2>")
        note = "Mean over seeds ± standard error."
        if table.show_paper:
            note += " Grey: the paper's Table 2 (GPT-4, solved out of 20; random: mean of 5 runs)."
        parts.append(f"<p class='note'>{_e(note)}</p>{_coverage_html(table)}")
    parts.append("<h2>Acc, Acc0, LF</h2>" + _html_table(*metric_rows(rows)))
    parts.append("<h2>Cost</h2>" + _html_table(*cost_rows(rows)))
    x_label = length_axis(episodes)
    parts.append(f"<h2>Solved by {_e(x_label)}</h2>")
    if png is not None:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f"<img alt='share solved by {_e(x_label)}' src='data:image/png;base64,{data}'>")
    else:
        parts.append(plot_svg(series, x_label))
    parts.append(_html_table(["agent", x_label, "solved"], plot_text_rows(series)))
    if note := length_note(episodes):
        parts.append(f"<p class='note'>{_e(note)}</p>")
    parts.append("<h2>Trajectories</h2>")
    order = sorted(episodes, key=lambda e: (e.key, str(e.header.get("problem_id")), str(e.seed)))
    parts += [_episode_html(e) for e in order]
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(dirs: list[Path], out_dir: Path | None = None) -> dict[str, Path]:
    """Write summary.json, summary.csv, report.md, report.html (and plot.png with matplotlib) into `out_dir`
    (default: the first run folder); returns the paths written by name."""
    dirs = [Path(d) for d in dirs]
    episodes = load_run(dirs)
    unfinished = unfinished_episodes(dirs, episodes)
    rows = summarize(episodes)
    tables = coverage_tables(rows, episodes)
    series = solved_by_plan_length(episodes)
    out = Path(out_dir) if out_dir is not None else dirs[0]
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: out / name for name in ("summary.json", "summary.csv", "report.md", "report.html")}
    summary = {"episodes": len(episodes), "unfinished": len(unfinished), "runs": [str(d) for d in dirs],
               "rows": rows}
    paths["summary.json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    write_csv(rows, paths["summary.csv"])
    x_label = length_axis(episodes)
    png = plot_png(series, x_label) if series else None
    if png is not None:
        paths["plot.png"] = out / "plot.png"
        paths["plot.png"].write_bytes(png)
    paths["report.md"].write_text(render_markdown(rows, tables, series, len(unfinished),
                                                  "plot.png" if png else None, length_note(episodes), x_label),
                                    encoding="utf-8")
    paths["report.html"].write_text(render_html(rows, tables, series, episodes, len(unfinished), png),
                                    encoding="utf-8")
    return paths

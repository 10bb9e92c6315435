"""The report's plot: share of episodes solved by plan length (the paper's Figure 6), as a matplotlib PNG or, without
matplotlib, an inline SVG. Both name the series as the tables name the agents and label both axes."""

from __future__ import annotations

import html
import io
from typing import Any

from apb.eval.metrics import Episode
from apb.eval.report.tables import agent_label, agent_order

PLOT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
Y_LABEL = "share of episodes solved"
Series = dict[tuple[str, str], dict[int, tuple[int, int]]]  # (agent, model) -> length -> (solved, episodes)


def series_labels(series: Series) -> dict[tuple[str, str], str]:
    """The tables' agent names (`BrFS`, `ReAct`) in the tables' order; an LLM agent's model is added when the run
    used several models."""
    several = len({model for _, model in series if model}) > 1
    return {(agent, model): agent_label(agent) + (f" ({model})" if several and model else "")
            for agent, model in sorted(series, key=lambda key: (agent_order(key[0]), key[1]))}


def plot_figure(series: Series, x_label: str = "optimal plan length") -> Any:
    """A matplotlib Figure of the share solved per plan length (ImportError without matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(7, 4))
    for index, (key, label) in enumerate(series_labels(series).items()):
        cells = series[key]
        axes.plot(list(cells), [s / n for s, n in cells.values()], marker="o", label=label,
                  color=PLOT_COLOURS[index % len(PLOT_COLOURS)])
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(x_label)
    axes.set_ylabel(Y_LABEL)
    axes.set_ylim(-0.05, 1.05)
    axes.legend()
    axes.grid(alpha=0.3)
    return figure


def plot_png(series: Series, x_label: str = "optimal plan length") -> bytes | None:
    """The plot as PNG bytes, or None when matplotlib is not installed."""
    try:
        figure = plot_figure(series, x_label)
    except ImportError:
        return None
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def plot_svg(series: Series, x_label: str = "optimal plan length") -> str:
    """The same plot as an inline SVG, drawn without any plotting library."""
    lengths = sorted({length for cells in series.values() for length in cells})
    if not lengths:
        return "<p class='note'>No episode has a known plan length.</p>"
    labels = series_labels(series)
    legend_width = 25 + 7 * max(len(label) for label in labels.values())
    width, height, left, right, top, bottom = 490 + legend_width, 300, 62, 10 + legend_width, 15, 40
    low, high = lengths[0], max(lengths[-1], lengths[0] + 1)

    def x(length: float) -> float:
        return left + (length - low) / (high - low) * (width - left - right)

    def y(share: float) -> float:
        return top + (1 - share) * (height - top - bottom)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{Y_LABEL} by {html.escape(x_label)}">',
             f'<line x1="{left}" y1="{y(0)}" x2="{width - right}" y2="{y(0)}" stroke="#444"/>',
             f'<line x1="{left}" y1="{y(0)}" x2="{left}" y2="{y(1)}" stroke="#444"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>'
                     f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - right}" y2="{y(tick):.1f}" stroke="#eee"/>')
    for length in lengths:
        parts.append(f'<text x="{x(length):.1f}" y="{y(0) + 16}" text-anchor="middle">{length}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 5}" text-anchor="middle">'
                 f'{html.escape(x_label)}</text>')
    middle = (y(0) + y(1)) / 2
    parts.append(f'<text x="14" y="{middle:.1f}" text-anchor="middle" transform="rotate(-90 14 {middle:.1f})">'
                 f'{Y_LABEL}</text>')
    for index, (key, label) in enumerate(labels.items()):
        colour, cells = PLOT_COLOURS[index % len(PLOT_COLOURS)], series[key]
        points = " ".join(f"{x(length):.1f},{y(s / n):.1f}" for length, (s, n) in cells.items())
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        for length, (s, n) in cells.items():
            parts.append(f'<circle cx="{x(length):.1f}" cy="{y(s / n):.1f}" r="3" fill="{colour}">'
                         f'<title>{html.escape(label)}: {s}/{n} solved at length {length}</title></circle>')
        legend_y = top + 14 * index + 5
        parts.append(f'<rect x="{width - right + 10}" y="{legend_y}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{width - right + 25}" y="{legend_y + 9}">{html.escape(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def plot_text_rows(series: Series) -> list[list[str]]:
    """The plot's data as table rows: agent (as in the legend), plan length, solved/episodes."""
    labels = series_labels(series)
    return [[label, str(length), f"{s}/{n}"] for key, label in labels.items() for length, (s, n) in series[key].items()]


def length_text(episode: Episode) -> str:
    """The plan length an episode is measured against, and whether it is known to be optimal."""
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

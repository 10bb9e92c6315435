"""The table of `apb rl bench ipc2023`: per domain and planner, the track's coverage, quality, agile score and
invalid plans, the training time, and the totals."""

from __future__ import annotations

from rich.table import Table

SCORES = ("coverage", "quality", "agile", "invalid")


def totals(report: dict) -> dict[str, dict[str, float]]:
    """Per planner, the sum of each score over the domains."""
    summed: dict[str, dict[str, float]] = {}
    for result in report["domains"]:
        for planner, row in result["scores"].items():
            into = summed.setdefault(planner, dict.fromkeys(SCORES, 0.0))
            for score in SCORES:
                into[score] += row[score]
    return summed


def print_table(report: dict, console) -> None:
    settings = report["settings"]
    planners = list(dict.fromkeys(p for r in report["domains"] for p in r["scores"]))  # labelled by learner
    table = Table(title=f"IPC 2023 learning track, split {settings['split']}, {settings['time_limit']:g} s per task",
                  caption="coverage / quality (sum of C_best/C) / agile (1 - log T / log 1800, 1 within 1 s) / "
                          "invalid plans (one voids the domain)")
    table.add_column("domain")
    table.add_column("tasks", justify="right")
    table.add_column("training s", justify="right")
    for planner in planners:
        table.add_column(planner, justify="right")
    table.add_column("quality where all solve", justify="right")
    for result in report["domains"]:
        seconds = result.get("training_seconds")
        table.add_row(result["domain"], str(result["tasks"]), "-" if seconds is None else f"{seconds:.0f}",
                      *(_cell(result["scores"][p]) if p in result["scores"] else "-" for p in planners),
                      _common(result.get("all_solve"), planners))
    summed = totals(report)
    tasks = sum(r["tasks"] for r in report["domains"])
    table.add_row("total", str(tasks), "", *(_cell(summed[p]) for p in planners if p in summed), "")
    console.print(table)


def _common(common: dict | None, planners: list[str]) -> str:
    """"n: q1 / q2": the tasks every planner solved and each one's quality on them."""
    if not common or len(planners) < 2:
        return "-"
    return f"{common['tasks']}: " + " / ".join(f"{common['quality'].get(p, 0):.2f}" for p in planners)


def _cell(row: dict) -> str:
    return f"{row['coverage']:g} / {row['quality']:.2f} / {row['agile']:.2f} / {row['invalid']:g}"

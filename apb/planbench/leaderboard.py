"""The leaderboard of PlanBench runs (`apb planbench report DIR...`): one row per run, config and task with the
instances answered and the % correct by PlanBench's verdict and by apb's sound one (LLM errors are not counted)."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from apb.eval.episode_specs import EvalError
from apb.eval.items import RecordStore
from apb.eval.rundir import read_run_file
from apb.planbench.runs import PLANBENCH_PROMPTS
from apb.planbench.verdicts import SHORT_NAMES


def leaderboard_rows(dirs: list[str | Path]) -> list[dict]:
    """Rows (model, config, task, instances, official, sound, errors) of the runs in `dirs`."""
    rows = []
    for folder in map(Path, dirs):
        run = read_run_file(folder)
        if run is None or run.get("kind") != PLANBENCH_PROMPTS.name:
            raise EvalError(f"{folder}: not an apb planbench eval run (no run.json of kind "
                            f"{PLANBENCH_PROMPTS.name!r}); pass the --out folder of apb planbench eval")
        settings = run.get("settings", {})
        groups: dict[str, list[dict]] = {}
        for record in RecordStore(folder).records().values():
            groups.setdefault(str(record.get("task")), []).append(record)
        for task in sorted(groups):
            records = groups[task]
            answered = [r for r in records if not r.get("error")]
            n = len(answered)
            rows.append({"model": settings.get("engine") or settings.get("llm"),
                         "config": f"{settings.get('folder')}/{settings.get('config')}", "task": task,
                         "short": next((s for s, stem in SHORT_NAMES.items() if stem == task), task),
                         "instances": n, "official": sum(bool(r.get("official")) for r in answered),
                         "sound": sum(bool(r.get("sound")) for r in answered),
                         "official_pct": 100.0 * sum(bool(r.get("official")) for r in answered) / n if n else None,
                         "sound_pct": 100.0 * sum(bool(r.get("sound")) for r in answered) / n if n else None,
                         "errors": len(records) - n, "dir": str(folder)})
    return rows


LEADERBOARD_HEADER = ["model", "config", "task", "instances", "% correct (PlanBench)", "% correct (sound)", "errors"]


def leaderboard_matrix(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """(header, cells): the leaderboard as `apb planbench report` prints it and `apb report` shows it."""
    body = []
    for row in rows:
        pct = [("-" if row[k] is None else f"{row[k]:.1f}") for k in ("official_pct", "sound_pct")]
        body.append([str(row["model"]), row["config"], row["short"], str(row["instances"]), *pct, str(row["errors"])])
    return list(LEADERBOARD_HEADER), body


def leaderboard_table(rows: list[dict]) -> Table:
    header, body = leaderboard_matrix(rows)
    table = Table(*header, title="PlanBench")
    for cells in body:
        table.add_row(*cells)
    return table

"""The published figures apb compares against, in one place: AutoPlanBench's Table 2 (solved tasks per domain and
agent) and Table 6 (problem statistics), which AutoPlanBench data folder each bundled domain corresponds to, and the
closed-loop study's Table 1 (runs solved per problem on its baking domain). The figures live in JSON files next to
this module (`paper_table2.json`, `paper_table6.json`, `paper_closed_loop.json`)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
# AutoPlanBench's action limit per episode (its LLM agents and the 24-step random baseline `rnd`).
AUTOPLANBENCH_STEP_LIMIT = 24
# Bundled domain -> the AutoPlanBench data folder of the paper's domain it reproduces. Bundled `gripper` (one robot,
# a scaling set) reproduces none of the paper's domains, though it shares the `grippers` domain file.
REFERENCE_FOLDERS = {"blocksworld": "blocksworld", "logistics": "logistics", "depot": "depot", "ferry": "ferry",
                     "floortile": "floortile", "goldminer": "goldminer", "grid": "grid", "grippers": "gripper",
                     "movie": "movie-complex", "rovers": "rovers", "satellite": "satellite", "visitall": "visitall"}
# AutoPlanBench data folder -> the paper's domain (the bundled name): `gripper` is Grippers, `movie-complex` Movie.
PAPER_DOMAIN_OF_FOLDER = {folder: domain for domain, folder in REFERENCE_FOLDERS.items()}
# apb agent name -> the column of Table 2 it reproduces.
TABLE2_AGENTS = {"basic": "Basic", "cot": "CoT", "act": "Act", "react": "ReAct", "basic-pddl": "Basic-PDDL",
                 "act-pddl": "Act-PDDL", "random": "random", "bfs": "BrFS", "astar": "A*+LM-cut", "gbfs": "GBFS+FF"}


def _rows(file_name: str) -> tuple[str, dict[str, dict[str, float]]]:
    raw = json.loads((DATA_DIR / file_name).read_text(encoding="utf-8"))
    columns = raw["_columns"]
    rows = {name: dict(zip(columns, values, strict=True)) for name, values in raw.items()
            if name not in ("_source", "_columns")}
    return raw["_source"], rows


@cache
def table2() -> dict[str, dict[str, float]]:
    """AutoPlanBench's Table 2 per paper domain (bundled name, and '_sum'): column -> solved out of 20."""
    return _rows("paper_table2.json")[1]


def table2_figure(domain: str, agent: str) -> float | None:
    """The paper's solved count for a paper domain (bundled name) and an apb agent name; None when it has none."""
    column = TABLE2_AGENTS.get(agent.lower())
    row = table2().get(domain.lower())
    return None if column is None or row is None else row.get(column)


@cache
def table6() -> dict[str, dict[str, float]]:
    """AutoPlanBench's Table 6 rows by bundled domain name: averages over the 21 problems."""
    return _rows("paper_table6.json")[1]


@cache
def closed_loop_table1() -> dict:
    """The closed-loop study's Table 1: {"rows": {condition: [solved on problem 1..4]}, "runs": 5, "model",
    "action_limit", "source"}; a condition is an apb agent name (`open-loop`, `closed-loop:horizon=5`, ...)."""
    raw = json.loads((DATA_DIR / "paper_closed_loop.json").read_text(encoding="utf-8"))
    return {"rows": {k: list(v) for k, v in raw.items() if not k.startswith("_")}, "runs": raw["_runs"],
            "model": raw["_model"], "action_limit": raw["_action_limit"], "source": raw["_source"]}

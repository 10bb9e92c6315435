"""The closed-loop study's published Table 1 (runs solved out of 5 per problem), as shipped in
paper_closed_loop.json: the reference figures `apb report` shows next to a run of examples/closed_loop_study.yaml."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

TABLE1_FILE = Path(__file__).resolve().parent / "paper_closed_loop.json"


@cache
def closed_loop_table1() -> dict:
    """{"rows": {condition: [solved on problem 1..4]}, "runs": 5, "model": ..., "action_limit": 50, "source": ...};
    a condition is an agent name as in apb (`open-loop`, `closed-loop:horizon=5`, `closed-loop:horizon=1`)."""
    raw = json.loads(TABLE1_FILE.read_text(encoding="utf-8"))
    return {"rows": {k: list(v) for k, v in raw.items() if not k.startswith("_")}, "runs": raw["_runs"],
            "model": raw["_model"], "action_limit": raw["_action_limit"], "source": raw["_source"]}

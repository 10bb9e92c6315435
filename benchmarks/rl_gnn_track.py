"""The GNN learner on the IPC 2023 Learning Track (shared/reference/ipc2023-learning): train on a domain's training
tasks (with their reference plans), then greedy policy execution (apb.planners.learned_policy, with backtracking)
on easy test tasks, beside apb's greedy best-first search with h_FF at the same per-task time limit.

    python benchmarks/rl_gnn_track.py --domains blocksworld,ferry,miconic --train-time 300 --tasks 1-10 \
        --time-limit 60 [--work DIR] [--no-baseline] [--cpu-time]

A domain's knowledge file is `DIR/<domain>.dk`: reused when it exists, else trained with `apb rl train` for
`--train-time` seconds. Prints per domain the training time and epochs, and per planner the coverage, the
track's quality score (sum of C*/C, C* the reference cost of upper_bounds.json) and the mean seconds per solved
task.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path

from apb.engine import load_task
from apb.planners import greedy_best_first
from apb.planners.knowledge_files import load_knowledge
from apb.planners.learned_policy import greedy_policy

TRACK = Path(os.environ.get("APB_IPC2023", Path(__file__).resolve().parents[2] / "shared" / "reference"
                            / "ipc2023-learning"))


def training_folder(domain: str, work: Path) -> Path:
    """domain.pddl, problems/ (the training tasks) and plans/ (their reference plans): an apb dataset folder."""
    folder = work / domain
    if not folder.is_dir():
        (folder / "problems").mkdir(parents=True)
        (folder / "plans").mkdir()
        shutil.copy(TRACK / domain / "domain.pddl", folder)
        for problem in (TRACK / domain / "training" / "easy").glob("p*.pddl"):
            shutil.copy(problem, folder / "problems")
        for plan in (TRACK / "solutions" / domain / "training" / "easy").glob("*.plan"):
            shutil.copy(plan, folder / "plans")
    return folder


def train(domain: str, work: Path, seconds: float) -> dict:
    out = work / f"{domain}.dk"
    if not out.exists():
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "apb", "rl", "train", str(training_folder(domain, work)), "--out",
                        str(out), "--time-limit", str(seconds)], check=True, stdout=subprocess.DEVNULL)
        print(f"{domain}: trained in {time.monotonic() - start:.0f} s (wall)", flush=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_knowledge(out).training


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default="blocksworld,ferry,miconic")
    parser.add_argument("--tasks", default="1-10", help="easy test tasks A-B")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per test task and planner")
    parser.add_argument("--train-time", type=float, default=300.0)
    parser.add_argument("--work", default="runs/rl-gnn-track")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--cpu-time", action="store_true",
                        help="the GNN policy's limit in CPU seconds of this process (the track's measure; wall-clock "
                             "time on a shared machine measures the neighbours)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    low, high = (int(x) for x in args.tasks.split("-"))
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    bounds = json.loads((TRACK / "solutions" / "upper_bounds.json").read_text())
    for domain in args.domains.split(","):
        training = train(domain, work, args.train_time)
        print(f"{domain}: knowledge trained {training['seconds']} s, {training['epochs_done']} epochs "
              f"({training['stop_reason']}), best epoch {training['best_epoch']}, validation score "
              f"{training['best_score']} of {len(training['validation_tasks'])}, {training['samples']} samples",
              flush=True)
        knowledge = load_knowledge(work / f"{domain}.dk", warn=False)
        rows = {"gnn-greedy": [], "gbfs-ff": []}
        for n in range(low, high + 1):
            name = f"p{n:02d}"
            task = load_task(TRACK / domain / "domain.pddl", TRACK / domain / "testing" / "easy" / f"{name}.pddl")
            reference = bounds.get(f"{domain}/testing/easy/{name}.pddl")
            results = {"gnn-greedy": greedy_policy(task, knowledge.heuristic(task), timeout=args.time_limit,
                                                   cpu_time=args.cpu_time)}
            if not args.no_baseline:
                results["gbfs-ff"] = greedy_best_first(task, timeout=args.time_limit)
            for planner, result in results.items():
                if result.solved:
                    assert task.validate(result.plan_strings()).valid
                cost = result.plan_cost if result.solved else None
                rows[planner].append((result.solved, min(1.0, reference / cost) if cost and reference else 0.0,
                                      result.seconds))
                print(f"  {domain} {name} {planner}: {result.status} cost {cost} (reference {reference}) "
                      f"{result.seconds:.1f} s", flush=True)
        for planner, row in rows.items():
            if not row:
                continue
            solved = [r for r in row if r[0]]
            mean = sum(r[2] for r in solved) / len(solved) if solved else 0.0
            print(f"{domain} {planner}: coverage {len(solved)}/{len(row)}, quality {sum(r[1] for r in row):.2f}, "
                  f"mean {mean:.1f} s per solved task", flush=True)


if __name__ == "__main__":
    main()

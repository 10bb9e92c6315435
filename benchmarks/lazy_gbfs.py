"""Lazy greedy search (`--planner lazy-gbfs`) against eager greedy search (`gbfs`, preferred operators) and Fast
Downward (`fd-sat`: its eager greedy h_FF search, where the `planners` extra is installed), in the same run.

    nice python benchmarks/lazy_gbfs.py [--domains barman-opt11-strips,...] [--timeout 20] [--markdown]

Domains are folders of ../shared/reference/ipc-classical (default: the twelve of benchmarks/acp_domains.py); every
problem of each is planned by each planner with the same time limit (seconds, grounding excluded). Prints one row per
domain: problems solved, total seconds and summed plan length over the problems all of them solve, per planner, and
the ratio of eager to lazy seconds on those problems.
"""

from __future__ import annotations

import argparse
import time

from acp_domains import DOMAINS, IPC

from apb.engine import load_task
from apb.planners.solve import solve

PLANNERS = ("gbfs", "lazy-gbfs", "fd-sat")


def run(planner: str, task, timeout: float) -> tuple[float | None, int | str]:
    """(seconds, plan length) when solved, else (None, the status)."""
    start = time.perf_counter()
    result = solve(task, planner, timeout=timeout, **({"preferred": True} if planner == "gbfs" else {}))
    seconds = time.perf_counter() - start
    return (seconds, len(result.plan)) if result.solved else (None, result.status)


def available(planners: tuple[str, ...], task) -> tuple[str, ...]:
    """The planners that run here (fd-sat needs the planners extra: left out, and said so, without it)."""
    kept = []
    for planner in planners:
        try:
            run(planner, task, 5.0)
        except Exception as error:
            print(f"{planner} left out: {type(error).__name__}: {str(error)[:100]}")
            continue
        kept.append(planner)
    return tuple(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    names = args.domains.split(",")
    first = sorted(p for p in (IPC / names[0]).glob("*.pddl") if p.name != "domain.pddl")[0]
    planners = available(PLANNERS, load_task(IPC / names[0] / "domain.pddl", first))
    head = ["domain", "problems"] + [f"{p} solved" for p in planners] + [f"{p} s (all solve)" for p in planners] \
        + [f"{p} length" for p in planners] + ["gbfs s / lazy-gbfs s"]
    print("| " + " | ".join(head) + " |\n|---|" + "---:|" * (len(head) - 1))
    for name in names:
        folder = IPC / name
        problems = sorted(p for p in folder.glob("*.pddl") if p.name != "domain.pddl")
        outcome: dict[str, list] = {p: [] for p in planners}
        for problem in problems:
            task = load_task(folder / "domain.pddl", problem)
            for planner in planners:
                outcome[planner].append(run(planner, task, args.timeout))
        common = [i for i in range(len(problems)) if all(outcome[p][i][0] is not None for p in planners)]
        solved = [sum(o[0] is not None for o in outcome[p]) for p in planners]
        seconds = [sum(outcome[p][i][0] for i in common) for p in planners]
        lengths = [sum(outcome[p][i][1] for i in common) for p in planners]
        ratio = f"{seconds[0] / seconds[1]:.1f}" if common and seconds[1] else "-"
        cells = [name, len(problems), *solved, *(f"{s:.2f}" for s in seconds), *lengths, ratio]
        print("| " + " | ".join(map(str, cells)) + " |", flush=True)


if __name__ == "__main__":
    main()

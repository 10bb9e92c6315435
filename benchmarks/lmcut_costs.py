"""Optimal search on the IPC domains with action costs: apb's A* + LM-cut against Fast Downward's astar(lmcut()).

For every domain folder of the reference set (shared/reference/ipc-classical, or $APB_IPC) whose problems minimise
total-cost and whose actions are STRIPS (LM-cut's scope; tasks with conditional effects or axioms fall back to h_max
in apb), optimal tracks only unless named with --only, each problem is solved by both planners with the same time
budget. Per problem it prints both optimal costs, both expansion counts and their ratio (apb / FD; FD counts
expansions before the last f-layer too, "Expanded N state(s)"), and the seconds. The totals line gives the number of
problems where both finished, whether every cost agreed, and the largest and geometric-mean expansion ratio.

    python benchmarks/lmcut_costs.py [--budget 30] [--only NAME ...] [--problems 3]

Needs Fast Downward (`pip install 'apb[planners]'`); without it only apb's column is printed.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from ipc_coverage import REFERENCE, problem_pairs

from apb.engine import PDDLError, load_task
from apb.planners import astar, fast_downward
from apb.planners.downward import is_available


def cost_domains(root: Path, only: list[str] | None) -> list[Path]:
    """The optimal-track folders (or those named in `only`) whose first problem mentions total-cost."""
    found = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if (only and folder.name not in only) or (not only and any(t in folder.name for t in ("-sat", "-agl"))):
            continue
        pairs = problem_pairs(folder)
        if pairs and "total-cost" in pairs[0][1].read_text(encoding="utf-8", errors="replace").lower():
            found.append(folder)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per planner and problem (default 30)")
    parser.add_argument("--only", nargs="*", help="domain folder names")
    parser.add_argument("--problems", type=int, default=3, help="problems per domain (default 3)")
    args = parser.parse_args(argv)
    fd = is_available()
    both = agree = 0
    ratios = []
    print(f"{'domain/problem':46} {'apb cost':>8} {'FD cost':>8} {'apb exp':>9} {'FD exp':>9} {'ratio':>6} "
          f"{'apb s':>7} {'FD s':>7}")
    for folder in cost_domains(REFERENCE, args.only):
        for domain_file, problem_file in problem_pairs(folder)[:args.problems]:
            label = f"{folder.name}/{problem_file.name}"
            try:
                task = load_task(domain_file, problem_file)
            except PDDLError as error:
                print(f"{label:46} refused: {error}")
                continue
            if not task.has_costs or not task.is_strips:  # LM-cut's scope: STRIPS with action costs
                break
            ours = astar(task, timeout=args.budget)
            theirs = fast_downward(task, "opt", timeout=args.budget) if fd else None
            our_cost = ours.plan_cost if ours.solved else None
            their_cost = theirs.plan_cost if theirs is not None and theirs.solved else None
            ratio = ""
            if our_cost is not None and their_cost is not None:
                both += 1
                agree += our_cost == their_cost
                if theirs.expanded:
                    ratios.append(ours.expanded / theirs.expanded)
                    ratio = f"{ratios[-1]:.2f}"
            print(f"{label:46} {_cell(our_cost, ours.status):>8} "
                  f"{_cell(their_cost, theirs.status if theirs else 'n/a'):>8} {ours.expanded:>9} "
                  f"{theirs.expanded if theirs else '-':>9} {ratio:>6} {ours.seconds:>7.2f} "
                  f"{theirs.seconds if theirs else 0:>7.2f}", flush=True)
    if ratios:
        geomean = math.exp(sum(math.log(max(r, 1e-9)) for r in ratios) / len(ratios))
        print(f"both solved {both}; equal optimal costs {agree}/{both}; expansions apb/FD: max "
              f"{max(ratios):.2f}, geometric mean {geomean:.2f}")
    else:
        print(f"both solved {both}" + ("" if fd else "; Fast Downward not installed: pip install 'apb[planners]'"))
    return 0 if agree == both else 1


def _cell(cost, status: str) -> str:
    return status if cost is None else f"{cost:g}"


if __name__ == "__main__":
    sys.exit(main())

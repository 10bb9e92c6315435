"""PDDL coverage of apb's engine over the classical IPC domains (shared/reference/ipc-classical).

For every domain folder and each of its problems (paired with the problem's own domain file where it has one):
does apb load it, ground it, and random-walk it (each problem within a time budget)? Where Fast Downward is
installed (`pip install 'apb[planners]'`), on the first problem that grounds: does FD's satisficing plan
(eager_greedy([ff()])) validate in apb with FD's cost, and does apb's optimal A* find FD's optimal cost
(astar(lmcut()), or astar(blind()) where FD's LM-cut refuses the task) when both finish within the budget?

Last full run (2 shared cores, heavily loaded): all 147 domains load (441 problems); 430 problems ground and
random-walk within 60 s; FD's plan validates with FD's cost in 91 of 91 domains where FD found one (10 s);
apb A* cost = FD optimum in 45 of 45 domains where both finished (10 s each).

    python benchmarks/ipc_coverage.py [--budget 30] [--walk 30] [--plan-budget 20] [--only NAME ...] [--no-fd]

Prints one row per domain and the totals. Refused domains (numeric fluents beyond total-cost) show the reason.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from apb.engine import PDDLError, load_domain, load_problem
from apb.engine.task import Task
from apb.planners import astar

REFERENCE = Path(os.environ.get("APB_IPC", Path(__file__).resolve().parents[2] / "shared" / "reference"
                                / "ipc-classical"))
_COST = re.compile(r";\s*cost\s*=\s*([0-9.]+)")


class Timeout(Exception):
    """The per-problem budget ran out."""


def _alarm(_signum, _frame):
    raise Timeout()


def problem_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(domain file, problem file) for each problem of a folder; a problem's own domain file wins over domain.pddl."""
    files = sorted(p for p in folder.iterdir() if p.suffix == ".pddl")
    domains = [p for p in files if "domain" in p.name]
    pairs = []
    for problem in (p for p in files if "domain" not in p.name):
        own = [d for d in domains if d.name != "domain.pddl"
               and _domain_key(d) in (problem.stem, *_prefixes(problem.stem))]
        pairs.append((own[0] if own else folder / "domain.pddl", problem))
    return pairs


def _domain_key(path: Path) -> str:
    return re.sub(r"[-_]?domain[-_]?", "", path.stem)


def _prefixes(stem: str) -> list[str]:
    parts = stem.split("-")
    return ["-".join(parts[:i]) for i in range(1, len(parts))]


def within(seconds: float, call):
    """call() or raise Timeout after `seconds`."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def random_walk(task: Task, steps: int, seed: int = 0) -> int:
    """Applies up to `steps` random applicable actions (checking each with explain); returns steps taken."""
    rng = random.Random(seed)
    state = task.initial_state
    for taken in range(steps):
        options = task.applicable(state)
        if not options:
            return taken
        action = rng.choice(options)
        assert not task.explain(state, action), f"{action} applicable but explained as unmet"
        state = task.apply(state, action)
        hash(state)
    return steps


def fast_downward(domain: Path, problem: Path, search: str, seconds: float) -> tuple[list[str] | None, float | None,
                                                                                   str]:
    """(plan, cost, status) from Fast Downward's driver on the original files."""
    from apb.planners.downward import find_driver
    with tempfile.TemporaryDirectory(prefix="apb-ipc-") as work:
        command = [sys.executable, str(find_driver()), "--plan-file", "plan", "--overall-time-limit",
                   str(max(1, math.ceil(seconds))), str(domain), str(problem), "--search", search]
        try:
            done = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=seconds + 10)
        except subprocess.TimeoutExpired:
            return None, None, "timeout"
        plan_file = Path(work) / "plan"
        if done.returncode != 0 or not plan_file.is_file():
            return None, None, {23: "timeout", 12: "no plan", 34: "unsupported"}.get(done.returncode,
                                                                                     f"exit {done.returncode}")
        text = plan_file.read_text()
    steps = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(";")]
    found = _COST.search(text)
    return steps, float(found.group(1)) if found else None, "solved"


def check_problem(domain_file: Path, problem_file: Path, args) -> dict:
    """Load / ground / walk one problem; returns a row of outcomes."""
    row = {"problem": problem_file.name}
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            domain = within(args.budget, lambda: load_domain(domain_file))
            problem = load_problem(problem_file, domain)
        row["loads"] = True
        task = within(args.budget, lambda: Task(domain, problem))
        row["grounds"] = True
        row["ground_s"] = time.perf_counter() - start
        row["actions"] = len(task.actions)
        row["walk"] = within(args.budget, lambda: random_walk(task, args.walk))
        row["task"] = task
    except Timeout:
        row["error"] = f"over the {args.budget:g} s budget"
    except PDDLError as err:
        row["error"] = str(err).split(": ", 1)[-1][:90]
    return row


def plan_checks(row: dict, domain_file: Path, problem_file: Path, args) -> None:
    """FD's plans validated in apb with FD's cost; apb A* cost against FD's optimum."""
    task: Task = row["task"]
    plan, cost, status = fast_downward(domain_file, problem_file, "eager_greedy([ff()])", args.plan_budget)
    if plan is not None:
        check = task.validate(plan)
        row["fd_valid"] = check.valid and (cost is None or abs(check.cost - cost) < 1e-6)
        if not row["fd_valid"]:
            row["fd_note"] = f"apb: {check.reason[:80]} cost {check.cost} vs FD {cost}"
    else:
        row["fd_valid"] = None
        row["fd_note"] = f"FD sat {status}"
    plan, optimum, status = fast_downward(domain_file, problem_file, "astar(lmcut())", args.plan_budget)
    if status == "unsupported":
        plan, optimum, status = fast_downward(domain_file, problem_file, "astar(blind())", args.plan_budget)
    if plan is None:
        row["opt"] = None
        row.setdefault("fd_note", f"FD opt {status}")
        return
    if optimum is not None and not task.validate(plan).valid:
        row["opt"] = False
        return
    result = astar(task, timeout=args.plan_budget)
    if result.plan is None:
        row["opt"] = None
        row["opt_note"] = f"apb A* {result.status}"
        return
    ours = task.validate(result.plan).cost
    row["opt"] = abs(ours - optimum) < 1e-6
    if not row["opt"]:
        row["opt_note"] = f"apb A* cost {ours} vs FD optimum {optimum}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per problem to load, ground, walk")
    parser.add_argument("--walk", type=int, default=30, help="random-walk steps per problem")
    parser.add_argument("--plan-budget", type=float, default=20.0, help="seconds for each FD run and apb A*")
    parser.add_argument("--only", nargs="*", help="domain folder names to check")
    parser.add_argument("--no-fd", action="store_true", help="skip the Fast Downward comparisons")
    args = parser.parse_args(argv)
    try:
        from apb.planners.downward import is_available
        use_fd = not args.no_fd and is_available()
    except ImportError:
        use_fd = False
    folders = sorted(p for p in REFERENCE.iterdir() if p.is_dir() and (not args.only or p.name in args.only))
    totals = dict.fromkeys(("domains", "loads", "grounds", "walks", "fd_valid", "fd_runs", "opt", "opt_runs"), 0)
    print(f"{'domain':42s} {'load':>4s} {'grnd':>4s} {'walk':>4s} {'max s':>6s} {'FD ok':>5s} {'A*=opt':>6s}  note")
    for folder in folders:
        rows = [check_problem(d, p, args) for d, p in problem_pairs(folder)]
        n = len(rows)
        loads = sum(bool(r.get("loads")) for r in rows)
        grounds = sum(bool(r.get("grounds")) for r in rows)
        walks = sum("walk" in r for r in rows)
        first = next((r for r in rows if "task" in r), None)
        pairs = problem_pairs(folder)
        if use_fd and first is not None:
            index = rows.index(first)
            plan_checks(first, pairs[index][0], pairs[index][1], args)
        fd = "-" if first is None or first.get("fd_valid") is None else ("yes" if first["fd_valid"] else "NO")
        opt = "-" if first is None or first.get("opt") is None else ("yes" if first["opt"] else "NO")
        note = next((r["error"] for r in rows if "error" in r), "")
        if first is not None:
            note = note or first.get("fd_note", "") or first.get("opt_note", "")
        slowest = max((r.get("ground_s", 0.0) for r in rows), default=0.0)
        print(f"{folder.name:42s} {loads}/{n:<2d} {grounds}/{n:<2d} {walks}/{n:<2d} {slowest:6.1f} {fd:>5s} "
              f"{opt:>6s}  {note}", flush=True)
        totals["domains"] += 1
        totals["loads"] += loads == n
        totals["grounds"] += grounds == n
        totals["walks"] += walks == n
        totals["fd_runs"] += fd != "-"
        totals["fd_valid"] += fd == "yes"
        totals["opt_runs"] += opt != "-"
        totals["opt"] += opt == "yes"
        for r in rows:
            r.pop("task", None)
    print(f"\ndomains {totals['domains']}: all problems load {totals['loads']}, ground {totals['grounds']}, "
          f"random-walk {totals['walks']} (budget {args.budget:g} s per problem, {args.walk} steps)")
    if use_fd:
        print(f"FD plan validates in apb with FD's cost: {totals['fd_valid']} of {totals['fd_runs']} domains where "
              f"FD found one; apb A* cost = FD optimum: {totals['opt']} of {totals['opt_runs']} where both finished "
              f"(budget {args.plan_budget:g} s each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

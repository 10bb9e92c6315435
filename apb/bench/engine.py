"""`apb bench engine`: grounding time and applicable+apply throughput per reference domain, vs PDDLGym.

One row per dataset folder: its largest problem (by file size) is parsed and grounded (best of a few runs), then
random walks run for a fixed time. Each step computes the applicable actions and applies one drawn at random;
at a dead end or the goal the walk restarts from the initial state. PDDLGym 0.0.7, when installed (the `bench`
extra), runs the same walk on the same problem in the same run, so the ratio compares like with like.
Beyond these STRIPS rows, IPC domains with action costs and with ADL (quantifiers, disjunctions, conditional
effects) get rows of their own when the IPC folder (`ipc-classical` next to the reference, or `ipc=`) is there;
every row's `features` says which kind it is. `apb bench engine --peer pymimir` compares with pymimir instead, on
19 IPC domains (apb.bench.mimir_peer).
"""

from __future__ import annotations

import os
import platform
import random
import time
from pathlib import Path
from typing import Any

from apb import __version__
from apb.datasets.layouts import problem_files
from apb.domains.registry import natural_key
from apb.engine import load_domain, load_problem
from apb.engine.errors import ApbError
from apb.engine.task import Task

# The problem the issue names as the PDDLGym comparison point, always included.
LOGISTICS_FOCUS = ("logistics", "instance-12.pddl")
GROUND_REPEATS = 5
# IPC rows beyond the STRIPS reference: (folder, problem); their `features` come from the task.
IPC_ROWS = (("elevators-opt08-strips", "p04.pddl"), ("assembly", "prob05.pddl"))


def find_reference(explicit: str | os.PathLike | None = None) -> Path:
    """The AutoPlanBench data folder: the argument, $APB_REFERENCE, or shared/reference/autoplanbench nearby."""
    candidates = []
    if explicit:
        candidates.append(Path(explicit))
    elif os.environ.get("APB_REFERENCE"):
        candidates.append(Path(os.environ["APB_REFERENCE"]))
    else:
        here = Path.cwd().resolve()
        for base in (here, *here.parents):
            candidates.append(base / "shared" / "reference" / "autoplanbench")
    for path in candidates:
        if path.is_dir():
            return path
    raise ApbError("AutoPlanBench reference data not found: pass --reference DIR or set APB_REFERENCE "
                   f"(looked in {candidates[0]})")


def walk_throughput(task: Task, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random-walk steps per second (applicable + apply per step) for about `seconds` seconds."""
    rng = random.Random(seed)
    applicable, apply, is_goal = task.applicable, task.apply, task.is_goal
    initial = task.initial_state
    state = initial
    steps = restarts = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(256):
            actions = applicable(state)
            if not actions or is_goal(state):
                state = initial
                restarts += 1
                continue
            state = apply(state, actions[rng.randrange(len(actions))])
            steps += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"steps": steps, "seconds": elapsed, "steps_per_s": steps / elapsed, "restarts": restarts}


def grounding_time(domain_file: Path, problem_file: Path) -> tuple[float, float, Task]:
    """Best-of-N seconds to parse the problem and ground it, the domain parse time, and the task."""
    best = float("inf")
    task = None
    start = time.perf_counter()
    domain = load_domain(domain_file)
    domain_seconds = time.perf_counter() - start
    for _ in range(GROUND_REPEATS):
        start = time.perf_counter()
        task = Task(domain, load_problem(problem_file, domain))
        best = min(best, time.perf_counter() - start)
    return best, domain_seconds, task


def bench_problems(reference: Path) -> list[tuple[str, Path, Path]]:
    """(label, domain, problem): the largest orig problem of every dataset, plus Logistics instance-12."""
    rows = []
    for folder in sorted(p for p in reference.iterdir() if (p / "domain.pddl").is_file()):
        problems = problem_files(folder)
        if not problems:
            continue
        largest = max(problems, key=lambda p: (p.stat().st_size, natural_key(p)))
        rows.append((folder.name, folder / "domain.pddl", largest))
        focus_dir, focus_name = LOGISTICS_FOCUS
        focus = folder / "orig_problems" / focus_name
        if folder.name == focus_dir and largest.name != focus_name and focus.is_file():
            rows.append((folder.name, folder / "domain.pddl", focus))
    return rows


def ipc_problems(ipc: Path | None) -> list[tuple[str, Path, Path]]:
    """(label, domain, problem) of the IPC cost and ADL rows present in the IPC folder `ipc` (none without it)."""
    if ipc is None or not ipc.is_dir():
        return []
    rows = []
    for folder, problem in IPC_ROWS:
        domain_file, problem_file = ipc / folder / "domain.pddl", ipc / folder / problem
        if domain_file.is_file() and problem_file.is_file():
            rows.append((f"ipc/{folder}", domain_file, problem_file))
    return rows


def features(task: Task) -> str:
    """'action costs', 'ADL' (complex preconditions, conditional effects or axioms), both, or 'STRIPS'."""
    kinds = [k for k, on in (("action costs", task.has_costs), ("ADL", not task.domain.is_strips)) if on]
    return " + ".join(kinds) or "STRIPS"


def run_engine_bench(reference=None, seconds: float = 1.0, peer: bool = True, peer_python: str | None = None,
                     progress=None, ipc: str | os.PathLike | None = None) -> dict[str, Any]:
    """Measures every reference domain and the IPC cost and ADL rows; returns a JSON-friendly report."""
    from apb.bench import pddlgym_peer

    reference = find_reference(reference)
    ipc_dir = Path(ipc) if ipc is not None else reference.parent / "ipc-classical"
    if ipc is not None and not ipc_dir.is_dir():
        raise ApbError(f"IPC folder not found: {ipc_dir} (pass --ipc the folder that holds elevators-opt08-strips/, "
                       "assembly/, ...)")
    peer_ok = peer and (peer_python is not None or pddlgym_peer.pddlgym_available())
    rows = []
    for label, domain_file, problem_file in bench_problems(reference) + ipc_problems(ipc_dir):
        if progress is not None:
            progress.print(f"[dim]bench {label}/{problem_file.name}[/dim]")
        ground_s, domain_s, task = grounding_time(domain_file, problem_file)
        walk = walk_throughput(task, seconds)
        row: dict[str, Any] = {
            "dataset": label, "problem": problem_file.name, "facts": task.num_facts, "actions": len(task.actions),
            "parse_domain_ms": round(domain_s * 1000, 3), "ground_ms": round(ground_s * 1000, 3),
            "steps_per_s": round(walk["steps_per_s"]), "steps": walk["steps"], "features": features(task),
        }
        if peer_ok:
            measured = pddlgym_peer.measure_pddlgym(domain_file, problem_file, time_budget=max(seconds, 1.0) * 3,
                                                    python=peer_python)
            if measured.get("parse_ok") and measured.get("steps_per_s"):
                row["pddlgym_steps_per_s"] = round(measured["steps_per_s"], 1)
                row["ratio"] = round(walk["steps_per_s"] / measured["steps_per_s"], 1)
            elif measured.get("parse_ok"):
                row["pddlgym_error"] = "no steps taken"
            else:
                row["pddlgym_error"] = measured.get("error", "failed")
        rows.append(row)
    return {
        "apb_version": __version__,
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {os.cpu_count()} cpu",
        "seconds_per_problem": seconds,
        "peer": "pddlgym 0.0.7" if peer_ok else None,
        "rows": rows,
        "max_ground_ms": max((r["ground_ms"] for r in rows), default=0.0),
        "min_steps_per_s": min((r["steps_per_s"] for r in rows), default=0),
    }


def print_engine_report(report: dict[str, Any], console) -> None:
    """A rich table of the report, one row per problem; PDDLGym's failures are listed under it."""
    from rich.table import Table

    peer = report.get("peer")
    table = Table(title=f"apb {report['apb_version']} engine benchmark (Python {report['python']}, "
                        f"{report['machine']})")
    for column in ("dataset", "problem", "features", "facts", "actions", "ground ms", "apb steps/s"):
        table.add_column(column, justify="left" if column in ("dataset", "problem") else "right", no_wrap=True)
    if peer:
        table.add_column("pddlgym steps/s", justify="right", no_wrap=True)
        table.add_column("ratio", justify="right", no_wrap=True)
    failures = []
    for row in report["rows"]:
        cells = [row["dataset"], row["problem"], row.get("features", ""), str(row["facts"]), str(row["actions"]),
                 f"{row['ground_ms']:.1f}", f"{row['steps_per_s']:,}"]
        if peer:
            if "pddlgym_steps_per_s" in row:
                cells += [f"{row['pddlgym_steps_per_s']:,.0f}", f"{row['ratio']:,.0f}x"]
            else:
                cells += ["fails", "-"]
                failures.append(f"pddlgym fails on {row['dataset']}/{row['problem']}: {row.get('pddlgym_error', '')}")
        table.add_row(*cells)
    console.width = max(console.width, 120)  # rows must not wrap, also when the output is a file or pipe
    console.print(table)
    for line in failures:
        console.print(line, markup=False, highlight=False)
    console.print(f"largest grounding time {report['max_ground_ms']:.1f} ms; "
                  f"lowest throughput {report['min_steps_per_s']:,} steps/s"
                  + ("" if peer else "; PDDLGym not measured (pip install 'apb[bench]' or --peer-python)"),
                  markup=False, highlight=False)

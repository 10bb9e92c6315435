"""`apb bench ground`: grounding time of large IPC tasks, apb and pymimir side by side, with a timeout per engine.

Each engine grounds each task in a fresh subprocess (so that a timeout can stop it and memory is returned), one
after the other, never two at once. Protocol, the same as `apb bench engine --peer pymimir`: the domain is parsed
first and not timed; the time covers parsing the problem, grounding it and computing the applicable actions of
the initial state (pymimir grounds lazily, so that first call is part of its grounding). One run per engine and
task: these tasks take seconds to minutes. An engine that fails or runs out of time is reported as such.

The default tasks are problems 3-5 of the reference set for agricola-sat18-strips, folding-sat23-adl,
caldera-sat18-adl and recharging-robots-sat23-adl (the largest of the IPC domains there to ground).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from apb import __version__
from apb.engine.errors import ApbError

GROUND_DOMAINS = ("agricola-sat18-strips", "folding-sat23-adl", "caldera-sat18-adl", "recharging-robots-sat23-adl")
GROUND_PROBLEMS = ("p03.pddl", "p04.pddl", "p05.pddl")
ENGINES = ("apb", "pymimir")


def default_tasks(ipc: Path, domains=None) -> list[tuple[str, Path, Path]]:
    """(label, domain file, problem file) for problems 3-5 of each domain (default GROUND_DOMAINS)."""
    rows = []
    for name in domains or GROUND_DOMAINS:
        folder = ipc / name
        if not (folder / "domain.pddl").is_file():
            raise ApbError(f"no domain.pddl for {name!r} in {ipc}: check --ipc and --domains")
        for problem in GROUND_PROBLEMS:
            if (folder / problem).is_file():
                rows.append((f"{name}/{problem}", folder / "domain.pddl", folder / problem))
    return rows


def measure(engine: str, domain_file: Path, problem_file: Path, timeout: float) -> dict[str, Any]:
    """Runs one engine on one task in a subprocess: {"seconds", ...} or {"error"} / {"timeout"}."""
    command = [sys.executable, "-m", "apb.bench.ground", engine, str(domain_file), str(problem_file)]
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return {"error": tail[:200]}
    return json.loads(lines[-1])


def run_ground_bench(ipc=None, domains=None, timeout: float = 120.0, engines=ENGINES,
                     progress=None) -> dict[str, Any]:
    """apb and pymimir grounding times on the tasks of `domains` (problems 3-5 each); a JSON-friendly report."""
    from apb.bench.mimir_peer import find_ipc, mimir_available

    if timeout <= 0:
        raise ApbError(f"--timeout must be positive, got {timeout:g}")
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        raise ApbError(f"unknown engine {unknown[0]!r} in --engines: choose from {', '.join(ENGINES)}")
    root = find_ipc(ipc)
    rows = []
    for label, domain_file, problem_file in default_tasks(root, domains):
        row: dict[str, Any] = {"task": label}
        for engine in engines:
            if engine == "pymimir" and not mimir_available():
                row["pymimir"] = {"error": "pymimir is not installed (pip install 'pymimir>=0.13,<0.14')"}
                continue
            if progress is not None:
                progress.print(f"[dim]ground {label} with {engine}[/dim]")
            row[engine] = measure(engine, domain_file, problem_file, timeout)
        ours, theirs = row.get("apb", {}), row.get("pymimir", {})
        if "seconds" in ours and "seconds" in theirs:
            row["ratio"] = round(theirs["seconds"] / ours["seconds"], 2)
        rows.append(row)
    times = [r["apb"]["seconds"] for r in rows if "seconds" in r.get("apb", {})]
    return {
        "apb_version": __version__,
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {os.cpu_count()} cpu",
        "timeout_s": timeout,
        "rows": rows,
        "max_apb_s": max(times, default=None),
        "apb_failures": sum(1 for r in rows if "apb" in r and "seconds" not in r["apb"]),
    }


def _cell(result: dict[str, Any] | None) -> str:
    if result is None:
        return "-"
    if "seconds" in result:
        return f"{result['seconds']:.1f}"
    if "timeout" in result:
        return f"> {result['timeout']:g} (timeout)"
    return "fails"


def print_ground_report(report: dict[str, Any], console) -> None:
    """A rich table: per task, apb's facts and actions, both engines' seconds and pymimir / apb."""
    from rich.table import Table

    table = Table(title=f"apb {report['apb_version']} grounding vs pymimir (Python {report['python']}, "
                        f"{report['machine']}, timeout {report['timeout_s']:g} s per engine)")
    for column in ("task", "facts", "actions", "apb s", "pymimir s", "pymimir / apb"):
        table.add_column(column, justify="left" if column == "task" else "right", no_wrap=True)
    failures = []
    for row in report["rows"]:
        ours = row.get("apb")
        cells = [row["task"], str(ours.get("facts", "-")) if ours else "-", str(ours.get("actions", "-")) if ours
                 else "-", _cell(ours), _cell(row.get("pymimir")),
                 f"{row['ratio']:.2f}x" if "ratio" in row else "-"]
        table.add_row(*cells)
        for engine in ENGINES:
            if "error" in row.get(engine, {}):
                failures.append(f"{engine} fails on {row['task']}: {row[engine]['error']}")
    console.width = max(console.width, 120)
    console.print(table)
    for line in failures:
        console.print(line, markup=False, highlight=False)
    if report["max_apb_s"] is not None:
        console.print(f"apb's longest grounding {report['max_apb_s']:.1f} s; apb failures or timeouts: "
                      f"{report['apb_failures']}", markup=False, highlight=False)


def add_bench_ground_parser(bench_subparsers) -> None:
    """Adds `apb bench ground` to the `apb bench` subparsers."""
    from apb.flags import positive_float

    p = bench_subparsers.add_parser("ground", help="grounding time of large IPC tasks, apb and pymimir side by side")
    p.add_argument("--ipc", help="IPC classical folder (default: $APB_IPC or ../shared/reference/ipc-classical)")
    p.add_argument("--domains", help="comma-separated IPC domain folders, problems 3-5 of each (default: "
                   + ", ".join(GROUND_DOMAINS) + ")")
    p.add_argument("--timeout", type=positive_float, default=120.0,
                   help="seconds per engine and task before it counts as a timeout (default 120)")
    p.add_argument("--engines", default="apb,pymimir", help="comma-separated: apb, pymimir (default both)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_bench_ground)


def cmd_bench_ground(args) -> int:
    from apb.bench.output import comma_list, show_report
    from apb.console import make_console

    progress = None if args.json else make_console(stderr=True)
    report = run_ground_bench(ipc=args.ipc, domains=comma_list(args.domains), timeout=args.timeout,
                              engines=comma_list(args.engines) or ENGINES, progress=progress)
    return show_report(report, print_ground_report, args.json)


# ---- the subprocess side ---------------------------------------------------------------------------------------
def _ground_apb(domain_file: Path, problem_file: Path) -> dict[str, Any]:
    from apb.engine import load_domain, load_problem
    from apb.engine.task import Task

    domain = load_domain(domain_file)
    start = time.perf_counter()
    task = Task(domain, load_problem(problem_file, domain))
    task.applicable(task.initial_state)
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 2), "facts": task.num_facts, "actions": len(task.actions)}


def _ground_mimir(domain_file: Path, problem_file: Path) -> dict[str, Any]:
    import pymimir

    from apb.bench.mimir_peer import _silenced, mimir_domain_text

    with tempfile.TemporaryDirectory(prefix="apb-mimir-") as folder:
        path = Path(folder) / "domain.pddl"
        path.write_text(mimir_domain_text(domain_file), encoding="utf-8")
        domain = pymimir.Domain(str(path))
        start = time.perf_counter()
        with _silenced():
            problem = pymimir.Problem(domain, str(problem_file), mode="grounded")
            problem.get_initial_state().generate_applicable_actions()
        seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 2)}


def _main(argv: list[str]) -> int:
    engine, domain_file, problem_file = argv
    warnings.simplefilter("ignore")
    measure_ = _ground_apb if engine == "apb" else _ground_mimir
    print(json.dumps(measure_(Path(domain_file), Path(problem_file))), flush=True)
    return 0


if __name__ == "__main__":
    code = _main(sys.argv[1:])
    sys.stderr.flush()
    # No teardown: freeing millions of ground actions one by one takes seconds that `--timeout` would count.
    os._exit(code)

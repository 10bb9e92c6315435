"""Optional Fast Downward backend, through the `up-fast-downward` package (`pip install 'apb[planners]'`).

The task is written back to PDDL (`apb.engine.writer`) in a temporary folder and Fast Downward's own driver
script, shipped inside that package, runs `astar(lmcut())` (mode "opt", optimal) or `eager_greedy([ff()])`
(mode "sat"). The plan file is read back through `task.parse_action` and checked with `task.validate`.
"""

from __future__ import annotations

import math
import os
import re
import signal
import subprocess
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path

from apb.engine import ActionError, Task, domain_to_pddl, problem_to_pddl
from apb.engine.errors import ApbError
from apb.planners.result import ERROR, SOLVED, TIMEOUT, UNSOLVABLE, Budget, SearchResult

PACKAGE = "up_fast_downward"
NOT_INSTALLED = "Fast Downward is not installed: pip install 'apb[planners]'"
SEARCH_CONFIGS = {"opt": "astar(lmcut())", "sat": "eager_greedy([ff()])"}
GRACE_SECONDS = 5.0  # past the timeout, before the driver's process group is killed

# Fast Downward exit codes (https://www.fast-downward.org/latest/documentation/exit-codes/).
_EXIT_STATUS = {
    0: SOLVED,
    10: UNSOLVABLE, 11: UNSOLVABLE,
    21: TIMEOUT, 23: TIMEOUT, 24: TIMEOUT,
}
_EXIT_MESSAGE = {
    10: "the translator proved the task unsolvable",
    11: "the search space was exhausted: the task is unsolvable",
    12: "the incomplete search ended without a plan",
    20: "the translator ran out of memory",
    22: "the search ran out of memory",
}
_COUNTERS = {"expanded": re.compile(r"Expanded (\d+) state"), "generated": re.compile(r"Generated (\d+) state"),
             "evaluated": re.compile(r"Evaluated (\d+) state")}


def find_driver() -> Path:
    """The `fast-downward.py` driver inside the installed `up-fast-downward` package (without importing it)."""
    spec = find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ApbError(NOT_INSTALLED)
    driver = Path(next(iter(spec.submodule_search_locations))) / "downward" / "fast-downward.py"
    if not driver.is_file():
        raise ApbError(f"the {PACKAGE} package has no Fast Downward driver at {driver}: "
                       "reinstall it with pip install --force-reinstall 'apb[planners]'")
    return driver


def is_available() -> bool:
    """Whether the Fast Downward backend can run here."""
    try:
        find_driver()
    except ApbError:
        return False
    return True


def fast_downward(task: Task, mode: str = "opt", *, timeout: float | None = 60.0) -> SearchResult:
    """Solves `task` with Fast Downward: mode "opt" (A* + LM-cut, optimal) or "sat" (greedy search with h_FF)."""
    if mode not in SEARCH_CONFIGS:
        raise ApbError(f"unknown Fast Downward mode {mode!r}: use 'opt' or 'sat'")
    driver = find_driver()
    budget = Budget(timeout)
    planner = f"fd-{mode}"
    heuristic = "lmcut" if mode == "opt" else "ff"
    with tempfile.TemporaryDirectory(prefix="apb-fd-") as folder:
        work = Path(folder)
        (work / "domain.pddl").write_text(domain_to_pddl(task.domain), encoding="utf-8")
        (work / "problem.pddl").write_text(problem_to_pddl(task.problem), encoding="utf-8")
        command = [sys.executable, str(driver), "--plan-file", "sas_plan"]
        if timeout is not None:
            command += ["--overall-time-limit", str(max(1, math.ceil(timeout)))]
        command += ["domain.pddl", "problem.pddl", "--search", SEARCH_CONFIGS[mode]]
        try:
            returncode, output = _run(command, work, None if timeout is None else timeout + GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            return SearchResult(TIMEOUT, planner, seconds=budget.elapsed(), heuristic=heuristic,
                                message=f"time limit of {timeout:g} s reached")
        counters = {name: _last_int(pattern, output) for name, pattern in _COUNTERS.items()}
        status = _EXIT_STATUS.get(returncode, ERROR)
        message = _EXIT_MESSAGE.get(returncode, "")
        if status == TIMEOUT:
            message = f"time limit of {timeout:g} s reached"
        elif status == ERROR and not message:
            message = f"Fast Downward failed with exit code {returncode}: {_tail(output)}"
        plan = None
        if status == SOLVED:
            plan, problem = _read_plan(task, work / "sas_plan")
            if problem:
                status, message, plan = ERROR, problem, None
    return SearchResult(status, planner, plan, seconds=budget.elapsed(), heuristic=heuristic, message=message,
                        **counters)


def run_on_files(domain_file: str | os.PathLike, problem_file: str | os.PathLike, *, alias: str = "lama-first",
                 timeout: float | None = 60.0, kill_after: float | None = None) -> tuple[str, str | None, str]:
    """Runs Fast Downward with one of its aliases (default LAMA's first iteration) on PDDL files as they are:
    (status, the plan file's text or None, message). `timeout` is Fast Downward's own (CPU) limit; the process
    group is killed `kill_after` wall-clock seconds after the start (default: the timeout plus a grace). The plan
    is not checked here: the caller validates it."""
    driver = find_driver()
    with tempfile.TemporaryDirectory(prefix="apb-fd-") as folder:
        command = [sys.executable, str(driver), "--alias", alias, "--plan-file", "sas_plan"]
        if timeout is not None:
            command += ["--overall-time-limit", str(max(1, math.ceil(timeout)))]
        command += [str(Path(domain_file).resolve()), str(Path(problem_file).resolve())]
        try:
            wall = kill_after if kill_after is not None else None if timeout is None else timeout + GRACE_SECONDS
            returncode, output = _run(command, Path(folder), wall)
        except subprocess.TimeoutExpired:
            return TIMEOUT, None, f"killed after {wall:g} s"
        status = _EXIT_STATUS.get(returncode, ERROR)
        plan_file = Path(folder) / "sas_plan"
        plan = plan_file.read_text(encoding="utf-8") if status == SOLVED and plan_file.is_file() else None
        message = _EXIT_MESSAGE.get(returncode, "") or (
            f"Fast Downward failed with exit code {returncode}: {_tail(output)}" if status == ERROR else "")
        return status, plan, message


def _run(command: list[str], cwd: Path, timeout: float | None) -> tuple[int, str]:
    """Runs the driver in its own process group, so that a timeout also stops the search process it starts."""
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          start_new_session=True) as process:
        try:
            output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
        return process.returncode, output


def _read_plan(task: Task, path: Path):
    """(plan, None) or (None, what is wrong) from Fast Downward's plan file."""
    if not path.is_file():
        return None, "Fast Downward reported success but wrote no plan file"
    plan = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        try:
            plan.append(task.parse_action(line))
        except ActionError as err:
            return None, f"cannot read Fast Downward's plan step {line!r}: {err}"
    check = task.validate(plan)
    if not check.valid:
        return None, f"Fast Downward's plan is not valid here: {check.reason}"
    return plan, None


def _last_int(pattern: re.Pattern, text: str) -> int:
    found = pattern.findall(text)
    return int(found[-1]) if found else 0


def _tail(text: str, lines: int = 5) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])

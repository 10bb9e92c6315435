"""pymimir (Mimir's Python API, grounded mode) as a peer for `apb bench engine --peer pymimir`.

One row per IPC domain of `MIMIR_DOMAINS` (the constructs of the engine's differential tests: action costs, ADL,
conditional effects, derived predicates, plus plain STRIPS), on the domain's smallest problem of the reference set
(`shared/reference/ipc-classical`, three problems each). Both engines are measured in the same run, one after the
other, with the same protocol:

- grounding: parse the problem (the domain is parsed once beforehand) and ground it, up to the first applicable
  actions of the initial state (pymimir grounds lazily, so that first call is part of its grounding); best of
  `GROUND_REPEATS`;
- steps/s: what a user's loop does, random walks for a fixed time: a step asks for the applicable actions of
  the current state and applies one drawn at random (`task.applicable` + `task.apply`; pymimir's
  `state.generate_applicable_actions()` + `action.apply(state)`); a walk restarts from the initial state at a dead
  end and after `WALK_LENGTH` steps (an episode's length), so both engines sample the same distribution of states
  near the initial one. Nothing else is timed: no goal test (pymimir's `GroundConjunctiveCondition.holds` is a
  Python loop over freshly wrapped literals, several microseconds a call, which made an earlier version of this
  benchmark flatter apb by up to 1.5x on psr-middle and philosophers), no state hashing, no sorting beyond what
  each API returns. The two walks alternate in `SLICES` slices, so that the load of a shared machine falls on
  both alike; `repeat` runs of the walks give the minimum ratio per domain.

pymimir comes with the `dev` extra (`pymimir>=0.13,<0.14`); it is imported only inside the functions.
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import random
import re
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from apb import __version__
from apb.engine import load_domain, load_problem
from apb.engine.errors import ApbError
from apb.engine.task import Task

# The IPC domains compared: STRIPS with costs, ADL (quantifiers, disjunctions, conditional effects), derived
# predicates (psr-middle, psr-large, philosophers, optical-telegraphs) and plain STRIPS.
MIMIR_DOMAINS = (
    "elevators-opt08-strips", "transport-opt08-strips", "parcprinter-08-strips", "woodworking-opt08-strips",
    "miconic-fulladl", "schedule", "assembly", "airport-adl", "psr-small", "psr-middle", "psr-large",
    "philosophers", "optical-telegraphs", "openstacks", "trucks", "zenotravel", "blocks", "gripper",
    "visitall-opt11-strips",
)
GROUND_REPEATS = 3
SLICES = 4  # the walks alternate between the engines this many times
WALK_LENGTH = 100  # a walk restarts from the initial state after this many steps
INSTALL_HINT = "pymimir is not installed: pip install 'pymimir>=0.13,<0.14' (part of apb's dev extra)"


def mimir_available() -> bool:
    """Whether pymimir can be imported here."""
    try:
        import pymimir  # noqa: F401
    except ImportError:
        return False
    return True


def smallest_problem(folder: Path) -> tuple[Path, Path] | None:
    """(domain file, problem file) of the folder's smallest problem by size; a problem's own domain file (such as
    p03-domain.pddl for p03-s7-n1-l3-f70.pddl) wins over domain.pddl."""
    problems = [p for p in folder.glob("*.pddl") if "domain" not in p.name]
    if not problems:
        return None
    problem = min(problems, key=lambda p: (p.stat().st_size, p.name))
    parts = problem.stem.split("-")
    prefixes = {"-".join(parts[:i]) for i in range(1, len(parts) + 1)}
    own = sorted(d for d in folder.glob("*domain*.pddl")
                 if d.name != "domain.pddl" and re.sub(r"[-_]?domain[-_]?", "", d.stem) in prefixes)
    domain = own[0] if own else folder / "domain.pddl"
    return (domain, problem) if domain.is_file() else None


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """Mute file descriptors 1 and 2 (pymimir's C++ code prints its grounding statistics there)."""
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


class ApbWalk:
    """apb's random walk, resumable: `run(seconds)` continues where the last slice stopped; returns steps taken."""

    def __init__(self, task: Task, seed: int = 0) -> None:
        self.task, self.rng, self.state, self.length = task, random.Random(seed), task.initial_state, 0

    def run(self, seconds: float) -> int:
        rng, task = self.rng, self.task
        applicable, apply = task.applicable, task.apply
        initial, state, length = task.initial_state, self.state, self.length
        steps = 0
        deadline = time.perf_counter() + seconds
        while True:
            for _ in range(64):
                actions = applicable(state)
                if not actions or length >= WALK_LENGTH:
                    state, length = initial, 0
                    continue
                state = apply(state, actions[rng.randrange(len(actions))])
                steps += 1
                length += 1
            if time.perf_counter() >= deadline:
                break
        self.state, self.length = state, length
        return steps


class MimirWalk:
    """The same walk on a pymimir grounded problem."""

    def __init__(self, problem, seed: int = 0) -> None:
        self.rng, self.length = random.Random(seed), 0
        self.initial = self.state = problem.get_initial_state()

    def run(self, seconds: float) -> int:
        rng, initial, state, length = self.rng, self.initial, self.state, self.length
        steps = 0
        deadline = time.perf_counter() + seconds
        while True:
            for _ in range(64):
                actions = state.generate_applicable_actions()
                if not actions or length >= WALK_LENGTH:
                    state, length = initial, 0
                    continue
                state = actions[rng.randrange(len(actions))].apply(state)
                steps += 1
                length += 1
            if time.perf_counter() >= deadline:
                break
        self.state, self.length = state, length
        return steps


def ground_apb(domain_file: Path, problem_file: Path) -> tuple[float, Task]:
    """apb's grounding seconds (best of GROUND_REPEATS, up to the first applicable actions) and the task."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        domain = load_domain(domain_file)
        best = math.inf
        task = None
        for _ in range(GROUND_REPEATS):
            start = time.perf_counter()
            task = Task(domain, load_problem(problem_file, domain))
            task.applicable(task.initial_state)
            best = min(best, time.perf_counter() - start)
    return best, task


def mimir_domain_text(domain_file: Path) -> str:
    """The domain text pymimir accepts: it wants :derived-predicates (and :adl) declared where axioms are used."""
    text = domain_file.read_text(encoding="utf-8", errors="replace")
    if "(:derived" in text.lower():
        text = re.sub(r"\(:requirements", "(:requirements :adl :derived-predicates", text, count=1, flags=re.I)
    return text


def ground_mimir(domain_file: Path, problem_file: Path, folder: Path) -> tuple[float, object]:
    """pymimir's grounding seconds (same protocol) and its grounded problem; `folder` holds the domain copy."""
    import pymimir

    path = folder / "domain.pddl"
    path.write_text(mimir_domain_text(domain_file), encoding="utf-8")
    domain = pymimir.Domain(str(path))
    best = math.inf
    problem = None
    for _ in range(GROUND_REPEATS):
        start = time.perf_counter()
        with _silenced():
            problem = pymimir.Problem(domain, str(problem_file), mode="grounded")
            problem.get_initial_state().generate_applicable_actions()
        best = min(best, time.perf_counter() - start)
    return best, problem


def compare_walks(ours: ApbWalk, theirs: MimirWalk | None, seconds: float) -> tuple[float, float | None]:
    """Steps/s of both walks, measured in SLICES alternating slices of `seconds` / SLICES each, so that a change
    in the machine's load (2 shared cores) falls on both engines alike."""
    piece = seconds / SLICES
    counts = [0, 0]
    spent = [0.0, 0.0]
    for _ in range(SLICES):
        for k, walk in enumerate((ours, theirs)):
            if walk is None:
                continue
            start = time.perf_counter()
            if k:
                with _silenced():
                    counts[k] += walk.run(piece)
            else:
                counts[k] += walk.run(piece)
            spent[k] += time.perf_counter() - start
    return counts[0] / spent[0], (counts[1] / spent[1] if theirs is not None else None)


def find_ipc(explicit: str | os.PathLike | None = None) -> Path:
    """The IPC classical folder: the argument, $APB_IPC, or shared/reference/ipc-classical nearby."""
    if explicit:
        candidates = [Path(explicit)]
    elif os.environ.get("APB_IPC"):
        candidates = [Path(os.environ["APB_IPC"])]
    else:
        here = Path.cwd().resolve()
        candidates = [base / "shared" / "reference" / "ipc-classical" for base in (here, *here.parents)]
    for path in candidates:
        if path.is_dir():
            return path
    raise ApbError("IPC classical folder not found: pass --ipc DIR or set APB_IPC "
                   f"(looked in {candidates[0]})")


def run_mimir_bench(ipc=None, seconds: float = 1.0, domains: list[str] | None = None,
                    progress=None, repeat: int = 1) -> dict[str, Any]:
    """apb and pymimir side by side on the smallest problem of each of `domains` (default MIMIR_DOMAINS); the
    walks run `repeat` times (fresh walks, same seeds) and a row's `ratio` is the minimum over the runs."""
    if repeat < 1:
        raise ApbError(f"--repeat must be at least 1, not {repeat}")
    if not mimir_available():
        raise ApbError(INSTALL_HINT)
    root = find_ipc(ipc)
    rows = []
    for name in domains or MIMIR_DOMAINS:
        pair = smallest_problem(root / name) if (root / name).is_dir() else None
        if pair is None:
            raise ApbError(f"no problem for domain {name!r} in {root}: check --ipc")
        domain_file, problem_file = pair
        if progress is not None:
            progress.print(f"[dim]bench {name}/{problem_file.name}[/dim]")
        ground_s, task = ground_apb(domain_file, problem_file)
        row: dict[str, Any] = {"domain": name, "problem": problem_file.name, "facts": task.num_facts,
                               "actions": len(task.actions), "apb_ground_ms": round(ground_s * 1000, 1)}
        with tempfile.TemporaryDirectory(prefix="apb-mimir-") as folder:
            try:
                mimir_s, problem = ground_mimir(domain_file, problem_file, Path(folder))
            except Exception as error:
                row["pymimir_error"] = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0]}"[:200]
                problem = None
            runs = [compare_walks(ApbWalk(task), MimirWalk(problem) if problem is not None else None, seconds)
                    for _ in range(repeat)]
        if problem is None:
            row["apb_steps_per_s"] = round(max(ours for ours, _ in runs))
        else:
            ours, theirs = min(runs, key=lambda run: run[0] / run[1])  # the run with the lowest ratio
            row.update(apb_steps_per_s=round(ours), pymimir_ground_ms=round(mimir_s * 1000, 1),
                       pymimir_steps_per_s=round(theirs), ratio=round(ours / theirs, 2),
                       ratios=[round(a / b, 2) for a, b in runs])
        rows.append(row)
    ratios = [r["ratio"] for r in rows if "ratio" in r]
    import pymimir

    return {
        "apb_version": __version__,
        "peer": f"pymimir {getattr(pymimir, '__version__', '0.13')} (grounded)",
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {os.cpu_count()} cpu",
        "seconds_per_problem": seconds,
        "repeat": repeat,
        "walk_length": WALK_LENGTH,
        "load": round(os.getloadavg()[0], 1),
        "rows": rows,
        "min_ratio": min(ratios, default=None),
        "geomean_ratio": round(math.exp(sum(math.log(r) for r in ratios) / len(ratios)), 2) if ratios else None,
    }


def print_mimir_report(report: dict[str, Any], console) -> None:
    """A rich table: per domain, both engines' grounding ms and steps/s and the steps/s ratio (apb / pymimir)."""
    from rich.table import Table

    repeat = report.get("repeat", 1)
    table = Table(title=f"apb {report['apb_version']} vs {report['peer']} (Python {report['python']}, "
                        f"{report['machine']}, load {report.get('load', '?')}, {report['seconds_per_problem']:g} s of "
                        f"applicable + apply walks, {repeat} run(s){', the lowest ratio' if repeat > 1 else ''})")
    for column in ("domain", "problem", "facts", "actions", "apb ground ms", "pymimir ground ms", "apb steps/s",
                   "pymimir steps/s", "ratio", "runs"):
        table.add_column(column, justify="left" if column in ("domain", "problem") else "right", no_wrap=True)
    failures = []
    for row in report["rows"]:
        cells = [row["domain"], row["problem"], str(row["facts"]), str(row["actions"]), f"{row['apb_ground_ms']:.1f}"]
        if "ratio" in row:
            cells += [f"{row['pymimir_ground_ms']:.1f}", f"{row['apb_steps_per_s']:,}",
                      f"{row['pymimir_steps_per_s']:,}", f"{row['ratio']:.2f}x",
                      " ".join(f"{r:.2f}" for r in row.get("ratios", [row["ratio"]]))]
        else:
            cells += ["fails", f"{row['apb_steps_per_s']:,}", "fails", "-", "-"]
            failures.append(f"pymimir fails on {row['domain']}/{row['problem']}: {row['pymimir_error']}")
        table.add_row(*cells)
    console.width = max(console.width, 150)  # rows must not wrap or truncate, also in a file or pipe
    console.print(table)
    for line in failures:
        console.print(line, markup=False, highlight=False)
    if report["geomean_ratio"] is not None:
        console.print(f"steps/s apb / pymimir: lowest {report['min_ratio']:.2f}x, geometric mean "
                      f"{report['geomean_ratio']:.2f}x (per domain the lowest of {repeat} run(s))", markup=False,
                      highlight=False)

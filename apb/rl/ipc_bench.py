"""`apb rl bench ipc2023`: apb's learned planner and Fast Downward's LAMA-first on the IPC 2023 Learning Track's
test tasks, side by side, with the track's scores (apb.rl.ipc_scores).

Each planner runs as its own process on one task at a time (the track's one core), with the same time limit; the
time T of a task is the CPU time of the process and its children, start-up, parsing and grounding included. CPU
time, not wall-clock time: Fast Downward's limits are CPU limits, and on a shared machine wall-clock time measures
the neighbours (the wall-clock time is recorded too; a process still running at 5 x the limit + 30 s is killed).
apb's learned planners are `apb rl plan` (the track's interface) with the domain's knowledge file of each learner
(`--planners wl,gnn,lama`; `learned` is every learner with a knowledge file for the domain), each with its learner's
default search (gnn: the greedy policy, wl: greedy best-first search) and labelled by learner (apb-wl, apb-gnn);
LAMA-first is Fast Downward's alias on the task's own files. Every plan a planner returns is validated by the
engine afterwards, outside the timing.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from apb.datasets.dataset import Dataset, ProblemEntry
from apb.datasets.ipc2023 import DOMAINS, TEST_SIZES, TRAINING, cost_key, from_ipc2023, read_costs, reference_costs
from apb.engine.errors import ApbError
from apb.planners.downward import run_on_files
from apb.planners.knowledge_files import LEARNERS, load_knowledge
from apb.planners.result import SOLVED, TIMEOUT
from apb.rl.ipc_runs import RunLog, digest
from apb.rl.ipc_scores import best_known_costs, common_quality, domain_scores
from apb.rl.training_tasks import training_tasks
from apb.rl.wl_train import WLConfig, train_wl

LEARNED = "apb-wl"  # the label of the wl learner's planner (label(learner): "apb-" + the learner)
LAMA = "lama-first"
LEARNED_ANY = "learned"  # --planners: every learner with a knowledge file for the domain
PLANNERS = (LEARNED_ANY, LAMA)  # the default
KNOWLEDGE_SUFFIXES = (".json", ".dk")
KILL_FACTOR, GRACE = 5.0, 30.0  # a planner process still running after 5 x the limit + 30 s (wall clock) is killed

Log = Callable[[str], None]


def knowledge_path(folder: str | os.PathLike, domain: str) -> Path:
    """Where `--train-time` writes a domain's wl knowledge file: DIR/<domain>.json."""
    return Path(folder) / f"{domain}.json"


def label(learner: str) -> str:
    """A learned planner's column: apb-<learner>."""
    return f"apb-{learner}"


def planner_names(text: str) -> list[str]:
    """`--planners wl,gnn,lama` -> ["apb-wl", "apb-gnn", "lama-first"] (`learned` kept, expanded per domain);
    ApbError naming the value otherwise."""
    names: list[str] = []
    for part in (p.strip().lower() for p in str(text).split(",") if p.strip()):
        name = {"lama": LAMA, LAMA: LAMA, LEARNED_ANY: LEARNED_ANY}.get(part)
        if name is None and part.removeprefix("apb-") in LEARNERS:
            name = label(part.removeprefix("apb-"))
        if name is None:
            raise ApbError(f"--planners {text!r}: choose from {', '.join(sorted(LEARNERS))}, {LEARNED_ANY}, lama")
        if name not in names:
            names.append(name)
    if not names:
        raise ApbError(f"--planners {text!r}: name one or more planners, separated by commas")
    return names


def knowledge_files(folder: str | os.PathLike, domain: str) -> dict[str, Path]:
    """The knowledge file of each learner for `domain` in `folder`: DIR/<domain>.json or .dk, or
    DIR/<domain>.<anything>.json or .dk (the learner is the file's kind); of several of one learner, a finished one,
    then the newest."""
    found: dict[str, list[Path]] = {}
    for path in sorted(Path(folder).glob(f"{domain}*")):
        stem = path.name[:-len(path.suffix)] if path.suffix in KNOWLEDGE_SUFFIXES else None
        if stem is None or not path.is_file() or not (stem == domain or stem.startswith(domain + ".")):
            continue
        try:
            knowledge = load_knowledge(path, warn=False)
        except ApbError:
            continue
        found.setdefault(knowledge.learner, []).append((knowledge.finished, path.stat().st_mtime, path))
    return {learner: max(files)[2] for learner, files in found.items()}


def split_entries(dataset: Dataset, split: str, numbers: Sequence[int] | None) -> list[ProblemEntry]:
    """The test tasks of a split (or `test`: every size) whose numbers are in `numbers` (all when None)."""
    chosen = dataset.only(split)
    if numbers is None:
        return list(chosen.problems)
    wanted = set(numbers)
    return [e for e, n in zip(chosen.problems, chosen.numbers()) if n in wanted]


def parse_numbers(text: str) -> list[int]:
    """'1-5,7' -> [1, 2, 3, 4, 5, 7]; ApbError naming the value otherwise."""
    numbers: list[int] = []
    for part in str(text).split(","):
        low, sep, high = part.strip().partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ApbError(f"--tasks {text!r}: write task numbers such as 1-5 or 1,3,7-9")
        numbers.extend(range(int(low), int(high if sep else low) + 1))
    return numbers


def run_learned(knowledge: Path, domain_file: Path, problem_file: Path, limit: float) -> dict:
    """`apb rl plan` on one task in its own process: {status, seconds, plan (text or None), message}."""
    with tempfile.TemporaryDirectory(prefix="apb-plan-") as folder:
        plan_file = Path(folder) / "plan"
        command = [sys.executable, "-m", "apb", "rl", "plan", str(knowledge), str(domain_file), str(problem_file),
                   str(plan_file), "--time-limit", f"{limit:g}"]
        clock = _Clock()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=KILL_FACTOR * limit + GRACE)
        except subprocess.TimeoutExpired:
            return {"status": TIMEOUT, "plan": None, "message": f"killed after {KILL_FACTOR * limit + GRACE:g} s",
                    **clock.read()}
        plan = plan_file.read_text(encoding="utf-8") if plan_file.is_file() else None
        said = (done.stdout.strip() + "\n" + done.stderr.strip()).strip()
        message = said.splitlines()[-1] if said else ""
        return {"status": SOLVED if plan is not None else "unsolved", "plan": plan, "message": message,
                **clock.read()}


def run_lama(domain_file: Path, problem_file: Path, limit: float) -> dict:
    """Fast Downward's LAMA-first on one task: {status, seconds, plan (text or None), message}."""
    clock = _Clock()
    status, plan, message = run_on_files(domain_file, problem_file, alias="lama-first", timeout=limit,
                                         kill_after=KILL_FACTOR * limit + GRACE)
    return {"status": status, "plan": plan, "message": message, **clock.read()}


class _Clock:
    """CPU seconds of the child processes finished since it was made (children's children included), and wall time."""

    def __init__(self) -> None:
        self.start, self.cpu = time.perf_counter(), _children_cpu()

    def read(self) -> dict:
        return {"seconds": _children_cpu() - self.cpu, "wall": time.perf_counter() - self.start}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def judge(dataset: Dataset, entry: ProblemEntry, outcome: dict, limit: float) -> dict:
    """The record of one run: the engine validates the plan; a plan found after the limit counts as unsolved."""
    record = {"task": entry.id, "status": outcome["status"], "seconds": round(outcome["seconds"], 3),
              "wall": round(outcome["wall"], 3),
              "solved": False, "valid": None, "cost": None, "message": outcome.get("message", "")}
    if outcome["plan"] is None:
        return record
    check = dataset.task(entry.id).validate(outcome["plan"])
    record["valid"] = bool(check.valid)
    if not check.valid:
        record["message"] = f"invalid plan: {check.reason}"
        return record
    record["cost"] = check.cost
    record["solved"] = outcome["seconds"] <= limit + 1.0  # a second's slack: the limits are the planners' own
    return record


def train_domain(dataset: Dataset, out: Path, seconds: float, log: Log | None) -> float:
    """Trains the WL learner on the domain's training tasks into `out` (resuming it); its training seconds."""
    tasks = training_tasks(dataset.only(TRAINING), smallest_first=True)
    model = train_wl(dataset.domain.name, tasks, out, WLConfig(time_limit=seconds), log=log)
    return float(model.training.get("seconds", 0.0))


def bench_domain(dataset: Dataset, entries: Sequence[ProblemEntry], knowledge: Path | dict[str, Path],
                 limit: float, reference: dict[str, float], planners: Sequence[str] = (LEARNED, LAMA),
                 log: Log | None = None, runs_file: RunLog | None = None) -> dict:
    """Runs every planner (labels: apb-<learner>, lama-first) on every task (one process at a time) and scores the
    domain. `knowledge` maps a learned planner's label to its knowledge file (one path: the file of every one).
    With `runs_file`, a run it holds (same task, planner, limit and knowledge) is taken from it, and every new run
    is appended to it."""
    runs: dict[str, list[dict]] = {p: [] for p in planners}
    domain = dataset.root.name
    digests = {p: "" if p == LAMA else digest(knowledge if isinstance(knowledge, Path) else knowledge[p])
               for p in planners}
    for entry in entries:
        for planner in planners:
            record = runs_file.get(domain, entry.id, planner, limit, digests[planner]) if runs_file else None
            if record is None:
                if planner != LAMA:
                    path = knowledge if isinstance(knowledge, Path) else knowledge[planner]
                    outcome = run_learned(path, dataset.domain_file, entry.path, limit)
                else:
                    outcome = run_lama(dataset.domain_file, entry.path, limit)
                record = judge(dataset, entry, outcome, limit)
                if runs_file:
                    runs_file.add(domain, entry.id, planner, limit, digests[planner], record)
            elif log:
                log(f"{domain} {entry.id} {planner}: taken from {runs_file.path}")
            runs[planner].append(record)
            if log:
                log(f"{domain} {entry.id} {planner}: {record['status']}"
                    + (f", cost {record['cost']:g}" if record["cost"] is not None else "")
                    + f", {record['seconds']:.1f} s" + ("" if record["valid"] is not False else ", INVALID"))
    known = {e.id: reference.get(cost_key(dataset, e)) for e in entries}
    best = best_known_costs([r for rs in runs.values() for r in rs], {k: v for k, v in known.items() if v})
    return {"domain": dataset.root.name, "tasks": len(entries),
            "scores": {p: domain_scores(rs, best) for p, rs in runs.items()}, "all_solve": common_quality(runs, best),
            "runs": runs}


def resolve_split(split: str) -> tuple[Path | None, str]:
    """(benchmark folder or None for $APB_IPC2023, split name): `easy`/`medium`/`hard`/`test`, or a folder laid out
    like the public repository (its test tasks of every size)."""
    if split in (*TEST_SIZES, "test"):
        return None, split
    path = Path(split).expanduser()
    if path.is_dir():
        return path, "test"
    raise ApbError(f"--split {split!r}: use easy, medium, hard, test, or a folder laid out like the track's "
                   "repository (<domain>/domain.pddl, <domain>/testing/<size>/p*.pddl)")


def domains_of(root: Path | None, wanted: str | None) -> list[str]:
    """The domains to run: `--domains a,b` or the track's ten (those present in a user's folder)."""
    if wanted:
        names = [d.strip().lower() for d in wanted.split(",") if d.strip()]
        if not names:
            raise ApbError(f"--domains {wanted!r}: name one or more domains, separated by commas")
        return names
    if root is not None:
        return [d for d in DOMAINS if (root / d / "domain.pddl").is_file()] or list(DOMAINS)
    return list(DOMAINS)


def run_bench(split: str, limit: float, *, knowledge: str | None = None, train_time: float | None = None,
              domains: str | None = None, tasks: str | None = None, costs: str | None = None,
              planners: Sequence[str] = PLANNERS, log: Log | None = None, runs: str | None = None) -> dict:
    """The whole benchmark (see the module docstring); returns {"settings", "domains": [...]}. `runs` names a runs
    file (apb.rl.ipc_runs): finished runs are kept there and not run again."""
    if knowledge is None and train_time is None:
        raise ApbError("pass --knowledge DIR (knowledge files of apb rl train, one per domain) or --train-time S")
    root, split_name = resolve_split(split)
    numbers = parse_numbers(tasks) if tasks else None
    work = Path(knowledge) if knowledge else Path(tempfile.mkdtemp(prefix="apb-knowledge-"))
    runs_file = RunLog(runs) if runs else None
    results = []
    for domain in domains_of(root, domains):
        dataset = from_ipc2023(domain, root)
        reference = reference_costs(dataset.root.parent)
        if costs:
            reference.update(read_costs(costs))
        train_seconds: dict[str, float | None] = {}
        if train_time is not None and (LEARNED in planners or LEARNED_ANY in planners):
            train_seconds[LEARNED] = train_domain(training_source(dataset, domain), knowledge_path(work, domain),
                                                  train_time, log)
        files = {label(learner): path for learner, path in knowledge_files(work, domain).items()}
        chosen = [p for p in planners if p != LEARNED_ANY]
        if LEARNED_ANY in planners:
            chosen[:0] = [p for p in sorted(files) if p not in chosen]
        for planner in chosen:
            if planner != LAMA and planner not in files:
                learner = planner.removeprefix("apb-")
                hint = ", or pass --train-time" if learner == "wl" else ""
                raise ApbError(f"{work}: no {learner} knowledge file for {domain} ({domain}.json, {domain}.{learner}"
                               f".json or .dk): train it with apb rl train ipc2023:{domain} --learner {learner} --out "
                               f"{work / (domain + '.' + learner + '.json')}{hint}")
        if not chosen:
            raise ApbError(f"{work}: no knowledge file for {domain}: train one with apb rl train ipc2023:{domain} "
                           "--out FILE, or pass --train-time")
        for planner, path in files.items():
            if planner in chosen and planner not in train_seconds:
                train_seconds[planner] = _trained_seconds(path)
        result = bench_domain(dataset, split_entries(dataset, split_name, numbers), files, limit, reference, chosen,
                              log, runs_file)
        result["training_seconds"] = sum(s for s in train_seconds.values() if s) if train_seconds else None
        result["training"] = train_seconds
        results.append(result)
    return {"settings": {"split": split, "time_limit": limit, "knowledge": str(work), "train_time": train_time,
                         "planners": list(planners), "runs": runs,
                         "reused": runs_file.reused if runs_file else 0}, "domains": results}


def training_source(dataset: Dataset, domain: str) -> Dataset:
    """The dataset whose training tasks teach `domain`: this one, or $APB_IPC2023's when a user's folder of test
    tasks has none."""
    if TRAINING in dataset.splits:
        return dataset
    return from_ipc2023(domain)


def _trained_seconds(path: Path) -> float | None:
    training = load_knowledge(path, warn=False).training
    value = training.get("seconds")
    return float(value) if isinstance(value, int | float) else None

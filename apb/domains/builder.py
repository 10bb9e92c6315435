"""Builds problem sets with gold plans from a domain's generator: the bundled sets and `apb generate`.

Each candidate from the generator is parsed, checked against the problems kept so far (no duplicates: the same
objects, initial facts and goal), and solved with A* + LM-cut (optimal). When A* runs out of its budget the
problem is solved with greedy best-first search instead and its plan is marked `; optimal: no`.

    python -m apb.domains.builder NAME [--split example|test|scaled] [--timeout S]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from apb.engine import Domain, Task, format_plan, load_domain, parse_problem
from apb.engine.errors import ApbError
from apb.planners import solve

TEST_SIZE = 20
MIN_LENGTH, MAX_LENGTH = 3, 20
EXAMPLE_LENGTHS = (4, 5)


@dataclass
class Built:
    """A kept problem: its PDDL text, gold plan and how it was made."""

    text: str
    plan: list[str]
    optimal: bool
    seed: int
    params: dict
    seconds: float

    @property
    def length(self) -> int:
        return len(self.plan)


def problem_key(task: Task) -> tuple:
    """What makes two problems the same: objects with types, initial facts and goal (not the problem name)."""
    problem = task.problem
    return (tuple(sorted(problem.objects.items())), frozenset(str(f) for f in problem.init),
            frozenset(str(g) for g in problem.goal))


def solve_gold(task: Task, timeout: float) -> tuple[list[str], bool] | None:
    """(plan, optimal?) by A* + LM-cut, or by GBFS when A* runs out of time; None when both fail."""
    result = solve(task, "astar", timeout=timeout)
    if result.status == "solved":
        return [str(a) for a in result.plan], True
    if result.status == "unsolvable":
        return None
    result = solve(task, "gbfs", timeout=timeout)
    if result.status == "solved":
        return [str(a) for a in result.plan], False
    return None


def make_problem(domain: Domain, generate: Callable[..., str], seed: int, params: dict) -> tuple[str, Task]:
    """Generates and parses one problem; a bad parameter or bad generated PDDL raises ApbError."""
    try:
        text = generate(seed, **params)
    except (TypeError, ValueError) as err:
        raise ApbError(f"cannot generate a problem with {params or 'the default parameters'}: {err}") from None
    problem = parse_problem(text, domain, f"<generated seed={seed} {params}>")
    return text, Task(domain, problem)


def build(domain: Domain, generate: Callable[..., str], candidates: Iterable[tuple[int, dict]], *, count: int,
          accept: Callable[[Built], bool] = lambda b: True, timeout: float = 60.0, seen: set | None = None,
          log: Callable[[str], None] = lambda s: None, max_duplicates: int | None = None) -> list[Built]:
    """Keeps the first `count` candidates that are new, solvable and accepted, in candidate order; stops early after
    `max_duplicates` duplicates in a row (the parameters allow no more distinct problems)."""
    seen = set() if seen is None else seen
    kept: list[Built] = []
    duplicates = 0
    for seed, params in candidates:
        if len(kept) >= count:
            break
        text, task = make_problem(domain, generate, seed, params)
        key = problem_key(task)
        if key in seen:
            log(f"  seed {seed} {params}: duplicate, skipped")
            duplicates += 1
            if max_duplicates is not None and duplicates >= max_duplicates:
                log(f"  {duplicates} duplicates in a row: these parameters give no more distinct problems")
                break
            continue
        duplicates = 0
        start = time.perf_counter()
        gold = solve_gold(task, timeout)
        seconds = time.perf_counter() - start
        if gold is None:
            log(f"  seed {seed} {params}: not solved, skipped")
            continue
        built = Built(text, gold[0], gold[1], seed, dict(params), seconds)
        if not accept(built):
            log(f"  seed {seed} {params}: plan length {built.length}, not kept")
            continue
        seen.add(key)
        kept.append(built)
        log(f"  seed {seed} {params}: plan length {built.length}{'' if built.optimal else ' (satisficing)'}, "
            f"{seconds:.2f} s")
    return kept


def plan_text(built: Built) -> str:
    """The gold plan file: actions, the cost comment, and whether it is proven optimal."""
    how = "yes (A* + LM-cut)" if built.optimal else "no (greedy best-first search with h_FF)"
    return format_plan(built.plan) + f"; optimal: {how}\n"


def write_set(folder: Path, items: list[tuple[str, Built]], *, clear: bool) -> None:
    """Writes `problems/<stem>.pddl` and `plans/<stem>.plan` under `folder`."""
    problems, plans = folder / "problems", folder / "plans"
    for path in (problems, plans):
        if clear and path.is_dir():
            shutil.rmtree(path)
        path.mkdir(parents=True, exist_ok=True)
    for stem, built in items:
        (problems / f"{stem}.pddl").write_text(built.text, encoding="utf-8")
        (plans / f"{stem}.plan").write_text(plan_text(built), encoding="utf-8")


def build_bundled(name: str, split: str, *, timeout: float = 60.0, log: Callable[[str], None] = print) -> list[Built]:
    """Rebuilds a bundled split from the generator's `suite(split)` and writes it into the package folder."""
    from apb.domains import registry

    folder = registry.domain_dir(name)
    domain = load_domain(folder / "domain.pddl")
    module = registry.generator(name)
    if split in ("example", "test"):
        seen: set = set()
        log(f"{name}: example")
        example = _build_example(domain, module, timeout, seen, log)
        log(f"{name}: test")
        low, high = getattr(module, "TEST_LENGTHS", (MIN_LENGTH, MAX_LENGTH))  # a generator may widen the range
        test = build(domain, module.generate, module.suite("test"), count=TEST_SIZE, timeout=timeout, seen=seen,
                     accept=lambda b: b.optimal and low <= b.length <= high, log=log)
        if len(test) < TEST_SIZE:
            raise ApbError(f"{name}: suite('test') gave only {len(test)} usable problems of {TEST_SIZE}; "
                           "offer more candidates")
        write_set(folder, [("p00", example)] + [(f"p{i:02d}", b) for i, b in enumerate(test, start=1)], clear=True)
        return [example, *test]
    log(f"{name}: {split}")
    candidates = module.suite(split)
    # study: a study's own problems, every candidate kept in order and solved optimally
    count, accept = (len(candidates), lambda b: b.optimal) if split == "study" else (TEST_SIZE, lambda b: True)
    built = build(domain, module.generate, candidates, count=count, timeout=timeout, accept=accept, log=log)
    if split == "study" and len(built) < count:
        raise ApbError(f"{name}: suite({split!r}) gave only {len(built)} usable problems of {count}")
    write_set(folder / split, [(f"p{i:02d}", b) for i, b in enumerate(built, start=1)], clear=True)
    return built


def _build_example(domain: Domain, module, timeout: float, seen: set, log) -> Built:
    """The one-shot example: the first candidate of optimal length 4 or 5, else the nearest one."""
    candidates = build(domain, module.generate, module.suite("example"), count=len(module.suite("example")),
                       timeout=timeout, seen=set(), accept=lambda b: b.optimal and b.length >= MIN_LENGTH, log=log)
    if not candidates:
        raise ApbError("suite('example') gave no solvable problem")
    best = min(candidates, key=lambda b: (0 if b.length in EXAMPLE_LENGTHS else abs(b.length - 4.5), 0))
    _, task = make_problem(domain, module.generate, best.seed, best.params)
    seen.add(problem_key(task))
    return best


def summary(name: str, built: list[Built], *, compare: bool = True) -> str:
    """Averages of the built set, next to the paper's Table 6 when `compare` (which averages p00-p20)."""
    from apb.domains import registry

    domain = load_domain(registry.domain_file(name))
    tasks = [parse_problem(b.text, domain) for b in built]
    n = len(built)
    ours = {"avg_optimal_plan_length": sum(b.length for b in built) / n,
            "avg_goal_facts": sum(len(p.goal) for p in tasks) / n,
            "avg_init_facts": sum(len(p.init) for p in tasks) / n,
            "avg_objects": sum(len(p.objects) for p in tasks) / n}
    paper = registry.paper_table6().get(name, {}) if compare else {}
    lines = [f"{name}: {n} problems, {sum(b.seconds for b in built):.1f} s solving"]
    for key, value in ours.items():
        ref = paper.get(key)
        diff = f"  paper {ref:.2f} ({(value - ref) / ref:+.0%})" if ref else ""
        lines.append(f"  {key:26s} {value:7.2f}{diff}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m apb.domains.builder", description=__doc__.splitlines()[0])
    parser.add_argument("name")
    parser.add_argument("--split", choices=("test", "scaled", "study"), default="test",
                        help="test builds p00 (the example) and p01-p20; scaled builds scaled/, study study/")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per problem for A* (then for GBFS)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        built = build_bundled(args.name, args.split, timeout=args.timeout,
                              log=(lambda s: None) if args.quiet else print)
    except ApbError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(summary(args.name, built, compare=args.split == "test"))
    print(f"built in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

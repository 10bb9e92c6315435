"""`apb bench env`: environment step throughput (NL feedback and info included) and reset latency.

Episodes run through `gymnasium.make`, so the wrappers a user gets (TimeLimit, OrderEnforcing, the passive
checker) are measured too. The policy sends an admissible action 80% of the time and an action with unmet
preconditions otherwise, so both feedback paths are timed. Resets: the first one (parse + ground + render),
repeats of the same problem, and a cycle over every problem once each has been loaded.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from typing import Any

import gymnasium as gym

from apb import __version__
from apb.engine.errors import ApbError
from apb.envs.registration import env_id, register_envs


def step_throughput(env: gym.Env, seconds: float, seed: int = 0) -> dict[str, float]:
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    every = [str(a) for a in env.unwrapped.task.actions]
    steps = invalid = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(64):
            admissible = info["admissible_actions"]
            action = rng.choice(admissible) if admissible and rng.random() < 0.8 else rng.choice(every)
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            invalid += not info["action_valid"]
            if terminated or truncated:
                episodes += 1
                _, info = env.reset()
                every = [str(a) for a in env.unwrapped.task.actions]
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"steps": steps, "seconds": elapsed, "steps_per_s": steps / elapsed, "invalid_share": invalid / steps,
            "episodes": episodes}


def reset_latency(domain: str, repeats: int = 50) -> dict[str, float]:
    env = gym.make(env_id(domain))
    t0 = time.perf_counter()
    env.reset(options={"problem": 1})
    first = time.perf_counter() - t0
    same = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        env.reset(options={"problem": 1})
        same.append(time.perf_counter() - t0)
    problems = env.unwrapped.problem_ids
    for pid in problems:  # load each once
        env.reset(options={"problem": pid})
    cycle = []
    for _ in range(max(1, repeats // len(problems))):
        for pid in problems:
            t0 = time.perf_counter()
            env.reset(options={"problem": pid})
            cycle.append(time.perf_counter() - t0)
    return {"first_ms": first * 1000, "same_median_ms": statistics.median(same) * 1000,
            "same_max_ms": max(same) * 1000, "cycle_median_ms": statistics.median(cycle) * 1000,
            "cycle_max_ms": max(cycle) * 1000, "problems": len(problems)}


def _rounded(values: dict) -> dict:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in values.items()}


def run_env_bench(domains: list[str] | None = None, seconds: float = 1.0, reference=None) -> dict[str, Any]:
    """Bundled domains (default: logistics, blocksworld, depot, rovers), plus AutoPlanBench's Logistics
    instance-12 (the engine bench's comparison point, with its own NL descriptions) when the reference is found."""
    register_envs()
    domains = domains or ["logistics", "blocksworld", "depot", "rovers"]
    rows = []
    for domain in domains:
        env = gym.make(env_id(domain), max_episode_steps=24)
        rows.append({"domain": domain, **_rounded({**step_throughput(env, seconds), **reset_latency(domain)})})
    try:
        from apb.bench.engine import find_reference

        folder = find_reference(reference) / "logistics"
    except ApbError:
        folder = None
    if folder is not None and (folder / "orig_problems" / "instance-12.pddl").is_file():
        env = gym.make("apb/PDDL-v0", domain_file=folder / "domain.pddl",
                       problem_file=folder / "orig_problems" / "instance-12.pddl", max_episode_steps=24)
        t0 = time.perf_counter()
        env.reset()
        first = (time.perf_counter() - t0) * 1000
        row = {"domain": "APB logistics i-12", **_rounded(step_throughput(env, seconds)),
               "first_ms": round(first, 3)}
        same = []
        for _ in range(50):
            t0 = time.perf_counter()
            env.reset()
            same.append((time.perf_counter() - t0) * 1000)
        median, worst = round(statistics.median(same), 3), round(max(same), 3)
        # one problem: cycling over the problems is resetting the same one
        row.update(same_median_ms=median, same_max_ms=worst, cycle_median_ms=median, cycle_max_ms=worst, problems=1)
        rows.append(row)
    return {"apb_version": __version__, "python": platform.python_version(), "machine": platform.machine(),
            "seconds_per_domain": seconds, "rows": rows,
            "min_steps_per_s": round(min(r["steps_per_s"] for r in rows)),
            "max_cycle_reset_ms": max(r["cycle_max_ms"] for r in rows)}


def print_env_report(report: dict[str, Any], console) -> None:
    from rich.table import Table

    table = Table(title=f"apb {report['apb_version']} env.step and reset (Python {report['python']}, "
                        f"{report['seconds_per_domain']} s per domain, 24-step episodes)")
    for column in ("domain", "steps/s", "invalid %", "1st reset ms", "reset ms med/max", "cycle ms med/max",
                   "problems"):
        table.add_column(column, justify="left" if column == "domain" else "right", no_wrap=True)
    for r in report["rows"]:
        table.add_row(r["domain"], f"{r['steps_per_s']:,.0f}", f"{100 * r['invalid_share']:.0f}",
                      f"{r['first_ms']:.1f}", f"{r['same_median_ms']:.2f} / {r['same_max_ms']:.2f}",
                      f"{r['cycle_median_ms']:.2f} / {r['cycle_max_ms']:.2f}", str(r["problems"]))
    console.width = max(console.width, 120)
    console.print(table)
    console.print(f"lowest env throughput {report['min_steps_per_s']:,} steps/s (NL feedback and info included); "
                  f"slowest reset after loading {report['max_cycle_reset_ms']:.2f} ms", markup=False,
                  highlight=False)

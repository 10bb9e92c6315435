"""`apb bench env`: environment step throughput (NL feedback and info included) and reset latency.

Episodes run through `gymnasium.make`, so the wrappers a user gets (TimeLimit, OrderEnforcing, the passive
checker) are measured too. The policy sends an admissible action 80% of the time and an action with unmet
preconditions otherwise, so both feedback paths are timed. Resets: the first one (parse + ground + render),
repeats of the same problem, and a cycle over every problem once each has been loaded.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from typing import Any

import gymnasium as gym
import numpy as np

from apb import __version__
from apb.console import print_table
from apb.engine.errors import ApbError
from apb.envs.registration import ENV_NAMES, env_id, register_envs
from apb.envs.wrappers import SelectInfo
from apb.flags import MAX_NUM_ENVS, at_most


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


# ---- vector envs (apb bench env --vector) ----------------------------------------------------------------------
VECTOR_MODES = ("single", "native", "sync", "async", "sync + SelectInfo", "async + SelectInfo")
OBS_MODES = ("text", "facts", "graph")


class _Stepper:
    """One env or vector env under measurement, stepped in slices (so the runs of one comparison interleave and a
    change in the machine's load hits them alike) with admissible random actions: `mode` None is one env from
    `gymnasium.make`, "native" apb's own vector env (`gymnasium.make_vec`'s default, lean batched infos), else
    `gymnasium.make_vec` in that Gymnasium mode ('sync' or 'async') with `num_envs` envs (`lean`: with
    SelectInfo's default keys). `obs` is the obs_mode; `actions` the action_mode: "text" sends admissible action
    strings, "index" applicable indices drawn from the (batched) action mask. Every problem is loaded before the
    clock starts (first loads are `reset_latency`'s job)."""

    def __init__(self, domain: str, mode: str | None, num_envs: int, seed: int, lean: bool, obs: str,
                 actions: str = "text") -> None:
        self.rng = random.Random(seed)
        self.draw = np.random.default_rng(seed)
        self.mode, self.index = mode, actions == "index"
        kwargs = {"max_episode_steps": 24, "obs_mode": obs, "action_mode": actions}
        if mode is None:
            num_envs, env = 1, gym.make(env_id(domain), **kwargs)
        elif mode == "native":
            env = gym.make_vec(env_id(domain), num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
        else:
            # graphs have no fixed size, so AsyncVectorEnv cannot put them in shared memory
            shared = {"vector_kwargs": {"shared_memory": False}} if mode == "async" and obs == "graph" else {}
            env = gym.make_vec(env_id(domain), num_envs=num_envs, vectorization_mode=mode,
                               wrappers=[SelectInfo] if lean else None, **kwargs, **shared)
        self.env, self.num_envs = env, num_envs
        for problem in gym.make(env_id(domain)).unwrapped.problem_ids:  # load every problem before timing
            env.reset(options={"problem": problem})
        _, self.info = env.reset(seed=seed)
        self.steps, self.seconds = 0, 0.0

    def run(self, seconds: float) -> None:
        env, rng, info = self.env, self.rng, self.info
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(16):
                if self.index:  # an applicable action index drawn from the (batched) mask
                    _, _, terminated, truncated, info = env.step(self._drawn(info["action_mask"]))
                    if self.mode is None and (terminated or truncated):
                        _, info = env.reset()
                elif self.mode is None:
                    _, _, terminated, truncated, info = env.step(rng.choice(info["admissible_actions"]))
                    if terminated or truncated:
                        _, info = env.reset()
                else:  # vector envs reset finished episodes themselves
                    _, _, _, _, info = env.step(tuple(rng.choice(a) for a in info["admissible_actions"]))
                self.steps += self.num_envs
        self.seconds += time.perf_counter() - start
        self.info = info

    def _drawn(self, mask: np.ndarray) -> Any:
        """A random applicable action per env from the mask (one int for a single env, an array for a vector)."""
        if self.mode is None:
            applicable = np.flatnonzero(mask)
            return int(applicable[self.rng.randrange(len(applicable))]) if len(applicable) else 0
        scores = self.draw.random(mask.shape)
        scores[mask == 0] = -1.0
        return scores.argmax(axis=1)

    def result(self) -> dict[str, float]:
        return {"envs": self.num_envs, "steps": self.steps, "seconds": self.seconds,
                "steps_per_s": self.steps / self.seconds}


def run_vector_bench(domains: list[str] | None = None, seconds: float = 1.0, num_envs: int = 2,
                     obs_modes: list[str] | None = None, modes: list[str] | None = None,
                     rounds: int = 5, actions: str = "text") -> dict[str, Any]:
    """Per domain (default: blocksworld, logistics) and observation mode (default: text, facts, graph): a single
    env, apb's native vector env, Gymnasium's SyncVectorEnv and AsyncVectorEnv with full infos and with
    SelectInfo's lean ones (`modes` picks some of VECTOR_MODES). The runs of one domain and observation mode
    alternate in `rounds` slices of `seconds / rounds` each; `vs_single` is steps/s over the single env's.
    `actions="index"` steps every run with index actions drawn from the action mask (see `_Stepper`)."""
    register_envs()
    rows = []
    modes = modes or list(VECTOR_MODES)
    for domain in domains or ["blocksworld", "logistics"]:
        for obs in obs_modes or list(OBS_MODES):
            names = ["single", *(m for m in modes if m != "single")]
            steppers = {}
            try:
                for name in names:
                    mode = None if name == "single" else name.split(" + ")[0]
                    steppers[name] = _Stepper(domain, mode, num_envs, 0, "SelectInfo" in name, obs, actions)
                for _ in range(rounds):
                    for stepper in steppers.values():
                        stepper.run(seconds / rounds)
            finally:
                for stepper in steppers.values():
                    stepper.env.close()
            single = steppers["single"].result()["steps_per_s"]
            for name in names:
                if name in modes:
                    row = _rounded(steppers[name].result())
                    rows.append({"domain": domain, "mode": name, "obs": obs, **row,
                                 "vs_single": round(row["steps_per_s"] / single, 3)})
                    if name == "native":  # batched or the per-env loop (apb.envs.vector)
                        rows[-1]["stepping"] = steppers[name].env.unwrapped.stepping
    return {"apb_version": __version__, "python": platform.python_version(), "machine": platform.machine(),
            "cpus": os.cpu_count(), "load": round(os.getloadavg()[0], 1), "seconds_per_run": seconds,
            "rounds": rounds, "num_envs": num_envs, "actions": actions, "rows": rows}


def print_vector_report(report: dict[str, Any], console) -> None:
    from rich.table import Table

    table = Table(title=f"apb {report['apb_version']} vector envs (Python {report['python']}, {report['cpus']} CPUs)")
    caption = (f"env steps/s summed over the envs; {report['seconds_per_run']} s per run in {report['rounds']} "
               f"interleaved slices, load {report.get('load', '?')}, random "
               + ("applicable action indices from the action mask" if report.get("actions") == "index"
                  else "admissible action strings")
               + ", 24-step episodes, every problem loaded first; vs single: the single env with the same observations")
    for column in ("domain", "obs", "mode", "envs", "steps/s", "vs single"):
        table.add_column(column, justify="left" if column in ("domain", "mode", "obs") else "right", no_wrap=True)
    for r in report["rows"]:
        table.add_row(r["domain"], r["obs"], r["mode"], str(r["envs"]), f"{r['steps_per_s']:,.0f}",
                      f"{r['vs_single']:.2f}x")
    console.width = max(console.width, 120)
    print_table(console, table, caption)


def add_bench_env_parser(bench_subparsers) -> None:
    """Adds `apb bench env` to the `apb bench` subparsers."""
    p = bench_subparsers.add_parser("env", help="env.step throughput with NL feedback, and reset latency")
    p.add_argument("--domains", help="comma-separated bundled domains (default: logistics,blocksworld,depot,rovers; "
                                     "with --vector: blocksworld,logistics)")
    p.add_argument("--seconds", type=float, default=1.0, help="stepping time per domain (default 1)")
    p.add_argument("--vector", action="store_true",
                   help="steps/s of gymnasium.make_vec sync and async vector envs next to a single env")
    p.add_argument("--num-envs", type=at_most(MAX_NUM_ENVS), default=2,
                   help=f"envs per vector env with --vector (default 2, at most {MAX_NUM_ENVS})")
    p.add_argument("--obs", help="with --vector: comma-separated observation modes (default: text,facts,graph)")
    p.add_argument("--modes", help="with --vector: comma-separated runs of " + ", ".join(VECTOR_MODES)
                                   + " (default: all; single is always measured for vs_single)")
    p.add_argument("--actions", choices=("text", "index"), default="text",
                   help="with --vector: admissible action strings (default) or action indices drawn from the "
                        "batched action mask (action_mode='index')")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_bench_env)


def cmd_bench_env(args) -> int:
    from apb.bench.output import comma_list, show_report

    unknown = [d for d in comma_list(args.domains) or () if d not in ENV_NAMES]
    if unknown:
        raise ApbError(f"unknown domain(s) {', '.join(unknown)}: apb bench env takes bundled domains "
                       f"({', '.join(sorted(ENV_NAMES))})")
    obs_modes, modes = comma_list(args.obs), comma_list(args.modes)
    if bad := [o for o in obs_modes or () if o not in OBS_MODES]:
        raise ApbError(f"--obs {','.join(bad)}: the observation modes are {', '.join(OBS_MODES)}")
    if bad := [m for m in modes or () if m not in VECTOR_MODES]:
        raise ApbError(f"--modes {','.join(bad)}: the runs are {', '.join(VECTOR_MODES)}")
    if args.vector:
        report = run_vector_bench(comma_list(args.domains), seconds=args.seconds, num_envs=args.num_envs,
                                  obs_modes=obs_modes, modes=modes, actions=args.actions)
        return show_report(report, print_vector_report, args.json)
    return show_report(run_env_bench(comma_list(args.domains), seconds=args.seconds), print_env_report, args.json)

"""Read episode trajectories (JSONL) from one or more run folders and compute the paper's metrics.

Acc: the episode's footer says `success` (goal reached and, with `require_finish`, declared). Acc0: success with
no invalid action. LF: executed actions / optimal plan length (else the gold plan's length), averaged over successes
with a known length. With action costs, `plan_cost` is the mean cost of the successes' plans and `lf_cost` the
cost-normalised LF: plan cost / optimal plan cost, averaged over successes with a known optimal cost.
Crashed episodes (footer `error`) count in every denominator. Rows group by (domain, agent, model, split); solved
counts per seed give a mean and a standard error over seeds.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apb.engine.errors import ApbError
from apb.envs.text_env import FINISH, LOOK_AROUND
from apb.eval.trajectory import TrajectoryError, read_trajectory

NON_EXECUTING_ACTIONS = {LOOK_AROUND, FINISH}
GROUP_KEYS = ("domain", "agent", "model", "split")


class RunInputError(ApbError):
    """A run folder is missing or holds no trajectories."""


TrajectoryFileError = TrajectoryError  # a trajectory file that cannot be read (names the file and line)


@dataclass
class Episode:
    """One finished episode: its header, step records and footer, and the file it came from."""

    path: Path
    header: dict[str, Any]
    steps: list[dict[str, Any]]
    footer: dict[str, Any]

    @property
    def episode_id(self) -> str:
        return str(self.header.get("episode_id") or self.path.stem)

    @property
    def description(self) -> str:
        """The env's description: curated (older trajectories say nothing), rule, or a variant (obfuscated, ...)."""
        return str(self.header.get("description") or "curated")

    @property
    def key(self) -> tuple[str, str, str, str]:
        """(domain, agent, model, split); an agent run on a robustness variant is its own condition, `bfs@shuffled`."""
        values = [str(self.header.get(k) or "") for k in GROUP_KEYS]
        if self.description not in ("curated", "pddl"):
            values[1] += f"@{self.description}"
        return tuple(values)  # type: ignore[return-value]

    @property
    def seed(self) -> Any:
        return self.header.get("seed")

    @property
    def success(self) -> bool:
        return bool(self.footer.get("success"))

    @property
    def invalid_actions(self) -> int:
        return int(self.footer.get("invalid_actions") or 0)

    @property
    def success0(self) -> bool:
        return self.success and self.invalid_actions == 0

    @property
    def error(self) -> str | None:
        return self.footer.get("error") or None

    def _recorded(self, key: str) -> Any:
        """A value the footer records, else the header (older footers lack some keys)."""
        value = self.footer.get(key)
        return self.header.get(key) if value is None else value

    @property
    def optimal_plan_length(self) -> int | None:
        value = self._recorded("optimal_plan_length")
        return int(value) if value is not None else None

    @property
    def reference_length(self) -> int | None:
        """The plan length LF and the plot measure against: the optimal length when known, else the length of the
        problem's gold plan (AutoPlanBench's are mostly but not always optimal)."""
        value = self.optimal_plan_length
        if value is None and self.header.get("gold_plan_length") is not None:
            value = int(self.header["gold_plan_length"])
        return value

    @property
    def executed_actions(self) -> int:
        """Valid actions that changed the state: not look-around, not finish."""
        return sum(1 for s in self.steps if s.get("action_valid") and
                   " ".join(str(s.get("action", "")).lower().split()) not in NON_EXECUTING_ACTIONS)

    @property
    def action_costs(self) -> bool:
        """True when the episode's task has action costs (`:metric minimize (total-cost)`)."""
        return bool(self.header.get("action_costs"))

    @property
    def plan_cost(self) -> float | None:
        """The summed cost of the valid actions executed (footer `plan_cost`; None in older trajectories)."""
        value = self.footer.get("plan_cost")
        return float(value) if value is not None else None

    @property
    def optimal_plan_cost(self) -> float | None:
        value = self._recorded("optimal_plan_cost")
        return float(value) if value is not None else None

    @property
    def cost_factor(self) -> float | None:
        """The cost-normalised LF of a success: plan cost / optimal plan cost (None when either is unknown or the
        optimal cost is 0)."""
        cost, opt = self.plan_cost, self.optimal_plan_cost
        if not self.success or cost is None or not opt:
            return None
        return cost / opt

    @property
    def length_factor(self) -> float | None:
        opt = self.reference_length
        if not self.success or not opt:
            return None
        return self.executed_actions / opt


def read_episode(path: Path) -> Episode:
    """One finished trajectory file (through the one reader, `apb.eval.trajectory.read_trajectory`)."""
    return Episode(path=Path(path), **read_trajectory(path))


def _episode_folder(run_dir: Path) -> Path:
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise RunInputError(f"{run_dir}: no such run folder (pass the folder given to `apb eval --out`)")
    episodes = run_dir / "episodes"
    return episodes if episodes.is_dir() else run_dir


def _check_dirs(dirs: list[Path]) -> list[Path]:
    if not dirs:
        raise RunInputError("no run folder given")
    folders = [_episode_folder(Path(d)) for d in dirs]
    for run_dir, folder in zip(dirs, folders):
        if not any(folder.glob("*.jsonl")) and not any(folder.glob("*.jsonl.part")):
            raise RunInputError(f"{run_dir}: no trajectories found (expected {Path(run_dir) / 'episodes'}/*.jsonl)")
    return folders


VOLATILE_KEYS = frozenset({"started", "seconds", "latency"})  # differ between re-runs with the same result


def _without_volatile(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_volatile(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [_without_volatile(v) for v in value]
    return value


def _differences(first: Episode, second: Episode) -> list[str]:
    """What differs between the results (footer, steps) of two copies of an episode, timings aside."""
    a, b = _without_volatile(first.footer), _without_volatile(second.footer)
    keys = [f"footer {k}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if _without_volatile(first.steps) != _without_volatile(second.steps):
        keys.append("steps")
    return keys


def load_run(dirs: list[Path]) -> list[Episode]:
    """Finished episodes of several run folders (shards). An episode id found twice is kept once when both copies
    hold the same result (timings aside); copies that differ are an error naming both files, as is a domain name
    that stands for a bundled domain in one folder and a dataset folder in another (their ids collide)."""
    seen: dict[str, Episode] = {}
    conflicts: list[tuple[Episode, Episode, list[str]]] = []
    sources: dict[str, dict[str, Path]] = defaultdict(dict)  # domain -> source kind -> a file of that kind
    for folder in _check_dirs([Path(d) for d in dirs]):
        for path in sorted(folder.glob("*.jsonl")):
            episode = read_episode(path)
            env_id = str(episode.header.get("env_id") or "")
            if env_id:
                kind = "a dataset folder" if env_id.startswith("dataset:") else "the bundled domain"
                sources[str(episode.header.get("domain"))].setdefault(kind, path)
            first = seen.setdefault(episode.episode_id, episode)
            if first is not episode and (differences := _differences(first, episode)):
                conflicts.append((first, episode, differences))
    for domain, kinds in sources.items():
        if len(kinds) > 1:
            files = " and ".join(f"{kind} ({path})" for kind, path in sorted(kinds.items()))
            raise RunInputError(f"domain {domain!r} is {files} in these folders: their episodes would be mixed up; "
                                "report those runs separately")
    if conflicts:
        first, second, differences = conflicts[0]
        more = f" ({len(conflicts) - 1} more episode(s) too)" if len(conflicts) > 1 else ""
        raise RunInputError(f"episode {first.episode_id} is in {first.path} and in {second.path} with different "
                            f"results ({', '.join(differences[:4])} differ){more}: keep one of the files, or report "
                            "those folders separately")
    return list(seen.values())


def unfinished_episodes(dirs: list[Path], finished: list[Episode] | None = None) -> list[Path]:
    """`.jsonl.part` files whose episode finished in no shard (runs still going or interrupted)."""
    done = {e.episode_id for e in (finished if finished is not None else load_run(dirs))}
    unfinished = []
    for folder in _check_dirs([Path(d) for d in dirs]):
        for path in sorted(folder.glob("*.jsonl.part")):
            episode_id = path.name[: -len(".jsonl.part")]
            try:
                with path.open(encoding="utf-8") as handle:
                    episode_id = json.loads(handle.readline()).get("episode_id") or episode_id
            except (json.JSONDecodeError, AttributeError, OSError):
                pass
            if episode_id not in done:
                done.add(episode_id)
                unfinished.append(path)
    return unfinished


def mean_se(values: list[float]) -> tuple[float | None, float | None]:
    """Mean and standard error of the mean (sample sd / sqrt n); se is None with fewer than two values."""
    if not values:
        return None, None
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, None
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


@dataclass
class GroupMetrics:
    """Metrics of one (domain, agent, model, split) group."""

    domain: str
    agent: str
    model: str
    split: str
    episodes: list[Episode] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        """The summary.json row: the contract keys first, then extras."""
        eps = self.episodes
        n = len(eps)
        solved = sum(e.success for e in eps)
        solved0 = sum(e.success0 for e in eps)
        lfs = [lf for e in eps if (lf := e.length_factor) is not None]
        cfs = [cf for e in eps if (cf := e.cost_factor) is not None]
        plan_costs = [c for e in eps if e.success and e.action_costs and (c := e.plan_cost) is not None]
        by_seed: dict[Any, list[Episode]] = defaultdict(list)
        for e in eps:
            by_seed[e.seed].append(e)
        seeds = sorted(by_seed, key=str)
        solved_mean, solved_se = mean_se([sum(e.success for e in by_seed[s]) for s in seeds])
        acc_mean, acc_se = mean_se([sum(e.success for e in by_seed[s]) / len(by_seed[s]) for s in seeds])
        acc0_mean, acc0_se = mean_se([sum(e.success0 for e in by_seed[s]) / len(by_seed[s]) for s in seeds])
        roles: Counter[str] = Counter()
        for e in eps:
            for role, count in (e.footer.get("llm_calls") or {}).items():
                roles[role] += int(count or 0)
        costs = [e.footer.get("cost_usd") for e in eps]
        unpriced = sum(c is None for c in costs)
        cost = None if unpriced or not eps else round(sum(float(c) for c in costs), 10)
        stop = Counter(str(e.footer.get("stop_reason") or "unknown") for e in eps)
        return {
            "domain": self.domain, "agent": self.agent, "model": self.model, "split": self.split,
            "episodes": n, "solved": solved,
            "acc": solved / n if n else None,
            "acc0": solved0 / n if n else None,
            "lf": sum(lfs) / len(lfs) if lfs else None,
            "invalid_actions": sum(e.invalid_actions for e in eps),
            "llm_calls": sum(roles.values()),
            "input_tokens": sum(int(e.footer.get("input_tokens") or 0) for e in eps),
            "output_tokens": sum(int(e.footer.get("output_tokens") or 0) for e in eps),
            "cost_usd": cost,
            "errors": sum(e.error is not None for e in eps),
            # extras
            "solved0": solved0,
            "seeds": len(seeds),
            "problems": len({e.header.get("problem_id") for e in eps}),
            "solved_mean": solved_mean, "solved_se": solved_se,
            "acc_mean": acc_mean, "acc_se": acc_se,
            "acc0_mean": acc0_mean, "acc0_se": acc0_se,
            "lf_n": len(lfs),
            # successes whose LF is measured against a gold plan not known to be optimal (AutoPlanBench's)
            "lf_gold_n": sum(1 for e in eps if e.length_factor is not None and e.optimal_plan_length is None),
            "steps": sum(int(e.footer.get("steps") or 0) for e in eps),
            "look_arounds": sum(int(e.footer.get("look_arounds") or 0) for e in eps),
            "cached_tokens": sum(int(e.footer.get("cached_tokens") or 0) for e in eps),
            "description": eps[0].description if eps else "curated",
            "unpriced": unpriced,
            "llm_calls_by_role": dict(sorted(roles.items())),
            "stop_reasons": dict(sorted(stop.items())),
            # action costs (tasks with :metric minimize (total-cost)); None for groups without them
            "plan_cost": sum(plan_costs) / len(plan_costs) if plan_costs else None,
            "lf_cost": sum(cfs) / len(cfs) if cfs else None,
            "lf_cost_n": len(cfs),
        }


def group_episodes(episodes: list[Episode]) -> list[GroupMetrics]:
    """Groups by (domain, agent, model, split), sorted by those keys."""
    groups: dict[tuple[str, str, str, str], GroupMetrics] = {}
    for e in episodes:
        groups.setdefault(e.key, GroupMetrics(*e.key)).episodes.append(e)
    return [groups[k] for k in sorted(groups)]


def summarize(episodes: list[Episode]) -> list[dict[str, Any]]:
    """One summary row per (domain, agent, model, split)."""
    return [g.row() for g in group_episodes(episodes)]


def solved_by_plan_length(episodes: list[Episode]) -> dict[tuple[str, str], dict[int, tuple[int, int]]]:
    """Per (agent, model) ("" for no model): plan length (optimal, else gold) -> (solved, episodes)."""
    table: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for e in episodes:
        opt = e.reference_length
        if opt is None:
            continue
        cell = table[(e.key[1], e.key[2])][opt]
        cell[0] += e.success
        cell[1] += 1
    return {key: {length: (c[0], c[1]) for length, c in sorted(cells.items())} for key, cells in sorted(table.items())}

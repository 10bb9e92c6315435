"""The evaluation runner: plan episodes (domains x agents x problems x seeds), run them concurrently, resume.

    specs = plan_episodes(["blocksworld"], ["act"], [1, 2], seeds=2, model="openai:gpt-4o-mini")
    summary = asyncio.run(run_eval(specs, "runs/exp1", concurrency=8, resume=True))

Each episode runs synchronously (`apb.agents.run_episode`) in its own worker thread (`asyncio.to_thread`), under
a semaphore of `concurrency`, so one episode's LLM latency never blocks the others. One LLM object per model spec
is shared by all episodes of a run (its cache and running totals too). On Ctrl-C no new episode starts, running
episodes stop at their next step (their `.part` files are left and deleted by the next `--resume`), and every
finished trajectory stays intact.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as _dt
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from apb import __version__
from apb.engine.errors import ApbError
from apb.eval.trajectory import (
    FINAL_SUFFIX,
    PART_SUFFIX,
    EpisodeSpec,
    TrajectoryError,
    TrajectoryWriter,
    domain_name,
    episode_id,
    error_footer,
    finished_ids,
    footer_from_result,
    is_dataset_folder,
    prompts_hash,
    read_trajectory,
)

ALL = "all"  # --problems all: every problem of the split
# agents whose episode does not depend on the seed: they run once per problem, with the first seed
DETERMINISTIC_AGENTS = ("bfs", "astar", "gbfs", "fd-opt", "fd-sat", "oracle")
SYMBOLIC_AGENTS = ("random", "bfs", "astar", "gbfs", "fd-opt", "fd-sat", "oracle", "human")


class EvalError(ApbError):
    """A run that cannot start: a non-empty output folder without --resume, a bad problem range, ..."""


class EpisodeInterrupted(BaseException):
    """Raised inside a running episode when the run is being stopped (Ctrl-C): the episode is abandoned."""


# ---- planning -------------------------------------------------------------------------------------------------
def parse_problems(value: Any) -> list[int | str]:
    """'1-20' -> [1..20]; '1,3,5-7' -> [1, 3, 5, 6, 7]; 'all' -> ['all'] (every problem of the split); an int or
    a list is taken as is."""
    if isinstance(value, bool):
        raise EvalError(f"bad problems {value!r}: use a range like '1-20', a number or a list")
    if isinstance(value, int):
        return [value]
    if isinstance(value, list | tuple):
        out: list[int | str] = []
        for item in value:
            out.extend(parse_problems(item) if isinstance(item, int | str) else [item])
        return out
    if not isinstance(value, str) or not value.strip():
        raise EvalError(f"bad problems {value!r}: use a range like '1-20', a number or a list")
    if value.strip().lower() == ALL:
        return [ALL]
    out = []
    for part in value.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        if sep and lo.strip().isdigit() and hi.strip().isdigit():
            a, b = int(lo), int(hi)
            if a > b:
                raise EvalError(f"bad problems range {part!r}: the start is after the end")
            out.extend(range(a, b + 1))
        elif part.isdigit():
            out.append(int(part))
        elif part and not sep:
            out.append(part)  # a problem id such as 'p01'
        else:
            raise EvalError(f"bad problems {value!r}: use a range like '1-20', numbers or ids separated by commas")
    return out


def parse_seeds(value: Any) -> list[int]:
    """An int K -> seeds 0..K-1; a list -> those seeds."""
    if isinstance(value, bool):
        raise EvalError(f"bad seeds {value!r}: a count (3) or a list of seeds ([0, 7])")
    if isinstance(value, int):
        if value < 1:
            raise EvalError(f"bad seeds {value}: the number of seeds must be at least 1")
        return list(range(value))
    if isinstance(value, list | tuple) and value and all(isinstance(s, int) and not isinstance(s, bool)
                                                         for s in value):
        return list(value)
    raise EvalError(f"bad seeds {value!r}: a count (3) or a list of seeds ([0, 7])")


def plan_episodes(domains: Iterable[str], agents: Iterable[str], problems: Any, seeds: Any = 1, *,
                  model: str | None = None, split: str = "test", translator: str = "cascade",
                  require_finish: bool = False, agent_options: dict | None = None,
                  max_steps: int | None = None) -> list[EpisodeSpec]:
    """Every (domain, agent, problem, seed) combination as an EpisodeSpec; symbolic agents get no model, and the
    deterministic planners (DETERMINISTIC_AGENTS) run with the first seed only. `problems` are checked against
    every domain before anything runs. `agent_options` maps agent name -> constructor options."""
    from apb.agents import AGENTS

    problem_list = parse_problems(problems)
    seed_list = parse_seeds(seeds)
    options = agent_options or {}
    domains = list(domains)
    for agent in agents:
        if agent not in AGENTS:
            raise EvalError(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
        if agent not in SYMBOLIC_AGENTS and not model:
            raise EvalError(f"the {agent} agent needs an LLM: pass --llm SPEC (e.g. local, openai:gpt-4o-mini)")
    names: dict[str, str] = {}
    for domain in domains:
        if (other := names.setdefault(domain_name(domain), domain)) != domain:
            raise EvalError(f"two domains are both named {domain_name(domain)!r} ({other} and {domain}): their "
                            "episodes and report rows would mix; run them into separate --out folders")
    specs = []
    for domain in domains:
        selected = resolve_problems(domain, split, problem_list)
        for agent in agents:
            needs_llm = agent not in SYMBOLIC_AGENTS
            for problem in selected:
                for seed in seed_list[:1] if agent in DETERMINISTIC_AGENTS else seed_list:
                    specs.append(EpisodeSpec(domain=domain, problem=problem, agent=agent,
                                             model=model if needs_llm else None, seed=seed, split=split,
                                             translator=translator, agent_options=dict(options.get(agent) or {}),
                                             require_finish=require_finish, max_steps=max_steps))
    return specs


def problem_set(domain: str, split: str):
    """The problems of a bundled domain or a dataset folder in one split (EvalError naming what exists)."""
    from apb.domains.registry import domain_names
    from apb.envs.problems import bundled_problems, dataset_problems

    if not is_dataset_folder(domain) and domain not in domain_names():
        raise EvalError(f"unknown domain {domain!r}: use a bundled domain ({', '.join(domain_names())}), 'all', "
                        "or the path of a dataset folder")
    try:
        return bundled_problems(domain, split) if not is_dataset_folder(domain) else dataset_problems(domain, split)
    except ApbError as err:
        raise EvalError(f"domain {domain}: {err}") from None


def resolve_problems(domain: str, split: str, problems: list[int | str]) -> list[int | str]:
    """The problems to run in one domain: every problem of the split for ['all'] (by number when the numbers are
    unique, else by id), else `problems` as given once each is known to exist (EvalError naming what exists)."""
    from apb.datasets import DatasetError
    from apb.envs.problems import number_ranges, problem_number, select

    dataset = problem_set(domain, split)
    if problems == [ALL]:
        numbers = [problem_number(entry) for entry in dataset.problems]
        if None not in numbers and len(set(numbers)) == len(numbers):
            return list(numbers)
        return [entry.id for entry in dataset.problems]
    for problem in problems:
        try:
            select(dataset, problem)
        except DatasetError:
            numbers = [n for n in map(problem_number, dataset.problems) if n is not None]
            known = number_ranges(numbers) if len(numbers) == len(dataset.problems) else dataset.listed_ids()
            raise EvalError(f"domain {domain_name(domain)} (split {split}) has no problem {problem!r}: its problems "
                            f"are {known}; use --problems all for every one") from None
    return problems


# ---- one episode ----------------------------------------------------------------------------------------------
def build_env(spec: EpisodeSpec):
    """The env of an episode: a bundled domain through gymnasium.make, or a dataset folder."""
    import gymnasium

    import apb.envs  # noqa: F401 - registers the ids
    from apb.agents import PDDL_AGENTS
    from apb.envs.registration import env_id

    description = "pddl" if spec.agent in PDDL_AGENTS else "curated"
    if is_dataset_folder(spec.domain):
        from gymnasium.wrappers import TimeLimit

        from apb.envs.text_env import PDDLTextEnv

        env = PDDLTextEnv(dataset=spec.domain, split=spec.split, description=description,
                          require_finish=spec.require_finish)
        return TimeLimit(env, max_episode_steps=spec.horizon), f"dataset:{spec.domain}"
    name = env_id(spec.domain)
    env = gymnasium.make(name, split=spec.split, require_finish=spec.require_finish, description=description,
                         max_episode_steps=spec.horizon)
    return env, name


def build_agent(spec: EpisodeSpec, llm: Any = None):
    from apb.agents import make_agent
    from apb.translators import make_translator

    if spec.agent in SYMBOLIC_AGENTS:
        extra = {"seed": spec.seed} if _accepts(spec.agent, "seed") else {}
        return make_agent(spec.agent, **extra, **spec.agent_options)
    translator = make_translator(spec.translator, llm=llm) if spec.translator else None
    return make_agent(spec.agent, llm=llm, translator=translator, seed=spec.seed, **spec.agent_options)


def _accepts(agent: str, parameter: str) -> bool:
    import inspect

    from apb.agents import agent_class

    params = inspect.signature(agent_class(agent).__init__).parameters
    return parameter in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def episode_header(spec: EpisodeSpec, env_id: str | None, info: dict | None) -> dict:
    info = info or {}
    return {"type": "header", "apb_version": __version__, "episode_id": episode_id(spec), "env_id": env_id,
            "domain": spec.domain_name, "split": spec.split,
            "problem_id": info.get("problem_id", str(spec.problem)), "problem": spec.problem, "agent": spec.agent,
            "agent_options": spec.agent_options, "model": spec.model,
            "translator": None if spec.agent in SYMBOLIC_AGENTS else spec.translator, "seed": spec.seed,
            "require_finish": spec.require_finish, "max_steps": spec.horizon, "prompt_hash": prompts_hash(),
            "optimal_plan_length": info.get("optimal_plan_length"),
            "gold_plan_length": len(info["gold_plan"]) if isinstance(info.get("gold_plan"), list) else None,
            "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}


class _StoppableAgent:
    """Delegates to an agent, but raises EpisodeInterrupted before an action once `stop` is set."""

    def __init__(self, agent: Any, stop: threading.Event) -> None:
        self._agent, self._stop = agent, stop

    def __getattr__(self, name: str) -> Any:
        return getattr(self._agent, name)

    def reset(self, observation: str, info: dict) -> None:
        if self._stop.is_set():
            raise EpisodeInterrupted
        self._agent.reset(observation, info)

    def act(self, observation: str, info: dict) -> str:
        if self._stop.is_set():
            raise EpisodeInterrupted
        return self._agent.act(observation, info)


def run_one(spec: EpisodeSpec, out_dir: str | Path, *, llm: Any = None, stop: threading.Event | None = None,
            on_step: Callable[[Any], None] | None = None, wrap_agent: Callable[[Any], Any] | None = None) -> dict:
    """Runs one episode and writes its trajectory to `<out_dir>/episodes/<id>.jsonl`; returns the footer.
    Any failure (env, agent, LLM) becomes an error footer; only an interruption (`stop`) leaves a `.part`."""
    from apb.agents import run_episode
    from apb.agents.episode import _describe

    if llm is None and spec.model and spec.agent not in SYMBOLIC_AGENTS:
        from apb.llm import make_llm

        llm = make_llm(spec.model)
    path = Path(out_dir) / "episodes" / f"{episode_id(spec)}{FINAL_SUFFIX}"
    writer = TrajectoryWriter(path)
    start = time.perf_counter()
    env = None
    try:
        try:
            env, name = build_env(spec)
            observation, info = env.reset(seed=spec.seed, options={"problem": spec.problem})
        except Exception as err:
            writer.header(episode_header(spec, None, None))
            footer = error_footer(_describe(err), seconds=time.perf_counter() - start)
            writer.footer(footer)
            return footer
        header = episode_header(spec, name, info)
        writer.header(header)
        optimal = header["optimal_plan_length"]
        try:
            agent = build_agent(spec, llm)
        except Exception as err:
            footer = error_footer(_describe(err), seconds=time.perf_counter() - start, optimal_plan_length=optimal)
            writer.footer(footer)
            return footer
        if wrap_agent is not None:
            agent = wrap_agent(agent)
        if stop is not None:
            agent = _StoppableAgent(agent, stop)
        try:
            result = run_episode(env, agent, max_steps=spec.horizon, first=(observation, info))
        finally:
            with contextlib.suppress(Exception):
                agent.close()
        for record in result.steps:
            writer.step(record)
            if on_step is not None:
                on_step(record)
        footer = footer_from_result(result, seconds=time.perf_counter() - start, optimal_plan_length=optimal)
        writer.footer(footer)
        return footer
    except BaseException:
        writer.abort()
        raise
    finally:
        if env is not None:
            with contextlib.suppress(Exception):
                env.close()


# ---- many episodes --------------------------------------------------------------------------------------------
def prepare_out_dir(out_dir: str | Path, *, resume: bool) -> set[str]:
    """Checks the output folder; returns the finished episode ids (resume) after deleting stale `.part` files."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise EvalError(f"{out}: the output path is a file, not a folder")
    if out.exists() and any(out.iterdir()) and not resume:
        raise EvalError(f"{out}: the output folder is not empty; pass --resume to continue that run, or choose "
                        "another --out (nothing was overwritten)")
    episodes = out / "episodes"
    damaged = damaged_trajectories(episodes)
    if damaged:
        listed = "; ".join(damaged[:5]) + (f"; and {len(damaged) - 5} more" if len(damaged) > 5 else "")
        raise EvalError(f"{len(damaged)} finished trajectory file(s) cannot be read: {listed}. Nothing was changed; "
                        "delete or move those files and run with --resume again to re-run their episodes")
    episodes.mkdir(parents=True, exist_ok=True)
    for stale in episodes.glob("*" + PART_SUFFIX):
        stale.unlink()
    return finished_ids(episodes)


def damaged_trajectories(episodes_dir: Path) -> list[str]:
    """The problems of finished trajectory files that do not read back whole (header, steps, footer): a resumed
    run would otherwise count them as done."""
    problems = []
    for path in sorted(episodes_dir.glob("*" + FINAL_SUFFIX)) if episodes_dir.is_dir() else ():
        try:
            read_trajectory(path)
        except TrajectoryError as err:
            problems.append(str(err))
    return problems


def make_llms(specs: Sequence[EpisodeSpec], *, cache: str = "rw", llms: dict | None = None) -> dict[str, Any]:
    """One LLM object per model spec used by `specs` (those given in `llms` are used as they are)."""
    from apb.llm import make_llm

    out = dict(llms or {})
    for spec in specs:
        if spec.model and spec.agent not in SYMBOLIC_AGENTS and spec.model not in out:
            out[spec.model] = make_llm(spec.model, cache=cache)
    return out


class _Tally:
    """What the episodes of this invocation add up to, from their footers (so the closing line and the progress bar
    agree with `apb report`): episodes run, solved, errors, LLM calls, tokens (cache replays included, as recorded)
    and cost (None once an episode's cost is unknown)."""

    def __init__(self, total: int, skipped: int) -> None:
        self.summary: dict[str, Any] = {"total": total, "skipped": skipped, "ran": 0, "solved": 0, "errors": 0,
                                        "interrupted": False, "llm_calls": 0, "tokens": 0, "cost_usd": 0.0}

    def add(self, footer: dict) -> None:
        s = self.summary
        s["ran"] += 1
        s["solved"] += bool(footer.get("success"))
        s["errors"] += footer.get("stop_reason") == "error"
        s["llm_calls"] += sum((footer.get("llm_calls") or {}).values())
        s["tokens"] += int(footer.get("input_tokens") or 0) + int(footer.get("output_tokens") or 0)
        if s["cost_usd"] is not None:
            s["cost_usd"] = None if footer.get("cost_usd") is None else s["cost_usd"] + float(footer["cost_usd"])

    def usage_text(self) -> str:
        s = self.summary
        if not s["llm_calls"]:
            return ""
        cost = "cost unknown" if s["cost_usd"] is None else f"${s['cost_usd']:.4f}"
        return f"{s['llm_calls']} LLM calls, {s['tokens']} tokens, {cost}"

    def finish(self, start: float, cached_calls: int | None = None) -> dict[str, Any]:
        s = self.summary
        if s["cost_usd"] is not None:
            s["cost_usd"] = round(s["cost_usd"], 6)
        s["seconds"] = round(time.perf_counter() - start, 3)
        s["cached_calls"] = cached_calls
        return s


def _cached_calls(llms: dict[str, Any]) -> int:
    """LLM calls answered from the response cache, over the run's LLM objects."""
    return sum(totals.cached_calls for llm in llms.values() if (totals := getattr(llm, "totals", None)) is not None)


async def run_eval(specs: Sequence[EpisodeSpec], out_dir: str | Path, *, concurrency: int = 4, resume: bool = False,
                   progress: bool | None = None, llms: dict[str, Any] | None = None, cache: str = "rw",
                   on_episode: Callable[[EpisodeSpec, dict], None] | None = None,
                   executor: str = "thread") -> dict[str, Any]:
    """Runs every episode of `specs` not finished yet, `concurrency` at a time; returns a summary dict
    (`total`, `skipped`, `ran`, `solved`, `errors`, `llm_calls`, `tokens`, `cost_usd`, `seconds`, `cached_calls`;
    calls, tokens and cost are those the episodes run now recorded, `cached_calls` of them came from the cache).
    `executor="ray"` runs the episodes as Ray tasks (apb.eval.ray_executor) instead of threads."""
    if concurrency < 1:
        raise EvalError(f"bad concurrency {concurrency}: it must be at least 1")
    if executor not in ("thread", "ray"):
        raise EvalError(f"unknown executor {executor!r}: use thread (default) or ray")
    if executor == "ray":
        return await _run_eval_ray(specs, out_dir, concurrency=concurrency, resume=resume, cache=cache,
                                   on_episode=on_episode)
    ids = [episode_id(s) for s in specs]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise EvalError(f"the experiment lists episode {dup} more than once")
    done = prepare_out_dir(out_dir, resume=resume)
    todo = [s for s, i in zip(specs, ids) if i not in done]
    models = make_llms(todo, cache=cache, llms=llms)
    tally = _Tally(len(specs), len(specs) - len(todo))
    summary = tally.summary
    stop = threading.Event()
    semaphore = asyncio.Semaphore(concurrency)
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="apb-episode")
    start = time.perf_counter()
    bar = _Progress(len(specs), summary["skipped"]) if progress else None

    async def one(spec: EpisodeSpec) -> None:
        async with semaphore:
            if stop.is_set():
                return
            footer = await loop.run_in_executor(executor, lambda: run_one(spec, out_dir, llm=models.get(spec.model),
                                                                          stop=stop))
            tally.add(footer)
            if bar is not None:
                bar.advance(tally.usage_text())
            if on_episode is not None:
                on_episode(spec, footer)

    tasks = [asyncio.ensure_future(one(s)) for s in todo]
    try:
        if bar is not None:
            bar.start()
        await asyncio.gather(*tasks)
    except (asyncio.CancelledError, KeyboardInterrupt):
        stop.set()
        summary["interrupted"] = True
        for task in tasks:
            task.cancel()
        # wait for the episodes already in their threads to notice `stop` (at their next step)
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        stop.set()
        executor.shutdown(wait=False, cancel_futures=True)
        if bar is not None:
            bar.stop()
    return tally.finish(start, _cached_calls(models))


async def _run_eval_ray(specs, out_dir, *, concurrency: int, resume: bool, cache: str, on_episode) -> dict[str, Any]:
    from apb.eval.ray_executor import run_with_ray

    ids = [episode_id(s) for s in specs]
    done = prepare_out_dir(out_dir, resume=resume)
    todo = [s for s, i in zip(specs, ids) if i not in done]
    tally = _Tally(len(specs), len(specs) - len(todo))

    def on_footer(spec, footer: dict) -> None:
        tally.add(footer)
        if on_episode is not None:
            on_episode(spec, footer)

    start = time.perf_counter()
    try:
        cached = await asyncio.get_running_loop().run_in_executor(
            None, lambda: run_with_ray(todo, out_dir, concurrency=concurrency, cache=cache, on_footer=on_footer))
    except (asyncio.CancelledError, KeyboardInterrupt):
        tally.summary["interrupted"] = True
        raise
    return tally.finish(start, cached)


class _Progress:
    """A rich progress bar: episodes done/total, ETA, tokens and cost so far."""

    def __init__(self, total: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn("episodes"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), TextColumn("{task.fields[usage]}"),
                                 console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("eval", total=total, completed=done, usage="")

    def start(self) -> None:
        self.progress.start()

    def stop(self) -> None:
        self.progress.stop()

    def advance(self, usage: str) -> None:
        self.progress.update(self.task, advance=1, usage=usage)

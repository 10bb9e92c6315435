"""One episode: its env, its agent, its trajectory file. Both executors (threads, Ray) run episodes through
`run_one`, so they write the same files."""

from __future__ import annotations

import contextlib
import datetime as _dt
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from apb import __version__
from apb.agents.base import AgentWrapper
from apb.eval.items import ItemInterrupted
from apb.eval.trajectory import (
    FINAL_SUFFIX,
    EpisodeSpec,
    TrajectoryWriter,
    episode_id,
    error_footer,
    footer_from_result,
    prompts_hash,
    slim_event,
)


class EpisodeItem:
    """An episode as an item of the one runner (`apb.eval.items`): its record is the trajectory's footer."""

    def __init__(self, spec: EpisodeSpec) -> None:
        self.spec = spec
        self.id = episode_id(spec)
        self.model = spec.model

    def run(self, out_dir: Path, llm: Any, stop: threading.Event | None) -> dict:
        return run_one(self.spec, out_dir, llm=llm, stop=stop)


def data_fingerprint(domain: str, split: str) -> str | None:
    """A hash of a domain's files in one split (domain file, problems, plans): the data version of a run."""
    from apb.datasets import resolve
    from apb.eval.rundir import fingerprint_files

    try:
        dataset = resolve(domain, split)
    except Exception:
        return None  # planning reports the error itself
    files = [dataset.domain_file] + [p for e in dataset.problems for p in (e.path, e.plan_path) if p is not None]
    return fingerprint_files(files)


def episode_llm(spec: EpisodeSpec, *, cache: str = "rw", llm_concurrency: int | None = None) -> Any:
    """The LLM an episode's agent needs (None for agents without one); `llm_concurrency` sets its request cap."""
    from apb.agents import needs_llm

    if not spec.model or not needs_llm(spec.agent):
        return None
    from apb.llm import make_llm

    return make_llm(spec.model, cache=cache, concurrency=llm_concurrency)


def build_env(spec: EpisodeSpec):
    """The env of an episode and the id it is recorded under: every source (bundled name, dataset folder) through
    `gymnasium.make("apb/PDDL-v0", domain=...)`, which resolves it with `apb.datasets.resolve`."""
    import gymnasium

    from apb.agents import agent_view
    from apb.datasets import is_bundled
    from apb.envs.registration import GENERIC_ID, env_id, register_envs

    register_envs()
    description = "pddl" if agent_view(spec.agent) == "pddl" else spec.description
    env = gymnasium.make(GENERIC_ID, domain=spec.domain, split=spec.split, require_finish=spec.require_finish,
                         description=description, max_episode_steps=spec.horizon)
    return env, env_id(spec.domain) if is_bundled(spec.domain) else f"dataset:{spec.domain}"


def build_agent(spec: EpisodeSpec, llm: Any = None):
    """The episode's agent: every agent takes `seed`; LLM agents get the LLM and a translator."""
    from apb.agents import make_agent, needs_llm
    from apb.translators import make_translator

    if not needs_llm(spec.agent):
        return make_agent(spec.agent, seed=spec.seed, **spec.agent_options)
    translator = make_translator(spec.translator, llm=llm) if spec.translator else None
    return make_agent(spec.agent, llm=llm, translator=translator, seed=spec.seed, **spec.agent_options)


def episode_header(spec: EpisodeSpec, env_id: str | None, info: dict | None, split_size: int | None = None) -> dict:
    """The trajectory's header line (see the trajectory contract); `split_size`: the problems in the split drawn from,
    so a report can say "3 of 20 problems"."""
    from apb.agents import needs_llm

    info = info or {}
    return {"type": "header", "apb_version": __version__, "episode_id": episode_id(spec), "env_id": env_id,
            "domain": spec.domain_name, "split": spec.split,
            "problem_id": info.get("problem_id", str(spec.problem)), "problem": spec.problem, "agent": spec.agent,
            "agent_options": spec.agent_options, "model": spec.model, "description": spec.description,
            "translator": spec.translator if needs_llm(spec.agent) else None, "seed": spec.seed,
            "require_finish": spec.require_finish, "max_steps": spec.horizon, "prompt_hash": prompts_hash(),
            "optimal_plan_length": info.get("optimal_plan_length"),
            "optimal_plan_cost": info.get("optimal_plan_cost"), "action_costs": bool(info.get("action_costs")),
            "gold_plan_length": len(info["gold_plan"]) if isinstance(info.get("gold_plan"), list) else None,
            "split_size": split_size, "goal": info.get("goal"), "initial_state": info.get("state"),
            "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")}


class _StoppableAgent(AgentWrapper):
    """Delegates to an agent, but raises ItemInterrupted before an action once `stop` is set."""

    def __init__(self, agent: Any, stop: threading.Event) -> None:
        super().__init__(agent)
        self._stop = stop

    def reset(self, observation: str, info: dict) -> None:
        if self._stop.is_set():
            raise ItemInterrupted
        self.agent.reset(observation, info)

    def act(self, observation: str, info: dict) -> str:
        if self._stop.is_set():
            raise ItemInterrupted
        return self.agent.act(observation, info)


def run_one(spec: EpisodeSpec, out_dir: str | Path, *, llm: Any = None, stop: threading.Event | None = None,
            on_step: Callable[[Any], None] | None = None, wrap_agent: Callable[[Any], Any] | None = None) -> dict:
    """Runs one episode and writes its trajectory to `<out_dir>/episodes/<id>.jsonl`; returns the footer.
    Any failure (env, agent, LLM) becomes an error footer; only an interruption (`stop`) leaves a `.part`."""
    from apb.agents import run_episode
    from apb.agents.episode import describe_error

    if llm is None:
        llm = episode_llm(spec)
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
            footer = error_footer(describe_error(err), seconds=time.perf_counter() - start)
            writer.footer(footer)
            return footer
        problems = getattr(getattr(env.unwrapped, "dataset", None), "problems", None)
        header = episode_header(spec, name, info, None if problems is None else len(problems))
        writer.header(header)
        optimal, optimal_cost = header["optimal_plan_length"], header["optimal_plan_cost"]
        try:
            agent = build_agent(spec, llm)
        except Exception as err:
            footer = error_footer(describe_error(err), seconds=time.perf_counter() - start, optimal_plan_length=optimal,
                                  optimal_plan_cost=optimal_cost)
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
        for number, record in enumerate(result.steps):
            # what the agent did in reset (an LLM call, a planner run) is written with the first step
            writer.step(replace(record, events=[*result.pre_events, *record.events]) if number == 0 else record)
            if on_step is not None:
                on_step(record)
        footer = footer_from_result(result, seconds=time.perf_counter() - start, optimal_plan_length=optimal,
                                    optimal_plan_cost=optimal_cost)
        if not result.steps and result.pre_events:  # no step to carry them: the footer does
            footer["reset_events"] = [slim_event(e) for e in result.pre_events]
        writer.footer(footer)
        return footer
    except BaseException:
        writer.abort()
        raise
    finally:
        if env is not None:
            with contextlib.suppress(Exception):
                env.close()

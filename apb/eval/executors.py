"""Executors run the episodes of an evaluation; both have one shape, `run(todo, out_dir, on_footer)`, and run
every episode through `apb.eval.episode.run_one`, so they write the same trajectory files.

- `ThreadExecutor`: one worker thread per concurrency slot (an episode's LLM latency never blocks the others);
  one LLM object per model spec is shared by all episodes (its cache and running totals too). On Ctrl-C no new
  episode starts and running episodes stop at their next step (their `.part` files are left for `--resume`).
- `RayExecutor`: episodes as Ray tasks on a local instance or a cluster (`RAY_ADDRESS`), each with its own LLM
  client (clients do not travel between processes; the sqlite answer cache is safe across processes).
  Trajectories are written where the worker runs, so on a cluster the output folder must be shared.
`stop()` (from another thread) ends a run early: no new episode starts, and `run` raises `RunStopped` once the
running ones have stopped. What the episodes used (LLM calls, tokens, cost) is in the footers given to `on_footer`.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from apb.engine.errors import ApbError
from apb.eval.episode import EpisodeInterrupted, episode_llm, run_one
from apb.eval.trajectory import EpisodeSpec

OnFooter = Callable[[EpisodeSpec, dict], None]


class RunStopped(Exception):
    """`run` ended early because `stop()` was called."""


class ThreadExecutor:
    """Episodes in worker threads, `concurrency` at a time."""

    def __init__(self, concurrency: int, *, cache: str = "rw", llms: dict[str, Any] | None = None) -> None:
        self.concurrency = concurrency
        self.cache = cache
        self.llms = dict(llms or {})
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def prepare(self, todo: Sequence[EpisodeSpec]) -> None:
        """One LLM client per model spec of `todo` (a missing API key or a bad spec fails here)."""
        for spec in todo:
            if spec.model and spec.model not in self.llms and (llm := episode_llm(spec, cache=self.cache)):
                self.llms[spec.model] = llm

    def run(self, todo: Sequence[EpisodeSpec], out_dir: str | Path, on_footer: OnFooter) -> None:
        self.prepare(todo)
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="apb-episode")
        futures = {pool.submit(self._one, spec, out_dir): spec for spec in todo}
        try:
            for future in concurrent.futures.as_completed(futures):
                footer = future.result()
                if footer is not None:
                    on_footer(futures[future], footer)
        except BaseException:
            self._stop.set()
            # no new episode starts; those in their threads notice the stop at their next step
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        if self._stop.is_set():
            raise RunStopped

    def _one(self, spec: EpisodeSpec, out_dir: str | Path) -> dict | None:
        if self._stop.is_set():
            return None
        try:
            return run_one(spec, out_dir, llm=self.llms.get(spec.model), stop=self._stop)
        except EpisodeInterrupted:
            return None


def _ray():
    try:
        import ray
    except ImportError:
        raise ApbError("the ray executor needs Ray: pip install 'apb[ray]' (or use the default thread executor)"
                       ) from None
    return ray


def _episode_task(spec: EpisodeSpec, out_dir: str, cache: str) -> dict:
    """What a Ray worker runs: one episode, its trajectory written to out_dir, its footer returned."""
    return run_one(spec, out_dir, llm=episode_llm(spec, cache=cache))


class RayExecutor:
    """Episodes as Ray tasks, at most `concurrency` in flight."""

    def __init__(self, concurrency: int, *, cache: str = "rw", num_cpus: int | None = None) -> None:
        self.concurrency = concurrency
        self.cache = cache
        self.num_cpus = num_cpus
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def prepare(self, todo: Sequence[EpisodeSpec]) -> None:
        """Checks that Ray can be imported (the episodes' LLM clients are made in the workers)."""
        _ray()

    def run(self, todo: Sequence[EpisodeSpec], out_dir: str | Path, on_footer: OnFooter) -> None:
        ray = _ray()
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            ray.init(address=address, num_cpus=None if address else (self.num_cpus or self.concurrency),
                     include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
        task = ray.remote(_episode_task)
        pending: dict[Any, EpisodeSpec] = {}
        queue = list(todo)
        try:
            while queue or pending:
                if self._stop.is_set():
                    raise RunStopped
                while queue and len(pending) < self.concurrency:
                    spec = queue.pop(0)
                    pending[task.remote(spec, str(out_dir), self.cache)] = spec
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in ready:
                    spec = pending.pop(ref)
                    on_footer(spec, ray.get(ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise


EXECUTORS = {"thread": ThreadExecutor, "ray": RayExecutor}

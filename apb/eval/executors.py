"""Executors run the items of a run (`apb.eval.items`: episodes, ACP questions, NL->PDDL pairs); both have one
shape, `run(todo, out_dir, on_record)`, and run every item through its own `item.run(out_dir, llm, stop)`.

- `ThreadExecutor`: one worker thread per concurrency slot (an item's LLM latency never blocks the others);
  one LLM object per model spec is shared by all items (its cache and running totals too). On Ctrl-C no new
  item starts and running items stop at their next step.
- `RayExecutor`: items as Ray tasks on a local instance (`num_cpus` worker slots, default `concurrency`) or the
  cluster at `$RAY_ADDRESS`, each with its own LLM client (clients do not travel between processes; the sqlite
  answer cache is safe across processes). Items that write files (trajectories) write them where the worker runs,
  so on a cluster the output folder must be shared; result records travel back to the runner, which stores them.
Both set each LLM client's provider request cap with `apb.llm.request_cap(spec, llm_concurrency, concurrency)`
(under Ray the cap is per worker process). `collect(items, ...)` runs items that need no run folder of their own
(the generators of `apb acp generate` and `apb nl2pddl build`) and returns their records in item order.
`stop()` (from another thread) ends a run early: no new item starts, and `run` raises `RunStopped` once the
running ones have stopped. `on_record(item, record)` is called in the executor's thread as each item finishes.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from apb.engine.errors import ApbError
from apb.eval.items import ItemInterrupted

OnRecord = Callable[[Any, dict], None]


class RunStopped(Exception):
    """`run` ended early because `stop()` was called."""


class ThreadExecutor:
    """Items in worker threads, `concurrency` at a time."""

    def __init__(self, concurrency: int, *, cache: str = "rw", llms: dict[str, Any] | None = None,
                 llm_concurrency: int | None = None) -> None:
        self.concurrency = concurrency
        self.cache = cache
        self.llms = dict(llms or {})
        self.llm_concurrency = llm_concurrency
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def prepare(self, todo: Sequence[Any]) -> None:
        """One LLM client per model spec of `todo` (a missing API key or a bad spec fails here)."""
        for item in todo:
            if item.model and item.model not in self.llms:
                self.llms[item.model] = item_llm(item, self.cache, self.llm_concurrency, self.concurrency)

    def run(self, todo: Sequence[Any], out_dir: str | Path, on_record: OnRecord) -> None:
        self.prepare(todo)
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="apb-item")
        futures = {pool.submit(self._one, item, Path(out_dir)): item for item in todo}
        try:
            for future in concurrent.futures.as_completed(futures):
                record = future.result()
                if record is not None:
                    on_record(futures[future], record)
        except BaseException:
            self._stop.set()
            # no new episode starts; those in their threads notice the stop at their next step
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        if self._stop.is_set():
            raise RunStopped

    def _one(self, item: Any, out_dir: Path) -> dict | None:
        if self._stop.is_set():
            return None
        try:
            return item.run(out_dir, self.llms.get(item.model) if item.model else None, self._stop)
        except ItemInterrupted:
            return None


def item_llm(item: Any, cache: str, llm_concurrency: int | None = None, concurrency: int | None = None) -> Any:
    """The LLM client of an item's model spec (None without one), with the run's request cap."""
    if not item.model:
        return None
    from apb.llm import make_llm, request_cap

    return make_llm(item.model, cache=cache, concurrency=request_cap(item.model, llm_concurrency, concurrency))


def _ray():
    try:
        import ray
    except ImportError:
        raise ApbError("the ray executor needs Ray: pip install 'apb[ray]' (or use the default thread executor)"
                       ) from None
    return ray


def _item_task(item: Any, out_dir: str, cache: str, llm_concurrency: int | None, concurrency: int) -> dict:
    """What a Ray worker runs: one item, with its own LLM client; its record is returned."""
    return item.run(Path(out_dir), item_llm(item, cache, llm_concurrency, concurrency), None)


def _result(ray: Any, ref: Any) -> dict:
    """A task's record; a user error (ApbError) raised in the worker is raised here as itself (one line)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, ApbError):
            raise error.cause from None
        raise


class RayExecutor:
    """Items as Ray tasks, at most `concurrency` in flight."""

    def __init__(self, concurrency: int, *, cache: str = "rw", num_cpus: int | None = None,
                 llm_concurrency: int | None = None) -> None:
        self.concurrency = concurrency
        self.cache = cache
        self.num_cpus = num_cpus
        self.llm_concurrency = llm_concurrency
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def prepare(self, todo: Sequence[Any]) -> None:
        """Checks that Ray can be imported (the items' LLM clients are made in the workers)."""
        _ray()

    def run(self, todo: Sequence[Any], out_dir: str | Path, on_record: OnRecord) -> None:
        ray = _ray()
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            ray.init(address=address, num_cpus=None if address else (self.num_cpus or self.concurrency),
                     include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
        task = ray.remote(_item_task)
        pending: dict[Any, Any] = {}
        queue = list(todo)
        try:
            while queue or pending:
                if self._stop.is_set():
                    raise RunStopped
                while queue and len(pending) < self.concurrency:
                    item = queue.pop(0)
                    pending[task.remote(item, str(Path(out_dir).resolve()), self.cache, self.llm_concurrency,
                                        self.concurrency)] = item
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in ready:
                    item = pending.pop(ref)
                    on_record(item, _result(ray, ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise


EXECUTORS = {"thread": ThreadExecutor, "ray": RayExecutor}


def make_executor(executor: str, concurrency: int, *, cache: str = "rw", llms: dict[str, Any] | None = None,
                  llm_concurrency: int | None = None) -> ThreadExecutor | RayExecutor:
    """The executor named `executor` (thread | ray); ApbError for another name."""
    if executor == "thread":
        return ThreadExecutor(concurrency, cache=cache, llms=llms, llm_concurrency=llm_concurrency)
    if executor == "ray":
        return RayExecutor(concurrency, cache=cache, llm_concurrency=llm_concurrency)
    raise ApbError(f"unknown executor {executor!r}: use thread (default) or ray")


def absolute_source(source: str) -> str:
    """A problem source as an item carries it to a worker: a folder or file as an absolute path (a Ray worker may
    run in another folder), a bundled name as it is (it wins over a folder of that name)."""
    from apb.datasets import is_bundled

    if not is_bundled(source) and Path(source).exists():
        return str(Path(source).resolve())
    return source


def collect(items: Sequence[Any], out_dir: str | Path, *, executor: str = "thread", concurrency: int = 1
            ) -> list[dict]:
    """Runs `items` (without LLMs) on an executor and returns their records in the order of `items`."""
    runner = make_executor(executor, concurrency)
    runner.prepare(items)
    records: dict[str, dict] = {}
    runner.run(items, out_dir, lambda item, record: records.__setitem__(item.id, record))
    return [records[item.id] for item in items]

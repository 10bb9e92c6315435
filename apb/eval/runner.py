"""The one runner: runs items of any kind (episodes, ACP questions, NL->PDDL pairs, study cells; see
`apb.eval.items`) concurrently into an output folder, resumably, with the folder rule of `apb.eval.rundir`, the
progress bar and LLM accounting.

    summary = run_items(items, "runs/exp1", kind=EPISODES, settings={...}, concurrency=8, resume=True)
    summary = run_episodes(specs, "runs/exp1", concurrency=8)                # episodes from EpisodeSpecs

Everything is checked before anything is written: the folder rule (a non-empty folder needs `resume` with the
same settings, or `overwrite`), the lock (no second run into the same folder), damaged results, the LLM clients
(a missing key fails here). Errors are recorded as errors, counted in the summary, and run again on `resume`.
On Ctrl-C no new item starts, the runner waits at most `STOP_GRACE` seconds for the running ones (an item still
running then is abandoned: its partial output is deleted by the next `resume`), and `RunInterrupted` is raised
with the summary of what finished; every finished result is already on disk.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from apb.eval.episode_specs import EvalError, plan_episodes
from apb.eval.executors import EXECUTORS, ThreadExecutor, make_executor
from apb.eval.items import EPISODES, ItemKind, is_error
from apb.eval.rundir import RunLock, check_writable, open_run_dir, prepare_run_dir
from apb.flags import DEFAULT_CONCURRENCY

__all__ = ["EvalError", "RunInterrupted", "plan_episodes", "run_episodes", "run_eval", "run_items"]
STOP_GRACE = 0.5  # seconds the runner waits for running items after Ctrl-C


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; `summary` says what finished before."""

    def __init__(self, summary: dict[str, Any]) -> None:
        super().__init__("interrupted")
        self.summary = summary


class _Tally:
    """What the items of this invocation used, from their records (LLM calls, cached calls, tokens, cost: None once
    a record's cost is unknown); the per-item counts of the whole run come from the store (`_summary`)."""

    def __init__(self) -> None:
        self.ran = 0
        self.llm_calls = 0
        self.cached_calls = 0
        self.tokens = 0
        self.cost_usd: float | None = 0.0

    def add(self, record: dict) -> None:
        self.ran += 1
        calls = record.get("llm_calls") or 0
        count = sum(calls.values()) if isinstance(calls, dict) else int(calls)
        self.llm_calls += count
        self.cached_calls += int(record.get("cached_calls") or 0)
        self.tokens += int(record.get("input_tokens") or 0) + int(record.get("output_tokens") or 0)
        if self.cost_usd is not None and count:
            cost = record.get("cost_usd")
            self.cost_usd = None if cost is None else self.cost_usd + float(cost)

    def usage_text(self) -> str:
        if not self.llm_calls:
            return ""
        cost = "cost unknown" if self.cost_usd is None else f"${self.cost_usd:.4f}"
        cached = f" ({self.cached_calls} cached)" if self.cached_calls else ""
        return f"{self.llm_calls} LLM calls{cached}, {self.tokens} tokens, {cost}"


def run_items(items: Sequence[Any], out_dir: str | Path, *, kind: ItemKind, settings: dict[str, Any],
              concurrency: int = DEFAULT_CONCURRENCY, resume: bool = False, overwrite: bool = False,
              progress: bool | None = None, llms: dict[str, Any] | None = None, cache: str = "rw",
              executor: str = "thread", llm_concurrency: int | None = None,
              on_record: Callable[[Any, dict], None] | None = None,
              preflight: Callable[[list, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Runs every item not finished yet (see the module docstring); returns the summary: `total`, `skipped`
    (finished before), `ran`, `ok` (solved/correct, of the whole run), `errors` (of the whole run), `interrupted`,
    `llm_calls`, `cached_calls`, `tokens`, `cost_usd` (of this invocation) and `seconds`. `llm_concurrency` caps
    the LLM requests in flight (default: see `apb.llm.request_cap`); clients given in `llms` keep their own cap."""
    if concurrency < 1:
        raise EvalError(f"bad concurrency {concurrency}: it must be at least 1")
    if executor not in EXECUTORS:
        raise EvalError(f"unknown executor {executor!r}: use thread (default) or ray")
    ids = [item.id for item in items]
    seen: set[str] = set()
    for item_id in ids:
        if item_id in seen:
            raise EvalError(f"the run lists {kind.noun} {item_id} more than once")
        seen.add(item_id)
    out = check_writable(out_dir)
    RunLock(out).check()
    prepare_run_dir(out, kind=kind.name, settings=settings, resume=resume, overwrite=overwrite, create=False)
    store = kind.store(out)
    before, damaged = store.read() if resume else ({}, [])
    if damaged:
        listed = "; ".join(damaged[:5]) + (f"; and {len(damaged) - 5} more" if len(damaged) > 5 else "")
        raise EvalError(f"{len(damaged)} finished result(s) cannot be read: {listed}. Nothing was changed; delete or "
                        "move them and run with --resume again to re-run those items")
    done = {i for i in ids if i in before and not is_error(before[i])}
    todo = [item for item in items if item.id not in done]
    runner = make_executor(executor, concurrency, cache=cache, llms=llms, llm_concurrency=llm_concurrency)
    runner.prepare(todo)  # LLM clients (keys checked), Ray: fails here, before anything is written
    if preflight is not None and isinstance(runner, ThreadExecutor):
        preflight(todo, runner.llms)  # e.g. prompts that do not fit a model's context: before anything is written
    tally = _Tally()
    start = time.perf_counter()
    with open_run_dir(out, kind=kind.name, settings=settings, resume=resume, overwrite=overwrite):
        store.prepare()
        bar = _Progress(kind.noun, len(items), len(items) - len(todo)) if progress else None

        def on_done(item: Any, record: dict) -> None:
            store.write(record)
            tally.add(record)
            if bar is not None:
                bar.advance(tally.usage_text())
            if on_record is not None:
                on_record(item, record)

        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="apb-run")
        future = pool.submit(runner.run, todo, out, on_done)
        try:
            if bar is not None:
                bar.start()
            while True:
                try:
                    future.result(timeout=0.2)
                    break
                except concurrent.futures.TimeoutError:
                    continue
        except KeyboardInterrupt:
            runner.stop()
            concurrent.futures.wait([future], timeout=STOP_GRACE)  # running items stop at their next step
            raise RunInterrupted(_summary(items, len(todo), out, store, kind, tally, start, interrupted=True)) from None
        finally:
            pool.shutdown(wait=False)
            if bar is not None:
                bar.stop()
        return _summary(items, len(todo), out, store, kind, tally, start)


def _summary(items: Sequence[Any], todo: int, out: Path, store: Any, kind: ItemKind, tally: _Tally, start: float, *,
             interrupted: bool = False) -> dict[str, Any]:
    records = store.records()
    mine = [records.get(item.id) for item in items]
    finished = [r for r in mine if r is not None]
    return {"kind": kind.name, "out": str(out), "noun": kind.noun, "total": len(items),
            "skipped": len(items) - todo, "ran": tally.ran,
            "finished": len(finished), "ok": sum(not is_error(r) and kind.success(r) for r in finished),
            "errors": sum(is_error(r) for r in finished), "interrupted": interrupted,
            "llm_calls": tally.llm_calls, "cached_calls": tally.cached_calls, "tokens": tally.tokens,
            "cost_usd": None if tally.cost_usd is None else round(tally.cost_usd, 6),
            "seconds": round(time.perf_counter() - start, 3)}


# ---- episodes ---------------------------------------------------------------------------------------------------
def episode_settings(specs: Sequence[Any]) -> dict[str, Any]:
    """The settings of an evaluation that change a result (written to run.json, compared on resume): the model and
    agent options per agent, step limit, translator, description, require_finish, split, the prompts, and a
    fingerprint of each domain's files."""
    from apb.eval.episode import data_fingerprint
    from apb.eval.trajectory import prompts_hash

    def one(values: set) -> Any:
        listed = sorted(values, key=str)
        return listed[0] if len(listed) == 1 else listed

    settings: dict[str, Any] = {
        "max_steps": one({s.max_steps for s in specs}), "translator": one({s.translator for s in specs}),
        "description": one({s.description for s in specs}), "require_finish": one({s.require_finish for s in specs}),
        "split": one({s.split for s in specs}), "prompts": prompts_hash()}
    for spec in specs:
        settings[f"agent_options.{spec.agent}"] = {**spec.agent_options, "model": spec.model}
    for domain in sorted({(s.domain, s.split) for s in specs}, key=str):
        settings[f"data.{domain[0]}"] = data_fingerprint(domain[0], domain[1])
    return settings


def run_episodes(specs: Sequence[Any], out_dir: str | Path, *, concurrency: int = DEFAULT_CONCURRENCY,
                 resume: bool = False, overwrite: bool = False, progress: bool | None = None,
                 llms: dict[str, Any] | None = None, cache: str = "rw",
                 on_episode: Callable[[Any, dict], None] | None = None, executor: str = "thread",
                 llm_concurrency: int | None = None) -> dict[str, Any]:
    """Runs the episodes of `specs` (EpisodeSpecs) on the one runner; the summary adds `solved` (= `ok`).
    Synchronous, so Ctrl-C reaches it at once (under `asyncio.run` the first SIGINT only cancels the task, which a
    blocking call never notices: that is why Ctrl-C took many seconds)."""
    from apb.eval.context import check_context
    from apb.eval.episode import EpisodeItem

    items = [EpisodeItem(spec) for spec in specs]
    summary = run_items(items, out_dir, kind=EPISODES, settings=episode_settings(specs), concurrency=concurrency,
                        resume=resume, overwrite=overwrite, progress=progress, llms=llms, cache=cache,
                        executor=executor, llm_concurrency=llm_concurrency,
                        on_record=None if on_episode is None else lambda item, record: on_episode(item.spec, record),
                        preflight=lambda todo, clients: check_context([item.spec for item in todo], clients))
    summary["solved"] = summary["ok"]
    return summary


async def run_eval(specs: Sequence[Any], out_dir: str | Path, **options: Any) -> dict[str, Any]:
    """`run_episodes` for callers that hold an event loop (`asyncio.run(run_eval(specs, out))`); it blocks the loop
    while the episodes run. Scripts that want Ctrl-C to act at once call `run_episodes`."""
    return run_episodes(specs, out_dir, **options)


class _Progress:
    """A rich progress bar: items done/total, ETA, tokens and cost so far."""

    def __init__(self, noun: str, total: int, done: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn(noun + "s"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), TextColumn("{task.fields[usage]}"),
                                 console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("run", total=total, completed=done, usage="")

    def start(self) -> None:
        self.progress.start()

    def stop(self) -> None:
        self.progress.stop()

    def advance(self, usage: str) -> None:
        self.progress.update(self.task, advance=1, usage=usage)

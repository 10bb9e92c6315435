"""The evaluation runner: run planned episodes concurrently into an output folder, resumably.

    specs = plan_episodes(["blocksworld"], ["act"], [1, 2], seeds=2, model="openai:gpt-4o-mini")
    summary = asyncio.run(run_eval(specs, "runs/exp1", concurrency=8, resume=True))

Planning is `apb.eval.plan`, one episode `apb.eval.episode.run_one`, the executors (threads, Ray)
`apb.eval.executors`. On Ctrl-C no new episode starts, running episodes stop at their next step (their `.part`
files are left and deleted by the next `--resume`), and every finished trajectory stays intact.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from apb.eval.executors import EXECUTORS, RayExecutor, RunStopped, ThreadExecutor
from apb.eval.plan import EvalError, plan_episodes
from apb.eval.trajectory import (
    FINAL_SUFFIX,
    PART_SUFFIX,
    EpisodeSpec,
    TrajectoryError,
    episode_id,
    finished_ids,
    read_trajectory,
)

__all__ = ["EvalError", "plan_episodes", "prepare_out_dir", "run_eval"]


# ---- many episodes --------------------------------------------------------------------------------------------
def prepare_out_dir(out_dir: str | Path, *, resume: bool, create: bool = True) -> set[str]:
    """Checks the output folder; returns the finished episode ids (resume). With `create`, makes `episodes/` and
    deletes stale `.part` files; without, changes nothing (a run checks everything before it writes)."""
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
    if create:
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


class _Tally:
    """What the episodes of this invocation add up to, from their footers (so the closing line and the progress bar
    agree with `apb report`): episodes run, solved, errors, LLM calls of every role (how many the answer cache
    served), tokens (cache replays included, as recorded) and cost (None once an episode's cost is unknown)."""

    def __init__(self, total: int, skipped: int) -> None:
        self.summary: dict[str, Any] = {"total": total, "skipped": skipped, "ran": 0, "solved": 0, "errors": 0,
                                        "interrupted": False, "llm_calls": 0, "cached_calls": 0, "tokens": 0,
                                        "cost_usd": 0.0}

    def add(self, footer: dict) -> None:
        s = self.summary
        s["ran"] += 1
        s["solved"] += bool(footer.get("success"))
        s["errors"] += footer.get("stop_reason") == "error"
        s["llm_calls"] += sum((footer.get("llm_calls") or {}).values())
        s["cached_calls"] += int(footer.get("cached_calls") or 0)
        s["tokens"] += int(footer.get("input_tokens") or 0) + int(footer.get("output_tokens") or 0)
        if s["cost_usd"] is not None:
            s["cost_usd"] = None if footer.get("cost_usd") is None else s["cost_usd"] + float(footer["cost_usd"])

    def usage_text(self) -> str:
        s = self.summary
        if not s["llm_calls"]:
            return ""
        cost = "cost unknown" if s["cost_usd"] is None else f"${s['cost_usd']:.4f}"
        cached = f" ({s['cached_calls']} cached)" if s["cached_calls"] else ""
        return f"{s['llm_calls']} LLM calls{cached}, {s['tokens']} tokens, {cost}"

    def finish(self, start: float) -> dict[str, Any]:
        s = self.summary
        if s["cost_usd"] is not None:
            s["cost_usd"] = round(s["cost_usd"], 6)
        s["seconds"] = round(time.perf_counter() - start, 3)
        return s


async def run_eval(specs: Sequence[EpisodeSpec], out_dir: str | Path, *, concurrency: int = 4, resume: bool = False,
                   progress: bool | None = None, llms: dict[str, Any] | None = None, cache: str = "rw",
                   on_episode: Callable[[EpisodeSpec, dict], None] | None = None,
                   executor: str = "thread") -> dict[str, Any]:
    """Runs every episode of `specs` not finished yet, `concurrency` at a time; returns a summary dict
    (`total`, `skipped`, `ran`, `solved`, `errors`, `llm_calls`, `tokens`, `cost_usd`, `seconds`, `cached_calls`;
    calls, tokens and cost are those the episodes run now recorded, `cached_calls` of them came from the cache).
    `executor="ray"` runs the episodes as Ray tasks instead of threads (apb.eval.executors)."""
    if concurrency < 1:
        raise EvalError(f"bad concurrency {concurrency}: it must be at least 1")
    if executor not in EXECUTORS:
        raise EvalError(f"unknown executor {executor!r}: use thread (default) or ray")
    ids = [episode_id(s) for s in specs]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise EvalError(f"the experiment lists episode {dup} more than once")
    runner = ThreadExecutor(concurrency, cache=cache, llms=llms) if executor == "thread" else \
        RayExecutor(concurrency, cache=cache)
    done = prepare_out_dir(out_dir, resume=resume, create=False)
    todo = [s for s, i in zip(specs, ids) if i not in done]
    runner.prepare(todo)  # LLM clients (keys checked), Ray: fails here, before anything is written
    prepare_out_dir(out_dir, resume=resume)
    tally = _Tally(len(specs), len(specs) - len(todo))
    bar = _Progress(len(specs), tally.summary["skipped"]) if progress else None

    def on_footer(spec: EpisodeSpec, footer: dict) -> None:
        tally.add(footer)
        if bar is not None:
            bar.advance(tally.usage_text())
        if on_episode is not None:
            on_episode(spec, footer)

    start = time.perf_counter()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="apb-eval")
    future = pool.submit(runner.run, todo, out_dir, on_footer)
    try:
        if bar is not None:
            bar.start()
        await asyncio.wrap_future(future)
    except (asyncio.CancelledError, KeyboardInterrupt, RunStopped):
        tally.summary["interrupted"] = True
        runner.stop()
        concurrent.futures.wait([future])  # the running episodes stop at their next step
        raise
    finally:
        pool.shutdown(wait=False)
        if bar is not None:
            bar.stop()
    return tally.finish(start)


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

"""`apb eval --executor ray`: episodes as Ray tasks, on a local Ray instance or a cluster (`RAY_ADDRESS`).

Each task runs `run_one` in a Ray worker with its own LLM client (clients do not travel between processes; the
sqlite answer cache is safe across processes). Trajectories are written where the worker runs, so on a cluster
`--out` must be a shared filesystem. Interrupting cancels the tasks not started; finished files are kept, and
`--resume` works as with the thread executor.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from apb.engine.errors import ApbError


def _ray():
    try:
        import ray
    except ImportError:
        raise ApbError("the ray executor needs Ray: pip install 'apb[ray]' (or use the default thread executor)"
                       ) from None
    return ray


def _episode_task(spec, out_dir: str, cache: str) -> dict:
    """What a Ray worker runs: one episode, its trajectory written to out_dir, its footer returned."""
    from apb.eval.runner import SYMBOLIC_AGENTS, run_one

    llm = None
    if spec.model and spec.agent not in SYMBOLIC_AGENTS:
        from apb.llm import make_llm

        llm = make_llm(spec.model, cache=cache)
    footer = run_one(spec, out_dir, llm=llm)
    totals = getattr(llm, "totals", None)
    footer = dict(footer)
    footer["_cached_calls"] = totals.cached_calls if totals is not None else 0
    return footer


def run_with_ray(specs: Sequence, out_dir: str | Path, *, concurrency: int, cache: str = "rw",
                 on_footer: Callable[[Any, dict], None] | None = None, num_cpus: int | None = None) -> int:
    """Runs the episodes as Ray tasks, at most `concurrency` in flight; returns how many LLM calls were answered
    from the response cache."""
    ray = _ray()
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        ray.init(address=address, num_cpus=None if address else (num_cpus or concurrency),
                 include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    task = ray.remote(_episode_task)
    pending: dict[Any, Any] = {}
    queue = list(specs)
    cached = 0
    try:
        while queue or pending:
            while queue and len(pending) < concurrency:
                spec = queue.pop(0)
                pending[task.remote(spec, str(out_dir), cache)] = spec
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                spec = pending.pop(ref)
                footer = ray.get(ref)
                cached += int(footer.pop("_cached_calls", 0))
                if on_footer is not None:
                    on_footer(spec, footer)
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return cached

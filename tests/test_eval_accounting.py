"""Every LLM call made for an episode (planner, translator, ...) is in its footer, and the closing line of apb eval,
the run summary and apb report add up to the same numbers as the LLM objects that made the calls."""

from __future__ import annotations

import asyncio
import json

from apb.cli import main
from apb.eval.episode_specs import plan_episodes
from apb.eval.runner import run_eval
from apb.eval.trajectory import read_trajectory
from apb.llm import make_llm

# The act agent asks the planner for an action, then the T-LLM translator turns the answer into PDDL: two calls a
# step. Three steps per episode (max_steps=3), two problems: 12 calls.
PLANNER = "lift block number {n} off the stack"
TRANSLATOR = "(pick-up block_a)"


def script(tmp_path, steps: int) -> str:
    path = tmp_path / "answers.txt"
    answers = [text for n in range(steps) for text in (PLANNER.format(n=["one", "two", "three"][n % 3]), TRANSLATOR)]
    path.write_text("\n---\n".join(answers) + "\n", encoding="utf-8")
    return f"scripted:{path}"


def footers(out) -> list[dict]:
    return [read_trajectory(p)["footer"] for p in sorted((out / "episodes").glob("*.jsonl"))]


def test_translator_calls_tokens_and_cost_are_in_the_footer_and_every_total(tmp_path):
    spec = script(tmp_path, 6)
    llm = make_llm(spec, cache="off")
    specs = plan_episodes(["blocksworld"], ["act"], [1, 2], model=spec, translator="tllm", max_steps=3)
    out = tmp_path / "run"
    summary = asyncio.run(run_eval(specs, out, concurrency=1, llms={spec: llm}))
    made = llm.totals
    assert made.calls == 12
    feet = footers(out)
    assert [f["llm_calls"]["planner"] for f in feet] == [3, 3]
    assert [f["llm_calls"]["translator"] for f in feet] == [3, 3]
    assert sum(f["input_tokens"] for f in feet) == made.usage.input_tokens > 0
    assert sum(f["output_tokens"] for f in feet) == made.usage.output_tokens > 0
    assert summary["llm_calls"] == 12 and summary["cached_calls"] == 0
    assert summary["tokens"] == made.usage.input_tokens + made.usage.output_tokens
    # each translator call is an "llm" event of role translator before its translation event
    steps = read_trajectory(next((out / "episodes").glob("*.jsonl")))["steps"]
    kinds = [(e["type"], e.get("role")) for e in steps[0]["events"]]
    assert kinds == [("llm", "planner"), ("llm", "translator"), ("translation", None)]
    assert main(["report", str(out), "--out", str(tmp_path / "report")]) == 0
    rows = json.loads((tmp_path / "report" / "summary.json").read_text())["rows"]
    assert sum(r["llm_calls"] for r in rows) == 12
    assert sum(r["input_tokens"] for r in rows) == made.usage.input_tokens


def cached_scripted(spec: str, cache_file):
    """A scripted LLM behind the answer cache (make_llm never caches scripted answers, which come in order)."""
    from apb.llm.cache import CachedLLM, ResponseCache
    from apb.llm.factory import TrackedLLM
    from apb.llm.scripted import ScriptedLLM

    store = ResponseCache(cache_file, "rw")
    return TrackedLLM(CachedLLM(ScriptedLLM(spec.split(":", 1)[1]), store), spec=spec, cache=store)


def test_cached_calls_are_counted_from_the_footers(tmp_path):
    spec = script(tmp_path, 3)
    specs = plan_episodes(["blocksworld"], ["act"], [1], model=spec, translator="tllm", max_steps=3)
    first = asyncio.run(run_eval(specs, tmp_path / "first", concurrency=1,
                                 llms={spec: cached_scripted(spec, tmp_path / "cache.sqlite")}))
    assert first["llm_calls"] == 6 and first["cached_calls"] == 0
    # the same requests again (a fresh script, so an uncached call would give the same answers): all from the cache
    again = cached_scripted(spec, tmp_path / "cache.sqlite")
    summary = asyncio.run(run_eval(specs, tmp_path / "again", concurrency=1, llms={spec: again}))
    assert summary["llm_calls"] == 6 and summary["cached_calls"] == 6 == again.totals.cached_calls
    assert [f["cached_calls"] for f in footers(tmp_path / "again")] == [6]
    assert summary["tokens"] == first["tokens"]  # replays are recorded with the tokens they stand for


def test_what_an_agent_does_in_reset_is_written_to_the_trajectory(tmp_path):
    # the planner agents plan in reset: their planner event goes with the first step, or the footer when the
    # episode has no step (an unsolvable task stops in reset)
    specs = plan_episodes(["blocksworld"], ["bfs"], [1], max_steps=3)
    asyncio.run(run_eval(specs, tmp_path / "run", concurrency=1))
    episode = read_trajectory(next((tmp_path / "run" / "episodes").glob("*.jsonl")))
    assert episode["steps"][0]["events"][0]["type"] == "planner"
    assert [e["type"] for s in episode["steps"] for e in s["events"]].count("planner") == 1

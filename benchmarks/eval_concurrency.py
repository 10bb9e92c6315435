"""How close `run_eval` gets to ideal concurrency: 240 Act episodes with a scripted LLM that takes 200 ms a call.

    python benchmarks/eval_concurrency.py [--concurrency 16] [--latency 0.2] [--steps 4]

Ideal time = LLM calls x latency / concurrency (the env and agent work is small next to the LLM wait);
the goal is a ratio (measured / ideal) within 1.3.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from apb.eval.runner import plan_episodes, run_eval
from apb.llm import ScriptedLLM

DOMAINS = ["blocksworld", "depot", "ferry", "floortile", "goldminer", "grid", "grippers", "logistics", "movie",
           "rovers", "satellite", "visitall"]


class SlowLLM(ScriptedLLM):
    """A scripted LLM that waits `latency` seconds per call (outside the script lock, like a network call)."""

    def __init__(self, latency: float) -> None:
        super().__init__(lambda messages: "look around")
        self.latency = latency

    def complete(self, messages, **kwargs):
        time.sleep(self.latency)
        return super().complete(messages, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--steps", type=int, default=8, help="actions (LLM calls) per episode")
    parser.add_argument("--problems", default="1-20")
    args = parser.parse_args()
    specs = plan_episodes(DOMAINS, ["act"], args.problems, 1, model="scripted:slow", max_steps=args.steps)
    llm = SlowLLM(args.latency)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        summary = asyncio.run(run_eval(specs, out, concurrency=args.concurrency, llms={"scripted:slow": llm}))
        seconds = time.perf_counter() - start
    calls = len(llm.calls)
    ideal = calls * args.latency / args.concurrency
    print(f"{summary['ran']} episodes ({summary['errors']} errors), {calls} LLM calls, concurrency "
          f"{args.concurrency}: {seconds:.2f}s; ideal {ideal:.2f}s; ratio {seconds / ideal:.2f} (goal <= 1.3)")


if __name__ == "__main__":
    main()

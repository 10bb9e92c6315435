"""Speed of ACP question generation: ~1,000 questions across the eight tasks for one bundled domain, per task,
plus the time to score every oracle answer with both scorers.

    python benchmarks/acp_generation.py [--domain blocksworld] [--count 46] [--seed 0] [--view nl]

`--count` is per task and format (22 groups: 46 gives 1,012 questions). Prints seconds per task, questions per
second, and scoring time per generative answer.
"""

from __future__ import annotations

import argparse
import time

from apb.acp import generate, oracle_answer, score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="blocksworld")
    parser.add_argument("--count", type=int, default=46)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--view", default="nl", choices=("nl", "pddl"))
    args = parser.parse_args()
    start = time.perf_counter()
    questions, stats = generate(args.domain, count=args.count, seed=args.seed, view=args.view)
    total = time.perf_counter() - start
    print(f"{args.domain}: {len(questions)} questions from {len(stats.problems)} problem(s) in {total:.1f} s "
          f"({len(questions) / total:.0f} questions/s; wording and problem loading included)")
    for task, seconds in stats.seconds.items():
        made = sum(n for group, n in stats.questions.items() if group.startswith(task_prefix(task)))
        print(f"  {task:7s} {seconds:6.2f} s  {made:4d} questions")
    if stats.short:
        print("  fewer than asked:", ", ".join(f"{g} -{n}" for g, n in stats.short.items()))
    timings: dict[str, list[float]] = {}
    for q in questions:
        t0 = time.perf_counter()
        verdict = score(q, oracle_answer(q))
        timings.setdefault(f"{q.task}/{q.format}", []).append(time.perf_counter() - t0)
        assert verdict.sound, (q.group, verdict.reason)
    print("scoring an oracle answer (mean ms):")
    for key, values in sorted(timings.items()):
        if key.endswith("/gen"):
            print(f"  {key:12s} {1000 * sum(values) / len(values):7.2f} ms")


def task_prefix(task: str) -> str:
    from apb.acp.records import GROUPS

    return GROUPS[task] + "_"


if __name__ == "__main__":
    main()

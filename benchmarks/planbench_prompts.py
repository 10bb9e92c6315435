"""PlanBench's prompt files and runs: how long `apb planbench prompts` takes to write every released prompt file
(and whether each is the released one byte for byte), and the throughput of `apb planbench eval` with the replay
model (prompt, model, PlanBench's reading and verdict, apb's sound verdict) on the one runner.

    python benchmarks/planbench_prompts.py [--release ../shared/reference/planbench] [--replay-only]
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
from pathlib import Path

from apb.datasets.planbench import load_config
from apb.planbench.prompts import GENERATORS, prompt_bytes, prompt_file, prompt_task

DEFAULT_RELEASE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "planbench"


def read(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


NOT_REPRODUCIBLE = {("logistics", "task_5_plan_generalization")}  # docs/planbench.md: its instances changed since


def comparable(obj: dict) -> bytes:
    """The file's bytes with the lists PlanBench writes in a Python set's order sorted (as the tests compare)."""
    def problem(model: dict) -> dict:
        return {"init": sorted(map(str, model["instance"]["init"]["pred"])),
                "goal": sorted(map(str, model["instance"]["goal"]))}
    if obj.get("task") == "task_7_plan_execution":
        obj = {**obj, "instances": [{**r, "ground_truth_plan": sorted(r["ground_truth_plan"])}
                                    for r in obj["instances"]]}
    if obj.get("task") in ("task_4_plan_reuse", "task_6_replanning"):
        obj = {**obj, "instances": [{**r, "new_instance": problem(r["new_instance"])} for r in obj["instances"]]}
    return prompt_bytes(obj)


def prompts(release: Path) -> None:
    stems = {prompt_task(t)[1] for t in GENERATORS}
    total, same, started = 0, 0, time.perf_counter()
    for path in sorted((release / "plan-bench" / "prompts").rglob("task_*.json*")):
        stem = path.name.split(".")[0]
        if stem not in stems or (path.parent.name, stem) in NOT_REPRODUCIBLE:
            print(f"{path.parent.name}/{stem}: not generated")
            continue
        released = json.loads(read(path))
        t0 = time.perf_counter()
        ours = prompt_file(load_config(path.parent.name), stem)
        seconds = time.perf_counter() - t0
        ids = [r["instance_id"] for r in released["instances"]]
        if ids != [r["instance_id"] for r in ours["instances"]]:  # a file PlanBench stopped writing early
            ours = {**ours, "instances": ours["instances"][:len(ids)]}
        identical = comparable(ours) == comparable(released)
        total, same = total + 1, same + identical
        print(f"{path.parent.name}/{stem}: {len(ours['instances'])} prompts in {seconds:.1f} s, "
              f"{'identical' if identical else 'DIFFERS'}")
    print(f"{same}/{total} released prompt files reproduced in {time.perf_counter() - started:.1f} s")


def replay(release: Path) -> None:
    from apb.llm.replay import ReplayLLM
    from apb.planbench.runs import evaluate

    for config, task, variant in (("blocksworld", "t1", "results"), ("blocksworld", "t2", "prompts"),
                                  ("blocksworld", "t3", "results")):
        stem = prompt_task(task)[1]
        source = release / "plan-bench" / "results" / config / "gpt-4_chat" / f"{stem}.json.gz"
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            summary = evaluate(config, [task], ReplayLLM(source), Path(out) / "run", engine="gpt-4_chat",
                               variant=variant, concurrency=4, progress=False)
            seconds = time.perf_counter() - started
        print(f"replay {config} {task}: {summary['answered']} prompts in {seconds:.1f} s "
              f"({summary['answered'] / seconds:.0f}/s), PlanBench {summary['official']}, sound {summary['sound']}, "
              f"errors {summary['errors']}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, default=DEFAULT_RELEASE)
    parser.add_argument("--replay-only", action="store_true")
    args = parser.parse_args()
    if not args.replay_only:
        prompts(args.release)
    replay(args.release)

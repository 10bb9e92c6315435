"""Agreement with the text-davinci-002 logs under PlanBench's results (`older_outputs/*.txt.gz`): not records but
the printouts of an earlier pipeline, one block per instance with its verdict (SUCCESS / FAILURE), its query and
GPT-3's response. Each response is read by apb's reproduction of PlanBench's reading and validated on the problem
the query's last statement states (t2: and compared with the optimal length, apb's A*).

    python benchmarks/planbench_older_outputs.py [--release ../shared/reference/planbench]

Prints, per log: blocks, blocks read, agreements, disagreements. t6's logs are an earlier replanning variant (its
event text differs): counted as not read; t5's and t8's logs hold verdicts without responses.
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path

from apb.datasets.planbench import load_config
from apb.engine import load_task
from apb.planbench import reading
from apb.planbench.problems import _STATEMENT
from apb.planbench.verdicts import _vocabulary
from apb.planbench.wording import Wording
from apb.planners import solve

ROOT = Path(__file__).resolve().parents[1]
LOGS = ("task_1_plan_generation", "task_2_plan_optimality", "task_4_plan_reuse", "task_6_replanning")
BLOCK = re.compile(r"\n=+ *(?:\w+ )?(SUCCESS|FAILURE) *=+\n")  # "=== SUCCESS ===", "=== 1_reasoning FAILURE ==="


def verdict(config, vocab, wording, stem: str, query: str, response: str) -> bool | None:
    """apb's reproduction of PlanBench's verdict on one logged response, None when the query is not read."""
    if "replanning" in stem:
        return None
    found = _STATEMENT.search(query.rsplit("[STATEMENT]", 1)[-1] + "\n")
    init = found and wording.facts(found["init"])
    goal = found and wording.facts(found["goal"])
    if not init or not goal:
        return None
    objects = sorted({a for fact in init + goal for a in fact[1:-1].split()[1:]})
    problem = (f"(define (problem logged) (:domain blocksworld-4ops) (:objects {' '.join(objects)}) "
               f"(:init {' '.join(init)}) (:goal (and {' '.join(goal)})))")
    task = load_task(config.domain_text(), problem)
    try:
        plan = reading.official_plan(response, vocab)[0]
    except reading.ReadingFailed:
        return False
    valid = task.validate(plan).valid
    if valid and "optimality" in stem:
        return reading.plan_steps(plan) == len(solve(task, "astar").plan)
    return valid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default=str(ROOT.parent / "shared" / "reference" / "planbench"))
    args = parser.parse_args()
    print("| log | blocks | read | agree | disagree |")
    print("|---|---|---|---|---|")
    for name in ("blocksworld", "blocksworld_3"):
        config = load_config(name, "plan-bench")
        vocab = _vocabulary(config)
        wording = Wording(config.data, list(config.data["encoded_objects"]))
        for stem in LOGS:
            path = Path(args.release) / "plan-bench" / "results" / name / "text-davinci-002" / "older_outputs" / \
                f"{stem}.txt.gz"
            parts = BLOCK.split(gzip.decompress(path.read_bytes()).decode("utf-8"))
            blocks = read = agree = 0
            for logged, body in zip(parts[1::2], parts[2::2]):
                blocks += 1
                if "--------- GPT3 response ---------" not in body:
                    continue
                query, rest = body.split("--------- GPT3 response ---------\n", 1)
                mine = verdict(config, vocab, wording, stem, query, rest.split("--------- Extracted plan ---------")[0])
                if mine is None:
                    continue
                read += 1
                agree += mine == (logged == "SUCCESS")
            print(f"| {name}/{stem} | {blocks} | {read} | {agree} | {read - agree} |", flush=True)


if __name__ == "__main__":
    main()

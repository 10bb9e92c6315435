"""Writes apb/datasets/planbench_data/fd_plans.json.xz: the plans PlanBench's Fast Downward found, read from its
released prompt files (`python tools/planbench_plans.py [PLANBENCH_RELEASE]`, default ../shared/reference/planbench).

Each one-shot file (t1, t5) states the plan of instance i+1 in `ground_truth_plan` and the plan of example i in
words in the query; both are read back (the words by matching each line against the worded applicable actions in
the state the plan reached, with apb's engine) and checked: a plan not valid for the instance file is left out.
With `--compare`, prints how many plans apb's own A* finds differently (equally optimal, another tie-break).
"""

from __future__ import annotations

import gzip
import json
import lzma
import sys
from pathlib import Path

from apb.datasets.planbench import load_config
from apb.planbench.gold_plans import PLANS_FILE, plan_key
from apb.planbench.instances import Instance
from apb.planbench.render import COLOUR_NAMED, action_text
from apb.planners import astar

ASTAR_SECONDS = 1.0
SOURCES = (("task_1_plan_generation", False), ("task_5_plan_generalization", True))


def load(path: Path) -> dict:
    return json.loads(gzip.open(path).read() if path.suffix == ".gz" else path.read_bytes())


def released(folder: Path, stem: str) -> dict | None:
    for name in (f"{stem}.json.gz", f"{stem}.json"):
        if (folder / name).is_file():
            return load(folder / name)
    return None


def from_gold(text: str, data: dict) -> list[str]:
    colours = {str(v).split()[0]: k for k, v in data["encoded_objects"].items()} \
        if data["domain_name"] in COLOUR_NAMED else {}
    plan = []
    for line in text.splitlines():
        name, *args = line.strip().strip("()").split()
        plan.append("_".join([name, *[colours.get(a, a) for a in args]]))
    return plan


def from_words(query: str, inst: Instance, task=None, marker: str = "[PLAN]") -> list[str]:
    """The first block after `marker` of a one-shot query read back into actions (inst is the example; `task` the
    problem the plan starts from, by default the instance's)."""
    data = inst.config.data
    block = query.split(marker, 1)[1].split("[PLAN END]", 1)[0]
    norm = (lambda t: t.replace("-", " ")) if "blocksworld" in data["domain_name"] else (lambda t: t)
    task = task or inst.task
    state, plan = task.initial_state, []
    for line in filter(None, (raw.strip() for raw in block.splitlines())):
        words = {norm(action_text("_".join(str(a).strip("()").split()), data)): a for a in task.applicable(state)}
        action = words[line]
        plan.append("_".join(str(action).strip("()").split()))
        state = task.apply(state, action)
    return plan


REPLANNING = (("prompts", "blocksworld_3", "prompts"), ("prompts", "mystery_blocksworld_3", "prompts"),
              ("results", "blocksworld", "results"))
T6 = "task_6_replanning"
AFTER_EVENT = "After re-planning from the new state, the plan is as follows:\n[PLAN]"


def replanned(config, data: dict, variant: str, table: dict[str, str]) -> int:
    """Adds t6's replanned plans (from each event's new state: the example's in words, the instance's gold) to the
    table, the events drawn as PlanBench drew them; returns how many."""
    from apb.engine import Task, load_problem
    from apb.planbench.prompt_replanning import _event
    from apb.planbench.prompt_tasks import Stream, seeding

    stream = Stream(seeding(config.data, T6, variant))
    records = {r["instance_id"]: r for r in data["instances"]}
    added = 0
    for example, number in [(i, i + 1) for i in range(int(config.data["start"]), int(config.data["end"]) + 1)]:
        for i, is_example in ((example, True), (number, False)):
            inst = Instance(config, i)
            stream.executor()
            *_, state = _event(inst, stream)
            record = records.get(number)
            if record is None:
                continue
            text = inst.problem_text(state)
            domain = inst.task.domain
            if is_example:
                plan = from_words(record["query"], inst, Task(domain, load_problem(text, domain)), AFTER_EVENT)
            else:
                plan = from_gold(record["ground_truth_plan"], config.data) if record["ground_truth_plan"] else []
            key = plan_key(config.domain_text(), text)
            table.setdefault(key, "\n".join(" ".join(a.split("_")) for a in plan))
            added += 1
    return added


def check(inst: Instance, plan: list[str], compare: bool) -> bool | None:
    """None when the plan is not valid for the instance file (the release's instance changed since: the plan is left
    out); with `compare`, True when apb's own A* finds this very plan and False when it finds another of the same
    length (A* not finishing within ASTAR_SECONDS counts as True: not compared)."""
    result = inst.task.validate([f"({' '.join(a.split('_'))})" for a in plan])
    if not result.valid:
        return None
    if not compare:
        return True
    ours = astar(inst.task, heuristic="lmcut", timeout=ASTAR_SECONDS).plan
    if ours is None:
        return True
    assert len(ours) == len(plan), (inst.rel, plan)
    return ["_".join(str(a).strip("()").split()) for a in ours] == plan


def main(root: Path, compare: bool) -> None:
    table: dict[str, str] = {}
    same = differ = unchecked = 0
    for folder in sorted((root / "plan-bench" / "prompts").iterdir()):
        config = load_config(folder.name)
        for stem, generalized in SOURCES:
            data = released(folder, stem)
            if data is None:
                continue
            found: dict[int, list[str]] = {}
            for record in data["instances"]:
                found[record["instance_id"]] = from_gold(record["ground_truth_plan"], config.data)
                example = record["example_instance_ids"][0]
                if example not in found:
                    found[example] = from_words(record["query"], Instance(config, example, generalized))
            for number, plan in sorted(found.items()):
                inst = Instance(config, number, generalized)
                key = plan_key(config.domain_text(), inst.text)
                if key in table:
                    assert table[key] == "\n".join(" ".join(a.split("_")) for a in plan), inst.rel
                    continue
                verdict = check(inst, plan, compare)
                same, differ, unchecked = same + (verdict is True), differ + (verdict is False), \
                    unchecked + (verdict is None)
                if verdict is None:
                    print(f"  {inst.rel}: the released plan is not valid for this instance file; left out")
                    continue
                table[key] = "\n".join(" ".join(a.split("_")) for a in plan)
            print(f"{folder.name}/{stem}: {len(found)} plans")
    for kind, folder, variant in REPLANNING:
        path = root / "plan-bench" / kind / folder / ("gpt-4_chat/" if kind == "results" else "") / \
            "task_6_replanning.json.gz"
        found = replanned(load_config(folder), load(path), variant, table)
        print(f"{folder}/{kind} t6: {found} replanned plans")
    PLANS_FILE.write_bytes(lzma.compress(json.dumps(table, sort_keys=True, indent=0).encode(),
                                         preset=9 | lzma.PRESET_EXTREME))
    print(f"{len(table)} plans -> {PLANS_FILE} ({PLANS_FILE.stat().st_size} bytes); {unchecked} left out (not valid "
          "for the instance file)" + (f"; apb's A* finds the same plan for {same}, another plan of the same length "
                                      f"for {differ}" if compare else ""))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--compare"]
    main(Path(args[0]) if args else Path(__file__).resolve().parents[2] / "shared" / "reference" / "planbench",
         "--compare" in sys.argv)

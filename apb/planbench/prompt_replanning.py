"""PlanBench's t6 (replanning) prompt file: an instance's plan, an unexpected event after a random prefix (the
block in hand lands on a random clear block: PlanBench's blocksworld and mystery blocksworld events), and the plan
from the new state (Fast Downward's as released where the release states it, else apb's A*)."""

from __future__ import annotations

from apb.datasets.dataset import DatasetError
from apb.datasets.planbench import PlanBenchConfig
from apb.planbench.instances import Instance
from apb.planbench.prompt_tasks import Stream, intro, new_instance, one_shot_ids, start
from apb.planbench.render import action_text, gold_plan_text, plan_lines, state_text

EVENTS = {  # PlanBench's events by the config's domain name: (holding, clear, hand-empty, on) predicates
    "blocksworld": ("holding", "clear", "handempty", "on"),
    "blocksworld_3": ("holding", "clear", "handempty", "on"),
    "mystery_blocksworld": ("pain", "province", "harmony", "craves"),
    "mystery_blocksworld_3": ("pain", "province", "harmony", "craves"),
}


def _event(inst: Instance, stream: Stream) -> tuple[int, set[str], set[str], frozenset[str]]:
    """(prefix length, facts made true, facts made false, the new state) of PlanBench's event."""
    holding, clear, empty, on = EVENTS[inst.config.data["domain_name"]]
    if not inst.plan:
        raise DatasetError(f"{inst.rel}: an empty plan has no prefix to interrupt (PlanBench loops forever here)")
    while True:  # PlanBench draws prefixes until the hand holds a block
        prefix = stream.prefix(inst.plan)
        state = inst.progress(inst.init, inst.plan[:prefix])
        if any(holding in fact for fact in state):
            break
    blocks, removed = set(), set()
    for fact in state:
        if empty in fact:
            continue
        if clear in fact:
            blocks.add(fact.split("_")[-1])
        if holding in fact:
            current = fact.split("_")[1]
            removed.add(fact)
    target = stream.rng.choice(sorted(blocks))
    removed.add(f"{clear}_{target}")
    added = {f"{on}_{current}_{target}", empty, f"{clear}_{current}"}
    return prefix, added, removed, frozenset((state | added) - removed)


def _block(inst: Instance, stream: Stream, with_answer: bool) -> tuple[str, list[str], frozenset[str]]:
    data = inst.config.data
    prefix, added, removed, new_state = _event(inst, stream)
    replanned = inst.plan_from(new_state)
    text = (f"\n[STATEMENT]\nAs initial conditions I have that, {state_text(inst.init, data).strip()}.\n"
            f"My goal is to have that {state_text(inst.goal, data)}.\nMy plan is as follows:\n\n[PLAN]"
            f"{plan_lines(inst.plan, data)}\n"
            f"During execution, an unexpected event has occurred.\nAfter executing the action "
            f"\"{action_text(inst.plan[prefix - 1], data)}\" at step {prefix} in the plan, the following facts "
            f"unexpectedly became true: {state_text(added, data)}\nThe following facts became unexpectedly false: "
            f"{state_text(removed, data)}\nAfter re-planning from the new state, the plan is as follows:\n[PLAN]")
    if with_answer:
        text += plan_lines(replanned, data)
    return text, replanned, new_state


def t6(config: PlanBenchConfig, stem: str, variant: str = "prompts") -> dict:
    data = config.data
    if data["domain_name"] not in EVENTS:
        raise DatasetError(f"PlanBench config {config.folder}/{config.name}: apb writes t6 for the configs PlanBench "
                           f"defines an event for ({', '.join(EVENTS)})")
    data, out, stream = start(config, stem, variant)
    for example, number in one_shot_ids(config):
        query = intro(data, stem, variant)
        for i, with_answer in ((example, True), (number, False)):
            inst = Instance(config, i)
            stream.executor()
            text, replanned, new_state = _block(inst, stream, with_answer)
            query += text
        out["instances"].append({"instance_id": number, "example_instance_ids": [example], "query": query,
                                 "ground_truth_plan": gold_plan_text(replanned, data),
                                 "new_instance": new_instance(sorted(new_state), sorted(inst.goal))})
    return out

"""PlanBench's t3 (plan verification) prompt file: three worked examples (a valid plan, one that cannot be executed,
one that misses the goal, in random order) and the instance's plan, each judged in PlanBench's words.

PlanBench asks VAL (`validate -v`) for its plan repair advice and rewrites it; apb's engine gives the same facts: the
first action whose preconditions fail with the unmet ones, or the unmet goals (sorted and worded by the config).
"""

from __future__ import annotations

from apb.datasets.planbench import PlanBenchConfig
from apb.planbench.instances import Instance
from apb.planbench.prompt_tasks import Stream, intro, start, task_ids
from apb.planbench.render import action_text, plan_lines, state_text

VALID = "The above plan is valid.\n"


def verdict_text(inst: Instance, plan: list[str]) -> str | None:
    """PlanBench's verification message for a plan of the instance (None when the plan is valid, as PlanBench's
    rewriting of VAL's empty advice gives)."""
    data = inst.config.data
    state = inst.init
    for step, action in enumerate(plan, 1):
        ground = inst.task.parse_action("(" + " ".join(action.split("_")) + ")")
        names = inst.task.fact_names
        unmet = {"_".join(names[i].strip("()").split()) for i in ground.pre} - state
        if unmet:
            several = len(unmet) > 1
            return ("The above plan is invalid." +
                    (f" The following action at step {step} has unmet preconditions:\n" if several
                     else f"The following action at step {step} has an unmet precondition:\n") +
                    action_text(action, data) + "\n" +
                    ("The unmet preconditions are:\n" if several else "The unmet precondition is:\n") +
                    state_text(unmet, data))
        state = inst.progress(state, [action])
    missing = inst.goal - state
    if not missing:
        return None
    return ("The above plan is invalid." + (" These are the unmet goal conditions:\n" if len(missing) > 1
                                            else " This is the unmet goal condition:\n") + state_text(missing, data))


def perturbed(plan: list[str], kind: int, stream: Stream) -> list[str]:
    """PlanBench's example plans: kind -1 drops one action and shuffles the rest (cannot be executed), 0 keeps a
    random proper prefix (misses the goal: of 0 to len-2 actions; the earlier code dropped the last action), 1 keeps
    it."""
    rng = stream.rng
    if kind == 0 and not stream.reseed:  # the earlier code
        return list(plan[:-1])
    if kind == -1:
        drop = rng.choice(range(1, len(plan) - 1)) if len(plan) > 2 else 1
        plan = plan[:drop] + plan[drop + 1:]
        rng.shuffle(plan)
    elif kind == 0:
        plan = plan[:rng.choice(range(0, len(plan) - 1))]
    return list(plan)


def _block(inst: Instance, plan: list[str], message: str | None, with_answer: bool) -> str:
    data = inst.config.data
    text = (f"\n[STATEMENT]\nAs initial conditions I have that, {state_text(inst.init, data).strip()}.\n"
            f"My goal is to have that {state_text(inst.goal, data)}. \nMy plan is as follows:\n\n[PLAN]"
            f"{plan_lines(plan, data)}\n[VERIFICATION]")
    return text + f"\n{message}" if with_answer else text


def judged(inst: Instance, kind: int, stream: Stream) -> tuple[list[str], str | None]:
    plan = perturbed(inst.plan, kind, stream)
    return plan, (VALID if kind == 1 else verdict_text(inst, plan))


def n_files(config: PlanBenchConfig) -> int:
    """PlanBench's `n_files`: the smaller of the config's `n_instances` and the files in its instance folder."""
    return min(int(config.data["n_instances"]), len(config.instance_files()))


def t3(config: PlanBenchConfig, stem: str, variant: str = "prompts",
       llm_plans: dict[int, list[str]] | None = None) -> dict:
    """Plan verification. The released results files' queries were drawn with the earlier code's randomness (and,
    for mystery blocksworld, an earlier intro). With `llm_plans` (instance id -> a model's t1 plan, `(name a b)`
    strings: `task_3_plan_verification_with_llm_plans`) the instance's plan is the model's, and an instance without
    one is left out."""
    data, out, stream = start(config, stem, variant)
    rng = stream.rng
    pool_size = n_files(config)
    for number in task_ids(config):
        if llm_plans is not None and not llm_plans.get(number):
            continue
        query = intro(data, stem, variant)
        examples = rng.choices([n for n in range(1, pool_size) if n != number], k=3)
        kinds = [-1, 0, 1]
        rng.shuffle(kinds)
        for example, kind in zip(examples, kinds, strict=True):
            inst = Instance(config, example)
            stream.executor()
            plan, message = judged(inst, kind, stream)
            query += _block(inst, plan, message, True)
        kind = rng.choice([-1, 0, 1])
        inst = Instance(config, number)
        stream.executor()
        if llm_plans is None:
            plan, message = judged(inst, kind, stream)
        else:
            plan = ["_".join(a.replace("(", " ").replace(")", " ").split()) for a in llm_plans[number]]
            message = verdict_text(inst, plan)
        query += _block(inst, plan, message, False)
        out["instances"].append({"instance_id": number, "query": query, "ground_truth_plan": message})
    return out

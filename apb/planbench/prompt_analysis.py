"""llm_planning_analysis's prompt variants of plan generation, as its prompt generation writes them: zero-shot
(`task_1_plan_generation_zero_shot`), state tracking (`..._state_tracking`: the example's plan with each step's
state, action, preconditions and resulting state), PDDL one-shot (`..._pddl`: the domain and problem files as they
are) and PDDL zero-shot (`..._zero_shot_pddl`). Wording is in apb/prompts/planbench/analysis.yaml; these variants
take the config's intros as its YAML has them (no earlier intros: PlanBench released no files of them).

Gold plans are apb.planbench.instances' (PlanBench's Fast Downward plans where released, else apb's optimal A*),
written as Fast Downward's `sas_plan` file would hold them; a config of unsolvable instances has none.
"""

from __future__ import annotations

import random
import string
from functools import cache

import yaml

from apb.datasets.dataset import DatasetError
from apb.datasets.planbench import PlanBenchConfig
from apb.planbench.instances import Instance
from apb.planbench.prompt_tasks import header, one_shot_ids, task_ids
from apb.planbench.render import atoms_text, join_facts
from apb.planbench.wording import object_text
from apb.prompts import load_prompt

SEED = 42  # prompt_generation's default --seed: the stream the zero-shot PDDL names are drawn from


@cache
def wording() -> dict:
    return yaml.safe_load(load_prompt("planbench/analysis.yaml"))


def _needs(config: PlanBenchConfig, stem: str, *keys: str) -> None:
    missing = [k for k in keys if k not in config.data]
    if missing:
        raise DatasetError(f"PlanBench config {config.folder}/{config.name} has no {missing[0]}: PlanBench cannot "
                           f"write {stem} for it", hint="its PDDL variants (task_1_plan_generation_pddl, "
                           "task_1_plan_generation_zero_shot_pddl) need no wording")


def unsolvable(config: PlanBenchConfig) -> bool:
    return "unsolvable" in str(config.data["domain_name"])


def gold(inst: Instance) -> list[str]:
    """The gold plan (`name_a_b` actions); none for a config of unsolvable instances (Fast Downward finds none)."""
    return [] if unsolvable(inst.config) else inst.plan


def sas_plan(plan: list[str]) -> str:
    """The plan as Fast Downward's `sas_plan` file holds it (empty when there is no plan: no file)."""
    if not plan:
        return ""
    return "".join("(" + " ".join(a.split("_")) + ")\n" for a in plan) + f"; cost = {len(plan)} (unit cost)\n"


def plan_as_text(plan: list[str]) -> str:
    """`(name a b)` lines, as PlanBench's `get_plan_as_text` reads them back from `sas_plan`."""
    return "".join("(" + a.split("_")[0] + " " + " ".join(a.split("_")[1:]) + ")\n" for a in plan)


def _wanted(ids: list[int], instances: set[int] | None) -> list[int]:
    return [i for i in ids if instances is None or i in instances]


def _wanted_pairs(pairs: list[tuple[int, int]], instances: set[int] | None) -> list[tuple[int, int]]:
    return [p for p in pairs if instances is None or p[1] in instances]


def zero_shot(config: PlanBenchConfig, stem: str, variant: str = "prompts",
               instances: set[int] | None = None) -> dict:
    """The instance's statement and a question instead of `[PLAN]`; no example."""
    data = config.data
    _needs(config, stem, "domain_intro", "predicates")
    out = header(stem, data) | {"prompt_type": "zeroshot"}
    for number in _wanted(task_ids(config), instances):
        inst = Instance(config, number)
        text = (f"\n[STATEMENT]\nAs initial conditions I have that, {atoms_text(inst.init_atoms, data).strip()}."
                f"\nMy goal is to have that {atoms_text(inst.goal_atoms, data)}." + wording()["zero_shot_instruction"])
        if "blocksworld" in data["domain_name"]:
            text = text.replace("-", " ").replace("ontable", "on the table")
        truth = wording()["unsolvable_plan"] if unsolvable(config) else plan_as_text(gold(inst))
        out["instances"].append({"instance_id": number,
                                 "query": data.get("domain_intro_zero_shot", data["domain_intro"]) + text,
                                 "ground_truth_plan": truth})
    return out


def _facts_text(facts, data: dict) -> str:
    """A set of facts in words, sorted (PlanBench's `get_state_translation` of llm_planning_analysis: facts whose
    predicate has no wording are left out, an empty wording stays an empty item)."""
    texts = []
    for key in sorted(facts):
        pred, *args = key.split("_")
        if pred in data["predicates"]:
            texts.append(data["predicates"][pred].format(*[object_text(a, data) for a in args]))
    return join_facts(texts)


def _action_text(action: str, data: dict) -> str:
    name, *args = action.split("_")
    domain = str(data["domain_name"])
    if "blocksworld" in domain:
        words = [data["encoded_objects"][a] for a in args]
    elif "logistics" in domain:
        words = [data["encoded_objects"][a[0]].format(*[c for c in a if c.isdigit()]) for a in args]
    else:
        raise DatasetError(f"PlanBench words no actions of {domain} in state tracking")
    return data["actions"][name].format(*words)


@cache
def _preconditions(domain_text: str) -> dict[str, tuple[list[str], list[tuple[str, list[str]]]]]:
    """action name -> (parameters, positive precondition atoms `(pred, [?x ...])`), lower case."""
    from pddl.parser.domain import DomainParser

    domain = DomainParser()(domain_text)
    out = {}
    for action in domain.actions:
        pre = action.precondition
        atoms = list(getattr(pre, "operands", [pre] if pre is not None else []))
        out[action.name.lower()] = ([f"?{p.name}".lower() for p in action.parameters],
                                    [(str(a.name).lower(), [f"?{t.name}".lower() for t in a.terms])
                                     for a in atoms if hasattr(a, "terms")])
    return out


def _precondition_facts(inst: Instance, action: str) -> set[str]:
    name, *args = action.lower().split("_")
    params, atoms = _preconditions(inst.config.domain_text())[name]
    binding = dict(zip(params, args))
    return {"_".join([pred, *(binding[t] for t in terms)]) for pred, terms in atoms}


def _tracked(inst: Instance, with_plan: bool, data: dict) -> str:
    """One statement of state tracking: the example's (`with_plan`) walks its plan step by step."""
    w = wording()
    text = w["state_tracking_statement"].format(init=_facts_text(inst.init, data).strip(),
                                                goal=_facts_text(inst.goal, data))
    if not with_plan:
        return text
    state = inst.init
    for step, action in enumerate(gold(inst), start=1):
        before = _facts_text(state, data)
        state = inst.progress(state, [action])
        text += w["state_tracking_step"].format(step=step, state=before, action=_action_text(action, data),
                                                preconditions=_facts_text(_precondition_facts(inst, action), data),
                                                result=_facts_text(state, data))
    return text + w["state_tracking_end"].format(state=_facts_text(state, data))


def state_tracking(config: PlanBenchConfig, stem: str, variant: str = "prompts",
               instances: set[int] | None = None) -> dict:
    data = config.data
    _needs(config, stem, "domain_intro_state_tracking", "predicates")
    if unsolvable(config):
        raise DatasetError(f"PlanBench cannot write {stem} for {config.folder}/{config.name}: its instances have no "
                           "plan (PlanBench's code fails reading the missing sas_plan)")
    out = header(stem, data)
    for example, number in _wanted_pairs(one_shot_ids(config), instances):
        ex, inst = Instance(config, example), Instance(config, number)
        query = data["domain_intro_state_tracking"] + _tracked(ex, True, data) + _tracked(inst, False, data)
        out["instances"].append({"instance_id": number, "example_instance_ids": [example], "query": query,
                                 "ground_truth_plan": plan_as_text(gold(inst))})
    return out


def pddl(config: PlanBenchConfig, stem: str, variant: str = "prompts",
               instances: set[int] | None = None) -> dict:
    """One-shot in PDDL: the domain file, the example's problem file and plan, the query's problem file. PlanBench
    lists the example's id twice in `example_instance_ids`; `ground_truth_plan` is the `sas_plan` text."""
    w = wording()
    out = header(stem, config.data)
    for example, number in _wanted_pairs(one_shot_ids(config), instances):
        ex, inst = Instance(config, example), Instance(config, number)
        query = (w["pddl_instruction"] + "[DOMAIN]\n" + config.domain_text().strip() + "\n\n"
                 "[PROBLEM]\n" + ex.text.strip() + "\n\n" + "[PLAN]\n" + sas_plan(gold(ex)).strip() +
                 "\n[PLAN_END]\n\n" + "[QUERY PROBLEM]\n" + inst.text.strip() + "\n\n")
        out["instances"].append({"instance_id": number, "example_instance_ids": [example, example], "query": query,
                                 "ground_truth_plan": sas_plan(gold(inst))})
    return out


def zero_shot_pddl(config: PlanBenchConfig, stem: str, variant: str = "prompts",
               instances: set[int] | None = None) -> dict:
    """Zero-shot in PDDL: the domain file and the problem from its `(define` (last character dropped); the name
    `obfuscated_randomized_blocksworld` is replaced by six random characters drawn from PlanBench's stream."""
    w = wording()
    out = header(stem, config.data)
    rng = random.Random(SEED)
    alphabet = string.ascii_lowercase + string.digits
    for number in task_ids(config):
        name = "".join(rng.choices(alphabet, k=6))  # drawn for every instance, asked or not
        if instances is not None and number not in instances:
            continue
        parts = Instance(config, number).text.split("(define")
        if len(parts) < 2:
            raise DatasetError(f"PlanBench instance {config.instance_rel(number)} has no (define")
        problem = "(define" + parts[1][:-1].strip() + "\n)"
        query = (w["zero_shot_pddl_instruction"] + "[DOMAIN]\n" + config.domain_text().strip() + "\n\n" +
                 "[QUERY PROBLEM]\n" + problem.strip() + "\n\n[PLAN]")
        out["instances"].append({"query": query.replace(w["zero_shot_pddl_hidden_name"], name),
                                 "instance_id": number, "ground_truth_plan": {}})
    return out


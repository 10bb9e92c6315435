"""PlanBench's verdict on a record, as its evaluation computes it, and apb's sound verdict beside it.

`score_record(config, task, record, keys=Keys())` returns the record with PlanBench's fields added (or replaced):
`extracted_llm_plan` and `llm_correct` (t1, t2, t4, t5, t6, t8), t2's `actual_cost_of_llm_plan` / `cost_by_llm`
(when the plan is valid), t3's `extracted_llm_plan` / `parsed_ground_truth_plan` / `llm_correct_binary` /
`llm_correct_w_type` / `llm_correct_w_expl`, t7's `extracted_llm_plan` (the state read) / `llm_correct`; and apb's
`apb_correct` and `apb_plan` (what the response states, read soundly, judged by the engine) with `apb_reason`. A
record without a response is returned as it is (PlanBench skips it). `score_records` does a whole file's list.
Plans are validated by apb's engine where PlanBench runs VAL.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.planbench import reading, sound
from apb.planbench.problems import (
    ProblemUnknown,
    base_task,
    domain_of,
    new_instance_task,
    replanning_task,
    reuse_task,
)
from apb.planbench.wording import wording_for

PLAN_TASKS = {"t1": "task_1_plan_generation", "t2": "task_2_plan_optimality", "t4": "task_4_plan_reuse",
              "t5": "task_5_plan_generalization", "t6": "task_6_replanning", "t8_1": "task_8_1_goal_shuffling",
              "t8_2": "task_8_2_full_to_partial", "t8_3": "task_8_3_partial_to_full"}
STATE_TASKS = {"t7": "task_7_plan_execution"}
VERIFICATION_TASKS = {"t3": "task_3_plan_verification", "t3_1": "task_3_plan_verification_with_llm_plans"}
ANALYSIS_TASKS = {"t1_zero": "task_1_plan_generation_zero_shot", "t1_cot": "task_1_plan_generation_state_tracking",
                  "t1_pddl": "task_1_plan_generation_pddl", "t1_zero_pddl": "task_1_plan_generation_zero_shot_pddl"}
SHORT_NAMES = {**PLAN_TASKS, **STATE_TASKS, **VERIFICATION_TASKS, **ANALYSIS_TASKS}
READINGS = ("auto", "text", "translation", "pddl")
OFFICIAL_FIELDS = ("extracted_llm_plan", "llm_correct", "actual_cost_of_llm_plan", "cost_by_llm",
                   "parsed_ground_truth_plan", "llm_correct_binary", "llm_correct_w_type", "llm_correct_w_expl")
SOUND_FIELDS = ("apb_correct", "apb_plan", "apb_reason")


@dataclass(frozen=True)
class Keys:
    """Which record keys hold what (releases differ): the response, the query, the instance id, the gold, and the
    translator model's answer (llm_planning_analysis's `raw_translation`)."""

    response: str = "llm_raw_response"
    query: str = "query"
    instance: str = "instance_id"
    gold: str = "ground_truth_plan"
    translation: str = "raw_translation"


DEFAULT_KEYS = Keys()


def task_stem(task: str) -> str:
    """A task's file stem from a short name (`t1`) or the stem itself."""
    return SHORT_NAMES.get(task, task)


def check_task(task: str) -> str:
    """The file stem of a task PlanBench's evaluation scores (both folders), else an ApbError listing them."""
    stem = task_stem(task)
    if stem not in SHORT_NAMES.values():
        raise ApbError(f"unknown PlanBench task {task!r}: use one of "
                       + ", ".join(f"{short} ({stem})" for short, stem in SHORT_NAMES.items()))
    return stem


def task_kind(task: str) -> str:
    """`verification`, `state` or `plan`."""
    stem = task_stem(task)
    if "plan_verification" in stem:
        return "verification"
    if "plan_execution" in stem:
        return "state"
    return "plan"


@lru_cache(maxsize=64)
def _vocabulary(config) -> reading.Vocabulary:
    domain = domain_of(config)
    return reading.Vocabulary(config.data, config.folder, tuple((a.name, len(a.parameters)) for a in domain.actions))


def _problem(config, stem: str, instance_id: int, query: str, new_instance=None) -> Task:
    if isinstance(new_instance, dict) and ("plan_reuse" in stem or "replanning" in stem):
        return new_instance_task(config, instance_id, new_instance)  # what PlanBench judges on when it is there
    if "plan_reuse" in stem:
        return reuse_task(config, instance_id, query)
    if "replanning" in stem:
        return replanning_task(config, instance_id, query)
    return base_task(config, instance_id, generalized="generalization" in stem)


def _valid(task: Task, plan: str) -> bool:
    """VAL's verdict on PlanBench's plan file: every line one action, each applicable, the goal reached."""
    return task.validate(plan).valid


def _optimal_cost(task: Task, record: dict, keys: Keys) -> int | None:
    """The cost PlanBench compares t2 plans with: its planner's plan, the record's gold (one action per line)."""
    gold = record.get(keys.gold)
    if isinstance(gold, str):
        return sum(1 for line in gold.split("\n") if line.strip().startswith("("))
    if isinstance(gold, list):
        return len(gold)
    return None


def _reading(reading_flag: str, stem: str, record: dict, keys: Keys) -> str:
    if reading_flag != "auto":
        return reading_flag
    if "pddl" in stem:
        return "pddl"
    if isinstance(record.get(keys.translation), str):
        return "translation"
    return "text"


def score_record(config, task: str, record: dict, *, keys: Keys = DEFAULT_KEYS, reading_flag: str = "auto") -> dict:
    """The record with PlanBench's verdict fields and apb's sound verdict added (see the module docstring)."""
    out = dict(record)
    response = record.get(keys.response)
    if not response or not isinstance(response, str):
        return out
    stem = task_stem(task)
    kind = task_kind(stem)
    vocab = _vocabulary(config)
    query = record.get(keys.query) if isinstance(record.get(keys.query), str) else ""
    try:
        instance_id = int(record.get(keys.instance))
    except (TypeError, ValueError):
        instance_id = None
    if kind == "verification":
        _verification(out, response, record.get(keys.gold), vocab, config, instance_id, query)
        return out
    if kind == "state":
        _state(out, response, record.get(keys.gold), vocab, config, instance_id, query)
        return out
    try:
        problem = (_problem(config, stem, instance_id, query, record.get("new_instance"))
                   if instance_id is not None else None)
    except ProblemUnknown as err:
        problem, why = None, str(err)
    else:
        why = "" if problem is not None else f"the record has no {keys.instance}"
    _official_plan(out, response, record, stem, vocab, problem, keys, _reading(reading_flag, stem, record, keys))
    _sound_plan(out, response, stem, config, problem, record, keys, why)
    return out


def _official_plan(out: dict, response: str, record: dict, stem: str, vocab, problem: Task | None, keys: Keys,
                   how: str) -> None:
    unsolvable = "unsolvable" in vocab.name
    readable = None
    try:
        if how == "translation":
            plan = reading.translated_plan(str(record.get(keys.translation) or ""), vocab)
        elif how == "pddl":
            plan = reading.pddl_response_plan(response)
        else:
            plan, readable = reading.official_plan(response, vocab)
    except reading.ReadingFailed:
        out["llm_correct"] = False  # PlanBench: "Plan extraction failed"
        return
    out["extracted_llm_plan"] = plan if readable is None else _released_form(plan, readable, stem, vocab)
    if unsolvable and how != "text":
        correct = reading.unsolvable_claimed(plan)
    else:
        correct = problem is not None and _valid(problem, plan)
    if correct and "optimality" in stem:
        out["actual_cost_of_llm_plan"] = reading.plan_steps(plan)
        out["cost_by_llm"] = reading.stated_cost(response)
        correct = out["actual_cost_of_llm_plan"] == _optimal_cost(problem, record, keys)
    out["llm_correct"] = bool(correct)


def _released_form(plan: str, readable: str, stem: str, vocab) -> str | list[str]:
    """`extracted_llm_plan` as PlanBench's released results hold it (the plan VAL validates is `plan` either way):
    plan-bench's t1 files a list of the plan's actions (`['(unstack a b)', ...]`), its other plan tasks the readable
    plan (`(unstack red blue)\\n...`: the objects as the response names them, ` block` dropped);
    llm_planning_analysis's evaluation (no released results) the plan itself, as its code writes it."""
    if vocab.folder != reading.PLAN_BENCH:
        return plan
    if stem == PLAN_TASKS["t1"]:
        return [line for line in plan.split("\n") if line]
    return readable


def _sound_plan(out: dict, response: str, stem: str, config, problem: Task | None, record: dict, keys: Keys,
                why: str) -> None:
    out["apb_plan"] = None
    out["apb_correct"] = False
    if problem is None:
        out["apb_reason"] = f"the problem is unknown: {why}"
        return
    wording = wording_for(config, problem.problem.objects)
    if sound.states_no_plan(response, wording, problem):
        out["apb_plan"] = "no plan"
        solvable = _solvable(problem)
        out["apb_correct"] = solvable is False
        out["apb_reason"] = {False: "no plan exists (an exhaustive search proves it)", True: "a plan exists",
                             None: "the search for a plan did not finish: the claim is not credited"}[solvable]
        return
    if "unsolvable" in config.data.get("domain_name", ""):
        out["apb_reason"] = "the instance is unsolvable (a config of unsolvable instances): no plan is correct"
        return
    plan, reason = sound.stated_plan(response, wording, problem, cost_line="optimality" in stem)
    if plan is None:
        out["apb_reason"] = reason
        return
    out["apb_plan"] = plan
    result = problem.validate(plan)
    if not result.valid:
        out["apb_reason"] = result.reason
        return
    if "optimality" in stem:
        best = _optimal_cost(problem, record, keys)
        if best is None or len(plan) != best:
            out["apb_reason"] = f"a valid plan of {len(plan)} steps; the optimal plan has {best}"
            return
    out["apb_correct"] = True
    out["apb_reason"] = result.reason


def _solvable(task: Task) -> bool | None:
    """Whether a plan exists: an exhaustive search (breadth first, bounded in time and nodes); None undecided."""
    from apb.planners import solve
    from apb.planners.result import SOLVED, UNSOLVABLE

    result = solve(task, "bfs", timeout=5.0, max_nodes=500_000)  # PlanBench's unsolvable instances: a few blocks
    return {SOLVED: True, UNSOLVABLE: False}.get(result.status)


def _query_task(config, instance_id, query: str) -> tuple[Task | None, list[str] | None]:
    """The instance and the plan (t3) or action sequence (t7) the query's last statement lists, read exactly."""
    if instance_id is None:
        return None, None
    try:
        task = base_task(config, instance_id)
    except ProblemUnknown:
        return None, None
    wording = wording_for(config, task.problem.objects)
    tail = query.rsplit("[STATEMENT]", 1)[-1]
    for start, end in (("[PLAN]", "[PLAN END]"), ("[ACTION SEQUENCE]", "[ACTION SEQUENCE END]")):
        if start in tail:
            lines = [ln for ln in tail.split(start, 1)[1].split(end, 1)[0].split("\n") if ln.strip()]
            actions = [wording.action(ln) for ln in lines]
            if all(a is not None for a in actions):
                return task, [a[0] for a in actions]
    return task, None


def _verification(out: dict, response: str, gold, vocab, config, instance_id, query: str) -> None:
    try:
        mine = reading.verification(response, vocab)
    except reading.ReadingFailed:
        mine = {}
    try:
        theirs = reading.verification(gold if isinstance(gold, str) else "", vocab)
    except reading.ReadingFailed:
        theirs = {}
    out["extracted_llm_plan"] = mine
    out["parsed_ground_truth_plan"] = theirs
    binary, typed, expl = reading.verification_verdict(mine, theirs)
    out["llm_correct_binary"], out["llm_correct_w_type"], out["llm_correct_w_expl"] = binary, typed, expl
    stated = sound.stated_validity(response)
    task, plan = _query_task(config, instance_id, query)
    truth = None
    if task is not None and plan is not None:
        truth = task.validate(plan).valid
    out["apb_plan"] = None if stated is None else ("valid" if stated else "invalid")
    out["apb_correct"] = stated is not None and truth is not None and stated == truth
    out["apb_reason"] = ("the response does not say valid or invalid, and only that" if stated is None else
                         "the query's plan cannot be read back" if truth is None else
                         f"the plan is {'valid' if truth else 'invalid'}")


def _state(out: dict, response: str, gold, vocab, config, instance_id, query: str) -> None:
    try:
        state = reading.official_state(response, vocab, split_and=False)
    except reading.ReadingFailed:
        state = None
    out["extracted_llm_plan"] = state
    gold_facts = gold if isinstance(gold, list) else None
    out["llm_correct"] = bool(state is not None and gold_facts is not None
                              and sorted(map(str, gold_facts)) == sorted(state))
    out["apb_plan"] = None
    out["apb_correct"] = False
    task, actions = _query_task(config, instance_id, query)
    if task is None or actions is None:
        out["apb_reason"] = "the query's action sequence cannot be read back"
        return
    try:
        truth = set(task.facts(task.run(actions)))
    except ApbError as err:
        out["apb_reason"] = f"the query's action sequence does not execute: {err}"
        return
    stated, reason = sound.stated_state(response, wording_for(config, task.problem.objects))
    if stated is None:
        out["apb_reason"] = reason
        return
    true, false = stated
    out["apb_plan"] = sorted(true)
    wrong = (true ^ truth) | (false & truth)
    out["apb_correct"] = not wrong
    out["apb_reason"] = "the state is right" if not wrong else f"wrong about {', '.join(sorted(wrong)[:5])}"


def score_records(config, task: str, records: list, *, keys: Keys = DEFAULT_KEYS, reading_flag: str = "auto") -> list:
    """`score_record` on every record (non-dict entries kept as they are)."""
    return [score_record(config, task, r, keys=keys, reading_flag=reading_flag) if isinstance(r, dict) else r
            for r in records]

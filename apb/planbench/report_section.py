"""PlanBench runs in `apb report` (apb.eval.run_kinds; apb.planbench.cli registers the kind): the leaderboard table
as `apb planbench report` prints it (apb.planbench.leaderboard: config x task, instances, % correct by PlanBench's
verdict and by apb's sound one) in summary.json (key `planbench`), report.md, report.html and the console; and each
t1 answer as an episode of the report's viewer: the plan PlanBench extracted (`extracted_llm_plan`) executed step by
step on the instance by apb's engine, up to its first inapplicable step (VAL stops there too), so the viewer draws
the state after each step with apb's pictures. The episode is "solved" when PlanBench's verdict is correct.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from apb.engine.errors import ApbError
from apb.eval.items import RecordStore
from apb.eval.metrics import Episode
from apb.eval.report.html_page import html_table
from apb.eval.report.writer import md_table
from apb.eval.run_kinds import ReportSection
from apb.eval.rundir import read_run_file
from apb.planbench import RUN_KIND
from apb.planbench.leaderboard import leaderboard_matrix, leaderboard_rows, leaderboard_table
from apb.planbench.problems import ProblemUnknown, base_task

PICTURED_PREFIX = "task_1_plan_generation"  # t1 and llm_planning_analysis's t1 variants: a plan on the instance
AGENT = "planbench-t1"
CAPTION = ("One row per run, config and task: the instances answered and the % correct by PlanBench's verdict (t3: "
           "its binary one) and by apb's sound verdict (apb planbench report prints the same table). LLM errors are "
           "not counted. Each t1 answer is an episode of the viewer below (agent planbench-t1): the plan PlanBench "
           "extracted, executed on the instance up to its first inapplicable step; solved = PlanBench's verdict.")


def report_section(dirs: list[Path]) -> ReportSection:
    """The PlanBench section of `apb report` for the `apb planbench eval` run folders `dirs`."""
    rows = leaderboard_rows(dirs)
    header, body = leaderboard_matrix(rows)
    markdown = "\n".join(["## PlanBench", "", CAPTION, "", md_table(header, body), ""])
    html = f"<h2 id='planbench'>PlanBench</h2><p class='note'>{escape(CAPTION)}</p>{html_table(header, body)}"
    episodes = [episode for folder in dirs for episode in plan_episodes(Path(folder))]
    return ReportSection(RUN_KIND, rows, markdown, html, [leaderboard_table(rows)], episodes)


def plan_episodes(folder: Path) -> list[Episode]:
    """Every answered t1 prompt of a run folder as an Episode of its extracted plan (see the module docstring)."""
    from apb.datasets.planbench import load_config

    settings = (read_run_file(folder) or {}).get("settings", {})
    try:
        config = load_config(str(settings.get("config")), settings.get("folder"))
    except ApbError:
        return []
    episodes = []
    for result in sorted(RecordStore(folder).records().values(), key=lambda r: str(r.get("id"))):
        record = result.get("record")
        if result.get("error") or not isinstance(record, dict) or not str(result.get("task")).startswith(
                PICTURED_PREFIX):
            continue
        episodes.append(_episode(folder, config, settings, result, record))
    return episodes


def _plan(record: dict) -> list[str]:
    plan = record.get("extracted_llm_plan")
    if isinstance(plan, str):
        plan = plan.split("\n")
    return [str(a).strip() for a in plan or [] if str(a).strip()]


def _episode(folder: Path, config, settings: dict, result: dict, record: dict) -> Episode:
    instance = int(result["instance_id"])
    source = f"planbench:{config.name}" if config.folder == "plan-bench" else f"planbench:{config.folder}/{config.name}"
    statement = str(record.get("query") or "").rsplit("[STATEMENT]", 1)[-1].split("My plan is as follows")[0]
    gold = record.get("ground_truth_plan")
    gold_length = len(gold) if isinstance(gold, list) else sum(
        1 for line in str(gold or "").split("\n") if line.strip().startswith("("))
    header = {"episode_id": f"{folder.name}/{result['id']}", "domain": source, "agent": AGENT,
              "model": settings.get("engine") or settings.get("llm"), "split": None, "problem_id": instance,
              "seed": None, "initial_state": statement.split("My goal is to have that")[0].strip() or None,
              "goal": statement.split("My goal is to have that", 1)[1].strip() if "My goal is to have that" in
              statement else None, "gold_plan_length": gold_length or None}
    steps, stop = _steps(config, instance, _plan(record))
    verdicts = (f"PlanBench: {'correct' if record.get('llm_correct') else 'wrong'}; apb's sound verdict: "
                f"{'correct' if record.get('apb_correct') else 'wrong'} ({record.get('apb_reason') or 'no reason'})")
    footer = {"success": bool(record.get("llm_correct")), "steps": len(steps),
              "invalid_actions": sum(not s["action_valid"] for s in steps), "stop_reason": stop, "detail": verdicts}
    return Episode(folder / "results.jsonl", header, steps, footer)


def _steps(config, instance: int, plan: list[str]) -> tuple[list[dict], str]:
    """The plan's steps executed on the instance up to the first that cannot be (recorded invalid), and why it
    stopped."""
    try:
        task = base_task(config, instance)
    except ProblemUnknown as err:
        return [], f"the instance cannot be loaded ({err})"
    state, steps = task.initial_state, []
    for number, action in enumerate(plan, start=1):
        try:
            ground = task.parse_action(action)
        except ApbError as err:
            steps.append({"action": action, "action_valid": False, "observation": f"not an action here: {err}"})
            return steps, f"step {number} is not an action of the instance; {len(plan) - number} step(s) not run"
        missing = task.explain(state, ground)
        if missing:
            steps.append({"action": action, "action_valid": False,
                          "observation": "not applicable: needs " + ", ".join(missing)})
            return steps, f"step {number} is not applicable; {len(plan) - number} step(s) not run"
        state = task.apply(state, ground)
        steps.append({"action": action, "action_valid": True, "observation": ""})
    if not plan:
        return steps, "no plan was extracted"
    return steps, "goal reached" if task.is_goal(state) else "the plan ends before the goal"

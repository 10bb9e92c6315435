"""Action costs through the env, the episode footer and the report: `action_cost` per step, `optimal_plan_cost`,
footer `plan_cost` and the cost-normalised LF (`lf_cost`) of summary rows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from apb.agents.episode import run_episode
from apb.envs.text_env import PDDLTextEnv
from apb.eval.metrics import load_run, summarize
from apb.eval.report.tables import metric_rows
from apb.eval.trajectory import read_trajectory, write_trajectory

DATA = Path(__file__).parent / "data" / "nl_adl"
IPC = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "ipc-classical"


class ScriptedAgent:
    """Sends the given actions in order; None means 'the first admissible move (else the first admissible)'."""

    def __init__(self, actions: list[str | None]) -> None:
        self.actions = list(actions)

    def reset(self, observation: str, info: dict) -> None:
        pass

    def act(self, observation: str, info: dict) -> str:
        action = self.actions.pop(0) if self.actions else None
        if action is not None:
            return action
        admissible = info["admissible_actions"]
        return next((a for a in admissible if a.startswith("(move")), admissible[0])

    def close(self) -> None:
        pass


def _header(info: dict, agent: str) -> dict:
    return {"type": "header", "episode_id": f"{info['problem_id']}-{agent}", "domain": info["domain"],
            "agent": agent, "model": None, "split": "test", "seed": 0, "problem_id": info["problem_id"],
            "optimal_plan_length": info["optimal_plan_length"], "optimal_plan_cost": info["optimal_plan_cost"],
            "action_costs": info["action_costs"], "gold_plan_length": None}


def test_env_reports_action_costs_and_the_optimal_gold_plan_cost():
    env = PDDLTextEnv(domain_file=DATA / "domain.pddl", problem_file=DATA / "p01.pddl")
    _, info = env.reset()
    assert info["action_costs"] is True and info["optimal_plan_cost"] == 1 and info["optimal_plan_length"] == 1
    _, _, _, _, info = env.step("(paint block_b)")  # not applicable
    assert info["action_cost"] == 0.0 and isinstance(info["action_cost"], float)  # vector envs batch by type
    _, _, _, _, info = env.step("(look-around)")
    assert info["action_cost"] == 0
    _, _, _, _, info = env.step("(lift block_b)")
    assert info["action_cost"] == 3


def test_strips_env_has_unit_costs_and_no_optimal_cost():
    env = PDDLTextEnv("blocksworld")
    _, info = env.reset(options={"problem": 1})
    assert info["action_costs"] is False and info["optimal_plan_cost"] is None
    _, _, _, _, info = env.step(info["admissible_actions"][0])
    assert info["action_cost"] == 1


def test_footer_plan_cost_on_an_ipc_cost_domain_equals_the_validated_cost(tmp_path):
    folder = IPC / "elevators-opt08-strips"
    env = PDDLTextEnv(domain_file=folder / "domain.pddl", problem_file=folder / "p03.pddl")
    first = env.reset()
    agent = ScriptedAgent(["(no-such-action)", None, None, "(look-around)", None, None, None])
    result = run_episode(env, agent, max_steps=7, first=first)
    executed = [s.action for s in result.steps if s.action_valid and s.action != "(look-around)"]
    assert len(executed) == 5 and result.invalid_actions == 1
    expected = env.task.validate(executed).cost
    assert expected > 0
    path = write_trajectory(tmp_path / "episodes" / "e.jsonl", _header(first[1], "scripted"), result)
    trajectory = read_trajectory(path)
    assert trajectory["footer"]["plan_cost"] == expected
    assert sum(s["action_cost"] or 0 for s in trajectory["steps"]) == expected


def test_summary_rows_carry_plan_cost_and_cost_normalised_lf(tmp_path):
    env = PDDLTextEnv(domain_file=DATA / "domain.pddl", problem_file=DATA / "p01.pddl")
    for agent, actions in (("cheap", ["(polish block_a)"]), ("dear", ["(paint block_a)"])):
        first = env.reset()
        result = run_episode(env, ScriptedAgent(actions), max_steps=3, first=first)
        assert result.success
        write_trajectory(tmp_path / "episodes" / f"{agent}.jsonl", _header(first[1], agent), result)
    rows = {r["agent"]: r for r in summarize(load_run([tmp_path]))}
    assert rows["cheap"]["lf"] == rows["dear"]["lf"] == 1.0  # the same length ...
    assert rows["cheap"]["plan_cost"] == 1 and rows["cheap"]["lf_cost"] == 1.0  # ... but not the same cost
    assert rows["dear"]["plan_cost"] == 2 and rows["dear"]["lf_cost"] == 2.0 and rows["dear"]["lf_cost_n"] == 1
    header, body = metric_rows([rows["cheap"], rows["dear"]])
    at = header.index("LF (cost)")
    assert header[at - 1] == "plan cost" and [line[at] for line in body] == ["1", "2"]


def test_rows_without_action_costs_have_no_cost_metrics(tmp_path):
    env = PDDLTextEnv("blocksworld")
    first = env.reset(options={"problem": 1})
    result = run_episode(env, ScriptedAgent([]), max_steps=2, first=first)
    write_trajectory(tmp_path / "episodes" / "bw.jsonl", _header(first[1], "first"), result)
    row = summarize(load_run([tmp_path]))[0]
    assert row["plan_cost"] is None and row["lf_cost"] is None and row["lf_cost_n"] == 0
    assert "plan cost" not in metric_rows([row])[0]  # the report's table is unchanged without action costs


def test_bench_engine_json_has_the_cost_and_adl_rows(capsys, reference, tmp_path):
    from apb.bench.engine import IPC_ROWS
    from apb.cli import main

    ref = tmp_path / "ref" / "blocksworld"
    (ref / "orig_problems").mkdir(parents=True)
    shutil.copy(reference / "blocksworld" / "domain.pddl", ref)
    shutil.copy(reference / "blocksworld" / "orig_problems" / "instance-1.pddl", ref / "orig_problems")
    ipc = tmp_path / "ipc"
    for folder, problem in IPC_ROWS:
        (ipc / folder).mkdir(parents=True)
        for name in ("domain.pddl", problem):
            shutil.copy(IPC / folder / name, ipc / folder / name)
    code = main(["bench", "engine", "--reference", str(ref.parent), "--ipc", str(ipc), "--seconds", "0.02",
                 "--no-peer", "--json"])
    rows = {r["dataset"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert code == 0 and rows["blocksworld"]["features"] == "STRIPS"
    assert rows["ipc/elevators-opt08-strips"]["features"] == "action costs"
    assert rows["ipc/assembly"]["features"] == "ADL"
    for row in rows.values():
        assert row["steps"] > 0 and row["steps_per_s"] > 0 and row["ground_ms"] > 0


def test_bench_engine_with_a_missing_ipc_folder_is_bad_input(capsys, reference, tmp_path):
    from apb.cli import main

    code = main(["bench", "engine", "--reference", str(reference), "--ipc", str(tmp_path / "nope"), "--no-peer"])
    assert code == 2 and "IPC folder not found" in capsys.readouterr().err

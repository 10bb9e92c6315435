"""What the adapters share, without any framework installed: the text-turn game and the missing-extra error."""

from __future__ import annotations

import pytest

from apb.agents.act import english_action
from apb.engine.errors import ApbError
from apb.integrations import MissingExtraError, require
from apb.integrations.game import GameSession


def test_a_missing_framework_names_the_extra_to_install():
    with pytest.raises(MissingExtraError, match=r'pip install "apb\[openenv\]"'):
        require("no_such_framework_here", "openenv")


def test_english_turns_reach_the_goal_with_apbs_reward_and_summary():
    game = GameSession("blocksworld")
    task = game.reset(problem=1)
    assert "My goal is" in task and "Rules:" in game.system_prompt
    plan = game.info["gold_plan"]
    for number, action in enumerate(plan, 1):
        turn = game.step(f"Action: {english_action(action, game.info)}")
        assert turn.action == action and turn.valid and turn.done == (number == len(plan))
    assert turn.reward == 1.0 and turn.goal_reached
    summary = game.summary()
    assert summary["plan"] == plan and summary["plan_length_ratio"] == 1.0 and summary["valid_action_rate"] == 1.0
    with pytest.raises(ApbError, match="the episode is over"):
        game.step("pick up block_a")


def test_a_bad_turn_gets_the_envs_explanation_and_never_raises():
    game = GameSession("blocksworld", max_steps=4, hints=True)
    game.reset(problem=1)
    turn = game.step("stack block_a on top of block_b")
    assert not turn.valid and turn.failure["kind"] == "unmet_preconditions"
    assert turn.observation.startswith("I cannot stack block_a on top of block_b because I am not holding block_a.")
    assert "Actions I can do now:\nunstack block_b from on top of block_d" in turn.observation
    for text in ("", "}}{{", "I am finished"):  # (finish) before the goal is refused too
        turn = game.step(text)
    assert turn.truncated and not turn.goal_reached
    assert game.summary()["invalid_actions"] == 4 and game.summary()["plan_length_ratio"] == 0.0


def test_pddl_view_reads_pddl_actions_and_bad_settings_are_refused():
    game = GameSession("gripper", description="pddl")
    game.reset(problem=1)
    assert "(:action" in game.system_prompt
    first = game.info["admissible_actions"][0]
    assert game.step(f"I will do {first.upper()} now").action == first
    with pytest.raises(ApbError, match="max_steps"):
        GameSession("gripper", max_steps=0)
    with pytest.raises(ApbError, match="reset"):
        GameSession("gripper").step("(move rooma roomb)")


def test_apb_acp_export_needs_no_framework_and_refuses_a_missing_source(tmp_path):
    import json
    import subprocess
    import sys

    from apb.acp import generate, write_questions

    questions, _ = generate("gripper", tasks=["app"], formats=["bool"], count=2, seed=0)
    write_questions(questions, tmp_path / "q")
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "export", "--format", "lm-eval", str(tmp_path / "t"),
                           "--questions", str(tmp_path / "q")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    [config] = (tmp_path / "t").glob("*.yaml")
    assert config.read_text().endswith("process_results: !function utils.process_results\n")
    rows = [json.loads(line) for line in (tmp_path / "t" / "data" / f"{questions[0].group}.jsonl").open()]
    assert [r["id"] for r in rows] == [q.id for q in questions]
    done = subprocess.run([sys.executable, "-m", "apb", "acp", "export", "--format", "lm-eval", str(tmp_path / "u"),
                           "--questions", str(tmp_path / "missing")], capture_output=True, text=True)
    assert done.returncode == 2 and "missing" in done.stderr
    again = [sys.executable, "-m", "apb", "acp", "export", "--format", "lm-eval", str(tmp_path / "t"), "--questions",
             str(tmp_path / "q")]
    done = subprocess.run(again, capture_output=True, text=True)
    assert done.returncode == 2 and "not empty" in done.stderr  # the output-folder rule of every command
    assert subprocess.run([*again, "--overwrite"], capture_output=True, text=True).returncode == 0


def test_apb_nl2pddl_export_needs_no_framework_refuses_a_missing_source_and_keeps_the_folder_rule(tmp_path):
    import json
    import subprocess
    import sys

    from apb.nl2pddl import build_pairs

    rows = build_pairs("gripper", 2, tmp_path / "pairs")
    base = [sys.executable, "-m", "apb", "nl2pddl", "export", "--format", "lm-eval"]
    done = subprocess.run([*base, str(tmp_path / "t"), "--pairs", str(tmp_path / "pairs")], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    [config] = (tmp_path / "t").glob("*.yaml")
    assert config.read_text().endswith("process_results: !function utils.process_results\n")
    [data] = (tmp_path / "t" / "data").glob("*.jsonl")
    assert [json.loads(line)["id"] for line in data.open()] == [str(r["id"]) for r in rows]
    done = subprocess.run([*base, str(tmp_path / "u"), "--pairs", str(tmp_path / "nowhere")], capture_output=True,
                          text=True)
    assert done.returncode == 2 and "nowhere" in done.stderr and not (tmp_path / "u").exists()
    again = [*base, str(tmp_path / "t"), "--pairs", str(tmp_path / "pairs")]
    done = subprocess.run(again, capture_output=True, text=True)
    assert done.returncode == 2 and "not empty" in done.stderr  # the output-folder rule of every command
    assert subprocess.run([*again, "--overwrite"], capture_output=True, text=True).returncode == 0

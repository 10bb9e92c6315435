"""One rule for naming a problem everywhere (env reset, the env's `problem=`, datasets, the CLI, apb eval): numbers
are problem numbers as the CLI shows them (`1` and `"1"` alike), ids by name; unknown reset options are an error;
a dataset registered or opened without a split gives its test problems."""

from __future__ import annotations

import shutil
from pathlib import Path

import gymnasium as gym
import pytest
from conftest import require_reference

from apb.cli import main
from apb.datasets import resolve
from apb.envs import PDDLTextEnv
from apb.envs.registration import register_dataset
from apb.errors import ApbError, UnknownProblemError


def problem_of(env, problem) -> str:
    return env.reset(seed=0, options={"problem": problem})[1]["problem_id"]


def test_a_number_and_its_string_name_the_same_problem():
    env = gym.make("apb/Blocksworld-v0")
    assert problem_of(env, 1) == problem_of(env, "1") == problem_of(env, "p01") == "p01"
    assert problem_of(env, 20) == problem_of(env, "20") == "p20"
    assert PDDLTextEnv("blocksworld", problem="7").reset()[1]["problem_id"] == "p07"


@pytest.mark.parametrize("bad", [0, "0", 21, "21"])
def test_a_number_outside_the_split_names_the_numbers_that_exist(bad):
    env = gym.make("apb/Blocksworld-v0")
    with pytest.raises(UnknownProblemError, match=r"no problem number .*problem numbers here: 1-20"):
        env.reset(options={"problem": bad})


def test_unknown_reset_options_are_an_error():
    env = gym.make("apb/Blocksworld-v0")
    with pytest.raises(ApbError, match=r"unknown reset option\(s\) 'problme'.*'problem'"):
        env.reset(options={"problme": 3})


def test_a_dataset_folder_defaults_to_its_test_split():
    folder = require_reference() / "ferry"
    dataset = resolve(folder)
    assert dataset.splits == ["test"] and len(dataset) == 20  # orig without the copy of the few-shot example
    assert all(entry.id.startswith("orig/") for entry in dataset)
    assert len(resolve(folder, "all")) > len(dataset)  # orig, adapted and few-shot together
    env_id = register_dataset(folder, env_id="apb/SelectionFerry-v0")
    env = gym.make(env_id)
    assert env.unwrapped.problem_ids == [entry.id for entry in dataset]
    number = dataset.numbers()[0]
    assert problem_of(env, number) == problem_of(env, str(number)) == dataset.problems[0].id


def test_a_plain_folder_is_its_own_test_set(tmp_path):
    folder = tmp_path / "lamps"
    shutil.copytree(require_reference() / "ferry", folder / "src")
    (folder / "domain.pddl").write_text((folder / "src" / "domain.pddl").read_text())
    (folder / "problems").mkdir()
    for name in ("instance-1.pddl", "instance-12.pddl"):
        shutil.copy(folder / "src" / "orig_problems" / name, folder / "problems" / name)
    shutil.rmtree(folder / "src")
    dataset = resolve(folder, "test")
    assert [e.id for e in dataset] == ["instance-1", "instance-12"] and dataset.numbers() == [1, 12]


def test_the_cli_uses_the_same_numbers(capsys):
    assert main(["describe", "blocksworld", "--problem", "3", "--json"]) == 0
    assert '"problem_id": "p03"' in capsys.readouterr().out
    assert main(["describe", "blocksworld", "--problem", "0"]) == 2
    assert "problem numbers here: 1-20" in capsys.readouterr().err


def test_planner_agents_solve_pddlgym_datasets_from_the_envs_standard_pddl():
    from apb.agents import make_agent, run_episode
    from apb.datasets.pddlgym_library import from_pddlgym

    style = Path(__file__).parent / "data" / "datasets" / "pddlgym_style"
    env = PDDLTextEnv(dataset=from_pddlgym("lamps", root=style), split="all")
    assert "(switchon" not in env.domain_pddl  # PDDLGym's action predicates are not standard PDDL
    for problem in env.problem_ids:
        result = run_episode(env, make_agent("bfs"), options={"problem": problem})
        assert result.success, (problem, result.stop_reason, result.detail)

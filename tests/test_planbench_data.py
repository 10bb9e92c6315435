"""PlanBench's configs and instances as an apb problem source (apb.datasets.planbench): the bundled archive holds
the release's files byte for byte, `$APB_PLANBENCH` reads a clone instead, `planbench:<config>` resolves."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from apb.datasets import DatasetError, resolve, source_name
from apb.datasets import planbench as pb

RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "planbench"


def release() -> Path:
    if not (RELEASE / "plan-bench").is_dir():
        pytest.fail(f"PlanBench's release not found at {RELEASE}", pytrace=False)
    return RELEASE


def test_the_archive_holds_every_config_and_instance_of_the_release_byte_for_byte():
    root = release()
    files = pb._archive()
    on_disk = {p.relative_to(root).as_posix() for folder in pb.FOLDERS for sub in ("configs", "instances")
               for p in (root / folder / sub).rglob("*") if p.is_file()}
    assert set(files) == on_disk
    for rel in sorted(on_disk)[::37]:  # a spread sample; the set equality above covers the names
        assert files[rel] == (root / rel).read_bytes(), rel
    assert (Path(pb.ARCHIVE).with_name("LICENSE.txt").read_text() == (root / "LICENSE").read_text())


def test_config_names_of_both_folders():
    assert pb.config_names("plan-bench") == [
        "blocksworld", "blocksworld_3", "depots", "logistics", "mystery_blocksworld", "mystery_blocksworld_3",
        "obfuscated_deceptive_logistics", "obfuscated_randomized_logistics", "random_blocksworld",
        "random_blocksworld_3"]
    extra = set(pb.config_names("llm_planning_analysis")) - set(pb.config_names("plan-bench"))
    assert extra == {"blocksworld_hard", "unsolvable_blocksworld", "unsolvable_obfuscated_randomized_blocksworld",
                     "sokoban"}


def test_load_config_reads_the_yaml_and_the_instances_it_names():
    root = release()
    config = pb.load_config("mystery_blocksworld")
    assert config.folder == "plan-bench"
    assert config.data == yaml.safe_load((root / "plan-bench/configs/mystery_blocksworld.yaml").read_text())
    assert config.instance_ids() == list(range(1, 501))
    assert config.instance_text(7) == (root / "plan-bench/instances/blocksworld/mystery/generated_basic/"
                                       "instance-7.pddl").read_text()
    assert config.domain_text() == (root / "plan-bench/instances/blocksworld/mystery/generated_domain.pddl").read_text()
    assert config.generalized_instance_text(3) == (root / "plan-bench/instances/blocksworld/mystery/generated/"
                                                   "instance-3.pddl").read_text()
    sokoban = pb.load_config("sokoban")
    assert sokoban.folder == "llm_planning_analysis" and sokoban.instance_ids() == list(range(1, 56))
    assert not sokoban.has_generalized
    with pytest.raises(DatasetError, match="generalized"):
        sokoban.generalized_instance_text(1)
    lpa = pb.load_config("logistics", "llm_planning_analysis")
    assert lpa.folder == "llm_planning_analysis" and lpa.instance_ids() == list(range(1, 201))


def test_unknown_configs_and_folders_name_what_exists():
    with pytest.raises(DatasetError, match="sokoban"):
        pb.load_config("nope")
    with pytest.raises(DatasetError, match="plan-bench: blocksworld"):
        pb.load_config("sokoban", "plan-bench")
    with pytest.raises(DatasetError, match="llm_planning_analysis"):
        pb.load_config("blocksworld", "elsewhere")
    with pytest.raises(DatasetError, match="config"):
        resolve("planbench:nope")


def test_a_clone_given_by_the_environment_serves_the_same_texts(monkeypatch):
    root = release()
    bundled = pb.load_config("obfuscated_deceptive_logistics")
    monkeypatch.setenv(pb.ENV, str(root))
    cloned = pb.load_config("obfuscated_deceptive_logistics")
    assert cloned.data == bundled.data and cloned.instance_ids() == bundled.instance_ids()
    assert cloned.instance_text(42) == bundled.instance_text(42)
    assert resolve("planbench:obfuscated_deceptive_logistics").problems[0].path.is_relative_to(root)
    monkeypatch.setenv(pb.ENV, str(root / "plan-bench"))
    with pytest.raises(DatasetError, match="APB_PLANBENCH"):
        pb.load_config("blocksworld")


@pytest.mark.parametrize("source, domain, n", [
    ("planbench:blocksworld", "blocksworld-4ops", 500),
    ("planbench:plan-bench/depots", "depots", 500),
    ("planbench:llm_planning_analysis/sokoban", "typed-sokoban", 55),
    ("planbench:obfuscated_randomized_logistics", "obfuscated_randomized_logistics", 285),
])
def test_resolve_serves_a_config_as_a_problem_source(source, domain, n):
    dataset = resolve(source)
    assert dataset.domain.name == domain and len(dataset) == n and dataset.splits == ["test"]
    assert dataset.problems[0].id == "instance-1"
    assert source_name(source) == dataset.name == f"planbench-{source.rsplit('/', 1)[-1].split(':')[-1]}"
    task = dataset.task(1)
    assert task.applicable(task.initial_state)  # the engine grounds PlanBench's PDDL


def test_the_generalized_split():
    dataset = resolve("planbench:blocksworld", split="all")
    assert dataset.splits == ["test", "generalized"] and len(dataset.split("generalized")) == 500
    assert "BW-generalization" in dataset.problem_text("generalized/instance-2")


def test_apb_eval_takes_a_planbench_config_as_its_domains(tmp_path):
    from apb.cli import main

    out = tmp_path / "run"
    assert main(["eval", "--domains", "planbench:blocksworld_3", "--agents", "bfs", "--problems", "1-2", "--out",
                 str(out), "--no-progress"]) == 0
    assert sorted(p.name for p in (out / "episodes").iterdir()) == [
        "planbench-blocksworld_3__1__bfs__none__s0.jsonl", "planbench-blocksworld_3__2__bfs__none__s0.jsonl"]

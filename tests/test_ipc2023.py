"""The IPC 2023 Learning Track: the problem source, its Gymnasium ids, the Weisfeiler-Leman learner (features,
training on a few training tasks, resume, SIGTERM), the learned planner and the track's scores."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import apb.envs  # noqa: F401  (registers the ids)
from apb.datasets import DatasetError, resolve
from apb.datasets.ipc2023 import ROOT_ENV, cost_key, from_ipc2023, reference_costs
from apb.engine import load_task
from apb.engine.errors import ApbError
from apb.planners import solve
from apb.planners.wl_features import WLGraph
from apb.planners.wl_model import WLModel
from apb.rl.ipc_bench import bench_domain, parse_numbers, split_entries
from apb.rl.ipc_scores import agile, best_known_costs, common_quality, domain_scores, quality
from apb.rl.training_tasks import training_tasks
from apb.rl.wl_train import WLConfig, train_wl

ROOT = Path(__file__).resolve().parents[1]
REF = (ROOT / ".." / "shared" / "reference" / "ipc2023-learning").resolve()


@pytest.fixture(autouse=True)
def track(monkeypatch):
    assert (REF / "blocksworld" / "domain.pddl").is_file(), f"the IPC 2023 reference is missing: {REF}"
    monkeypatch.setenv(ROOT_ENV, str(REF))


@pytest.fixture(scope="module")
def blocks_model(tmp_path_factory) -> Path:
    """A WL model of Blocksworld trained on its 5 smallest training tasks."""
    out = tmp_path_factory.mktemp("wl") / "blocksworld.json"
    os.environ[ROOT_ENV] = str(REF)
    dataset = from_ipc2023("blocksworld")
    train_wl("blocksworld", training_tasks(dataset.only("training"), smallest_first=True)[:5], out, WLConfig())
    return out


def test_source_splits_plans_and_costs():
    training = resolve("ipc2023:blocksworld", "training")
    assert len(training) == 99 and all(e.plan_path is not None for e in training)
    easy = resolve("ipc2023:blocksworld", "easy")
    assert [e.id for e in easy][:2] == ["easy/p01", "easy/p02"] and len(easy) == 30
    assert len(resolve("ipc2023:blocksworld")) == 30  # the test view: every test size present
    plan = training.gold_plan("training/p01")
    assert training.task("training/p01").validate(plan).valid
    costs = reference_costs(REF)
    entry = easy.entry("easy/p01")
    assert cost_key(easy, entry) == "blocksworld/testing/easy/p01.pddl" and costs[cost_key(easy, entry)] == 10
    by_folder = resolve(str(REF / "ferry"), "easy")  # the domain folder of the repository layout
    assert by_folder.name == "ipc2023-ferry" and len(by_folder) == 30


def test_source_errors_say_what_to_do(monkeypatch):
    with pytest.raises(DatasetError, match="spanner"):  # the message lists the track's domains
        resolve("ipc2023:nosuchdomain")
    with pytest.raises(DatasetError, match="no split 'medium'"):
        resolve("ipc2023:ferry", "medium")  # the public repository has no medium tasks
    monkeypatch.delenv(ROOT_ENV)
    with pytest.raises(DatasetError, match=ROOT_ENV):
        resolve("ipc2023:ferry")


@pytest.mark.parametrize("kwargs", [{}, {"obs_mode": "facts", "action_mode": "index"},
                                    {"obs_mode": "graph", "action_mode": "lifted"}])
def test_gymnasium_ids_pass_the_checker(kwargs):
    env = gym.make("apb/IPC2023-Ferry-v0", **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    _, info = env.reset(seed=0)
    assert info["domain"] == "ipc2023-ferry" and info["problem_id"].startswith("easy/")


def test_gymnasium_pictures():
    env = gym.make("apb/IPC2023-Blocksworld-v0", render_mode="rgb_array", problem=1)
    env.reset(seed=0)
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8


def _histogram(graph: WLGraph, bits: int, iterations: int = 2) -> dict[int, int]:
    colours, _ = graph.colours([bits], iterations)
    values, counts = np.unique(colours, return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def test_wl_colours_ignore_names_and_see_states(tmp_path):
    domain = REF / "blocksworld" / "domain.pddl"
    text = (REF / "blocksworld" / "testing" / "easy" / "p01.pddl").read_text()
    renamed = tmp_path / "renamed.pddl"
    renamed.write_text(text.replace("b1", "zz9").replace("b2", "b1").replace("zz9", "b2"))
    a, b = load_task(domain, REF / "blocksworld" / "testing" / "easy" / "p01.pddl"), load_task(domain, renamed)
    ga, gb = WLGraph(a), WLGraph(b)
    assert _histogram(ga, a.initial_state.bits) == _histogram(gb, b.initial_state.bits)  # isomorphic: same colours
    child = a.apply(a.initial_state, a.applicable(a.initial_state)[0])
    assert _histogram(ga, child.bits) != _histogram(ga, a.initial_state.bits)
    batch, owner = ga.colours([a.initial_state.bits, child.bits], 2)  # a batch is the states one by one
    single, _ = ga.colours([child.bits], 2)
    assert sorted(batch[owner == 1].tolist()) == sorted(single.tolist())


def test_train_on_five_tasks_then_plan_two_test_tasks(blocks_model):
    model = WLModel.load(blocks_model)
    assert model.training["tasks"] == 5 and model.training["samples"] > 5 and len(model.colours) > 0
    dataset = from_ipc2023("blocksworld")
    for number in (1, 2):
        task = dataset.task(f"easy/p0{number}")
        result = solve(task, "learned", knowledge=str(blocks_model), timeout=None, max_nodes=20_000)
        assert result.solved and task.validate(result.plan).valid


def test_training_resumes_from_its_last_file(tmp_path):
    dataset = from_ipc2023("spanner")
    tasks = training_tasks(dataset.only("training"), smallest_first=True)
    out = tmp_path / "spanner.json"
    first = train_wl("spanner", tasks[:3], out, WLConfig(neighbour_tasks=0))
    assert first.training["tasks"] == 3 and first.training["finished"]
    second = train_wl("spanner", tasks[:6], out, WLConfig(neighbour_tasks=0))
    assert second.training["tasks"] == 6 and second.training["samples"] > first.training["samples"]


def test_sigterm_mid_training_leaves_a_valid_knowledge_file(tmp_path):
    out = tmp_path / "ferry.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "apb", "rl", "train", "ipc2023:ferry", "--learner", "wl",
                                "--out", str(out), "--time-limit", "600"], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        while not out.is_file() and process.poll() is None:  # the first write: after the first round of tasks
            time.sleep(0.2)
        assert process.poll() is None, process.stderr.read()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, stderr
    model = WLModel.load(out)
    assert model.training["finished"] is False and model.training["tasks"] >= 10
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_plan_command_writes_only_a_valid_plan(blocks_model, tmp_path):
    domain, problem = REF / "blocksworld" / "domain.pddl", REF / "blocksworld" / "testing" / "easy" / "p02.pddl"
    plan = tmp_path / "plan"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "apb", "rl", "plan", str(blocks_model), str(domain), str(problem),
                           str(plan), "--time-limit", "120"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert load_task(domain, problem).validate(plan.read_text()).valid
    done = subprocess.run([sys.executable, "-m", "apb", "rl", "plan", str(tmp_path / "missing.json"), str(domain),
                           str(problem), str(tmp_path / "other")], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and "no such knowledge file" in done.stderr and "Traceback" not in done.stderr


def test_bench_scores_the_learned_planner(blocks_model):
    dataset = from_ipc2023("blocksworld")
    entries = split_entries(dataset, "easy", parse_numbers("1-2"))
    result = bench_domain(dataset, entries, blocks_model, 120.0, reference_costs(REF), planners=("apb-wl",))
    row = result["scores"]["apb-wl"]
    assert row["coverage"] == 2 and row["invalid"] == 0 and 0 < row["quality"] <= 2 and 0 < row["agile"] <= 2
    assert all(run["valid"] for run in result["runs"]["apb-wl"])


def test_bench_runs_file_resumes_and_reruns_only_what_changed(blocks_model, tmp_path, monkeypatch):
    import apb.rl.ipc_bench as ipc_bench
    from apb.rl.ipc_runs import RunLog

    dataset = from_ipc2023("blocksworld")
    entries = split_entries(dataset, "easy", parse_numbers("1"))
    runs = tmp_path / "runs.jsonl"
    first = bench_domain(dataset, entries, blocks_model, 120.0, {}, ("apb-wl",), runs_file=RunLog(runs))
    assert first["scores"]["apb-wl"]["coverage"] == 1 and len(runs.read_text().splitlines()) == 1
    with open(runs, "a", encoding="utf-8") as handle:
        handle.write('{"domain": "blocksworld", "task": "easy/p02", "pla')  # killed while writing a line

    def must_not_run(*args, **kwargs):
        raise AssertionError("a run the runs file holds was run again")

    monkeypatch.setattr(ipc_bench, "run_learned", must_not_run)
    log = RunLog(runs)
    again = bench_domain(dataset, entries, blocks_model, 120.0, {}, ("apb-wl",), runs_file=log)
    assert again["runs"] == first["runs"] and log.reused == 1
    assert runs.read_text().endswith("\n")  # the cut line was dropped
    with pytest.raises(AssertionError, match="run again"):  # another time limit is another run
        bench_domain(dataset, entries, blocks_model, 60.0, {}, ("apb-wl",), runs_file=RunLog(runs))
    retrained = tmp_path / "retrained.json"
    knowledge = json.loads(blocks_model.read_text())
    knowledge["bias"] = float(knowledge["bias"]) + 0.5
    retrained.write_text(json.dumps(knowledge))
    with pytest.raises(AssertionError, match="run again"):  # other knowledge: the learned planner runs again
        bench_domain(dataset, entries, retrained, 120.0, {}, ("apb-wl",), runs_file=RunLog(runs))
    runs.write_text('{"not": "a run"}\n')
    with pytest.raises(ApbError, match=r"runs.jsonl:1: not a run of apb rl bench"):
        RunLog(runs)


def test_bench_finds_each_learners_knowledge_and_labels_it(blocks_model, tmp_path):
    from apb.rl.ipc_bench import knowledge_files, planner_names

    assert planner_names("wl,gnn,lama") == ["apb-wl", "apb-gnn", "lama-first"]
    assert planner_names("learned,lama-first,apb-wl") == ["learned", "lama-first", "apb-wl"]
    with pytest.raises(ApbError, match="choose from gnn, wl"):
        planner_names("wl,fast")
    shutil.copy(blocks_model, tmp_path / "blocksworld.json")
    gnn = {"kind": "gnn", "format": 1, "domain": "blocksworld", "training": {"finished": True}, "model": {}}
    (tmp_path / "blocksworld.gnn.dk").write_text(json.dumps(gnn))
    (tmp_path / "blocksworld2.json").write_text(json.dumps(gnn))  # another domain's name: not blocksworld's
    (tmp_path / "blocksworld.notes.json").write_text("{")  # not a knowledge file: skipped
    assert knowledge_files(tmp_path, "blocksworld") == {"wl": tmp_path / "blocksworld.json",
                                                        "gnn": tmp_path / "blocksworld.gnn.dk"}
    assert knowledge_files(tmp_path, "ferry") == {}


def test_score_arithmetic():
    assert quality(12, 10) == pytest.approx(10 / 12) and quality(8, 10) == 1.0 and quality(5, None) == 1.0
    assert agile(0.5) == 1.0 and agile(1800) == 0.0
    assert agile(60) == pytest.approx(1 - math.log(60) / math.log(1800))
    runs = [{"task": "a", "solved": True, "valid": True, "cost": 10, "seconds": 0.2},
            {"task": "b", "solved": True, "valid": True, "cost": 20, "seconds": 60.0},
            {"task": "c", "solved": False, "valid": None, "cost": None, "seconds": 60.0}]
    best = best_known_costs([*runs, {"task": "b", "solved": True, "valid": True, "cost": 15, "seconds": 1}],
                            {"a": 10, "b": 16, "c": 7})
    assert best == {"a": 10, "b": 15, "c": 7}
    row = domain_scores(runs, best)
    assert row["coverage"] == 2 and row["quality"] == pytest.approx(1 + 15 / 20, abs=1e-3)
    assert row["agile"] == pytest.approx(1 + 1 - math.log(60) / math.log(1800), abs=1e-3)
    voided = domain_scores([*runs, {"task": "d", "solved": False, "valid": False, "cost": 3, "seconds": 1}], best)
    assert voided["invalid"] == 1 and voided["coverage"] == 0 and voided["quality"] == 0 and voided["voided"]
    assert parse_numbers("1-3,7") == [1, 2, 3, 7]
    both = {"apb-wl": [{"task": "a", "solved": True, "valid": True, "cost": 12},
                       {"task": "b", "solved": True, "valid": True, "cost": 5}],
            "lama-first": [{"task": "a", "solved": True, "valid": True, "cost": 10},
                           {"task": "b", "solved": False, "valid": None, "cost": None}]}
    common = common_quality(both, {"a": 10, "b": 5})
    assert common == {"tasks": 1, "quality": {"apb-wl": pytest.approx(10 / 12, abs=1e-3), "lama-first": 1.0}}


def test_knowledge_file_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "wl", "format": 1, "colours": [3, 1], "weights": [0.5, 1.0],
                               "domain": "x", "iterations": 2}))
    from apb.engine.errors import ApbError

    with pytest.raises(ApbError, match="damaged"):
        WLModel.load(bad)
    bad.write_text("{")
    with pytest.raises(ApbError, match="not an apb knowledge file"):
        WLModel.load(bad)
    bad.write_text(json.dumps({"kind": "wl", "domain": "x"}))  # the format owner (apb.planners.knowledge_files)
    with pytest.raises(ApbError, match="format None"):
        WLModel.load(bad)


def test_plan_labels_drop_the_reference_plans_detours():
    from apb.rl.wl_train import task_samples

    dataset = from_ipc2023("blocksworld")
    task = dataset.task("easy/p01")
    gold = [step.text for step in dataset.gold_plan("easy/p01").steps]
    start = task.initial_state
    out = task.applicable(start)[0]
    back = next(b for b in task.applicable(task.apply(start, out)) if task.apply(task.apply(start, out), b) == start)
    states, labels = task_samples(task, [str(out), str(back), *gold], WLGraph(task), WLConfig(), False, None)
    label = dict(zip(states, labels))
    assert label[start.bits] == len(gold)  # the detour out and back is not part of the cost to go
    assert label[task.apply(start, out).bits] == len(gold) + 1

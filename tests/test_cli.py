"""The apb command: exit codes 0/1/2, messages naming file and line, JSON output, dataset validation, bench."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import dataset_params, require_reference

from apb.cli import main
from apb.engine import load_task, read_plan


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def logistics(reference: Path) -> Path:
    return reference / "logistics"


def gold(folder: Path, n: int) -> tuple[Path, Path, Path]:
    return (folder / "domain.pddl", folder / "orig_problems" / f"instance-{n}.pddl",
            folder / "orig_gold_plans" / f"instance-{n}_gold_plan.txt")


# ---- apb validate DOMAIN PROBLEM PLAN --------------------------------------------------------------------------
def test_validate_valid_plan_exits_0(capsys, logistics):
    code, out, _ = run_cli(capsys, "validate", *gold(logistics, 12))
    assert code == 0
    assert "Plan valid" in out and "13 step(s)" in out


def test_validate_invalid_plan_names_step_line_and_unmet(capsys, logistics):
    domain, problem, _ = gold(logistics, 11)
    plan = gold(logistics, 12)[2]
    code, out, _ = run_cli(capsys, "validate", domain, problem, plan)
    assert code == 1
    assert f"{plan}:1" in out
    assert "step 1 (load-airplane p0 a0 l0-0) is not applicable" in out
    assert "(at a0 l0-0)" in out


def test_validate_plan_that_stops_short_reports_unsatisfied_goals(capsys, logistics, tmp_path):
    domain, problem, plan = gold(logistics, 12)
    short = tmp_path / "short.txt"
    short.write_text("\n".join(read_plan(plan).actions[:-1]) + "\n")
    code, out, _ = run_cli(capsys, "validate", domain, problem, short)
    assert code == 1
    assert "goal not reached after 12 step(s)" in out
    assert "(at p0 l1-0)" in out


def test_validate_json(capsys, logistics):
    domain, problem, _ = gold(logistics, 11)
    code, out, _ = run_cli(capsys, "validate", domain, problem, gold(logistics, 12)[2], "--json")
    data = json.loads(out)
    assert code == 1
    assert data["valid"] is False and data["failed_step"] == 0 and data["unmet"] == ["(at a0 l0-0)"]


@pytest.mark.parametrize("plan_text, line, words", [
    ("(pick-up a)\n(stack a b\n", 2, "unbalanced parentheses"),
    ("(pick-up a)\npick-up b\n", 2, "not an action"),
    ("(pick-up a) (stack a b)\n", 1, "more than one action"),
    ("(pick-up a)\n(fly a b)\n", 2, "unknown action 'fly'"),
    ("(pick-up zz)\n", 1, "unknown object 'zz'"),
    ("; comment\n(pick-up a b)\n", 2, "takes 1 argument"),
])
def test_validate_bad_plan_exits_2_naming_file_and_line(capsys, reference, tmp_path, plan_text, line, words):
    plan = tmp_path / "plan.txt"
    plan.write_text(plan_text)
    domain, problem, _ = gold(reference / "blocksworld", 1)
    code, out, err = run_cli(capsys, "validate", domain, problem, plan)
    assert code == 2
    assert f"{plan}:{line}" in err
    assert words in err
    assert "Traceback" not in out + err


def test_validate_bad_pddl_exits_2_with_location(capsys, reference, tmp_path):
    """A missing final ')' is reported with the location of the unclosed '(define'."""
    domain, problem, plan = gold(reference / "blocksworld", 1)
    broken = tmp_path / "domain.pddl"
    broken.write_text(domain.read_text().rstrip().rstrip(")"))
    code, _, err = run_cli(capsys, "validate", broken, problem, plan)
    assert code == 2
    assert f"{broken}:" in err and "unbalanced parentheses" in err and "never closed" in err


def test_validate_missing_file_and_wrong_arity_of_command(capsys, reference, tmp_path):
    domain, problem, _ = gold(reference / "blocksworld", 1)
    code, _, err = run_cli(capsys, "validate", domain, problem, tmp_path / "nope.txt")
    assert code == 2 and "nope.txt" in err and "not found" in err
    code, _, err = run_cli(capsys, "validate", domain, problem)
    assert code == 2 and "usage" in err


# ---- apb validate DATASET_DIR --------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", dataset_params())
def test_validate_dataset_accepts_every_reference_gold_plan(capsys, dataset):
    folder = require_reference() / dataset
    code, out, _ = run_cli(capsys, "validate", folder)
    assert code == 0, out
    summary = out.strip().splitlines()[-1]
    valid, total = summary.split()[0].split("/")
    assert valid == total and int(total) >= 40
    assert "FAIL" not in out


def test_validate_dataset_reports_each_failure(capsys, reference, tmp_path):
    folder = tmp_path / "bw"
    shutil.copytree(reference / "blocksworld", folder)
    broken = folder / "orig_gold_plans" / "instance-3_gold_plan.txt"
    broken.write_text("(stack a b)\n")
    (folder / "orig_gold_plans" / "instance-4_gold_plan.txt").write_text("(pick-up\n")
    code, out, _ = run_cli(capsys, "validate", folder)
    assert code == 1
    assert out.count("FAIL") == 2
    assert "instance-3_gold_plan.txt:1: step 1 (stack a b) is not applicable" in out
    assert "instance-4_gold_plan.txt:1" in out
    assert out.strip().splitlines()[-1].startswith("42/44 plans valid")


def test_validate_dataset_resolves_adapted_plan_through_object_mapping(reference):
    from apb.datasets.layouts import plan_pairs

    pairs = {(p.split, p.plan.name): p for p in plan_pairs(reference / "blocksworld")}
    pair = pairs[("adapted_gold_plans", "instance-1_gold_plan.txt")]
    assert pair.problem == reference / "blocksworld" / "orig_problems" / "instance-1.pddl"
    assert pair.rename  # object_K -> original names
    task = load_task(reference / "blocksworld" / "domain.pddl", pair.problem)
    assert task.validate(pair.plan_steps(read_plan(pair.plan))).valid


def test_validate_not_a_dataset_exits_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, "validate", tmp_path)
    assert code == 2 and "no domain.pddl" in err


# ---- apb solve -----------------------------------------------------------------------------------------------
def test_solve_prints_a_valid_optimal_plan_and_writes_it(capsys, reference, tmp_path):
    domain, problem, plan = gold(reference / "blocksworld", 1)
    output = tmp_path / "plan.txt"
    code, out, err = run_cli(capsys, "solve", domain, problem, "--planner", "astar", "-o", output)
    assert code == 0
    printed = [line for line in out.splitlines() if line.startswith("(")]
    assert len(printed) == len(read_plan(plan))
    assert "solved" in err and "expanded" in err
    assert load_task(domain, problem).validate(read_plan(output)).valid


def test_solve_json_and_budget_exhaustion(capsys, reference):
    domain, problem, _ = gold(reference / "blocksworld", 1)
    code, out, _ = run_cli(capsys, "solve", domain, problem, "--planner", "gbfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved"
    assert {"plan", "expanded", "generated", "seconds"} <= set(data)
    code, out, _ = run_cli(capsys, "solve", domain, problem, "--planner", "bfs", "--max-nodes", "1", "--json")
    assert code == 1 and json.loads(out)["status"] == "node_limit"


def test_solve_with_lazy_greedy_search_from_the_command_line(capsys, reference):
    domain, problem, _ = gold(reference / "logistics", 12)
    code, out, _ = run_cli(capsys, "solve", domain, problem, "--planner", "lazy-gbfs", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["planner"] == "lazy-gbfs"
    assert load_task(domain, problem).validate(data["plan"]).valid
    assert 0 < data["expanded"] <= data["evaluated"]  # lazy: one relaxed plan per state taken from the queue


# ---- apb state -----------------------------------------------------------------------------------------------
def test_state_after_plan_prefix_with_explanation(capsys, reference):
    domain, problem, plan = gold(reference / "blocksworld", 1)
    code, out, _ = run_cli(capsys, "state", domain, problem, "--plan", plan, "--steps", "1", "--explain",
                           "(STACK  a b)", "--json")
    data = json.loads(out)
    task = load_task(domain, problem)
    first = read_plan(plan).actions[0]
    expected = task.apply(task.initial_state, first)
    assert code == 0
    assert data["steps_applied"] == 1
    assert set(data["facts"]) == set(task.facts(expected))
    assert data["applicable"] == [str(a) for a in task.applicable(expected)]
    assert data["explain"]["action"] == "(stack a b)"
    assert data["explain"]["unmet"] == task.explain(expected, "(stack a b)")


def test_state_stops_at_failing_step_and_bad_explain_is_bad_input(capsys, reference, tmp_path):
    domain, problem, _ = gold(reference / "blocksworld", 1)
    plan = tmp_path / "p.txt"
    plan.write_text("(stack a c)\n")  # c is under b in instance-1
    code, out, _ = run_cli(capsys, "state", domain, problem, "--plan", plan, "--json")
    data = json.loads(out)
    assert code == 1 and data["steps_applied"] == 0
    assert data["plan_failure"]["unmet"] == ["(clear c)", "(holding a)"]  # the domain's precondition order
    code, _, err = run_cli(capsys, "state", domain, problem, "--explain", "(fly a)")
    assert code == 2 and "unknown action 'fly'" in err


# ---- apb bench engine ----------------------------------------------------------------------------------------
def test_bench_engine_json_reports_throughput_and_grounding(capsys, reference, tmp_path):
    small = tmp_path / "ref"
    for name in ("blocksworld", "logistics"):
        (small / name / "orig_problems").mkdir(parents=True)
        shutil.copy(reference / name / "domain.pddl", small / name / "domain.pddl")
        for n in (1, 12):
            shutil.copy(reference / name / "orig_problems" / f"instance-{n}.pddl", small / name / "orig_problems")
    code, out, _ = run_cli(capsys, "bench", "engine", "--reference", small, "--seconds", "0.05", "--no-peer",
                           "--json")
    data = json.loads(out)
    assert code == 0 and data["peer"] is None
    rows = {(r["dataset"], r["problem"]) for r in data["rows"]}
    assert ("logistics", "instance-12.pddl") in rows and len(data["rows"]) >= 2
    for row in data["rows"]:
        assert row["steps"] > 0 and row["steps_per_s"] > 0 and row["ground_ms"] > 0 and row["actions"] > 0


def test_bench_engine_table_names_the_missing_peer(capsys, reference, tmp_path):
    small = tmp_path / "ref" / "blocksworld"
    (small / "orig_problems").mkdir(parents=True)
    shutil.copy(reference / "blocksworld" / "domain.pddl", small)
    shutil.copy(reference / "blocksworld" / "orig_problems" / "instance-1.pddl", small / "orig_problems")
    code, out, _ = run_cli(capsys, "bench", "engine", "--reference", small.parent, "--seconds", "0.02", "--no-peer")
    assert code == 0
    assert "blocksworld" in out and "instance-1.pddl" in out and "apb steps/s" in out
    assert "pip install 'apb[bench]'" in out


def test_bench_engine_without_reference_is_bad_input(capsys, tmp_path):
    code, _, err = run_cli(capsys, "bench", "engine", "--reference", tmp_path / "missing", "--no-peer")
    assert code == 2 and "reference data not found" in err


def test_pddlgym_peer_reports_missing_extra(monkeypatch, reference):
    from apb.bench import pddlgym_peer

    class NoPddlgym:
        """Makes `import pddlgym` fail as it does where the bench extra is not installed."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "pddlgym" or name.startswith("pddlgym."):
                raise ModuleNotFoundError(f"No module named {name!r}", name="pddlgym")
            return None

    for name in [m for m in sys.modules if m == "pddlgym" or m.startswith("pddlgym.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [NoPddlgym(), *sys.meta_path])
    monkeypatch.setattr(pddlgym_peer.importlib.util, "find_spec", lambda name, *a: None)
    assert pddlgym_peer.pddlgym_available() is False
    domain, problem, _ = gold(reference / "blocksworld", 1)
    with pytest.raises(RuntimeError, match=r"pip install 'apb\[bench\]'"):
        pddlgym_peer.measure_pddlgym(domain, problem)


def test_console_script_entry_point(reference):
    domain, problem, plan = gold(reference / "gripper", 1)
    proc = subprocess.run([sys.executable, "-m", "apb", "validate", domain, problem, plan], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Plan valid" in proc.stdout

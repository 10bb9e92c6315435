"""apb.nl2pddl.evaluate: Planetarium-style examples (Blocksworld, Gripper, Floor Tile, single-rover Rovers) give
the expected (parseable, solvable, correct) triples; domain resolution; `apb nl2pddl score`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from apb.cli import main
from apb.errors import ApbError
from apb.nl2pddl import Evaluation, assess, domain_keys, evaluate, resolve_domain

DATA = Path(__file__).parent / "data" / "nl2pddl"
CASES = yaml.safe_load((DATA / "cases.yaml").read_text())


@pytest.mark.parametrize(("predicted", "gold", "expected"), CASES, ids=[c[0] for c in CASES])
def test_planetarium_style_examples(predicted, gold, expected):
    assert evaluate(DATA / gold, DATA / predicted) == Evaluation(*expected)


def test_evaluation_is_a_named_triple_and_text_works():
    gold = (DATA / "bw_gold.pddl").read_text()
    result = evaluate(gold, (DATA / "bw_renamed.pddl").read_text())
    assert result == (True, True, True) and result.correct and result._fields == ("parseable", "solvable", "correct")


def test_unparseable_explains_and_scores_all_false():
    result = assess(DATA / "bw_gold.pddl", DATA / "bw_undeclared.pddl")
    assert result.evaluation == (False, False, False)
    assert "b5" in result.error


def test_domain_resolved_by_name_or_given():
    assert sorted(domain_keys()) == sorted(["planetarium/blocksworld", "planetarium/gripper",
                                            "planetarium/floor-tile", "planetarium/rover-single", "planetarium/rover"])
    gold = (DATA / "floortile_gold.pddl").read_text()
    assert resolve_domain(gold).name == "floor-tile"
    assert resolve_domain(gold, "planetarium/floor-tile").name == "floor-tile"
    unnamed = gold.replace("(:domain floor-tile)", "")
    with pytest.raises(ApbError, match="no \\(:domain NAME\\)"):
        resolve_domain(unnamed)
    assert evaluate(unnamed, unnamed, "floor-tile") == (True, True, True)
    with pytest.raises(ApbError, match="not a shipped benchmark domain"):
        resolve_domain(gold.replace("(:domain floor-tile)", "(:domain kitchen)"))


def test_bundled_ipc_floortile_is_not_planetarium_floor_tile():
    from apb import domains

    problem = domains.problem_files("floortile", "test")[0]
    # its (:domain floor-tile) names Planetarium's simplified domain by default, so give the IPC one explicitly
    assert evaluate(problem, problem, domains.domain_file("floortile")) == (True, True, True)


def test_score_cli(capsys):
    code = main(["nl2pddl", "score", str(DATA / "bw_gold.pddl"), str(DATA / "bw_underspecified.pddl"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and (out["parseable"], out["solvable"], out["correct"]) == (True, True, False)  # 1: not correct
    assert out["verdict"] == "not_equivalent"
    assert main(["nl2pddl", "score", str(DATA / "bw_gold.pddl"), str(DATA / "bw_garbage.pddl")]) == 1
    assert main(["nl2pddl", "score", str(DATA / "bw_gold.pddl"), str(DATA / "bw_renamed.pddl")]) == 0
    assert "not a PDDL problem" in capsys.readouterr().out
    assert main(["nl2pddl", "score", str(DATA / "missing.pddl"), str(DATA / "bw_gold.pddl")]) == 2


def test_a_predicted_problem_is_text_never_a_path(tmp_path):
    """`evaluate` opened a predicted "problem" without "(" as a file (a file holding the gold scored correct) and
    raised OSError on one over 255 bytes."""
    gold = (DATA / "bw_gold.pddl").read_text()
    copy = tmp_path / "gold.pddl"
    copy.write_text(gold)
    for answer in (str(copy), str(DATA / "bw_gold.pddl"), "a" * 300, "/dev/stdin", "x\x00y"):
        assert evaluate(gold, answer) == Evaluation(False, False, False), answer
    assert evaluate(gold, gold) == Evaluation(True, True, True)
    assert evaluate(copy, DATA / "bw_gold.pddl") == Evaluation(True, True, True)  # Paths are files

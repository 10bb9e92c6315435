"""apb.equivalence: verdicts, the renaming found, placeholder mode, backends, budgets and `apb equiv`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb import domains
from apb.cli import main
from apb.engine import load_domain
from apb.equivalence import Budget, check, equivalent, full_specification, have_rustworkx, load_scene
from apb.nl2pddl import domain_path

DATA = Path(__file__).parent / "data" / "nl2pddl"
BW = domain_path("blocksworld")


def test_renaming_found_and_reported():
    result = check(BW, DATA / "bw_gold.pddl", DATA / "bw_renamed.pddl")
    assert result.verdict == "equivalent" and bool(result)
    assert result.mapping == {"b1": "red", "b2": "green", "b3": "blue", "b4": "yellow"}
    assert equivalent(BW, DATA / "bw_gold.pddl", DATA / "bw_renamed.pddl")


def test_not_equivalent_says_why():
    result = check(BW, DATA / "bw_gold.pddl", DATA / "bw_wrong_init.pddl")
    assert result.verdict == "not_equivalent" and result.mapping is None and "initial states" in result.reason
    result = check(BW, DATA / "bw_gold.pddl", DATA / "bw_underspecified.pddl")
    assert result.verdict == "not_equivalent" and "goals differ" in result.reason
    assert not equivalent(BW, DATA / "bw_gold.pddl", DATA / "bw_underspecified.pddl")


def test_closure_of_a_tower():
    dom = load_domain(BW)
    closure = full_specification(dom, load_scene(dom, DATA / "bw_gold.pddl"))
    assert closure.method == "rule:blocksworld" and closure.exact
    assert closure.lower - load_scene(dom, DATA / "bw_gold.pddl").goal == {("clear", "b1"), ("on-table", "b4"),
                                                                            ("arm-empty",)}


def _gripper(goal: str) -> str:
    text = (DATA / "gripper_gold.pddl").read_text()
    return text.replace("(:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb)))", f"(:goal (and {goal}))")


def test_placeholder_matches_goal_objects_separately():
    gripper = domain_path("gripper")
    a = _gripper("(at ball1 roomb) (at ball2 rooma)")
    b = _gripper("(at ball1 rooma) (at ball2 roomb)")
    # all balls start together, so the two goals are the same task up to renaming balls
    assert check(gripper, a, b).verdict == "equivalent"
    c = _gripper("(at ball1 roomb) (at ball2 roomb)")
    d = (DATA / "gripper_gold.pddl").read_text().replace("(at ball1 rooma) (at ball2 rooma) (at ball3 rooma)",
                                                            "(at ball1 roomb) (at ball2 rooma) (at ball3 rooma)")
    d = d.replace("(:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb)))",
                  "(:goal (and (at ball2 roomb) (at ball3 roomb)))")
    # c moves two balls that start in room a; d's init differs, so the strict check fails on the init already
    assert check(gripper, c, d).verdict == "not_equivalent"
    # ball2 starts in room b: "some ball in room b" is met at once; "ball1 in room b" needs moving it
    split = (DATA / "gripper_gold.pddl").read_text().replace("(at ball2 rooma)", "(at ball2 roomb)")
    move = split.replace("(:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb)))", "(:goal (at ball1 roomb))")
    stay = split.replace("(:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb)))", "(:goal (at ball2 roomb))")
    assert check(gripper, move, stay).verdict == "not_equivalent"
    placeholder = check(gripper, move, stay, placeholder=True)
    assert placeholder.verdict == "equivalent" and placeholder.mapping["ball1"] == "ball1"  # the init's renaming


@pytest.mark.skipif(not have_rustworkx(), reason="the optional rustworkx backend (apb[fast]) is not installed")
def test_backends_agree():
    for pred in ("bw_renamed.pddl", "bw_underspecified.pddl", "bw_missing_goal_clear.pddl", "bw_wrong_init.pddl"):
        a = check(BW, DATA / "bw_gold.pddl", DATA / pred, backend="networkx")
        b = check(BW, DATA / "bw_gold.pddl", DATA / pred, backend="rustworkx")
        assert a.verdict == b.verdict and (a.mapping is None) == (b.mapping is None)


def _goldminer_pair() -> tuple[Path, Path, str]:
    """A goldminer problem and the same problem whose goal also names a fact its goal implies (a cleared rock)."""
    dom_file = domains.domain_file("goldminer")
    dom = load_domain(dom_file)
    problem = domains.problem_files("goldminer", "test")[0]
    scene = load_scene(dom, problem)
    implied = sorted(full_specification(dom, scene).lower - scene.goal - scene.init)
    assert implied, "goldminer's goal implies a cleared location"
    text = Path(problem).read_text()
    assert "(:goal (holds-gold))" in text
    return dom_file, problem, text.replace("(:goal (holds-gold))", "(:goal (and (holds-gold) (" + " ".join(implied[0])
                                           + ")))")


def test_budgets_give_unknown_never_a_wrong_answer():
    dom_file, problem, richer = _goldminer_pair()
    assert check(dom_file, problem, richer).verdict == "equivalent"
    result = check(dom_file, problem, richer, budget=Budget(explore=5, search=5, total=20))
    assert result.verdict == "unknown" and "not exact" in result.reason


def test_cli_exit_codes(capsys, tmp_path):
    gold, renamed, under = (str(DATA / n) for n in ("bw_gold.pddl", "bw_renamed.pddl", "bw_underspecified.pddl"))
    assert main(["equiv", str(BW), gold, renamed]) == 0
    assert "b1 -> red" in capsys.readouterr().out
    assert main(["equiv", str(BW), gold, under, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "not_equivalent"
    assert main(["equiv", str(BW), gold, str(tmp_path / "missing.pddl")]) == 2
    assert main(["equiv", str(BW), gold, gold, "--placeholder"]) == 0
    assert main(["equiv", str(BW), gold, str(DATA / "bw_undeclared.pddl")]) == 2
    assert "b5" in capsys.readouterr().err
    dom_file, problem, richer = _goldminer_pair()
    (tmp_path / "richer.pddl").write_text(richer)
    assert main(["equiv", str(dom_file), str(problem), str(tmp_path / "richer.pddl"), "--max-states", "5"]) == 3


def test_goals_beyond_conjunctions_are_refused_and_adl_domains_compare_as_written(tmp_path):
    from apb.equivalence import EquivalenceError

    with pytest.raises(EquivalenceError, match="not a conjunction"):
        check(BW, DATA / "bw_gold.pddl", DATA / "bw_disjunctive_goal.pddl")
    # a conditional effect makes the domain ADL: implied goal facts are not derived, identical goals still match
    adl = BW.read_text().replace("(:requirements :strips)", "(:requirements :strips :conditional-effects)").replace(
        "(not (holding ?ob))))", "(not (holding ?ob)) (when (arm-empty) (arm-empty))))", 1)
    (tmp_path / "adl.pddl").write_text(adl)
    assert check(tmp_path / "adl.pddl", DATA / "bw_gold.pddl", DATA / "bw_renamed.pddl").verdict == "equivalent"
    assert check(tmp_path / "adl.pddl", DATA / "bw_gold.pddl", DATA / "bw_fully_specified.pddl").verdict == "unknown"


def test_a_problem_string_is_pddl_text_never_a_path(tmp_path):
    """`check` read a string without "(" as a file: an answer naming a file holding the gold was equivalent."""
    from apb.engine.errors import PDDLError

    gold = DATA / "bw_gold.pddl"
    assert check(BW, gold, gold.read_text()).verdict == "equivalent"
    for answer in (str(gold), "/dev/stdin", "a" * 300):
        with pytest.raises(PDDLError):
            check(BW, gold, answer)
    with pytest.raises(PDDLError, match="over the limit"):
        check(BW, gold, "(define (problem p)" + " " * 200_000 + ")")

"""PDDL semantics of the engine on small hand-written domains (tests/data/engine) and one reference problem."""

from __future__ import annotations

import itertools
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ENGINE_DATA, LiftedOracle, dataset_dir, engine_data, literal_holds

from apb.engine import (
    ActionError,
    ApbError,
    GroundAction,
    NotApplicableError,
    Plan,
    PlanError,
    State,
    format_plan,
    load_task,
    parse_plan,
    read_plan,
    write_plan,
)
from apb.errors import ACTION_ERROR_KINDS


@pytest.fixture(scope="module")
def blocks():
    return load_task(engine_data("blocks-domain.pddl"), engine_data("blocks-p01.pddl"))


@pytest.fixture(scope="module")
def toggle():
    return load_task(engine_data("toggle-domain.pddl"), engine_data("toggle-p01.pddl"))


@pytest.fixture(scope="module")
def delivery():
    return load_task(engine_data("delivery-domain.pddl"), engine_data("delivery-p01.pddl"))


@pytest.fixture(scope="module")
def logistics():
    folder = dataset_dir("logistics")
    return load_task(folder / "domain.pddl", folder / "orig_problems" / "instance-12.pddl")


def names(actions) -> list[str]:
    return [str(a) for a in actions]


# ---- loading ------------------------------------------------------------------------------------------------

def test_load_task_accepts_paths_strings_and_text(blocks):
    domain, problem = engine_data("blocks-domain.pddl"), engine_data("blocks-p01.pddl")
    for args in [(str(domain), str(problem)), (domain.read_text(), problem.read_text()),
                 (domain, problem.read_text())]:
        task = load_task(*args)
        assert names(task.actions) == names(blocks.actions)
        assert task.facts(task.initial_state) == blocks.facts(blocks.initial_state)


def test_keywords_and_names_are_case_insensitive(blocks):
    upper_domain = engine_data("blocks-domain.pddl").read_text().upper()
    upper_problem = engine_data("blocks-p01.pddl").read_text().upper()
    task = load_task(upper_domain, upper_problem)
    assert names(task.actions) == names(blocks.actions)
    assert task.fact_names == blocks.fact_names


# ---- blocksworld: applicable, explain, apply, goals -----------------------------------------------------------

def test_applicable_is_sorted_and_exact(blocks):
    s = blocks.initial_state
    assert names(blocks.applicable(s)) == ["(pick-up b)", "(unstack c a)"]
    s = blocks.apply(s, "(unstack c a)")
    assert names(blocks.applicable(s)) == ["(put-down c)", "(stack c a)", "(stack c b)"]
    assert all(isinstance(a, GroundAction) for a in blocks.applicable(s))
    assert names(blocks.actions) == sorted(names(blocks.actions))


def test_explain_lists_unmet_preconditions_in_domain_order(blocks):
    s = blocks.state_from_facts(["(on a b)", "(clear a)"])
    assert blocks.explain(s, "(stack a b)") == ["(holding a)", "(clear b)", "(not (on a b))"]
    assert blocks.explain(s, blocks.parse_action("(stack a b)")) == ["(holding a)", "(clear b)", "(not (on a b))"]
    assert blocks.explain(s, "(stack a a)") == ["(holding a)", "(not (= a a))"]
    assert blocks.explain(s, "(unstack a b)") == ["(handempty)"]
    assert blocks.explain(blocks.initial_state, "(unstack c a)") == []


def test_apply_returns_the_successor_and_leaves_the_state_alone(blocks):
    s = blocks.initial_state
    before = blocks.facts(s)
    s2 = blocks.apply(s, "(unstack c a)")
    assert blocks.facts(s) == before
    assert blocks.facts(s2) == {"(holding c)", "(clear a)", "(clear b)", "(ontable a)", "(ontable b)"}


def test_apply_raises_not_applicable_with_the_explanation(blocks):
    s = blocks.initial_state
    with pytest.raises(NotApplicableError) as raised:
        blocks.apply(s, "(stack a b)")
    err = raised.value
    assert isinstance(err, ActionError) and isinstance(err, ApbError)
    assert err.kind == "unmet_preconditions"
    assert err.unmet == blocks.explain(s, "(stack a b)") == ["(holding a)"]
    assert "(stack a b)" in str(err) and "(holding a)" in str(err)
    assert not blocks.is_applicable(s, blocks.parse_action("(stack a b)"))


def test_goal_with_negative_literal_and_unsatisfied_goals_in_goal_order(blocks):
    s = blocks.initial_state
    assert blocks.unsatisfied_goals(s) == ["(on a b)", "(on b c)", "(not (ontable a))"]
    assert not blocks.is_goal(s)
    almost = blocks.state_from_facts(["(on a b)", "(on b c)", "(ontable a)"])
    assert blocks.unsatisfied_goals(almost) == ["(not (ontable a))"]
    assert not blocks.is_goal(almost)
    done = blocks.state_from_facts(["(on a b)", "(on b c)"])
    assert blocks.unsatisfied_goals(done) == [] and blocks.is_goal(done)
    final = blocks.run(read_plan(engine_data("blocks-p01.plan")).actions)
    assert blocks.is_goal(final) and blocks.unsatisfied_goals(final) == []


# ---- effects, negative preconditions and equality ------------------------------------------------------------

@pytest.mark.parametrize("action", ["(refresh o1)", "(refresh-add-first o1)"])
def test_delete_and_add_of_the_same_fact_leaves_it_true(toggle, action):
    s = toggle.initial_state
    assert "(mark o1)" not in toggle.facts(s)
    s2 = toggle.apply(s, action)
    assert "(mark o1)" in toggle.facts(s2)
    assert "(mark o1)" in toggle.facts(toggle.apply(s2, action))


def test_negative_preconditions(toggle):
    s = toggle.initial_state
    assert "(light o3)" in names(toggle.applicable(s))
    assert toggle.explain(s, "(light o1)") == ["(not (lit o1))"]
    s2 = toggle.apply(s, "(unlight o1)")
    assert toggle.explain(s2, "(light o1)") == []
    assert toggle.explain(toggle.apply(s, "(light o3)"), "(light o3)") == ["(not (lit o3))"]


def test_equality_decides_whether_one_object_may_fill_two_parameters(toggle):
    applicable = names(toggle.applicable(toggle.initial_state))
    assert [a for a in applicable if a.startswith("(link ")] == [
        "(link o1 o1)", "(link o1 o2)", "(link o2 o1)", "(link o2 o2)"]
    assert [a for a in applicable if a.startswith("(link-distinct ")] == [
        "(link-distinct o1 o2)", "(link-distinct o2 o1)"]
    assert [a for a in applicable if a.startswith("(link-self ")] == ["(link-self o1 o1)", "(link-self o2 o2)"]
    assert toggle.explain(toggle.initial_state, "(link-distinct o1 o1)") == ["(not (= o1 o1))"]
    assert toggle.explain(toggle.initial_state, "(link-self o1 o2)") == ["(= o1 o2)"]
    assert "(link-distinct o1 o1)" not in names(toggle.actions)
    # everything reachable once o3 can be lit: 9 link + 6 link-distinct + 3 link-self + 4 x 3 one-parameter
    assert len(toggle.actions) == 9 + 6 + 3 + 12


def test_logistics_same_object_twice_matches_brute_force(logistics):
    """PDDLGym drops e.g. (drive-truck t0 l0-0 l0-0 c0); it is a legal ground action in PDDL."""
    s = logistics.initial_state
    facts = logistics.facts(s) | logistics.static_facts
    expected = []
    objects = sorted(logistics.objects)  # the domain is untyped: every parameter ranges over every object
    for schema in logistics.domain.actions:
        for args in itertools.product(objects, repeat=len(schema.parameters)):
            binding = dict(zip((p.name for p in schema.parameters), args))
            if all(literal_holds(lit, binding, facts) for lit in schema.precondition):
                expected.append("(" + " ".join((schema.name, *args)) + ")")
    assert names(logistics.applicable(s)) == sorted(expected)
    assert len(expected) == 8
    assert "(drive-truck t0 l0-0 l0-0 c0)" in expected and "(fly-airplane a0 l0-0 l0-0)" in expected
    assert logistics.facts(logistics.apply(s, "(drive-truck t0 l0-0 l0-0 c0)")) == logistics.facts(s)


# ---- static facts -------------------------------------------------------------------------------------------

def test_static_facts_are_folded_away_but_explained(logistics):
    s = logistics.initial_state
    assert {"(in-city l0-0 c0)", "(truck t0)", "(airport l1-0)"} <= logistics.static_facts
    assert not logistics.static_facts & logistics.facts(s)
    assert logistics.facts(s) == {"(at t0 l0-0)", "(at t1 l1-0)", "(at p0 l0-0)", "(at p1 l1-1)",
                                  "(at p2 l0-1)", "(at a0 l0-0)"}
    between_cities = logistics.parse_action("(drive-truck t0 l0-0 l1-0 c0)")
    assert between_cities not in logistics.actions
    assert logistics.explain(s, between_cities) == ["(in-city l1-0 c0)"]
    with pytest.raises(NotApplicableError) as raised:
        logistics.apply(s, between_cities)
    assert raised.value.unmet == ["(in-city l1-0 c0)"]
    # untyped: a package is a well-formed truck argument, it is just not a truck
    assert logistics.explain(s, "(drive-truck p0 l0-0 l0-1 c0)") == ["(truck p0)"]
    assert logistics.holds(s, "(in-city l0-0 c0)") and not logistics.holds(s, "(in-city l1-0 c0)")


def test_static_facts_in_the_goal_hold_in_every_state_but_stay_out_of_facts():
    task = load_task(engine_data("roads-domain.pddl"), engine_data("roads-p01.pddl"))
    s = task.initial_state
    assert task.static_facts == {"(road l1 l2)", "(road l2 l3)"}
    assert task.facts(s) == {"(at l1)"}
    assert task.unsatisfied_goals(s) == ["(at l3)"]
    end = task.run(["(go l1 l2)", "(go l2 l3)"])
    assert task.facts(end) == {"(at l3)"} and task.is_goal(end)
    for state in (s, end):
        assert task.state_from_facts(task.facts(state)) == state
    assert task.is_goal(task.state_from_facts(["(at l3)"]))
    assert task.validate(["(go l1 l2)", "(go l2 l3)"]).valid


def test_a_false_static_goal_fact_is_never_satisfied():
    task = load_task(engine_data("roads-domain.pddl"), engine_data("roads-p02.pddl"))
    end = task.run(["(go l1 l2)", "(go l2 l3)"])
    assert task.unsatisfied_goals(end) == ["(road l3 l1)"] and not task.is_goal(end)
    assert task.facts(end) == {"(at l3)"}


# ---- typing, either, constants ------------------------------------------------------------------------------

def test_typing_hierarchy_either_and_constants(delivery):
    assert delivery.objects["depot"] == "place" and delivery.objects["hq"] == "airport"
    assert delivery.domain.constants == {"depot": "place", "hq": "airport"}
    assert names(delivery.applicable(delivery.initial_state)) == [
        "(drive t1 home shop)", "(fly v1 far)", "(fly v1 hq)", "(load box t1 home)"]
    oracle = LiftedOracle(delivery)
    assert set(oracle.objects_of(("place",))) == {"depot", "hq", "home", "shop", "far"}  # airport < place
    assert set(oracle.objects_of(("parcel", "tool"))) == {"box", "wrench"}
    assert {str(delivery.parse_action(f"(load {x} t1 shop)")) for x in ("box", "wrench")} == {
        "(load box t1 shop)", "(load wrench t1 shop)"}
    assert str(delivery.parse_action("(drive v1 hq far)")) == "(drive v1 hq far)"  # van < vehicle
    assert delivery.explain(delivery.initial_state, "(drive t1 home home)") == ["(not (= home home))"]
    assert delivery.explain(delivery.initial_state, "(drive t1 home depot)") == ["(road home depot)"]
    result = delivery.validate(read_plan(engine_data("delivery-p01.plan")))
    assert result.valid, result.reason


@pytest.mark.parametrize(("action", "needle"), [
    ("(fly t1 far)", "van"),                  # a truck is a vehicle, not a van
    ("(load box v1 home)", "truck"),          # a van is not a truck
    ("(load t1 t1 home)", "either parcel tool"),
    ("(hand-over wrench t1)", "parcel"),      # a tool is not a parcel
    ("(fly v1 depot)", "airport"),            # the constant depot is a place, not an airport
])
def test_type_mismatch(delivery, action, needle):
    with pytest.raises(ActionError) as raised:
        delivery.parse_action(action)
    assert raised.value.kind == "type_mismatch"
    assert needle in raised.value.message


# ---- states ------------------------------------------------------------------------------------------------

def test_states_are_immutable(blocks):
    s = blocks.initial_state
    with pytest.raises(AttributeError):
        s.bits = 0
    with pytest.raises(AttributeError):
        s.anything = 1
    blocks.apply(s, "(unstack c a)")
    assert s == blocks.initial_state


def test_equal_states_from_different_paths_are_equal_hashable_and_picklable(toggle):
    s = toggle.initial_state
    one = toggle.apply(toggle.apply(s, "(light o3)"), "(refresh o1)")
    other = toggle.apply(toggle.apply(s, "(refresh-add-first o1)"), "(light o3)")
    assert one is not other and one == other and hash(one) == hash(other)
    assert one != s
    table = {one: "first"}
    table[other] = "second"
    assert table == {one: "second"} and len({one, other, s}) == 2
    copy = pickle.loads(pickle.dumps(one))
    assert isinstance(copy, State) and copy == one and hash(copy) == hash(one)
    assert toggle.facts(copy) == toggle.facts(one) == {"(lit o1)", "(lit o2)", "(lit o3)", "(mark o1)"}
    back = toggle.apply(toggle.apply(s, "(unlight o1)"), "(light o1)")
    assert back == s and hash(back) == hash(s)


# ---- parse_action ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["(stack c b)", "(STACK C B)", "  ( stack   c\tb )  ", "stack c b", "Stack C b",
                                  "\n(stack c b)\n"])
def test_parse_action_tolerates_case_whitespace_and_missing_parentheses(blocks, text):
    action = blocks.parse_action(text)
    assert str(action) == "(stack c b)"
    assert action == blocks.parse_action("(stack c b)") and action in blocks.actions


@pytest.mark.parametrize(("text", "kind", "needle"), [
    ("", "syntax", "(name arg1 arg2 ...)"),
    ("   ", "syntax", "(name arg1 arg2 ...)"),
    ("(stack a b", "syntax", "(stack a b"),
    ("((stack a b))", "syntax", "((stack a b))"),
    ("(stack a b) (stack b a)", "syntax", "(stack a b) (stack b a)"),
    ("(stak a b)", "unknown_action", "Did you mean 'stack'"),
    ("(teleport a b)", "unknown_action", "teleport"),
    ("(stack a)", "wrong_arity", "takes 2 argument(s)"),
    ("(pick-up a b)", "wrong_arity", "but 2 were given"),
    ("(stack a z)", "unknown_object", "'z'"),
])
def test_parse_action_errors_have_a_kind(blocks, text, kind, needle):
    with pytest.raises(ActionError) as raised:
        blocks.parse_action(text)
    err = raised.value
    assert err.kind == kind and kind in ACTION_ERROR_KINDS
    assert needle in err.message
    assert not isinstance(err, NotApplicableError)


def test_parse_action_rejects_non_strings(blocks):
    with pytest.raises(ActionError) as raised:
        blocks.parse_action(42)
    assert raised.value.kind == "syntax"


# ---- plan validation ---------------------------------------------------------------------------------------

def test_validate_valid_plan(blocks):
    plan = read_plan(engine_data("blocks-p01.plan"))
    assert plan.cost == 6 and len(plan) == 6
    for form in (plan, plan.actions, [blocks.parse_action(a) for a in plan.actions]):
        result = blocks.validate(form)
        assert result.valid and bool(result)
        assert result.steps == 6 and result.failed_step is None and result.kind is None
        assert blocks.is_goal(result.final_state)


def test_validate_reports_the_first_failing_step(blocks):
    path = engine_data("plans", "fails-at-step-3.plan")
    result = blocks.validate(read_plan(path))
    assert not result.valid and not bool(result)
    assert result.failed_step == 2 and result.line == 3 and result.steps == 2
    assert result.failed_action == "(stack b c)"
    assert result.kind == "unmet_preconditions"
    assert result.unmet == ["(holding b)"] == blocks.explain(result.final_state, "(stack b c)")
    assert "(stack b c)" in result.reason and "(holding b)" in result.reason
    assert result.final_state == blocks.run(["(unstack c a)", "(put-down c)"])


def test_validate_reports_unreached_goals(blocks):
    result = blocks.validate(read_plan(engine_data("plans", "goal-not-reached.plan")))
    assert not result.valid and result.failed_step is None and result.steps == 4
    assert result.kind == "goal_not_reached"
    assert result.unmet == ["(on a b)", "(not (ontable a))"] == blocks.unsatisfied_goals(result.final_state)
    assert "(on a b)" in result.reason
    assert not blocks.validate([]).valid


@pytest.mark.parametrize(("plan", "kind", "step"), [
    ("unknown-action.plan", "unknown_action", 1),
    ("unknown-object.plan", "unknown_object", 1),
    ("wrong-arity.plan", "wrong_arity", 0),
])
def test_validate_reports_bad_actions_in_a_plan(blocks, plan, kind, step):
    result = blocks.validate(read_plan(engine_data("plans", plan)))
    assert not result.valid
    assert result.kind == kind and result.failed_step == step and result.line == step + 1
    assert result.reason


# ---- plan files --------------------------------------------------------------------------------------------

def test_plan_files_tolerate_comments_case_numbering_and_blank_lines(blocks):
    plan = read_plan(engine_data("plans", "messy.plan"))
    assert plan.actions == read_plan(engine_data("blocks-p01.plan")).actions
    assert [s.line for s in plan.steps] == [3, 4, 6, 7, 8, 9]
    assert plan.cost == 6
    assert plan.source == str(engine_data("plans", "messy.plan"))
    assert blocks.validate(plan).valid


@pytest.mark.parametrize(("plan", "line", "needle"), [
    ("bad-unbalanced.plan", 3, "unbalanced parentheses"),
    ("bad-two-actions.plan", 3, "more than one action"),
    ("bad-not-an-action.plan", 2, "not an action"),
    ("bad-empty-action.plan", 3, "empty action"),
])
def test_malformed_plan_lines_name_file_and_line(plan, line, needle):
    path = engine_data("plans", plan)
    with pytest.raises(PlanError) as raised:
        read_plan(path)
    err = raised.value
    assert err.file == str(path) and err.line == line
    assert needle in str(err) and str(err).startswith(f"{path}:{line}:")


def test_plan_text_without_cost_and_missing_plan_file(tmp_path):
    plan = parse_plan("(a b)\n\n(c)\n")
    assert plan.actions == ["(a b)", "(c)"] and plan.cost is None and plan.source is None
    with pytest.raises(PlanError) as raised:
        read_plan(tmp_path / "nope.plan")
    assert raised.value.file == str(tmp_path / "nope.plan") and "not found" in str(raised.value)


def test_write_and_read_plan_round_trip(blocks, tmp_path):
    actions = read_plan(engine_data("blocks-p01.plan")).actions
    path = write_plan([blocks.parse_action(a) for a in actions], tmp_path / "out.plan")
    again = read_plan(path)
    assert again.actions == actions and again.cost == len(actions)
    assert path.read_text().splitlines()[-1] == "; cost = 6 (unit cost)"
    assert format_plan(actions, cost_comment=False) == "\n".join(actions) + "\n"
    assert isinstance(parse_plan(format_plan(actions)), Plan)
    assert blocks.validate(again).valid


# ---- determinism -------------------------------------------------------------------------------------------

def test_grounding_twice_gives_identical_tasks(logistics):
    folder = dataset_dir("logistics")
    again = load_task(folder / "domain.pddl", folder / "orig_problems" / "instance-12.pddl")
    assert names(again.actions) == names(logistics.actions)
    assert [a.index for a in again.actions] == list(range(len(again.actions)))
    assert again.fact_names == logistics.fact_names
    assert again.initial_state == logistics.initial_state
    assert names(again.applicable(again.initial_state)) == names(logistics.applicable(logistics.initial_state))


_DUMP_TASK = """
import json, sys
from apb.engine import load_task
task = load_task(sys.argv[1], sys.argv[2])
print(json.dumps([[str(a) for a in task.actions], list(task.fact_names), task.initial_state.bits]))
"""


def test_grounding_does_not_depend_on_hash_seeds():
    """Sets of strings iterate in a different order under each PYTHONHASHSEED; the task must not."""
    folder = dataset_dir("logistics")
    outputs = []
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed,
                   PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                               os.environ.get("PYTHONPATH", "")]))
        done = subprocess.run([sys.executable, "-c", _DUMP_TASK, str(folder / "domain.pddl"),
                               str(folder / "orig_problems" / "instance-19.pddl")],
                              capture_output=True, text=True, env=env, check=True)
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0][0]) > 50


def test_engine_data_files_exist():
    """Guards the data this module reads: a missing file should fail loudly, not skip."""
    assert ENGINE_DATA.is_dir()
    assert len(list(ENGINE_DATA.glob("*.pddl"))) >= 6


# ---- plan text is data ---------------------------------------------------------------------------------------------

def test_validate_reads_text_only_and_never_raises(blocks, tmp_path):
    """`validate` took "a plan file path, plan text or a Plan": an answer naming a file holding a valid plan was
    valid, /dev/stdin hung, a NUL byte raised ValueError and text that is not a plan raised PlanError."""
    gold = engine_data("blocks-p01.plan")
    copy = tmp_path / "gold.plan"
    copy.write_text(gold.read_text())
    assert blocks.validate_file(gold).valid and blocks.validate_file(str(copy)).valid
    for text in (str(gold), str(copy), "/dev/stdin", "/dev/zero", "gold\x00.plan", "a" * 300, "not a plan (at all",
                 "((a))"):
        result = blocks.validate(text)
        assert not result.valid and result.kind == "syntax" and result.reason, text
    assert blocks.validate("(unstack b\x00 a)").kind == "unknown_object"
    too_long = blocks.validate("(a)\n" * 300_000)
    assert not too_long.valid and too_long.kind == "too_long" and "1,000,000" in too_long.reason
    with pytest.raises(TypeError, match="validate_file"):
        blocks.validate(gold)
    with pytest.raises(PlanError, match="not found"):
        blocks.validate_file(tmp_path / "missing.plan")
    assert blocks.validate(gold.read_text()).valid  # plan text itself still validates

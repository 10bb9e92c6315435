"""The Gymnasium environments: contract keys, feedback, problem selection, seeding, checker, wrappers."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from conftest import require_reference
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import apb.envs
from apb.domains.registry import domain_file, domain_names, problem_files
from apb.envs import PDDLTextEnv, env_id, register_dataset
from apb.envs.registration import ENV_NAMES
from apb.envs.wrappers import DiscreteActions, LiteralObservations, TranslatedActions, pddlgym_literal
from apb.errors import ApbError, UnknownProblemError

RESET_KEYS = {"domain_description", "goal", "goal_pddl", "objects", "action_schemas", "state", "state_pddl",
              "admissible_actions", "problem_id", "optimal_plan_length"}
STEP_KEYS = RESET_KEYS | {"action_valid", "failure", "goal_reached", "unsatisfied_goals"}
ALL_IDS = [env_id(d) for d in ENV_NAMES] + ["apb/PDDL-v0"]


def make(domain: str = "blocksworld", **kwargs) -> gym.Env:
    return gym.make(env_id(domain), **kwargs)


def gold_plan(domain: str, number: int = 1) -> list[str]:
    plan = Path(problem_files(domain)[number - 1]).parent.parent / "plans" / f"p{number:02d}.plan"
    return [line.strip() for line in plan.read_text().splitlines() if line.strip().startswith("(")]


# ---- registration and checker ----------------------------------------------------------------------------------
def test_every_bundled_domain_has_an_id_and_apb_pddl_exists():
    assert set(ENV_NAMES) == set(domain_names())
    for id_ in ALL_IDS:
        assert id_ in gym.registry


def test_registered_step_limits_fit_every_gold_plan_of_every_split():
    """Each id's default limit is twice the longest gold plan over all of the domain's splits (at least 24), so
    every bundled problem can be solved with the default settings; apb/PDDL-v0 has none of its own."""
    from apb.domains.registry import plan_file, plan_steps, problem_files, splits

    for domain in ENV_NAMES:
        longest = max(plan_steps(plan_file(f)) for s in splits(domain) for f in problem_files(domain, s))
        limit = gym.registry[env_id(domain)].max_episode_steps
        assert limit == max(24, 2 * longest) and limit >= longest
    assert gym.registry["apb/PDDL-v0"].max_episode_steps is None
    assert gym.registry[env_id("baking")].max_episode_steps > 24 < gym.registry[env_id("gripper")].max_episode_steps


@pytest.mark.parametrize("domain", list(ENV_NAMES))
def test_check_env_passes(domain):
    env = make(domain).unwrapped
    check_env(env, skip_render_check=True)


def test_check_env_passes_for_apb_pddl():
    env = gym.make("apb/PDDL-v0", domain_file=domain_file("ferry"), problem_file=problem_files("ferry")[0])
    check_env(env.unwrapped, skip_render_check=True)


def test_observation_and_action_spaces_accept_spaces_and_newlines():
    env = make("logistics")
    obs, _ = env.reset(seed=0)
    assert " " in obs and "\n" in obs
    assert env.observation_space.contains(obs)
    assert env.action_space.contains("(drive-truck truck_0 loc_0 loc_1 city_0)")
    assert not env.action_space.contains(42)


# ---- reset --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", list(ENV_NAMES))
def test_reset_info_has_every_contract_key(domain):
    env = make(domain)
    obs, info = env.reset(seed=3)
    assert set(info) >= RESET_KEYS
    assert info["problem_id"] in {p.stem for p in problem_files(domain)}
    assert info["admissible_actions"] == sorted(info["admissible_actions"])
    assert "My goal is that" in obs and info["goal"] in obs
    assert info["state"] and info["state_pddl"]
    for schema in info["action_schemas"]:
        assert set(schema) >= {"name", "parameters", "pddl", "nl"}
        placeholders = re.findall(r"\{([^}]+)\}", schema["nl"])
        assert sorted(placeholders) == sorted(p for p, _ in schema["parameters"])
        assert schema["pddl"] == "(" + " ".join([schema["name"], *("?" + p for p, _ in schema["parameters"])]) + ")"


def test_action_schema_matches_the_contract_example():
    _, info = make("blocksworld").reset(seed=0)
    stack = next(s for s in info["action_schemas"] if s["name"] == "stack")
    assert stack["parameters"] == [["ob", "object"], ["underob", "object"]]
    assert stack["pddl"] == "(stack ?ob ?underob)"
    assert stack["nl"] == "stack block {ob} on top of block {underob}"


def test_seeded_resets_are_deterministic_and_spread_over_problems():
    first = [make("ferry").reset(seed=s)[1]["problem_id"] for s in range(20)]
    again = [make("ferry").reset(seed=s)[1]["problem_id"] for s in range(20)]
    assert first == again
    assert len(set(first)) >= 5


def test_problem_option_selects_by_number_id_and_path():
    env = make("ferry")
    assert env.reset(options={"problem": 7})[1]["problem_id"] == "p07"
    assert env.reset(options={"problem": "p03"})[1]["problem_id"] == "p03"
    path = problem_files("ferry")[4]
    assert env.reset(options={"problem": str(path)})[1]["problem_id"] == path.stem
    fixed = make("ferry", problem=2)
    assert {fixed.reset(seed=s)[1]["problem_id"] for s in range(5)} == {"p02"}


def test_unknown_problem_is_a_clear_error():
    with pytest.raises(UnknownProblemError, match=r"no problem number 99.*1-20"):
        make("ferry").reset(options={"problem": 99})
    with pytest.raises(UnknownProblemError):
        make("ferry", problem="nope")


def test_splits():
    assert make("ferry", split="example").reset(seed=0)[1]["problem_id"] == "p00"
    scaled = make("ferry", split="scaled").reset(seed=0)[1]["problem_id"]
    assert scaled in {p.stem for p in problem_files("ferry", "scaled")}
    with pytest.raises(ApbError, match="no 'scaled' problems"):
        make("depot", split="scaled")


def test_optimal_plan_length_is_reported_for_bundled_problems():
    _, info = make("blocksworld").reset(options={"problem": 1})
    assert info["optimal_plan_length"] == len(gold_plan("blocksworld", 1))


# ---- step ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", list(ENV_NAMES))
def test_gold_plan_reaches_the_goal_through_the_env(domain):
    env = make(domain, max_episode_steps=1000)
    env.reset(options={"problem": 1})
    plan = gold_plan(domain, 1)
    for i, action in enumerate(plan):
        obs, reward, terminated, _, info = env.step(action)
        assert info["action_valid"], obs
        assert set(info) >= STEP_KEYS
        assert obs.startswith("I ")
        assert terminated == (i == len(plan) - 1)
    assert reward == 1.0 and info["goal_reached"] and info["unsatisfied_goals"] == []
    assert obs.endswith("I have reached my goal.")


def test_valid_action_feedback_and_state_change():
    env = make("blocksworld")
    _, info = env.reset(options={"problem": 1})
    action = info["admissible_actions"][0]
    obs, reward, terminated, truncated, info2 = env.step(action.upper())  # case tolerant
    assert info2["action_valid"] and info2["failure"] == {} and info2["action"] == action
    assert obs.startswith("I ") and obs.endswith(".")
    assert info2["state_pddl"] != info["state_pddl"]
    assert reward == 0.0 and not terminated and not truncated


def _unwrapped_state(env):
    return env.unwrapped.state


@pytest.mark.parametrize("action, kind, pattern", [
    ("(stack block_a block_b)", "unmet_preconditions", r"^I cannot stack block_a on top of block_b because "),
    ("(fly block_a)", "unknown_action", r"there is no action called fly\. .*\(stack \?ob \?underob\)"),
    ("(stack block_a)", "wrong_arity", r"stack needs 2 objects, as in \(stack \?ob \?underob\), but 1 was given"),
    ("(pick-up block_q)", "unknown_object", r"there is no object called block_q\. Did I mean block_"),
    ("stack the blocks", "unknown_object", r"there are no objects called the and blocks\."),
    ("stack block_a block_b block_c", "wrong_arity", r"but 3 were given"),
    ("(((", "syntax", r"I cannot understand '\(\(\(' as an action\. I write actions as \(name object \.\.\.\)"),
    ("", "syntax", r"I cannot understand '' as an action"),
])
def test_invalid_actions_are_explained_and_change_nothing(action, kind, pattern):
    env = make("blocksworld")
    _, before = env.reset(options={"problem": 1})
    state = _unwrapped_state(env)
    obs, reward, terminated, _, info = env.step(action)
    assert not info["action_valid"]
    assert info["failure"]["kind"] == kind and info["failure"]["text"] == obs
    assert re.search(pattern, obs), obs
    assert _unwrapped_state(env) == state and info["state_pddl"] == before["state_pddl"]
    assert reward == 0.0 and not terminated


def test_type_mismatch_names_the_types():
    env = make("depot")
    _, info = env.reset(options={"problem": 1})
    objects = info["objects"]
    truck = next(o for o, t in objects.items() if t == "truck")
    crate = next(o for o, t in objects.items() if t == "crate")
    place = next(o for o, t in objects.items() if t in ("depot", "distributor"))
    obs, _, _, _, info = env.step(f"(drive {crate} {place} {place})")
    assert info["failure"]["kind"] == "type_mismatch"
    assert f"{crate} is a crate, not a truck" in obs
    assert truck not in obs


def test_non_string_actions_never_raise():
    env = make("blocksworld")
    env.reset(seed=0)
    for action in (42, None, b"(pick-up a)", ["(pick-up a)"], 3.5):
        obs, _, _, _, info = env.step(action)
        assert info["failure"]["kind"] == "syntax" and "not a string" in obs


@pytest.mark.parametrize("domain", list(ENV_NAMES))
def test_every_unmet_precondition_is_named(domain):
    """For every ground action not applicable in the initial state of problem 1, the feedback names every
    precondition `task.explain` reports, in the domain's wording."""
    env = make(domain)
    env.reset(options={"problem": 1})
    base = env.unwrapped
    task, text = base.task, base.text
    checked = 0
    for action in task.actions:
        unmet = task.explain(task.initial_state, action)
        if not unmet:
            continue
        base.reset(options={"problem": 1})
        obs, _, _, _, info = base.step(str(action))
        assert info["failure"]["unmet"] == unmet
        for condition in unmet:
            assert text.words.unmet(condition) in obs, (condition, obs)
        checked += 1
    assert checked > 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=60),
                 st.lists(st.sampled_from(["(", ")", "stack", "pick-up", "block_a", "block_b", "unstack", "x",
                                           " ", "\n", "?ob", "-", "look-around", "finish", "not"]),
                          max_size=8).map("".join)))
def test_arbitrary_text_never_raises_never_changes_state(text):
    env = PDDLTextEnv("blocksworld", problem=1)
    env.reset()
    state = env.state
    try:
        applicable = env.task.parse_action(text) in env.task.applicable(state)
    except ApbError:
        applicable = False
    meta = re.fullmatch(r"\s*\(?\s*(look-around|finish)\s*\)?\s*", text.lower()) is not None
    obs, *_, info = env.step(text)
    assert isinstance(obs, str) and obs
    if applicable or (meta and "look-around" in text.lower()):
        return
    assert env.state == state
    assert info["action_valid"] is False
    assert info["failure"]["kind"] in {"syntax", "unknown_action", "wrong_arity", "unknown_object",
                                       "type_mismatch", "unmet_preconditions", "goal_not_reached"}
    assert info["failure"]["text"] == obs and len(obs) > 20


def test_look_around_returns_the_state():
    env = make("ferry")
    _, info = env.reset(seed=0)
    obs, _, _, _, info2 = env.step("(look-around)")
    assert info2["action_valid"] and info2["look_around"]
    assert obs == f"I look around. Currently, {info['state']}."


def test_finish_without_require_finish_reports_unmet_goals():
    env = make("blocksworld")
    _, info = env.reset(options={"problem": 1})
    obs, reward, terminated, _, info = env.step("(finish)")
    assert not terminated and reward == 0.0
    assert info["failure"]["kind"] == "goal_not_reached"
    assert info["failure"]["unmet"] == info["unsatisfied_goals"]
    assert obs.startswith("I am not finished yet because ")


def test_require_finish_waits_for_finish():
    env = make("blocksworld", require_finish=True)
    env.reset(options={"problem": 1})
    for action in gold_plan("blocksworld", 1):
        obs, reward, terminated, _, info = env.step(action)
        assert not terminated and reward == 0.0
    assert info["goal_reached"]
    obs, reward, terminated, _, info = env.step("(finish)")
    assert terminated and reward == 1.0 and info["action_valid"]
    assert obs == "I am finished: the goal is reached."


def test_time_limit_is_the_registered_default():
    from apb.domains.registry import bundled_step_limit

    env = make("blocksworld")
    limit = bundled_step_limit("blocksworld")
    assert env.spec.max_episode_steps == limit >= 24
    env.reset(seed=0)
    for i in range(limit):
        *_, truncated, _ = env.step("(look-around)")
        assert truncated == (i == limit - 1)


def test_infos_are_fresh_objects_every_step():
    env = make("logistics")
    _, info = env.reset(seed=0)
    _, _, _, _, info2 = env.step("(look-around)")
    info["objects"].clear()
    info["action_schemas"][0]["parameters"].clear()
    assert info2["objects"] and info2["action_schemas"][0]["parameters"]


def test_pddl_description_gives_pddl_text_and_terse_feedback():
    env = make("blocksworld", description="pddl")
    obs, info = env.reset(options={"problem": 1})
    assert obs.lstrip().startswith("(define (problem") or "(:init" in obs
    assert "(:action stack" in info["domain_description"]
    obs, *_ = env.step("(stack block_a block_b)")
    assert obs.startswith("(stack block_a block_b) failed: unmet preconditions (")
    obs, *_ = env.step(info["admissible_actions"][0])
    assert obs == f"{info['admissible_actions'][0]} executed."


def test_rule_description_renders_without_curated_templates():
    env = make("ferry", description="rule")
    obs, info = env.reset(seed=0)
    assert "goal" in obs and info["domain_description"] != make("ferry").reset(seed=0)[1]["domain_description"]


def test_render_modes(capsys):
    env = make("blocksworld", render_mode="ansi")
    env.reset(seed=0)
    env.step("(look-around)")
    text = env.render()
    assert text.startswith("> (look-around)\nI look around.")
    human = make("blocksworld", render_mode="human")
    human.reset(seed=0)
    human.step("(pick-up nothing)")
    assert "no object called nothing" in capsys.readouterr().out
    with pytest.raises(ApbError, match="render_mode"):
        PDDLTextEnv("blocksworld", render_mode="rgb_array_list")
    frame = PDDLTextEnv("blocksworld", render_mode="rgb_array")
    frame.reset(seed=0)
    assert frame.render().dtype.name == "uint8"  # pictures: tests/test_envs_pictures.py


# ---- other problem sources ----------------------------------------------------------------------------------------
def test_apb_pddl_with_a_problem_folder(tmp_path):
    for f in problem_files("gripper")[:3]:
        (tmp_path / f.name).write_text(f.read_text())
    env = gym.make("apb/PDDL-v0", domain_file=domain_file("gripper"), problems=tmp_path)
    ids = {env.reset(seed=s)[1]["problem_id"] for s in range(12)}
    assert ids == {"p01", "p02", "p03"}


def test_apb_pddl_errors_name_the_file(tmp_path):
    with pytest.raises(ApbError, match="domain file not found"):
        gym.make("apb/PDDL-v0", domain_file=tmp_path / "missing.pddl", problem_file=tmp_path / "p.pddl")
    with pytest.raises(ApbError, match="no problems given"):
        gym.make("apb/PDDL-v0", domain_file=domain_file("ferry"))
    with pytest.raises(ApbError, match="needs a bundled domain name"):
        PDDLTextEnv()


def test_register_a_reference_dataset_under_its_own_id():
    folder = require_reference() / "ferry"
    with pytest.raises(ApbError, match=r"apb/Ferry-v0 is already registered .*pass env_id="):
        register_dataset(folder)  # the default id would shadow the bundled Ferry
    id_ = register_dataset(folder, env_id="apb/RefFerry-v0")
    assert register_dataset(folder, env_id="apb/RefFerry-v0") == id_  # the same registration again is fine
    env = gym.make(id_)
    obs, info = env.reset(options={"problem": "orig/instance-1"})
    assert info["problem_id"] == "orig/instance-1" and "goal" in obs
    assert info["admissible_actions"]
    orig = PDDLTextEnv(dataset=folder, split="orig")
    assert {orig.reset(seed=s)[1]["problem_id"].split("/")[0] for s in range(10)} == {"orig"}
    first = orig.problem_ids[0]
    assert orig.reset(options={"problem": int(first.rsplit("-", 1)[1])})[1]["problem_id"] == first
    test = PDDLTextEnv(dataset=folder, split="test")  # the paper's 20: orig without the few-shot copy
    assert len(test.problem_ids) == 20 and "orig/instance-37" not in test.problem_ids
    with pytest.raises(ApbError, match="has no split 'train'"):
        PDDLTextEnv(dataset=folder, split="train")


# ---- wrappers -----------------------------------------------------------------------------------------------------
def test_discrete_actions_with_mask():
    env = DiscreteActions(make("blocksworld"))
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    assert [env.action_names[i] for i in np.flatnonzero(mask)] == info["admissible_actions"]
    index = int(np.flatnonzero(mask)[0])
    obs, *_, info2 = env.step(index)
    assert info2["action_valid"] and obs.startswith("I ")
    assert (env.action_masks() == info2["action_mask"]).all()
    closed = int(np.flatnonzero(mask == 0)[0])
    _, _, _, _, info3 = env.step(closed)
    assert not info3["action_valid"]
    with pytest.raises(ApbError, match="out of range"):
        env.step(env.action_space.n)


def test_literal_observations_pddlgym_style():
    env = LiteralObservations(make("grippers"), literal_format="pddlgym")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert set(obs) == {"literals", "objects", "goal"}
    assert all(re.fullmatch(r"[\w-]+\(([\w-]+:[\w-]+,?)*\)", lit) for lit in obs["literals"])
    literal = pddlgym_literal("(at ball_0 room_a)", {"ball_0": "object", "room_a": "room"})
    assert literal == "at(ball_0:default,room_a:room)"
    plain = LiteralObservations(make("grippers"))
    obs, info = plain.reset(seed=0)
    assert list(obs["literals"]) == sorted(info["state_pddl"])
    obs, *_ = plain.step(info["admissible_actions"][0])
    assert obs["literals"] != tuple(sorted(info["state_pddl"]))


def test_translated_actions_records_the_translation():
    def translator(text, info):
        return "(pick-up block_a)" if "pick" in text else None

    env = TranslatedActions(make("blocksworld"), translator)
    env.reset(options={"problem": 2})
    *_, info = env.step("Please pick up block a")
    assert info["translation"] == {"input": "Please pick up block a", "action": "(pick-up block_a)",
                                   "method": None, "confidence": None}
    _, *_, info = env.step("dance")
    assert info["translation"]["action"] is None and not info["action_valid"]
    with pytest.raises(ApbError):
        TranslatedActions(make("blocksworld"), "not callable")


def test_apb_envs_import_registers_ids():
    assert apb.envs.register_envs() == ALL_IDS

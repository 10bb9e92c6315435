"""The bundled Baking domain (the closed-loop study's kitchen): problem sets and gold plans, generator, env
registration and checker, and the curated text (per-variable descriptions, per-problem goals, no raw PDDL names)."""

from __future__ import annotations

import re

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import apb.envs  # noqa: F401  (registers apb/<Name>-v0)
from apb import domains
from apb.datasets import DatasetError, load_dataset, pddlgym_root
from apb.domains.baking import generator
from apb.engine import load_domain, load_task, read_plan
from apb.nl.template_builder import load_nl_yaml
from apb.planners import solve

FOLDER = domains.domain_dir("baking")
DOMAIN = load_domain(FOLDER / "domain.pddl")
ALL_PROBLEMS = [p for split in ("study", "example", "test") for p in domains.problem_files("baking", split)]


def templates():
    return load_nl_yaml(FOLDER / "nl.yaml", DOMAIN)


# ---- problems and gold plans --------------------------------------------------------------------------------------
def test_splits_have_the_study_problems_and_twenty_test_problems():
    assert [p.stem for p in domains.problem_files("baking", "study")] == ["p01", "p02", "p03", "p04"]
    assert [p.stem for p in domains.problem_files("baking", "test")] == [f"p{i:02d}" for i in range(1, 21)]


@pytest.mark.parametrize("path", ALL_PROBLEMS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_gold_plan_validates_and_is_marked_optimal(path):
    task = load_task(FOLDER / "domain.pddl", path)
    plan = read_plan(domains.plan_file(path))
    assert task.validate(plan).valid
    assert domains.registry.plan_is_optimal(domains.plan_file(path))


@pytest.mark.parametrize("path", domains.problem_files("baking", "study"), ids=lambda p: p.stem)
def test_study_gold_plans_have_the_length_astar_finds(path):
    task = load_task(FOLDER / "domain.pddl", path)
    result = solve(task, "astar", timeout=120)
    assert result.status == "solved"
    assert len(result.plan) == len(read_plan(domains.plan_file(path)))


def test_test_split_lengths_spread_from_short_to_long():
    lengths = sorted(len(read_plan(domains.plan_file(p))) for p in domains.problem_files("baking", "test"))
    assert lengths[0] <= 8 and lengths[-1] >= 25
    assert sum(n >= 25 for n in lengths) >= 3
    study = [len(read_plan(domains.plan_file(p))) for p in domains.problem_files("baking", "study")]
    assert study == sorted(study) and study[-1] >= 25  # the study's problems grow harder


# ---- generator ----------------------------------------------------------------------------------------------------
def test_generator_is_deterministic_and_checks_its_parameters():
    assert generator.generate(7, souffles=1, cakes=1) == generator.generate(7, souffles=1, cakes=1)
    assert generator.generate(7) != generator.generate(8, spare=3)
    for bad in ({"souffles": 0, "cakes": 0}, {"bowls": 0}, {"prepared": 4}, {"ovens": "two"}, {"plates": 1}):
        with pytest.raises(ValueError):
            generator.generate(1, **bad)


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
@pytest.mark.parametrize("kinds", [(1, 0), (0, 1)])
def test_generated_problems_are_solvable_at_every_preparation_stage(stage, kinds):
    text = generator.generate(3, souffles=kinds[0], cakes=kinds[1], prepared=stage)
    result = solve(load_task(DOMAIN, text), "gbfs", timeout=60)
    assert result.status == "solved"


def test_ingredients_are_consumed_and_the_recipe_order_holds():
    task = load_task(FOLDER / "domain.pddl", domains.problem_files("baking", "study")[0])
    plan = [step.text for step in read_plan(domains.plan_file(domains.problem_files("baking", "study")[0])).steps]
    state = task.initial_state
    for action in plan:
        state = task.apply(state, task.parse_action(action))
    used_egg = next(a.split()[1] for a in plan if a.startswith("(separate-egg"))
    assert "(used " + used_egg + ")" in task.facts(state)
    fresh = load_task(FOLDER / "domain.pddl", domains.problem_files("baking", "study")[0])
    early = fresh.parse_action(f"(separate-egg {used_egg} mixture_1 bowl_1)")  # before butter and sugar
    assert "(has-sugar mixture_1)" in fresh.explain(fresh.initial_state, early)


# ---- env ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("split", ["test", "study"])
def test_check_env_passes(split):
    env = gymnasium.make("apb/Baking-v0", split=split)
    check_env(env.unwrapped)


def test_info_carries_variable_descriptions_and_the_written_goal():
    env = gymnasium.make("apb/Baking-v0", split="study", problem=3)
    observation, info = env.reset()
    schema = next(s for s in info["action_schemas"] if s["name"] == "put-pan-in-oven")
    assert schema["variables"]["p"] == "the filled pan that will be put into the oven"
    assert info["goal"].startswith("dessert_1 is a souffle and dessert_2 is a souffle")
    assert f"My goal is that {info['goal']}." in observation
    assert info["optimal_plan_length"] == len(info["gold_plan"])


def test_pddlgym_baking_stays_with_the_importer():
    if pddlgym_root() is not None:
        assert load_dataset("pddlgym:baking").layout == "pddlgym"
    else:
        with pytest.raises(DatasetError, match=r"(?i)pddlgym"):
            load_dataset("pddlgym:baking")


# ---- curated text -------------------------------------------------------------------------------------------------
def curated_texts() -> list[str]:
    t = templates()
    texts = [t.intro, *t.goals.values()]
    texts += [s for p in t.predicates.values() for s in (p.text, p.negated)]
    texts += [s for a in t.actions.values() for s in (a.text, a.first_person, a.indefinite, *a.variables.values())]
    texts += [t.type_noun(name) or "" for name in DOMAIN.types] + [t.type_plural(name) for name in DOMAIN.types]
    return texts


def test_curated_text_has_no_raw_pddl_name():
    raw = [n for n in [*DOMAIN.types, *DOMAIN.predicates, *(a.name for a in DOMAIN.actions)] if re.search(r"[-_]", n)]
    for text in curated_texts():
        assert "?" not in text and "(" not in text, text
        for name in raw:
            assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE), (name, text)


def test_every_action_parameter_has_a_description_and_every_problem_a_goal():
    t = templates()
    for action in DOMAIN.actions:
        assert set(t.actions[action.name].variables) == {p.name.lstrip("?") for p in action.parameters}, action.name
    names = {load_task(DOMAIN, path).problem.name for path in ALL_PROBLEMS}
    assert names == set(t.goals)


def test_goals_are_checked_and_round_trip(tmp_path):
    from apb.nl.nl_yaml import NLTemplateError

    data = templates().to_dict()
    assert data["goals"] == templates().goals
    bad = (FOLDER / "nl.yaml").read_text(encoding="utf-8") + "  p99: [not, text]\n"
    (tmp_path / "nl.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(NLTemplateError, match=r"nl\.yaml:\d+: goals must map problem names"):
        load_nl_yaml(tmp_path / "nl.yaml", DOMAIN)

"""Robustness variants (description="obfuscated" / "shuffled"): symbolic baselines solve the same problems with the
same plan lengths as on the plain domain, no original name leaks into an obfuscated observation, shuffled names
follow through goals and gold plans, and eval reports the variant as part of the condition."""

from __future__ import annotations

import json
import re
from pathlib import Path

import gymnasium
import pytest

import apb.envs  # noqa: F401  (registers apb/<Name>-v0)
from apb.agents import make_agent, run_episode
from apb.domains import domain_file, problem_files
from apb.engine import load_domain, load_task
from apb.nl.sources import load_templates
from apb.nl.variants import VARIANTS, VariantError, rename_words, shuffle_map, variant_texts

CASES = [("baking", "study", 1), ("baking", "study", 2), ("baking", "test", 1), ("blocksworld", "test", 1),
         ("blocksworld", "test", 2), ("ferry", "test", 1), ("logistics", "test", 1)]


@pytest.fixture(autouse=True)
def variant_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("APB_VARIANT_CACHE", str(tmp_path_factory.getbasetemp() / "variants"))


def make(domain: str, split: str, problem: int, description: str = "curated"):
    env_id = f"apb/{domain.capitalize()}-v0"
    return gymnasium.make(env_id, split=split, problem=problem, description=description)


def baseline(domain: str, split: str, problem: int, description: str, agent: str) -> tuple[bool, int]:
    result = run_episode(make(domain, split, problem, description), make_agent(agent), max_steps=80)
    return result.success, len(result.actions)


# breadth-first search takes minutes on the 17-step cake problem (study 2), so only A* runs that one
BASELINE_CASES = [(agent, *case) for case in CASES for agent in ("bfs", "astar")
                  if (agent, *case) != ("bfs", "baking", "study", 2)]


@pytest.mark.parametrize("agent, domain, split, problem", BASELINE_CASES)
def test_symbolic_baselines_give_identical_results_on_every_variant(agent, domain, split, problem):
    plain = baseline(domain, split, problem, "curated", agent)
    assert plain[0]
    for variant in VARIANTS:
        assert baseline(domain, split, problem, variant, agent) == plain, variant


# words of apb's own sentence frame ("restrictions on my actions") that are also names in some domain
FRAME_WORDS = {"on", "at", "in"}


def original_names(domain: str, split: str, problem: int) -> set[str]:
    parsed = load_domain(domain_file(domain))
    task = load_task(parsed, problem_files(domain, split)[problem - 1])
    names = {t for t in parsed.types if t != "object"} | set(parsed.predicates) - {"="}
    names |= {a.name for a in parsed.actions} | set(task.problem.objects) | set(parsed.constants) | {parsed.name}
    return names


def observations(env) -> list[str]:
    """Texts an agent reads: the task, a valid step, an invalid one, look-around, finish, the domain text."""
    observation, info = env.reset()
    texts = [observation, info["goal"], info["state"], info["domain_description"]]
    texts += [v for s in info["action_schemas"] for v in (s["nl"], s["indefinite"], *s["variables"].values())]
    gold = info["gold_plan"]
    texts.append(env.step(gold[0])[0])
    texts.append(env.step(gold[0])[0])  # the same action again: mostly not applicable any more
    texts.append(env.step(f"({info['action_schemas'][0]['name']} nothing)")[0])
    texts += [env.step("(look-around)")[0], env.step("(finish)")[0]]
    return texts


@pytest.mark.parametrize("domain, split, problem", [("baking", "study", 4), ("blocksworld", "test", 1),
                                                    ("logistics", "test", 1)])
def test_no_original_name_leaks_into_an_obfuscated_observation(domain, split, problem):
    names = original_names(domain, split, problem)
    text = "\n".join(observations(make(domain, split, problem, "obfuscated")))
    words = set(re.findall(r"[A-Za-z0-9][\w-]*", text.lower()))
    leaked = {n for n in names - FRAME_WORDS if n in words}
    assert not leaked, leaked
    plain = "\n".join(observations(make(domain, split, problem)))
    assert any(n in set(re.findall(r"[A-Za-z0-9][\w-]*", plain.lower())) for n in names)  # the check can fail


def test_shuffled_renames_every_object_and_the_written_goal_follows():
    plain_env, shuffled_env = make("baking", "study", 3), make("baking", "study", 3, "shuffled")
    _, plain = plain_env.reset()
    _, shuffled = shuffled_env.reset()
    assert sorted(plain["objects"]) == sorted(shuffled["objects"]) and plain["objects"] != shuffled["objects"]
    assert shuffled["domain_description"] == plain["domain_description"]
    mapping = shuffle_map(list(load_task(domain_file("baking"), problem_files("baking", "study")[2]).problem.objects),
                          "baking-2-0-1-1-1-1-1-0-0-s502")
    assert shuffled["goal"] == rename_words(plain["goal"], mapping) != plain["goal"]
    assert shuffled["optimal_plan_length"] == plain["optimal_plan_length"]
    for action in shuffled["gold_plan"]:
        _, _, _, _, info = shuffled_env.step(action)
        assert info["action_valid"], info["failure"]
    assert info["goal_reached"]


def test_variant_texts_maps_one_problem_and_unknown_kinds_are_refused():
    domain_text = domain_file("blocksworld").read_text(encoding="utf-8")
    problem_text = problem_files("blocksworld", "test")[0].read_text(encoding="utf-8")
    templates = load_templates(load_domain(domain_file("blocksworld")), "curated",
                               domain_file=domain_file("blocksworld"))
    new_domain, new_problem, new_templates, mapping = variant_texts("obfuscated", domain_text, problem_text, templates)
    task = load_task(new_domain, new_problem)
    assert mapping["stack"] in {a.name for a in task.domain.actions}
    assert not re.search(r"\b(stack|unstack|clear|holding|block_a)\b", new_domain + new_problem)
    assert set(new_templates.actions) == {a.name for a in task.domain.actions}
    with pytest.raises(VariantError, match="obfuscated, shuffled"):
        variant_texts("mystery", domain_text, problem_text, templates)


def test_eval_reports_the_variant_as_part_of_the_condition(tmp_path):
    import asyncio

    from apb.eval.episode_specs import plan_episodes
    from apb.eval.report import write_report
    from apb.eval.runner import run_eval

    specs = plan_episodes(["blocksworld"], ["bfs"], [1, 2], description="obfuscated")
    specs += plan_episodes(["blocksworld"], ["bfs"], [1, 2])
    asyncio.run(run_eval(specs, tmp_path / "run", concurrency=1))
    write_report([tmp_path / "run"])
    rows = json.loads((tmp_path / "run" / "summary.json").read_text())["rows"]
    assert {(r["agent"], r["description"], r["solved"]) for r in rows} == {("bfs", "curated", 2),
                                                                           ("bfs@obfuscated", "obfuscated", 2)}


def test_eval_refuses_a_variant_for_pddl_agents_and_an_unknown_description(tmp_path):
    from apb.eval.config import load_config
    from apb.eval.episode_specs import EvalError, plan_episodes

    with pytest.raises(EvalError, match="reads PDDL"):
        plan_episodes(["blocksworld"], ["act-pddl"], [1], model="scripted:x", description="obfuscated")
    with pytest.raises(EvalError, match="unknown description 'mystery'"):
        plan_episodes(["blocksworld"], ["bfs"], [1], description="mystery")
    (tmp_path / "exp.yaml").write_text("domains: [ferry]\nagents: [bfs]\nproblems: 1\ndescription: shuffled\n")
    assert [s.description for s in load_config(tmp_path / "exp.yaml").episodes()] == ["shuffled"]


def test_variants_of_a_pddlgym_style_dataset_use_its_standard_domain():
    from apb.envs import PDDLTextEnv

    source = "tests/data/datasets/pddlgym_style/lamps.pddl"
    for description in VARIANTS:
        env = PDDLTextEnv(str(Path(__file__).resolve().parent.parent / source), description=description)
        result = run_episode(env, make_agent("bfs"), options={"problem": 0})
        assert result.success, (description, result.stop_reason, result.detail)

"""reasoning-gym datasets apb_<domain> (extra `reasoning-gym`): score_answer is apb's plan validator."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("reasoning_gym")

import reasoning_gym
from balance import CHANCE, ENTRIES, SEEDS, assert_at_chance, constant_scores

from apb.domains.registry import domain_file, generator
from apb.engine import load_task
from apb.engine.errors import ApbError
from apb.integrations.reasoning_gym import DATASET_NAMES
from apb.planbench.questions import TASKS as PB_TASKS

DOMAINS = ("blocksworld", "gripper", "ferry", "satellite", "visitall")


def validator(domain: str, problem: str, answer: str) -> float:
    """apb's validator on the problem, independently of the dataset: 1.0 valid, 0.0 invalid or not a plan."""
    try:
        return 1.0 if load_task(domain_file(domain), problem).validate(answer).valid else 0.0
    except ApbError:
        return 0.0


def variants(plan: list[str], rng: random.Random) -> list[str]:
    """Answers for one problem: the optimal plan, reformatted (comments, case, blank lines), one step dropped
    (invalid: a shorter plan would beat the optimal one), two adjacent steps swapped (either) and prose."""
    dropped = list(plan)
    del dropped[rng.randrange(len(plan))]
    swapped = list(plan)
    if len(plan) > 1:
        i = rng.randrange(len(plan) - 1)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    styled = "; my plan\n\n" + "\n".join(f"  {a.upper()}  ; step {n}" for n, a in enumerate(plan, 1))
    return ["\n".join(plan), styled, "\n".join(dropped), "\n".join(swapped), f"First I would {plan[0]} and so on."]


def test_score_answer_equals_apbs_validator_on_1000_pairs_half_of_them_invalid():
    rng = random.Random(0)
    scores, expected = [], []
    for domain in DOMAINS:
        data = reasoning_gym.create_dataset(f"apb_{domain}", size=40, seed=7)
        for entry in data:
            meta = entry["metadata"]
            assert generator(domain).generate(meta["generator_seed"], **meta["params"]) == meta["problem_pddl"]
            plan = entry["answer"].splitlines()
            assert len(plan) == meta["optimal_length"]
            for answer in variants(plan, rng):
                scores.append(data.score_answer(answer, entry))
                expected.append(validator(domain, meta["problem_pddl"], answer))
    assert len(scores) >= 1000
    assert scores == expected
    assert 0.4 <= expected.count(0.0) / len(expected) <= 0.6


def test_an_entrys_answer_scores_1_and_nonsense_or_a_prefix_0_in_every_domain():
    plans = [name for name in DATASET_NAMES if not name.startswith(("apb_acp_", "apb_planbench_"))]
    assert len(plans) >= 10 and "apb_blocksworld" in plans and len(DATASET_NAMES) == len(plans) + 8 + len(PB_TASKS)
    for name in plans:
        data = reasoning_gym.create_dataset(name, size=2, seed=3)
        entry = data[1]
        assert data.score_answer(entry["answer"], entry) == 1.0, name
        for nonsense in ("nonsense", "", None, "((((", "(fly-to the-moon)", entry["answer"].splitlines()[0]):
            assert data.score_answer(nonsense, entry) == 0.0, (name, nonsense)


def test_size_and_difficulty_come_from_the_generator_parameters_and_length_bounds():
    data = reasoning_gym.create_dataset("apb_blocksworld", size=6, seed=1, params={"blocks": 5}, min_length=8,
                                        max_length=10, view="pddl")
    assert len(data) == 6 and [e["metadata"]["source_index"] for e in data] == list(range(6))
    for entry in data:
        assert 8 <= entry["metadata"]["optimal_length"] <= 10
        assert entry["question"].count("block_") >= 5 and "(:goal" in entry["question"]
    assert data[2] == reasoning_gym.create_dataset("apb_blocksworld", size=6, seed=1, params={"blocks": 5},
                                                   min_length=8, max_length=10, view="pddl")[2]
    with pytest.raises(ApbError, match="unknown parameter"):
        reasoning_gym.create_dataset("apb_blocksworld", params={"towers": 3})


def test_acp_datasets_score_like_apb_acp_eval_right_wrong_and_malformed():
    from apb.acp import Question, extract, score
    from apb.acp.records import task_formats

    flipped = {"yes": "no", "no": "yes", "A": "B", "B": "C", "C": "D", "D": "A"}
    for task in ("app", "prog", "reach", "areach", "val", "just", "land", "nexta"):
        for fmt in task_formats(task):
            data = reasoning_gym.create_dataset(f"apb_acp_{task}", size=2, seed=1, domain="ferry", format=fmt)
            for entry in data:
                q = Question.from_dict(entry["metadata"]["question"])
                assert (q.task, q.format) == (task, fmt)
                assert data.score_answer(entry["answer"], entry) == 1.0, (task, fmt)
                for answer in (flipped.get(entry["answer"], "(sail loc_0 loc_0)"), "nonsense", "", None):
                    verdict = score(q, extract(answer, q.task, q.format, (q.choices or {}).get("text"))).sound
                    assert data.score_answer(answer, entry) == float(verdict)
                assert data.score_answer("nonsense", entry) == 0.0
    with pytest.raises(ApbError, match="format"):
        reasoning_gym.create_dataset("apb_acp_nexta", format="bool")


def test_a_plan_answer_is_text_never_a_path_and_never_raises(tmp_path):
    """A file holding the gold plan, named by the answer, scored 1.0 (the file was read); a NUL byte raised."""
    data = reasoning_gym.create_dataset("apb_blocksworld", size=1, seed=3)
    entry = data[0]
    gold = tmp_path / "gold.plan"
    gold.write_text(entry["answer"])
    for answer in (str(gold), f"{gold}\n", "gold\x00.plan", entry["answer"] + "\x00", "\ud800", "é" * 5_000_000):
        assert data.score_answer(answer, entry) == 0.0, answer[:40]


def test_acp_rewards_give_hedges_nothing():
    """The reward was the official verdict, which reads a hedge's first yes/no (and sound read its last)."""
    for fmt, hedges in (("bool", ("yes no", "no yes", "Answer: yes\nAnswer: no", "Answer: no\nAnswer: yes",
                                  "Answer: yes or no")),
                        ("mcq", ("Answer: A\nAnswer: B\nAnswer: C\nAnswer: D", "Answer: A or B or C or D",
                                 "A B C D"))):
        data = reasoning_gym.create_dataset("apb_acp_app", size=4, seed=2, domain="ferry", format=fmt)
        for entry in data:
            assert data.score_answer(entry["answer"], entry) == 1.0
            for hedge in hedges:
                assert data.score_answer(hedge, entry) == 0.0, (entry["answer"], hedge)


def test_planbench_datasets_reward_the_gold_and_never_a_hedge():
    """apb_planbench_<task>: PlanBench's prompts; score_answer is apb's sound verdict, as apb planbench eval's."""
    from apb.planbench.questions import PlanBenchQuestion, verdict

    names = [n for n in DATASET_NAMES if n.startswith("apb_planbench_")]
    assert sorted(names) == sorted(f"apb_planbench_{t}" for t in PB_TASKS) and len(PB_TASKS) >= 8
    for name in names:
        data = reasoning_gym.create_dataset(name, size=3, seed=5, config="blocksworld_3")
        for entry in data:
            meta = entry["metadata"]
            assert meta["config"] == "blocksworld_3" and meta["task"].startswith("task_")
            assert entry["question"].endswith(meta["planbench"]["record"]["query"].strip())
            assert data.score_answer(entry["answer"], entry) == 1.0, (name, entry["answer"])
            question = PlanBenchQuestion.from_dict(meta["planbench"])
            for bad in ("Maybe this works:\n" + entry["answer"], entry["answer"] + "\nOr maybe not.", "", None,
                        "The plan is valid and the goal is reached.", "/dev/stdin"):
                if meta["task"].startswith("task_3") and bad == "The plan is valid and the goal is reached.":
                    continue  # an answer to t3 (valid or invalid): right or wrong by the instance, not a non-answer
                assert data.score_answer(bad, entry) == 0.0, (name, bad)
            wrong = entry["answer"].split("\n", 1)[-1]  # the plan without its first step, the state's first fact gone
            assert data.score_answer(wrong, entry) == float(verdict(question, wrong)["sound"])
    with pytest.raises(ApbError):
        reasoning_gym.create_dataset("apb_planbench_t1", size=1, seed=0, config="no_such_config")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fmt", ["bool", "mcq"])
def test_a_constant_answer_scores_at_chance_over_200_entries(fmt, seed):
    """Issue 41: every entry's gold was "yes" (one question per entry, the first always a yes), so "yes" scored 1.0."""
    data = reasoning_gym.create_dataset("apb_acp_app", size=ENTRIES, seed=seed, format=fmt)
    entries = list(data)
    assert_at_chance(fmt, entries, lambda answer, entry: data.score_answer(answer, entry), f"app {fmt} seed {seed}")


def test_every_yes_no_and_mcq_acp_dataset_balances_its_golds():
    """Yes and no once in every pair of entries, each letter once in every four: exactly at chance."""
    from apb.acp.records import TASKS, task_formats

    for task in TASKS:
        for fmt in set(task_formats(task)) - {"gen"}:
            data = reasoning_gym.create_dataset(f"apb_acp_{task}", size=8, seed=3, domain="ferry", format=fmt)
            entries = list(data)
            scores = constant_scores(fmt, entries, lambda answer, entry, d=data: d.score_answer(answer, entry))
            assert set(scores.values()) == {CHANCE[fmt]}, (task, fmt, scores)

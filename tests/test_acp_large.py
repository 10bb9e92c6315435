"""Questions on IPC domains beyond the enumerated state space that generation used to give up on, each at a state
where the old code wrote no question (issue 40's groups short of 8): the question now exists, its gold rests on a
proof, and the solver answers it with the gold removed as the official scorer accepts."""

from __future__ import annotations

import importlib
import random
from dataclasses import replace
from pathlib import Path

import pytest

from apb.acp.generate import Generator
from apb.acp.projection import projection_unreachable
from apb.acp.proofs import Verdict, check_proof, fact_key
from apb.acp.records import Question
from apb.acp.scorers import official
from apb.acp.solver import solve_question
from apb.acp.tasks import land, plans, reach
from apb.acp.tasks.common import Situation, greedy_plan, task_at
from apb.acp.tasks.goals import goal_atoms
from apb.acp.truth import first_failure, question_prover, question_task

IPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "ipc-classical"


def _situations(domain: str) -> list[Situation]:
    if not (IPC / domain).is_dir():
        pytest.skip(f"no IPC reference domain at {IPC / domain}")
    generator = Generator(str(IPC / domain), seed=0)
    assert generator._more()
    return generator.situations


def _answered(q) -> bool:
    """The solver answers the question with its gold removed, and the official scorer accepts the answer."""
    found = solve_question(replace(q, answer=None, held_out=True))
    return found is not None and official(q, found[1]) is True


def test_a_landmark_question_is_asked_at_another_state_of_the_plan():
    """Childsnack: few states sampled from the first problem have a non-trivial landmark the relaxation proves (its
    sandwiches and trays are interchangeable until late in a plan), so no land bool "yes" or MCQ question was
    written at the others; a state further along the plan has one."""
    made = set()
    for number, sit in enumerate(_situations("childsnack-opt14-strips")):
        if sit.plan() is None or made == {"bool", "mcq"}:
            continue
        for fmt, want in (("bool", True), ("mcq", "A")):
            if land._land_at(sit, fmt, random.Random(number), want) is not None:
                continue  # the state has one itself
            q = land.land(sit, fmt, random.Random(number), want)
            if q is None:
                continue
            made.add(fmt)
            atom = q.item["atom"] if fmt == "bool" else q.gold["correct"]
            assert atom not in goal_atoms(sit.task) and atom not in q.state
            assert q.state != sit.facts  # asked at another state, on the situation's plan
            assert _answered(q), (fmt, atom)
    assert made == {"bool", "mcq"}


def test_generation_situations_get_plans_greedy_search_finds_within_its_budget():
    """Barman: 300 expansions left most random-walk states without a plan (and so without land, val or just
    questions); GREEDY_NODES finds them."""
    sits = _situations("barman-opt11-strips")
    planless = [s for s in sits if greedy_plan(s.task, s.state, 300) is None]
    planned = [s for s in planless if s.plan() is not None]
    assert len(planned) > len(planless) / 2
    assert all(first_failure(s.task, s.state, s.plan()) == (None, True) for s in planned)


def test_a_detour_is_found_where_random_tries_find_none():
    """Peg Solitaire: almost every inserted jump breaks the plan, so TRIES random tries often find no detour; the
    seeded scan of every position and action finds one, and it is a valid, longer plan."""
    found = 0
    for number, sit in enumerate(_situations("pegsol-opt11-strips")):
        plan = sit.plan()
        if not plan:
            continue
        states = plans.states_along(sit.task, sit.state, plan)
        made = plans._any_detour(sit, random.Random(number), plan, states)
        if made is None:
            continue
        longer, steps = made
        assert len(longer) == len(plan) + len(steps)
        assert first_failure(sit.task, sit.state, longer) == (None, True)
        found += 1
    assert found


def test_generative_reach_says_none_where_every_atom_is_witnessed():
    """Scanalyzer: beyond the enumerated space nothing is provably unreachable, so no generative reach question was
    written; where every atom holds in an enumerated state reachable from the state the gold is None, and the
    solver answers None."""
    made = 0
    for sit in _situations("scanalyzer-opt11-strips"):
        if sit.prover.exhaustive:
            continue
        q = reach.reach(sit, "gen", random.Random(0), None)
        if q is None:
            continue
        assert q.answer == [] and q.proof["method"] == "witnesses"
        assert solve_question(replace(q, answer=None, held_out=True))[1] == "None"
        made += 1
    assert made


def _transport() -> tuple:
    folder = IPC / "transport-opt08-strips"
    if not folder.is_dir():
        pytest.skip(f"no IPC reference domain at {folder}")
    q = Question(id=1, task="reach", format="gen", domain_pddl=(folder / "domain.pddl").read_text(),
                 problem_pddl=(folder / "p03.pddl").read_text(), budget=2000, source="acpbench")
    return q, *question_task(q)


def test_a_projection_proves_what_h2_cannot():
    """Transport: truck-1 starts with capacity-2, so capacity-3 never holds (picking a package up lowers the capacity
    that dropping it raises again: three facts at once, beyond h^2); the projection onto truck-1's facts proves it,
    and proves nothing about a capacity or a place it can reach."""
    q, task, state = _transport()
    prover = question_prover(q)
    above = fact_key(task, "(capacity truck-1 capacity-3)")
    assert prover.h2.pair(above, above) and above in prover.relaxed.facts  # neither h^2 nor the relaxation
    assert projection_unreachable(task, state, above)
    verdict = prover.atoms(["(capacity truck-1 capacity-3)"])
    assert verdict.value is False and verdict.proof["method"] == "projection"
    assert check_proof(task, state, "atoms", ["(capacity truck-1 capacity-3)"], verdict)
    for atom in ("(capacity truck-1 capacity-0)", "(capacity truck-2 capacity-3)", "(at truck-1 city-loc-1)"):
        assert not projection_unreachable(task, state, fact_key(task, atom)), atom
    assert not check_proof(task, state, "atoms", ["(at truck-1 city-loc-1)"],
                           Verdict(False, {"method": "projection", "atoms": ["(at truck-1 city-loc-1)"]}))


def test_the_solver_answers_generative_reach_with_what_the_projection_proves():
    """Transport beyond the enumerated space: nothing the relaxation or h^2 rules out, and not every atom
    witnessed, so generative reach was neither generated nor answered; the solver now answers a capacity of truck-1
    above its initial one, which the projection rules out."""
    q = _transport()[0]
    answer = solve_question(q)
    assert answer is not None and answer[1].startswith("(capacity truck-1 capacity-")
    assert int(answer[1].rstrip(")").rsplit("-", 1)[1]) > 2


def test_untyped_domains_get_areach_questions_whose_no_is_an_action_grounding_drops():
    """Driverlog is untyped: its type-consistent actions are too many to list and every grounded one applies
    somewhere, so the "no" answers (bool) and wrong options (MCQ) are bindings grounding drops, drawn at random as
    the release's are ("navigate the truck l2-1 from its current location t1"); the solver decides each, and each
    "no" action is one the task does not ground."""
    if not (IPC / "driverlog").is_dir():
        pytest.skip("no IPC reference domain driverlog")
    generator = Generator(str(IPC / "driverlog"), seed=0)
    questions = generator.generate(["areach"], ["bool", "mcq"], 8)
    assert sorted(q.format for q in questions) == ["bool"] * 8 + ["mcq"] * 8
    grounded = {str(a) for info in generator._infos.values() for a in info.task.actions}
    noes = [q for q in questions if q.format == "bool" and q.answer == "no"]
    assert len(noes) == 4
    for q in noes:
        assert q.item["action"] not in grounded
    for q in questions:
        found = solve_question(replace(q, answer=None, held_out=True))
        assert found is not None and found[0] == q.answer, (q.id, q.answer, found)


def test_a_short_group_widens_the_pool_with_rollout_states_of_the_problems_in_use():
    """Zenotravel's three problems: their first sampled states have almost no non-trivial landmark (every plane can
    carry every person), so land bool "yes" questions ran out at 2 of 4; seeded rollout states fill the group, the
    same ones on every run."""
    if not (IPC / "zenotravel").is_dir():
        pytest.skip("no IPC reference domain zenotravel")
    runs = []
    for _ in range(2):
        generator = Generator(str(IPC / "zenotravel"), seed=0)
        questions = generator.generate(["land"], ["bool"], 8)
        runs.append([(q.id, q.answer) for q in questions])
        assert generator._widened >= 1
    assert runs[0] == runs[1]
    assert [a for _, a in runs[0]].count("yes") == 4 and len(runs[0]) == 8
    for q in questions:
        assert _answered(q)


def test_the_wide_pool_changes_no_question_the_sampled_states_give(monkeypatch):
    """Rollout states are tried only after a question's tries on the sampled states fail: every question written
    without them is written with them too (Peg Solitaire's just MCQ lost one when they joined the sampled pool)."""
    if not (IPC / "zenotravel").is_dir():
        pytest.skip("no IPC reference domain zenotravel")
    generate_module = importlib.import_module("apb.acp.generate")  # the module (apb.acp.generate is also a function)

    with_wide = Generator(str(IPC / "zenotravel"), seed=0).generate(["land"], ["bool"], 8)
    monkeypatch.setattr(generate_module, "WIDEN_ROUNDS", 0)
    without = Generator(str(IPC / "zenotravel"), seed=0).generate(["land"], ["bool"], 8)
    assert len(without) < len(with_wide)
    assert {q.id for q in without} < {q.id for q in with_wide}


def test_each_thread_searches_from_its_own_state():
    """`apb acp generate` runs its task items in threads that share the problems' tasks: a search view shared
    between threads had its initial state changed by another thread mid-search (a plan found from one state was
    replayed from another: "serve_sandwich_no_gluten ... is not applicable" on Childsnack at --concurrency 4)."""
    import threading

    situations = _situations("childsnack-opt14-strips")
    task, states = situations[0].task, [situations[0].state, situations[1].state]
    assert states[0] != states[1]
    barrier, seen = threading.Barrier(2), {}

    def search_from(i: int) -> None:
        view = task_at(task, states[i])
        barrier.wait()  # both threads have set their view's state
        seen[i] = view.initial_state == states[i] and greedy_plan(task, states[i]) is not None

    threads = [threading.Thread(target=search_from, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {0: True, 1: True}


def test_tasks_side_by_side_in_threads_write_the_questions_one_thread_writes(monkeypatch):
    """Beyond the enumerated space the task items share situations whose plans come from searches: at --concurrency
    4 a situation's "no plan" was visible to another thread while its greedy search still ran (just, nexta), and
    search views were shared between threads; the questions must not depend on the threads."""
    if not (IPC / "zenotravel").is_dir():
        pytest.skip("no IPC reference domain zenotravel")
    from apb.acp import generate as generate_questions

    generate_module = importlib.import_module("apb.acp.generate")
    common = importlib.import_module("apb.acp.tasks.common")
    runs = []
    for concurrency in (1, 4, 4):
        monkeypatch.setattr(generate_module, "_SAMPLED", {})  # fresh situations: no analysis shared between runs
        monkeypatch.setattr(common, "_GREEDY_PLANS", {})
        questions, _ = generate_questions(str(IPC / "zenotravel"), tasks=["val", "just", "nexta"], count=8, seed=0,
                                          concurrency=concurrency, time_limit=None)
        runs.append([q.to_dict() for q in sorted(questions, key=lambda q: (q.group, q.id))])
    assert len(runs[0]) == 7 * 8
    assert runs[0] == runs[1] == runs[2]

"""The solver beyond the enumerated state space: what it answers where the question's budget enumerates only part of
the states, or where the type-consistent atoms and actions are too many to classify one by one (ACPBench's test
split has both: 20-block Blocksworld, Alfworld's 130 objects). Every answer is checked by the sound scorer, whose
proof replays on the question's own PDDL; none of these questions was answered before."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from apb.acp.proofs import check_proof
from apb.acp.records import Question
from apb.acp.scorers import sound
from apb.acp.solver import solve_question
from apb.acp.tasks import TASKS, common
from apb.acp.truth import question_prover, question_task

ENGLISH = common.__file__.rsplit("/tasks/", 1)[0] + "/english"


def _domain(name: str) -> str:
    with open(f"{ENGLISH}/{name}.pddl", encoding="utf-8") as handle:
        return handle.read()


def _question(task: str, domain: str, problem: str, *, budget: int = 20000, **fields) -> Question:
    return Question(id=1, task=task, format="gen", domain_pddl=domain, problem_pddl=problem, budget=budget,
                    source="acpbench", **fields)


def _tower(n: int) -> str:
    blocks = [f"b{i}" for i in range(1, n + 1)]
    on = " ".join(f"(on {a} {b})" for a, b in itertools.pairwise(blocks))
    return (f"(define (problem tower) (:domain blocksworld-4ops) (:objects {' '.join(blocks)})"
            f" (:init (clear b1) (handempty) (ontable b{n}) {on}) (:goal (and (on b{n} b1))))")


LOGISTICS = """(define (problem two-cities) (:domain logistics-strips)
  (:objects a0 - airplane c0 c1 - city l0-0 l1-0 - airport l0-1 l1-1 - location p0 p1 - package t0 t1 - truck)
  (:init (at a0 l0-0) (at p0 l0-1) (at p1 l1-1) (at t0 l0-0) (at t1 l1-0)
         (in-city l0-0 c0) (in-city l0-1 c0) (in-city l1-0 c1) (in-city l1-1 c1))
  (:goal (and (at p0 l1-1) (at p1 l0-1))))"""


def _replays(q: Question, kind: str, claim, answer) -> bool:
    verdict = sound(q, answer)
    task, state = question_task(q)
    spec = TASKS[q.task]
    _, item, value = spec.claim(task, answer)
    from apb.acp.proofs import Verdict

    return verdict.correct and check_proof(task, state, kind, claim if claim is not None else item,
                                           Verdict(value, verdict.proof), budget=q.budget)


def test_reach_answers_an_atom_h2_proves_never_holds_beyond_the_enumerated_space():
    """Nine blocks, 50 states enumerated: the delete relaxation reaches every atom (even `(on b b)`), no search
    finishes, and only h^2 shows a block is never on itself; the answer is such an atom, proved by h^2."""
    q = _question("reach", _domain("blocksworld"), _tower(9), budget=50)
    assert not question_prover(q).exhaustive
    answer, text = solve_question(q)
    name, a, b = answer[0].split()
    assert name == "on" and a == b and text == f"({answer[0]})"
    verdict = sound(q, text)
    assert verdict.correct and verdict.proof["method"] == "h2"
    assert _replays(q, "atoms", [text], text)


def test_reach_and_areach_answer_where_the_bindings_are_too_many_to_classify(monkeypatch):
    """Above the universe limit the solver scans the type-consistent bindings lazily: reach answers the first atom
    the delete relaxation never reaches (a truck in another city), areach an action grounding drops that binds
    distinct objects (a truck driving between cities), each proved by the sound scorer."""
    monkeypatch.setattr(common, "UNIVERSE_LIMIT", 5)
    domain = _domain("logistics")
    reach = _question("reach", domain, LOGISTICS)
    assert common.atom_universe(question_task(reach)[0]) is None
    answer, text = solve_question(reach)
    assert answer == [text.strip("()")]
    assert sound(reach, text).correct and sound(reach, text).proof["method"] in ("relaxed", "type", "static")
    areach = _question("areach", domain, LOGISTICS + " ")  # another task object: its own universe cache
    assert common.action_universe(question_task(areach)[0]) is None
    _, text = solve_question(areach)
    args = text.strip("()").split()[1:]
    assert len(set(args)) == len(args), text
    assert sound(areach, text).correct, text


GOLDMINER = """(define (problem mine) (:domain gold-miner-typed)
  (:objects f0-0f f0-1f f1-0f f1-1f - loc)
  (:init (arm-empty) (bomb-at f0-0f) (clear f0-0f) (clear f1-0f) (connected f0-0f f0-1f) (connected f0-0f f1-0f)
         (connected f0-1f f0-0f) (connected f0-1f f1-1f) (connected f1-0f f0-0f) (connected f1-0f f1-1f)
         (connected f1-1f f0-1f) (connected f1-1f f1-0f) (gold-at f1-1f) (laser-at f0-0f) (robot-at f0-0f)
         (soft-rock-at f0-1f) (soft-rock-at f1-1f))
  (:goal (holds-gold)))"""


def test_prog_reads_the_action_with_the_domains_english_where_its_objects_fit_several():
    """"pick up the laser at loc f0-0f" names one object, and two applicable actions take exactly it (picking up
    the bomb or the laser there): the domain's English phrasings say which one; before, the question was left
    unanswered."""
    q = _question("prog", _domain("goldminer"), GOLDMINER,
                  context="A robotic arm is in a grid and can only move to locations that are connected to its "
                          "current location.",
                  question='Break down the outcomes of performing the action "pick up the laser at loc f0-0f" '
                           "into two lists, positive effects and negative effects.")
    task, state = question_task(q)
    takes_it = [str(a) for a in task.applicable(state) if str(a).strip("()").split()[1:] == ["f0-0f"]]
    assert sorted(takes_it) == ["(pickup-bomb f0-0f)", "(pickup-laser f0-0f)"]
    answer, _ = solve_question(q)
    assert answer == {"pos": ["(holds-laser)"], "neg": ["(arm-empty)", "(laser-at f0-0f)"]}


# g comes from p and q together, or from l; p, q and l each use up s, so p and q never hold together; twelve
# switches that nothing needs make the state space too large to enumerate within the question's budget
MUTEX_DOMAIN = """(define (domain routes) (:requirements :strips :typing) (:types switch)
  (:predicates (s) (p) (q) (l) (g) (up ?x - switch) (down ?x - switch))
  (:action to-p :parameters () :precondition (s) :effect (and (p) (not (s))))
  (:action to-q :parameters () :precondition (s) :effect (and (q) (not (s))))
  (:action to-l :parameters () :precondition (s) :effect (and (l) (not (s))))
  (:action both :parameters () :precondition (and (p) (q)) :effect (g))
  (:action via-l :parameters () :precondition (l) :effect (g))
  (:action flip :parameters (?x - switch) :precondition (down ?x) :effect (and (up ?x) (not (down ?x))))
  (:action flop :parameters (?x - switch) :precondition (up ?x) :effect (and (down ?x) (not (up ?x)))))"""
SWITCHES = [f"w{i}" for i in range(12)]
MUTEX_PROBLEM = (f"(define (problem one) (:domain routes) (:objects {' '.join(SWITCHES)} - switch)"
                 f" (:init (s) {' '.join(f'(down {w})' for w in SWITCHES)}) (:goal (g)))")


def test_land_proves_a_landmark_by_h2_when_the_relaxation_cannot():
    """`l` is a landmark: the other route to g needs p and q together, which never hold together. The delete
    relaxation misses it (relaxed, p and q both hold); with the action adding l left out, h^2 shows the goal
    unreachable. The proof replays, a fact some plan avoids (p) gets no such proof, and the solver answers l."""
    q = _question("land", MUTEX_DOMAIN, MUTEX_PROBLEM, budget=50)
    prover = question_prover(q)
    assert not prover.exhaustive
    verdict = prover.landmark("(l)")
    assert verdict.value is True and verdict.proof["method"] == "h2-achievers"
    task, state = question_task(q)
    assert check_proof(task, state, "landmark", "(l)", verdict, budget=q.budget)
    assert prover.landmark("(p)").value is not True  # a plan avoids it
    answer, text = solve_question(q)
    assert text == "(l)" and answer["yes"] == ["(l)"]


TWO_ROUTES = MUTEX_DOMAIN.replace("(domain routes)", "(domain two-routes)").replace(
    "(:action both :parameters () :precondition (and (p) (q)) :effect (g))",
    "(:action via-p :parameters () :precondition (p) :effect (g))")


def test_land_answers_none_beyond_the_enumerated_space_with_a_plan_avoiding_each_fact():
    """g comes by way of p, q or l, and twelve switches nobody needs make the space too large for the budget: the
    classification leaves p undecided (the one plan it knows goes through it, and no enumerated path avoids it), so
    the solver searches a plan avoiding each open fact; every one has one, and it answers "None"."""
    q = _question("land", TWO_ROUTES, MUTEX_PROBLEM.replace("(:domain routes)", "(:domain two-routes)"), budget=20)
    answer, text = solve_question(q)
    assert text == "None" and answer["yes"] == []
    assert {"(p)", "(q)", "(l)", "(up w0)"} <= set(answer["no"])
    prover = question_prover(q)
    assert all(prover.landmark(atom).value is not True for atom in answer["no"])


@pytest.mark.parametrize("factor", [1, 4])
def test_nexta_plans_with_more_expansions_at_a_larger_budget(monkeypatch, factor):
    """Where some successor's distance is beyond the enumerated space, nexta answers with the first action of an
    A* plan whose expansions scale with the question's budget, so `apb acp answer --escalate` finds the budget
    that decides it; the answer applies in the question's state."""
    from apb.acp.tasks import nexta

    seen = []
    real = nexta._nexta_from_plan
    monkeypatch.setattr(nexta, "_nexta_from_plan", lambda task, nodes: seen.append(nodes) or real(task, nodes))
    monkeypatch.setattr(nexta, "successor_distances", lambda sit, patient=True: None)
    q = _question("nexta", _domain("blocksworld"), _tower(6), budget=20000 * factor)
    answer, text = solve_question(q)
    assert seen == [nexta.NEXTA_NODES * factor]
    task, state = question_task(q)
    assert answer["yes"] == [text] and not task.explain(state, task.parse_action(text))


LINE_DOMAIN = TWO_ROUTES.replace("(domain two-routes)", "(domain line)").replace(
    "(:types switch)", "(:types switch cell)").replace(
    "(up ?x - switch) (down ?x - switch))",
    "(up ?x - switch) (down ?x - switch) (at ?c - cell) (next ?a ?b - cell))").replace(
    "(:action flip", "(:action move :parameters (?a ?b - cell) :precondition (and (at ?a) (next ?a ?b))"
    " :effect (and (at ?b) (not (at ?a))))\n  (:action flip")
CELLS = [f"c{i}" for i in range(8)]
LINE_PROBLEM = (f"(define (problem walk) (:domain line)"
                f" (:objects {' '.join(SWITCHES)} - switch {' '.join(CELLS)} - cell)"
                f" (:init (s) (at c0) {' '.join(f'(next {a} {b})' for a, b in itertools.pairwise(CELLS))}"
                f" {' '.join(f'(down {w})' for w in SWITCHES)}) (:goal (g)))")


def test_only_gold_accepted_finds_deep_witnesses_along_seeded_walks(monkeypatch):
    """Moving one way along eight cells beside twelve switches: breadth-first enumeration at 50, 200 and 800 states
    never reaches the last cells, so `(move c6 c7)` is never seen to apply there; seeded random walks reach it, and
    with them every action of the grounding applies somewhere (the proof says how many the walks found). Without
    the walks there is no proof."""
    from apb.acp.tasks import areach

    q = _question("areach", LINE_DOMAIN, LINE_PROBLEM, budget=50)
    proof = areach.only_gold_accepted(q)
    assert proof is not None and "along seeded random walks" in proof
    assert "(move c6 c7)" in areach.official_grounding(question_prover(q))
    monkeypatch.setattr(areach, "WALKS", 0)
    monkeypatch.setattr(areach, "_walked", lambda prover, wanted, walks=0, length=0: set())
    assert areach.only_gold_accepted(replace(q, problem_pddl=q.problem_pddl + " ")) is None


def _app_mcq(problem: str, options: list[str]) -> Question:
    return Question(id=2, task="app", format="mcq", domain_pddl=_domain("blocksworld"), problem_pddl=problem,
                    options=[{"action": a} for a in options], source="acpbench")


def test_an_mcq_rules_out_a_reading_of_its_english_under_which_not_one_option_is_true(monkeypatch):
    """Where the English leaves facts open, the readings must agree, except that an MCQ (one right option, by how
    the release wrote it) rules out a reading under which no option, or several, would be true. Readings that
    disagree and are each consistent leave the question unanswered, as does a lone reading ruling itself out."""
    from apb.acp import solver

    held = "(define (problem held) (:domain blocksworld-4ops) (:objects a b) (:init (holding a) (clear b) " \
           "(ontable b)) (:goal (and (on a b))))"
    free = "(define (problem free) (:domain blocksworld-4ops) (:objects a b) (:init (handempty) (clear a) " \
           "(clear b) (ontable a) (ontable b)) (:goal (and (on a b))))"
    options = ["(stack a b)", "(unstack b a)", "(put-down b)", "(stack b a)"]  # true only when a is held
    english = Question(id=3, task="app", format="mcq", source="acpbench", context="...", question="...")
    monkeypatch.setattr(solver, "_read_english", lambda q: [_app_mcq(held, options), _app_mcq(free, options)])
    assert solver.solve_question(english) == ("A", "The answer is A.")
    two_ways = ["(stack a b)", "(pick-up a)", "(put-down b)", "(stack b a)"]  # A when held, B when free
    monkeypatch.setattr(solver, "_read_english", lambda q: [_app_mcq(held, two_ways), _app_mcq(free, two_ways)])
    assert solver.solve_question(english) is None
    monkeypatch.setattr(solver, "_read_english", lambda q: [_app_mcq(free, options)])
    assert solver.solve_question(english) is None


def test_a_yes_no_gold_the_prover_contradicts_is_gold_wrong_with_a_proof_that_replays():
    """A reach or areach yes/no answer the official scorer rejects is gold-wrong when the prover decides the
    statement as the answer does, by a proof that replays (a witness plan, or the facts already holding), and an
    ordinary rejection otherwise (a wrong answer stays wrong)."""
    from apb.acp.acceptance import judge

    def bool_question(task, item, gold):
        return Question(id=4, task=task, format="bool", domain_pddl=_domain("blocksworld"), problem_pddl=_tower(4),
                        item=item, answer=gold, source="acpbench")

    reachable = bool_question("reach", {"atoms": ["(on b4 b1)", "(clear b4)"]}, "no")  # the tower upside down
    outcome = judge(reachable, "The answer is yes.")
    assert outcome.kind == "gold-wrong" and outcome.proof["method"] == "plan"
    assert judge(bool_question("reach", {"atoms": ["(on b4 b1)"]}, "yes"), "The answer is no.").kind == "rejected"
    holds = bool_question("reach", {"atoms": ["(on b1 b2)"]}, "no")
    assert judge(holds, "The answer is yes.").proof["method"] == "holds"
    applies = bool_question("areach", {"action": "(unstack b1 b2)"}, "no")
    assert judge(applies, "The answer is yes.").kind == "gold-wrong"
    assert judge(applies, "Perhaps.").kind == "rejected"

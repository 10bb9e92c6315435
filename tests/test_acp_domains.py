"""ACPBench's questions on IPC domains the release never had (../shared/reference/ipc-classical): every task and form
on a domain whose state space is beyond enumeration, and apb answering its own ACPBench-format files from their
English (the reader built from the domain's NL templates, `apb.acp.english.generated`). The twelve-domain
measurement is benchmarks/acp_domains.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from apb.acp import generate
from apb.acp.english.generated import attach_domains, generated_domain, read_generated_context
from apb.acp.question_files import read_questions, write_questions
from apb.acp.records import TASKS, group_name, task_formats
from apb.acp.scorers import score_response
from apb.acp.solver import solve_question
from apb.acp.truth import question_task
from apb.engine import load_domain
from apb.nl.rules import rule_data

IPC = Path(__file__).resolve().parents[2] / "shared" / "reference" / "ipc-classical"
GROUPS = [group_name(t, f) for t in TASKS for f in task_formats(t)]


@pytest.fixture(scope="module")
def pegsol(tmp_path_factory):
    """Two questions of every task and form on Peg Solitaire (its problems' state spaces exceed the 20,000-state
    budget), written in both formats."""
    out = tmp_path_factory.mktemp("pegsol")
    questions, stats = generate(str(IPC / "pegsol-opt11-strips"), count=2, seed=0)
    write_questions(questions, out)
    return questions, stats, out


def test_every_task_and_form_beyond_the_enumerated_space(pegsol):
    questions, _stats, _ = pegsol
    made = {g: sum(q.group == g for q in questions) for g in GROUPS}
    assert all(n >= 2 for n in made.values()), made
    beyond = [q for q in questions if q.format == "gen" and q.task in ("reach", "areach")
              and q.proof.get("complete") is False]
    assert beyond, "reach/areach gold proved beyond the enumerated space"
    assert all(q.answer for q in beyond)  # never a "None" gold without a complete classification


def test_the_solver_answers_apbs_own_files_from_their_english(pegsol):
    questions, _, out = pegsol
    truth = {q.id: q for q in questions}
    read = read_questions(out / "acpbench")
    blind = attach_domains([replace(q, answer=None, held_out=True) for q in read])
    for q in blind:
        found = solve_question(q)
        assert found is not None, (q.group, q.question[:120])
        original = truth[q.id]
        _, verdict = score_response(original, found[1])
        assert verdict.official and verdict.sound, (q.group, q.question[:200], found, verdict)
        if q.format in ("bool", "mcq"):
            assert found[0] == original.answer


def test_contexts_read_back_to_the_questions_state_and_goal(pegsol):
    questions, _, _out = pegsol
    dom = generated_domain(questions[0].domain_pddl)
    for q in [q for q in questions if q.format != "gen"]:
        reading = read_generated_context(dom, q.context)
        task, state = question_task(q)
        assert set(reading.init) == task.facts(state) | set(task.static_facts), q.id
        assert sorted(reading.goal) == (sorted(q.goal) if "The goal is" in q.context else [])


def test_actions_that_name_the_same_objects_are_told_apart_by_their_words():
    from apb.acp.english.questions import read_action
    from apb.nl import load_templates
    from apb.nl.render import DomainText

    pddl = (IPC / "childsnack-opt14-strips" / "domain.pddl").read_text()
    dom = generated_domain(pddl)
    words = DomainText(load_domain(pddl), load_templates(load_domain(pddl)))
    for name in ("make_sandwich", "make_sandwich_no_gluten"):
        args = ["s0", "b0", "c0"]
        assert read_action(dom, words.action(name, args)) == f"({name} s0 b0 c0)"


def test_rule_templates_tell_apart_predicates_that_would_read_the_same():
    domain = load_domain((IPC / "barman-opt11-strips" / "domain.pddl").read_text())
    predicates = rule_data(domain)["predicates"]
    assert predicates["cocktail-part1"]["text"] != predicates["cocktail-part2"]["text"]


def test_a_context_in_another_wording_is_not_read_as_apbs():  # the release's Ferry, read as Childsnack
    pddl = (IPC / "childsnack-opt14-strips" / "domain.pddl").read_text()
    dom = generated_domain(pddl)
    from apb.acp.english import ContextError

    with pytest.raises(ContextError):
        read_generated_context(dom, "This is a ferry domain. There are 2 cars. Currently, the ferry is empty.")


def test_apb_acp_answer_reads_a_bool_file_alone_with_domain(pegsol, tmp_path):
    """A bool file without the generative records beside it: `--domain` names the domain its English is in."""
    import json
    import shutil

    from apb.cli import main

    _, _, out = pegsol
    alone = tmp_path / "app"
    alone.mkdir()
    shutil.copy(out / "acpbench" / "app" / "test.bool.json", alone / "test.bool.json")
    records = json.loads((alone / "test.bool.json").read_text())
    for record in records:
        del record["answer"]  # a held-out file
    (alone / "test.bool.json").write_text(json.dumps(records))
    target = tmp_path / "answers.jsonl"
    args = ["acp", "answer", str(alone / "test.bool.json"), "--agent", "solver", "--out", str(target)]
    assert main([*args, "--domain", str(IPC / "pegsol-opt11-strips")]) == 0
    assert len(target.read_text().splitlines()) == len(records)
    assert main(args) == 0  # without it the English is read by no reader: nothing is answered
    assert target.read_text() == ""

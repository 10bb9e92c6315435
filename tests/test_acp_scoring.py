"""ACP answers: extraction from chatty LLM text, the official and sound scorers (on generated questions and on
ACPBench-format fixtures with their quirks), and scripted LLM runs scored end to end for every task and format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb.acp import MISSING, extract, generate, oracle_answer, read_questions, score
from apb.acp.evaluate import RESULTS_FILE, answer_text, evaluate
from apb.acp.question_files import read_results
from apb.acp.records import TASKS, task_formats
from apb.llm import ScriptedLLM

DATA = Path(__file__).resolve().parent / "data" / "acp"


@pytest.fixture(scope="module")
def questions():
    generated, _ = generate("ferry", count=3, seed=7, budget=2000)
    return generated


def fixture(task: str, qid: int, suffix: str = "test.gen.json"):
    path = DATA / task / suffix
    return next(q for q in read_questions(path) if q.id == qid)


# ---- extraction ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "task", "fmt", "expected"), [
    ("Yes.", "app", "bool", "yes"),
    ("Let me think... the ferry is not there, so no.\n**Answer: NO**", "app", "bool", "no"),
    ("The answer is **B**.", "app", "mcq", "B"),
    ("Answer: (c)", "app", "mcq", "C"),
    ("Answer:\n```\n(Board car_0 LOC_0)\n(sail loc_0 loc_1)\n```", "app", "gen", ["(board car_0 loc_0)",
                                                                               "(sail loc_0 loc_1)"]),
    ("Answer: []", "app", "gen", []),
    ('Answer: {"pos": ["(on c0)"], "neg": ["(at c0 l0)", "(empty-ferry)"]}', "prog", "gen",
     {"pos": ["(on c0)"], "neg": ["(at c0 l0)", "(empty-ferry)"]}),
    ("pos: (on c0)\nneg: (at c0 l0) (empty-ferry)", "prog", "gen",
     {"pos": ["(on c0)"], "neg": ["(at c0 l0)", "(empty-ferry)"]}),
    ("I believe there is none. Answer: None", "reach", "gen", None),
    ("Answer: `(at-ferry l2)`", "reach", "gen", "(at-ferry l2)"),
    ("The first failing action is at index **2**", "val", "gen", 2),
    ("Answer: (debark car_1 loc_1)", "nexta", "gen", "(debark car_1 loc_1)"),
])
def test_extraction_is_tolerant(text, task, fmt, expected):
    assert extract(text, task, fmt) == expected


@pytest.mark.parametrize("garbage", ["", "   ", "¯\\_(ツ)_/¯", "{{{{", "Answer:", None, 42, "[" * 500])
def test_extraction_of_garbage_is_missing_and_never_raises(garbage):
    for task in TASKS:
        for fmt in task_formats(task):
            value = extract(garbage, task, fmt)
            assert value is MISSING or (fmt == "gen" and task in ("app", "just") and value == [])


# ---- scorers on generated questions --------------------------------------------------------------------------------
def wrong_answer(q):
    """An answer that is certainly wrong for the question."""
    if q.format == "bool":
        return "no" if q.answer == "yes" else "yes"
    if q.format == "mcq":
        return next(letter for letter in "ABCD" if letter != q.answer)
    return {"app": ["(sail nowhere nowhere)"], "prog": {"pos": [], "neg": []}, "val": 99,
            "just": list(q.item.get("plan", [])), "nexta": "(fly me to-the-moon)"}.get(q.task, "(made-up fact)")


def test_both_scorers_reject_wrong_and_missing_answers(questions):
    for q in questions:
        for answer in (wrong_answer(q), MISSING):
            verdict = score(q, answer)
            assert not verdict.sound and not verdict.official, (q.group, answer)


def test_sound_scorer_accepts_every_unreachable_atom_not_only_the_first(questions):
    reach = next(q for q in questions if q.task == "reach" and q.format == "gen")
    assert reach.answer, "ferry is untyped: ill-matched atoms such as (at car_0 car_0) never hold"
    for atom in reach.answer[-3:]:
        assert score(reach, atom).sound


# ---- the official quirks on ACPBench-format fixtures ---------------------------------------------------------------
def test_areach_official_accepts_only_the_listed_witness():
    q = fixture("areach", 151)
    assert score(q, "(sail l2 l0)").official and score(q, "(sail l2 l0)").sound
    other = score(q, "(board c0 l2)")   # l2 is never reached: also correct
    assert other.sound and not other.official


def test_just_official_is_case_sensitive_sound_is_not():
    q = fixture("just", 171)
    lower = score(q, ["(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"])
    assert lower.sound and not lower.official
    assert score(q, ["(BOARD C0 L0)", "(SAIL L0 L1)", "(DEBARK C0 L1)"]).official
    assert not score(q, ["(board c0 l0)", "(debark c0 l1)"]).sound


def test_reach_none_is_judged_by_proof_not_by_the_gold():
    q = fixture("reach", 142)  # gold None, but l2 is never reached
    assert score(q, None).official and not score(q, None).sound
    assert score(q, "(at-ferry l2)").sound and not score(q, "(at-ferry l2)").official
    assert not score(q, "(at c0 l1)").sound


def test_land_and_nexta_sound_checks():
    land = fixture("land", 181, "test.gen.json.gz")
    assert score(land, "(at-ferry l1)").sound and not score(land, "(at-ferry l1)").official
    assert not score(land, "(on c1)").sound
    nexta = fixture("nexta", 191)
    assert score(nexta, "(board c0 l0)").sound and not score(nexta, "(sail l0 l1)").sound


def test_val_and_prog_from_question_text():
    assert score(fixture("val", 161), 1).sound and not score(fixture("val", 161), 1).official
    prog = fixture("prog", 131)
    assert score(prog, {"pos": ["(ON C0)"], "neg": ["(empty-ferry)", "(at c0 l0)"]}).sound


def test_refused_pddl_is_a_scored_wrong_answer_with_a_reason():
    q = read_questions(DATA / "bad" / "refused_pddl.json")[0]
    verdict = score(q, [])
    assert not verdict.sound and "durative" in verdict.reason


# ---- scripted LLM runs, end to end ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["correct", "wrong", "garbage"])
def test_scripted_llm_is_scored_as_expected_for_every_task_and_format(questions, tmp_path, kind):
    by_id = {q.id: q for q in questions}

    def respond(messages):
        asked = messages[-1]["content"]
        q = next(q for q in questions if q.question in asked and q.context in asked)
        if kind == "correct":
            return f"Let me reason step by step.\n**Answer:** {answer_text(q)}"
        if kind == "wrong":
            return "Answer: " + json.dumps(wrong_answer(q)) if q.task == "prog" else (
                "Answer: " + (" ".join(wrong_answer(q)) if isinstance(wrong_answer(q), list) else str(wrong_answer(q))))
        return "I am not sure, maybe ask someone else ¯\\_(ツ)_/¯"

    summary = evaluate(questions, ScriptedLLM(respond), tmp_path, shots=2, cot=True, concurrency=3, progress=False)
    results = read_results(tmp_path / RESULTS_FILE)
    assert summary["ran"] == len(questions) == len(results) and summary["errors"] == 0
    assert {(r["task"], r["format"]) for r in results} == {(t, f) for t in TASKS for f in task_formats(t)}
    for r in results:
        expected = kind == "correct"
        assert r["sound"] is expected and r["official"] is expected, (kind, r["group"], r["response"], r["reason"])
        assert len(r["prompt"]) == 2 + 2 * 2 and by_id[r["id"]].question in r["prompt"][-1]["content"]


def test_eval_resumes_without_repeating_and_refuses_to_overwrite(questions, tmp_path):
    first = questions[:5]
    evaluate(first, ScriptedLLM(lambda m: "Answer: yes"), tmp_path, shots=0, progress=False, concurrency=1)
    with pytest.raises(Exception, match="--resume"):
        evaluate(questions, ScriptedLLM(lambda m: "yes"), tmp_path, shots=0, progress=False)
    calls = ScriptedLLM(lambda m: "Answer: no")
    summary = evaluate(questions, calls, tmp_path, shots=0, resume=True, progress=False)
    assert summary["skipped"] == 5 and len(calls.calls) == len(questions) - 5
    ids = [r["id"] for r in read_results(tmp_path / RESULTS_FILE)]
    assert sorted(ids) == sorted(q.id for q in questions)


def test_oracle_answers_score_on_released_fixtures():
    for q in read_questions(DATA):
        if q.format != "gen":
            assert score(q, oracle_answer(q)).official


def test_a_line_cut_short_by_an_interruption_is_redone_on_resume(questions, tmp_path):
    first = questions[:3]
    evaluate(first, ScriptedLLM(lambda m: "Answer: yes"), tmp_path, shots=0, progress=False, concurrency=1)
    results = tmp_path / RESULTS_FILE
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])  # the process died while writing line 3
    summary = evaluate(first, ScriptedLLM(lambda m: "Answer: no"), tmp_path, shots=0, resume=True, progress=False)
    assert summary["skipped"] == 2 and summary["ran"] == 1
    assert len(read_results(results)) == 3


def test_audit_proofs_replay_with_the_engine():
    from apb.acp.audit import audit
    from apb.acp.space import replay
    from apb.acp.truth import question_task

    findings = {f.id: f for f in audit(read_questions(DATA)) if f.kind == "wrong"}
    witness = findings[141].proof
    task, state = question_task(fixture("reach", 141))
    assert witness["method"] == "plan" and task.holds(replay(task, state, witness["plan"])[-1], "(at c0 l1)")
    assert findings[142].proof["method"] == "relaxed" and findings[181].proof["method"] == "relaxed-achievers"


def test_solver_answers_bool_and_mcq_questions_from_their_pddl_as_the_proved_gold(questions):
    """The solver decides every bool and MCQ statement with the engine (the gold blanked), and the official reading
    of its text (the declared lm-eval filters) accepts it; without PDDL items it does not answer."""
    from dataclasses import replace

    from apb.acp.official import official_verdict
    from apb.acp.solver import solve_question

    choice = [q for q in questions if q.format in ("bool", "mcq")]
    assert {q.task for q in choice} == set(TASKS) - {"nexta"} and {q.answer for q in choice} >= {"yes", "no"}
    for q in choice:
        blind = replace(q, answer=None, gold={}, proof={})
        answer, text = solve_question(blind)
        assert answer == q.answer and official_verdict(q, text).correct, (q.task, q.format, q.id, answer, q.answer)
    released = replace(choice[0], domain_pddl="", problem_pddl="", item={})
    assert solve_question(released) is None


@pytest.mark.parametrize(("text", "fmt", "task"), [
    ("yes no", "bool", "app"), ("no yes", "bool", "app"), ("Answer: yes\nAnswer: no", "bool", "app"),
    ("Answer: yes or no", "bool", "app"), ("Answer: A\nAnswer: B\nAnswer: C\nAnswer: D", "mcq", "app"),
    ("Answer: A or B", "mcq", "app"), ("A B C D", "mcq", "app"), ("Answer: correct", "mcq", "app"),
    ('{"pos": 1e999999}', "gen", "val"), ("/proc/1/fd/2", "gen", "val"), ("Answer: 2 or 3", "gen", "val"),
    ("Answer: yes\n" * 40, "bool", "app"), ("(board c l) " * 10_001, "gen", "app"),
])
def test_hedges_and_numbers_out_of_paths_are_no_answer(text, fmt, task):
    """Hedges got credit (the official verdict takes the first answer, the sound one took the last); the sound
    reader took an index out of a path or out of 1e999999."""
    assert extract(text, task, fmt) is MISSING


@pytest.mark.parametrize(("text", "expected"), [("Answer: 2.", 2), ("The first failing step is 3", 3),
                                                ("Answer: **-1**", -1), ("index 0; it fails there", 0)])
def test_an_index_standing_alone_is_still_read(text, expected):
    assert extract(text, "val", "gen") == expected

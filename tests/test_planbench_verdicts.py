"""PlanBench's verdicts as its release computes them (apb.planbench.verdicts), record by record over every released
results file of plan-bench (both models, every config and task there), PlanBench's own reader as an oracle on
apb's inputs, apb's sound verdict on hedges and alternatives, and `apb planbench score` through the CLI."""

from __future__ import annotations

import functools
import gzip
import importlib.util
import json
import types
from pathlib import Path

import pytest
import yaml

from apb.cli import main
from apb.datasets.planbench import load_config
from apb.planbench import reading
from apb.planbench.verdicts import _vocabulary, score_record, task_kind

ROOT = Path(__file__).resolve().parents[1]
RELEASE = ROOT.parent / "shared" / "reference" / "planbench"
RESULTS = sorted((RELEASE / "plan-bench" / "results").glob("*/*/*.json.gz"))
EXCEPTIONS = yaml.safe_load((ROOT / "tests" / "data" / "planbench" / "verdict_exceptions.yaml").read_text())
ALLOWED = {(e["file"], e["instance_id"], e["field"]) for e in EXCEPTIONS["exceptions"]}
# the records where apb's sound verdict and PlanBench's differ (docs/planbench.md lists them)
DEPARTURES = json.loads((ROOT / "tests" / "data" / "planbench" / "departures.json").read_text())
VERIFICATION = ("llm_correct_binary", "llm_correct_w_type", "llm_correct_w_expl")


def _records(path: Path) -> list[dict]:
    return json.loads(gzip.decompress(path.read_bytes()))["instances"]


def _name(path: Path) -> str:
    return str(path.relative_to(RELEASE / "plan-bench"))


def test_every_released_results_file_is_here():
    assert len(RESULTS) == 26  # blocksworld(_3): ten tasks of GPT-4, t3 and t7 of davinci; mystery(_3): t3
    assert sum(len(_records(p)) for p in RESULTS) == 7800
    assert len(ALLOWED) < 0.01 * 7800


@pytest.mark.parametrize("path", RESULTS, ids=_name)
def test_apb_reproduces_the_released_verdict_of_every_record(path):
    stem = path.name.removesuffix(".json.gz")
    fields = VERIFICATION if task_kind(stem) == "verification" else ("llm_correct",)
    scored = 0
    departures = []
    for record, mine in zip(_records(path), _scored(path)):
        if record.get("llm_raw_response"):
            official = mine["llm_correct_binary" if task_kind(stem) == "verification" else "llm_correct"]
            if official != mine["apb_correct"]:
                departures.append({"file": _name(path), "instance_id": record["instance_id"], "planbench": official,
                                   "apb": mine["apb_correct"], "why": mine["apb_reason"]})
        assert {k: mine[k] for k in record} == record | ({k: mine[k] for k in OFFICIAL if k in record}), \
            "every input field is kept"
        if not record.get("llm_raw_response"):
            assert mine == record  # PlanBench skips a record without a response
            continue
        scored += 1
        for field in fields:
            if (_name(path), record["instance_id"], field) in ALLOWED:
                continue
            assert mine[field] == record[field], (record["instance_id"], field, record["llm_raw_response"][:300])
        if "optimality" in stem and "actual_cost_of_llm_plan" in record and "actual_cost_of_llm_plan" in mine:
            assert (mine["actual_cost_of_llm_plan"], mine["cost_by_llm"]) == (
                record["actual_cost_of_llm_plan"], record["cost_by_llm"])
        assert isinstance(mine["apb_correct"], bool) and "apb_plan" in mine
    assert scored >= len(_records(path)) - 1
    assert departures == [d for d in DEPARTURES if d["file"] == _name(path)]


@pytest.mark.parametrize("path", RESULTS, ids=_name)
def test_apb_writes_the_released_extracted_llm_plan_of_every_record(path):
    """`extracted_llm_plan` exactly as released, record by record: t1's list of actions (`'(unstack d c)'`), the
    other plan tasks' readable plan (`(unstack yellow orange)`, colours), t7's state facts in their order, t3's
    verification dicts. No exception."""
    compared = 0
    for record, mine in zip(_records(path), _scored(path)):
        if "extracted_llm_plan" in record:
            assert mine.get("extracted_llm_plan") == record["extracted_llm_plan"], (
                record["instance_id"], record["llm_raw_response"][:300])
            compared += 1
    assert compared >= len(_records(path)) - 1


@functools.cache
def _scored(path: Path) -> tuple[dict, ...]:
    """Every record of a released results file scored by apb (once per test session: two tests compare them)."""
    config = load_config(path.parent.parent.name, "plan-bench")
    stem = path.name.removesuffix(".json.gz")
    return tuple(score_record(config, stem, record) for record in _records(path))


OFFICIAL = ("extracted_llm_plan", "llm_correct", "actual_cost_of_llm_plan", "cost_by_llm", "parsed_ground_truth_plan",
            *VERIFICATION)


RESPONSES = sorted((RELEASE / "plan-bench" / "responses").glob("*/*/*.json.gz"))


@pytest.mark.parametrize("path", RESPONSES, ids=_name)
def test_a_released_responses_file_gets_its_results_files_verdicts(path):
    """The responses files (what PlanBench's evaluation reads: t4's and t6's records still hold the `new_instance`
    they are judged on) get the verdicts of the matching results file; t4 and t6 the same from the query alone."""
    results = RELEASE / "plan-bench" / "results" / path.relative_to(path.parents[2])
    released = {r["instance_id"]: r for r in _records(results)}
    config = load_config(path.parent.parent.name, "plan-bench")
    stem = path.name.removesuffix(".json.gz")
    field = "llm_correct_binary" if task_kind(stem) == "verification" else "llm_correct"
    compared = 0
    for record in _records(path):
        theirs = released.get(record["instance_id"])
        if not record.get("llm_raw_response") or theirs is None or theirs["llm_raw_response"] != record[
                "llm_raw_response"]:
            continue
        mine = score_record(config, stem, record)
        assert mine[field] == theirs[field], record["instance_id"]
        if "new_instance" in record:
            without = score_record(config, stem, {k: v for k, v in record.items() if k != "new_instance"})
            assert (without[field], without["apb_correct"]) == (mine[field], mine["apb_correct"])
        compared += 1
    assert compared >= 0.9 * len(released)


# ---- PlanBench's own reader as the oracle ---------------------------------------------------------------------------
def _oracle():
    """plan-bench's utils/text_to_pddl.py loaded on its own (it needs numpy only)."""
    pytest.importorskip("numpy")
    source = RELEASE / "plan-bench" / "utils" / "text_to_pddl.py"
    spec = importlib.util.spec_from_file_location("planbench_text_to_pddl", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _action_set(vocab):
    return {name: types.SimpleNamespace(parameters=types.SimpleNamespace(vars=lambda n=n: list(range(n))))
            for name, n in vocab.actions}


TEXTS = ["unstack the red block from on top of the blue block\nput down the red block\n[PLAN END]",
         "1. Pick up the yellow block.\n2. Stack the yellow block on top of the red block\nI am done",
         "stack the red block on top of the red block\nstack the blue block on the orange block and the red block",
         "attack object a\nfeast object b from object c\n**succumb object a**\novercome object d from object b",
         "", "\n\n", "pick up the red block or the blue block", "(unstack a b)\n(put-down a)", "x" * 5000,
         "1. load package_0 into truck_0 at location_0_0\n2. drive truck_0 from location_0_0 to location_0_1 in city_0"
         "\n10. fly airplane_0 from location_0_0 to location_1_0\nunload package_0 from airplane_0 at location_1_0",
         "drive truck_1 from location_1_0 to location_1_2", "load package_3 into truck at somewhere_1", "5",
         "Use hoist0 to lift crate1 from pallet0 at depot0\n2. drive truck1 from depot0 to distributor0\n"
         "Use hoist1 to unload crate1 from truck1 at distributor0", "fly plane_1"]


@pytest.mark.parametrize("name", ["blocksworld", "mystery_blocksworld", "random_blocksworld", "logistics", "depots",
                                  "obfuscated_deceptive_logistics"])
def test_planbench_reader_is_the_oracle(tmp_path, monkeypatch, name):
    module = _oracle()
    monkeypatch.chdir(tmp_path)  # its reader writes the plan file it makes
    config = load_config(name, "plan-bench")
    vocab = _vocabulary(config)
    responses = list(TEXTS)
    for path in RESULTS[:2]:
        responses += [r["llm_raw_response"] for r in _records(path)[:150] if r.get("llm_raw_response")]
    for text in responses:
        for ours, theirs in ((lambda t=text: reading.official_plan(t, vocab),
                              lambda t=text: module.text_to_plan(t, _action_set(vocab), "plan", config.data)),
                             (lambda t=text: reading.official_state(t, vocab),
                              lambda t=text: module.text_to_state(t, config.data))):
            try:
                expected = theirs()
            except Exception:  # PlanBench's reading raises: apb's says so
                with pytest.raises(reading.ReadingFailed):
                    ours()
            else:
                assert ours() == expected, text[:200]


# ---- apb's sound verdict ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def t1():
    config = load_config("blocksworld", "plan-bench")
    [record] = [r for r in _records(RESULTS[0]) if r["instance_id"] == 5]
    return config, record


GOOD = ("unstack the orange block from on top of the blue block\nput down the orange block\n"
        "unstack the blue block from on top of the red block\nput down the blue block\npick up the yellow block\n"
        "stack the yellow block on top of the orange block\npick up the blue block\n"
        "stack the blue block on top of the red block\n[PLAN END]\n")


def _judge(t1, response):
    config, record = t1
    return score_record(config, "task_1_plan_generation", {**record, "llm_raw_response": response})


def test_a_plain_plan_is_credited_by_both(t1):
    for response in (GOOD, "Here is the plan:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(GOOD.split("\n"), 1)),
                     GOOD.replace("put down the orange block", "put down the orange block on the table")):
        scored = _judge(t1, response)
        assert scored["llm_correct"] is True and scored["apb_correct"] is True, (response, scored["apb_reason"])
    assert _judge(t1, GOOD)["apb_plan"][:2] == ["(unstack c b)", "(put-down c)"]


@pytest.mark.parametrize("response", [
    "I am not sure this works, but maybe:\n" + GOOD,
    GOOD.replace("[PLAN END]", "Alternatively, pick up the red block first.\n[PLAN END]"),
    "Option 1:\n" + GOOD.split("[PLAN END]")[0] + "Option 2:\npick up the red block\n[PLAN END]",
    GOOD + "Or, if that fails, unstack the blue block from on top of the red block",
    "The plan is valid and the goal is reached.",
    "/dev/stdin", "\x00" + GOOD,
])
def test_a_hedge_or_a_list_of_alternatives_is_not_a_plan(t1, response):
    scored = _judge(t1, response)
    assert scored["apb_correct"] is False and scored["apb_plan"] is None, scored["apb_reason"]


def test_the_official_reading_credits_what_the_sound_one_refuses(t1):
    """PlanBench reads the actions out of a hedge: its verdict is reproduced, apb's does not credit it."""
    scored = _judge(t1, "I am not sure this works, but maybe:\n" + GOOD)
    assert scored["llm_correct"] is True and scored["apb_correct"] is False


def test_verification_and_state_sound_verdicts():
    config = load_config("blocksworld", "plan-bench")
    t3 = next(p for p in RESULTS if p.name.startswith("task_3") and "gpt-4" in str(p) and p.parts[-3] == "blocksworld")
    record = _records(t3)[3]
    assert score_record(config, "t3", record)["apb_correct"] is True  # 'The above plan is invalid' on an invalid plan
    both = score_record(config, "t3", {**record, "llm_raw_response": "The plan is valid. The plan is invalid."})
    assert both["apb_correct"] is False and both["apb_plan"] is None
    t7 = next(p for p in RESULTS if p.name.startswith("task_7") and "gpt-4" in str(p) and p.parts[-3] == "blocksworld")
    record = _records(t7)[3]
    right = score_record(config, "t7", record)
    assert right["llm_correct"] is True and right["apb_correct"] is True
    hedged = score_record(config, "t7", {**record, "llm_raw_response": record["llm_raw_response"] + " or maybe not"})
    assert hedged["apb_correct"] is False


# ---- the command -----------------------------------------------------------------------------------------------------
def test_score_command_keeps_every_field_and_adds_the_verdicts(tmp_path, capsys):
    records = _records(RESULTS[0])[:20]
    source = tmp_path / "responses.json"
    stripped = [{"id": r["instance_id"], "answer": r["llm_raw_response"], "prompt": r["query"], "extra": 1}
                for r in records]
    source.write_text(json.dumps({"task": "t1", "instances": stripped}))
    out = tmp_path / "scored.json.gz"
    assert main(["planbench", "score", str(source), "--config", "blocksworld", "--task", "t1", "--out", str(out),
                 "--response-key", "answer", "--query-key", "prompt", "--id-key", "id"]) == 0
    scored = json.loads(gzip.decompress(out.read_bytes()))
    assert scored["task"] == "t1" and len(scored["instances"]) == 20
    for before, after, released in zip(stripped, scored["instances"], records):
        assert {k: after[k] for k in before} == before
        if before["answer"]:
            assert after["llm_correct"] == released["llm_correct"]
        else:  # PlanBench skips a record without a response
            assert "llm_correct" not in after
    assert "19 of 20 records scored" in capsys.readouterr().out  # one has no response


def test_score_command_refuses_bad_input_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["planbench", "score", str(bad), "--config", "blocksworld", "--task", "t1",
                 "--out", str(tmp_path / "o.json")]) == 2
    assert main(["planbench", "score", str(tmp_path / "missing.json"), "--config", "blocksworld", "--task", "t1",
                 "--out", str(tmp_path / "o.json")]) == 2
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"instances": []}))
    assert main(["planbench", "score", str(good), "--config", "blocksworld", "--task", "t9",
                 "--out", str(tmp_path / "o.json")]) == 2
    err = capsys.readouterr().err
    assert "not JSON" in err and "not found" in err and "unknown PlanBench task 't9'" in err
    assert "Traceback" not in err and not (tmp_path / "o.json").exists()


# ---- llm_planning_analysis's readings: its text reader and its translator reader as the oracle -----------------------
def _analysis_oracle(monkeypatch):
    pytest.importorskip("numpy")
    pytest.importorskip("openai")
    monkeypatch.setenv("OPENAI_API_KEY", "unused")  # it builds a client before it sees the stored translation
    source = RELEASE / "llm_planning_analysis" / "utils" / "text_to_pddl.py"
    spec = importlib.util.spec_from_file_location("analysis_text_to_pddl", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRANSLATIONS = [
    "Here it is\n[PDDL PLAN]\n(unstack red blue)\n(put-down red)\n(pick-up blue)\n(stack blue orange)\n[PDDL PLAN END]",
    "[PDDL PLAN]\n1. (Pickup yellow)\n2. (put_down yellow)\n(fly a b)\n[PDDL PLAN END]",
    "[PDDL PLAN]\nno plan possible\n[PDDL PLAN END]",
    "(attack object_1)\n(feast object_2 object_3).\n**(succumb object_1)**\nno plan possible\n[PDDL PLAN END]",
    "[PDDL PLAN]\n(load-truck p0 t0 l0-0)\n(drive-truck t0 l0-0 l0-1 c0)\n[PDDL PLAN END]", "", "[PDDL PLAN]",
]
ANALYSIS_CONFIGS = ["blocksworld", "mystery_blocksworld", "logistics", "obfuscated_randomized_logistics",
                    "unsolvable_blocksworld", "random_blocksworld", "sokoban"]


@pytest.mark.parametrize("name", ANALYSIS_CONFIGS)
def test_llm_planning_analysis_readers_are_the_oracle(tmp_path, monkeypatch, name):
    module = _analysis_oracle(monkeypatch)
    monkeypatch.chdir(tmp_path)
    config = load_config(name, "llm_planning_analysis")
    vocab = _vocabulary(config)
    for translation in TRANSLATIONS:
        expected, raw = module.text_to_plan_with_llm("unused", config.data, {"raw_translation": translation})
        assert raw == translation and reading.translated_plan(translation, vocab) == expected, translation
    for text in [*TEXTS, "### Plan:\nunstack the red block from on top of the blue block\n[PLAN]\npick up the red "
                 "block\n[PLAN END]\nput down the red block", "[PLAN]\n**stack the red block on top of the blue "
                 "block**\n[PLAN END]"]:
        try:
            expected = module.text_to_plan(text, _action_set(vocab), "plan", config.data)
        except Exception:
            with pytest.raises(reading.ReadingFailed):
                reading.official_plan(text, vocab)
        else:
            if expected is None:  # no reader for the domain: PlanBench's unpacking of None raises
                with pytest.raises(reading.ReadingFailed):
                    reading.official_plan(text, vocab)
            else:
                assert reading.official_plan(text, vocab) == expected, text[:200]


def test_unsolvable_and_pddl_readings():
    config = load_config("unsolvable_blocksworld", "llm_planning_analysis")
    record = {"instance_id": 1, "query": "", "llm_raw_response": "It cannot be done.",
              "raw_translation": "[PDDL PLAN]\nno plan possible\n[PDDL PLAN END]"}
    scored = score_record(config, "task_1_plan_generation_zero_shot", record)
    assert scored["llm_correct"] is True and scored["extracted_llm_plan"] == "(no plan possible)"
    assert scored["apb_correct"] is True and scored["apb_plan"] == "no plan"  # an exhaustive search proves it
    for hedge in ("Maybe it cannot be done.", "It cannot be done. Or: pick up the red block"):
        assert score_record(config, "t1", {**record, "llm_raw_response": hedge})["apb_correct"] is False
    solvable_claim = score_record(load_config("blocksworld"), "t1", {"instance_id": 5, "llm_raw_response": "It is "
                                                                     "impossible: no plan exists."})
    assert solvable_claim["apb_correct"] is False and solvable_claim["apb_reason"] == "a plan exists"
    plain = score_record(config, "task_1_plan_generation", {k: v for k, v in record.items() if k != "raw_translation"})
    assert plain["llm_correct"] is False  # read as text, then validated: an unsolvable instance has no valid plan
    solvable = load_config("blocksworld", "llm_planning_analysis")
    task = reading.pddl_response_plan("```\n(pick-up a)\n```")
    assert task == "(pick-up a)"
    scored = score_record(solvable, "task_1_plan_generation_pddl",
                          {"instance_id": 1, "llm_raw_response": "(pick-up a)"})
    assert scored["llm_correct"] is False and scored["extracted_llm_plan"] == "(pick-up a)"

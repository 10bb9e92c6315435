"""The LLM template generator (apb.nl.generator) and `apb nl generate` (apb.nl.cli), with scripted LLMs:
prompts, lenient answer reading, one repair turn, rule-based fallbacks, and the command's file handling."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
import yaml

from apb.cli import build_parser
from apb.domains.registry import domain_file, domain_names, problem_files
from apb.engine import ApbError, load_domain, load_task
from apb.llm.base import LLMError
from apb.llm.scripted import ScriptedLLM
from apb.nl import DomainText, TaskText, load_nl_yaml
from apb.nl.cli import cmd_nl_generate
from apb.nl.generator import (
    NLGenerateError,
    generate_templates,
    load_examples,
    normalize_placeholders,
    parse_answer,
)
from apb.nl.rules import rule_data, rule_templates
from apb.nl.template_builder import missing_entries

DATA = Path(__file__).resolve().parent / "data" / "nl_generator"
QUESTION = re.compile(r"^(Predicate|Action): \(([^\s()]+)", re.M)


def curated(name: str) -> dict:
    return yaml.safe_load(domain_file(name).with_name("nl.yaml").read_text(encoding="utf-8"))


def question_of(messages: list[dict]) -> tuple[str, str]:
    """('predicate' | 'action' | 'intro', name) of the question a call is about (repair turns included)."""
    for m in reversed(messages):
        if m["role"] != "user":
            continue
        match = QUESTION.search(m["content"])
        if match:
            return match.group(1).lower(), match.group(2)
        if "intro:" in m["content"]:
            return "intro", ""
    raise AssertionError("no question in the messages")


def is_repair(messages: list[dict]) -> bool:
    return messages[-1]["content"].startswith("That answer does not work")


def answer_from(data: dict, kind: str, name: str) -> str:
    """The answer a perfect model gives, from an nl.yaml mapping."""
    if kind == "predicate":
        p = data["predicates"][name]
        return f"text: {p['text']}\nnegated: {p['negated']}"
    if kind == "action":
        a = data["actions"][name]
        lines = [f"text: {a['text']}", f"indefinite: {a['indefinite']}"]
        lines += [f"?{k}: {v}" for k, v in a.get("variables", {}).items()]
        return "\n".join(lines)
    return f"intro: {data['intro']}"


def responder(data: dict, overrides: dict | None = None):
    """Answers from `data`; overrides[(kind, name)] is a list of answers for the first, second, ... call about
    that entry (the last one repeats)."""
    overrides = overrides or {}
    seen: dict = {}

    def respond(messages: list[dict]) -> str:
        key = question_of(messages)
        seen[key] = seen.get(key, 0) + 1
        if key in overrides:
            answers = overrides[key]
            return answers[min(seen[key], len(answers)) - 1]
        return answer_from(data, *key)

    return respond


def ferry():
    return load_domain(domain_file("ferry"))


def calls_about(llm: ScriptedLLM, kind: str, name: str) -> list[dict]:
    return [c for c in llm.calls if question_of(c["messages"]) == (kind, name)]


# ---- the whole run --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["blocksworld", "ferry"])
def test_correct_answers_give_a_valid_nl_yaml_that_renders(name, tmp_path):
    domain = load_domain(domain_file(name))
    data = curated(name)
    llm = ScriptedLLM(responder(data))
    events = []
    templates = generate_templates(domain, llm, on_progress=events.append)

    assert templates.source == f"llm:{llm.spec}"
    assert templates.fallbacks == [] and templates.report.repairs == []
    assert templates.report.calls == len(domain.predicates) + len(domain.actions) + 1 == len(llm.calls)
    assert templates.report.input_tokens > 0 and templates.report.output_tokens > 0
    assert [(e.stage, e.outcome) for e in events] == ([("predicate", "ok")] * len(domain.predicates)
                                                      + [("action", "ok")] * len(domain.actions) + [("intro", "ok")])
    for pname, p in data["predicates"].items():
        assert (templates.predicates[pname].text, templates.predicates[pname].negated) == (p["text"], p["negated"])
    for aname, a in data["actions"].items():
        got = templates.actions[aname]
        assert (got.text, got.indefinite, got.variables) == (a["text"], a["indefinite"], a["variables"])
    assert templates.intro == data["intro"]

    path = templates.save(tmp_path / "nl.yaml")
    loaded = load_nl_yaml(path, domain)
    description = DomainText(domain, loaded).description()
    first = data["actions"][domain.actions[0].name]["indefinite"]
    assert f"- {first}" in description and "{" not in description
    task = load_task(domain, problem_files(name)[0])
    text = TaskText(task, loaded).problem_description()
    assert "My goal is that" in text and "{" not in text


def test_prompts_put_system_and_examples_first_with_a_cache_mark():
    llm = ScriptedLLM(responder(curated("ferry")))
    generate_templates(ferry(), llm)
    predicate_calls = [c["messages"] for c in llm.calls if question_of(c["messages"])[0] == "predicate"]
    action_calls = [c["messages"] for c in llm.calls if question_of(c["messages"])[0] == "action"]
    for calls in (predicate_calls, action_calls):
        prefix = calls[0][:-1]
        assert prefix[0]["role"] == "system" and len(prefix) > 3
        for messages in calls:
            assert messages[:-1] == prefix  # identical static prefix: provider prompt caching works
            assert [i for i, m in enumerate(messages) if m.get("cache")] == [len(messages) - 2]
            assert messages[-1]["role"] == "user"
        roles = [m["role"] for m in prefix[1:]]
        assert roles == ["user", "assistant"] * (len(roles) // 2)
    # the few-shot examples are apb's own, written for made-up domains
    assert "Domain: coffee-bar" in predicate_calls[0][1]["content"]
    assert "Predicate: (not-eq ?x ?y)" in predicate_calls[0][-1]["content"]


def test_predicate_prompt_shows_types_comments_and_usage():
    llm = ScriptedLLM(responder(curated("ferry")))
    generate_templates(ferry(), llm)
    question = calls_about(llm, "predicate", "at")[0]["messages"][-1]["content"]
    assert "Predicate: (at ?c ?l)" in question
    assert "?c: untyped; ?l: untyped" in question
    assert "Comment in the domain file: car ?c is parked at ?l" in question
    assert "board (requires it, makes it false), debark (makes it true)" in question
    assert "A ferry with room for one car" in question  # the header comment of the domain file

    depot = load_domain(domain_file("depot"))
    data = curated("depot")
    llm = ScriptedLLM(responder(data))
    generate_templates(depot, llm, intro=False)
    question = calls_about(llm, "predicate", "lifting")[0]["messages"][-1]["content"]
    assert "Predicate: (lifting ?x - hoist ?y - crate)" in question and "?x: hoist; ?y: crate" in question
    assert "Comment in the domain file: a hoist holds a crate" in question


def test_action_prompt_words_effects_with_the_generated_predicates():
    data = curated("ferry")
    data["predicates"]["at-ferry"] = {"text": "the boat is docked at {l}", "negated": "the boat is away from {l}"}
    llm = ScriptedLLM(responder(data))
    templates = generate_templates(ferry(), llm)
    assert templates.predicates["at-ferry"].text == "the boat is docked at {l}"
    question = calls_about(llm, "action", "sail")[0]["messages"][-1]["content"]
    assert "Action: (sail ?from ?to)" in question and "?from (A): untyped; ?to (B): untyped" in question
    requires, effects = question.split("The action has these effects:")
    assert "- the boat is docked at A" in requires and "- A and B are different locations" in requires
    assert "- the boat is docked at B" in effects and "- the boat is away from A anymore" in effects


def test_intro_prompt_lists_the_generated_actions():
    llm = ScriptedLLM(responder(curated("ferry")))
    generate_templates(ferry(), llm)
    question = llm.calls[-1]["messages"][-1]["content"]
    assert "- board a car A onto the ferry at a location B" in question
    assert "Kinds of objects: car, location" in question


def test_intro_can_be_left_to_the_rules():
    llm = ScriptedLLM(responder(curated("ferry")))
    templates = generate_templates(ferry(), llm, intro=False)
    assert templates.intro == rule_templates(ferry()).intro
    assert all(question_of(c["messages"])[0] != "intro" for c in llm.calls)


# ---- reading answers ----------------------------------------------------------------------------------------------
def test_prose_bold_keys_fences_and_json_around_answers_are_read():
    data = curated("ferry")
    wrapped = {
        ("predicate", "at"): ["Sure! The predicate relates a car and a place.\n\n**Text:** {c} is at {l}\n"
                              "**Negated:** {c} is not at {l}\n\nLet me know if you need more."],
        ("predicate", "on"): ['```json\n{"text": "{c} is on the ferry", "negated": "{c} is not on the ferry"}\n```'],
        ("action", "board"): ["Here is the description.\n```\ntext: board {car} onto the ferry at {loc}.\n"
                              "indefinite: \"board a car A onto the ferry at a location B\"\n- ?car: the car that "
                              "drives onto the ferry\n- ?loc: the location where the car and the ferry are\n```"],
        ("intro", ""): ["Here is an introduction:\n\"" + data["intro"] + "\""],
    }
    llm = ScriptedLLM(responder(data, wrapped))
    templates = generate_templates(ferry(), llm)
    assert templates.report.repairs == [] and templates.fallbacks == []
    assert templates.predicates["at"].text == "{c} is at {l}"
    assert templates.predicates["on"].negated == "{c} is not on the ferry"
    board = templates.actions["board"]
    assert (board.text, board.indefinite) == ("board {car} onto the ferry at {loc}",
                                              "board a car A onto the ferry at a location B")
    assert board.variables == data["actions"]["board"]["variables"]
    assert templates.intro == data["intro"]


def test_parse_answer_is_lenient():
    assert parse_answer("TEXT:\n  {x} is clear\nNegation: {x} is not clear.") == {
        "text": "{x} is clear", "negated": "{x} is not clear"}
    assert parse_answer("text: a\ntext: b") == {"text": "b"}  # the last answer wins (e.g. after a correction)
    got = parse_answer('{"text": "go to {to}", "indefinite": "go to A", "variables": {"?to": "the goal"}}', ["to"])
    assert got == {"text": "go to {to}", "indefinite": "go to A", "variables": {"to": "the goal"}}
    assert parse_answer("text: go to {to}\nto: where I go", ["to"])["variables"] == {"to": "where I go"}
    assert parse_answer("") == {} and parse_answer("I am not sure what this means.") == {}
    thought = "<think>\ntext: {x} is on\nHmm, the table is missing.\n</think>\ntext: {x} is on the table"
    assert parse_answer(thought) == {"text": "{x} is on the table"}
    assert parse_answer("text: go to {to}\n?to (A): where I go", ["to"])["variables"] == {"to": "where I go"}


def test_placeholder_spellings_are_normalised():
    params = ["car", "loc"]
    assert normalize_placeholders("board ?car at {?loc}", params) == "board {car} at {loc}"
    assert normalize_placeholders("board {{car}} at { LOC }", params) == "board {car} at {loc}"
    assert normalize_placeholders("is it ?here", params) == "is it ?here"
    llm = ScriptedLLM(responder(curated("ferry"), {("predicate", "at"): ["text: ?c is at ?l\nnegated: {C} is not "
                                                                          "at {L}"]}))
    templates = generate_templates(ferry(), llm)
    assert (templates.predicates["at"].text, templates.predicates["at"].negated) == ("{c} is at {l}",
                                                                                     "{c} is not at {l}")
    assert templates.report.repairs == []


# ---- repair turns and fallbacks -------------------------------------------------------------------------------------
def test_wrong_placeholder_count_is_repaired_in_one_turn():
    data = curated("ferry")
    wrong = "text: board {car} onto the ferry\nindefinite: board a car A onto the ferry\n?car: the car"
    llm = ScriptedLLM(responder(data, {("action", "board"): [wrong, answer_from(data, "action", "board")]}))
    events = []
    templates = generate_templates(ferry(), llm, on_progress=events.append)

    calls = calls_about(llm, "action", "board")
    assert len(calls) == 2 and sum(is_repair(c["messages"]) for c in llm.calls) == 1
    repair = calls[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": wrong}
    message = repair[-1]["content"]
    assert "the text must mention {car} and {loc}; it mentions only {car}" in message
    assert "it does not mention B" in message and "'?loc: ...'" in message
    assert repair[:-2] == calls[0]["messages"]  # the repair continues the same conversation
    assert templates.actions["board"].text == data["actions"]["board"]["text"]
    assert templates.report.repairs == ["action board"] and templates.report.repaired == ["action board"]
    assert templates.fallbacks == []
    assert [e.outcome for e in events if e.name == "board"] == ["repaired"]


def test_malformed_answer_gets_a_repair_turn():
    data = curated("ferry")
    llm = ScriptedLLM(responder(data, {("predicate", "at"): ["I think a car is somewhere.",
                                                            answer_from(data, "predicate", "at")]}))
    templates = generate_templates(ferry(), llm)
    repair = calls_about(llm, "predicate", "at")[1]["messages"][-1]["content"]
    assert "the answer has no line 'text: ...'" in repair and "the answer has no line 'negated: ...'" in repair
    assert "text: <the fact when it holds>" in repair  # the format is restated
    assert templates.predicates["at"].text == "{c} is at {l}" and templates.fallbacks == []


def test_empty_answers_fall_back_to_the_rule_based_template():
    domain = ferry()
    llm = ScriptedLLM(responder(curated("ferry"), {("action", "board"): [""]}))
    events = []
    templates = generate_templates(domain, llm, on_progress=events.append)
    calls = calls_about(llm, "action", "board")
    assert len(calls) == 2
    assert calls[1]["messages"][-2] == {"role": "assistant", "content": "(empty answer)"}
    assert "the answer was empty" in calls[1]["messages"][-1]["content"]
    rule = rule_templates(domain).actions["board"]
    board = templates.actions["board"]
    assert (board.text, board.indefinite, board.variables) == (rule.text, rule.indefinite, rule.variables)
    assert [f.label for f in templates.fallbacks] == ["action board"]
    assert templates.fallbacks[0].reason == "the answer was empty"
    assert [e.outcome for e in events if e.name == "board"] == ["fallback"]


def test_still_wrong_after_the_repair_turn_falls_back_and_is_recorded(tmp_path):
    domain = ferry()
    llm = ScriptedLLM(responder(curated("ferry"), {("predicate", "at"): ["text: {c} is parked\n"
                                                                          "negated: {c} is not parked"]}))
    templates = generate_templates(domain, llm)
    assert len(calls_about(llm, "predicate", "at")) == 2
    assert sum(is_repair(c["messages"]) for c in llm.calls) == 1
    rule = rule_templates(domain).predicates["at"]
    assert (templates.predicates["at"].text, templates.predicates["at"].negated) == (rule.text, rule.negated)
    [fallback] = templates.fallbacks
    assert fallback.label == "predicate at" and fallback.fields == ("all",)
    assert "the text must mention {c} and {l}; it mentions only {c}" in fallback.reason
    assert templates.report.repairs == ["predicate at"] and templates.report.repaired == []
    assert templates.report.entries == len(domain.predicates) + len(domain.actions)
    # the other entries are the model's, and the result is still a valid nl.yaml
    assert templates.predicates["on"].text == "{c} is on the ferry"
    load_nl_yaml(templates.save(tmp_path / "nl.yaml"), domain)


def test_unknown_and_repeated_placeholders_are_named():
    data = curated("ferry")
    bad = "text: {c} is at {place} near {c}\nnegated: {c} is not at {l}"
    llm = ScriptedLLM(responder(data, {("predicate", "at"): [bad, answer_from(data, "predicate", "at")]}))
    generate_templates(ferry(), llm)
    message = calls_about(llm, "predicate", "at")[1]["messages"][-1]["content"]
    assert "the text uses {place}, which is not a parameter; the parameters are {c} and {l}" in message
    assert "the text mentions {c} 2 times" in message


def test_negated_text_must_differ_and_parameterless_predicates_take_no_placeholders():
    data = curated("ferry")
    llm = ScriptedLLM(responder(data, {
        ("predicate", "car"): ["text: {c} is a car\nnegated: {c} is a car", answer_from(data, "predicate", "car")],
        ("predicate", "empty-ferry"): ["text: the ferry {f} is empty\nnegated: the ferry is not empty",
                                       answer_from(data, "predicate", "empty-ferry")]}))
    templates = generate_templates(ferry(), llm)
    car = calls_about(llm, "predicate", "car")[1]["messages"][-1]["content"]
    assert "it is the same as the text" in car
    empty = calls_about(llm, "predicate", "empty-ferry")[1]["messages"][-1]["content"]
    assert "the text must not contain placeholders, there are no parameters; it uses {f}" in empty
    assert templates.report.repaired == ["predicate car", "predicate empty-ferry"]


def test_indefinite_form_must_use_the_letters():
    data = curated("ferry")
    bad = ("text: board {car} onto the ferry at {loc}\nindefinite: board {car} onto the ferry at C\n"
           "?car: the car\n?loc: the place")
    llm = ScriptedLLM(responder(data, {("action", "board"): [bad, answer_from(data, "action", "board")]}))
    generate_templates(ferry(), llm)
    message = calls_about(llm, "action", "board")[1]["messages"][-1]["content"]
    assert "the indefinite form must use the letters A and B instead of placeholders; it uses {car}" in message
    assert "it does not mention A and B" in message
    assert "the indefinite form mentions C, but the action has only 2 parameters (A and B)" in message


def test_missing_indefinite_is_derived_and_missing_descriptions_come_from_the_rules():
    domain = ferry()
    answer = "text: board car {car} at {loc}\n?car: the car that boards"
    llm = ScriptedLLM(responder(curated("ferry"), {("action", "board"): [answer]}))
    events = []
    templates = generate_templates(domain, llm, on_progress=events.append)
    board = templates.actions["board"]
    assert board.text == "board car {car} at {loc}" and board.indefinite == "board car A at B"
    assert board.variables == {"car": "the car that boards",
                               "loc": rule_templates(domain).actions["board"].variables["loc"]}
    [fallback] = templates.fallbacks
    assert fallback.fields == ("variables",) and "'?loc: ...' is missing" in fallback.reason
    assert [e.outcome for e in events if e.name == "board"] == ["filled"]


def test_a_bad_intro_falls_back_to_the_rules():
    domain = ferry()
    llm = ScriptedLLM(responder(curated("ferry"), {("intro", ""): ["intro: I move {c} around"]}))
    templates = generate_templates(domain, llm)
    assert templates.intro == rule_templates(domain).intro
    assert [f.label for f in templates.fallbacks] == ["intro ferry"]
    assert templates.report.calls == len(llm.calls)  # no repair turn for the intro


def test_llm_errors_are_not_swallowed():
    llm = ScriptedLLM(["text: {x} and {y} differ\nnegated: {x} and {y} are equal"])
    with pytest.raises(LLMError, match="no scripted response left for call 2"):
        generate_templates(ferry(), llm)


# ---- examples ------------------------------------------------------------------------------------------------------
def test_custom_examples_replace_the_bundled_ones(tmp_path):
    examples = {
        "domains": {"bakery": "A baker bakes loaves in one oven."},
        "predicates": [{"domain": "bakery", "name": "baked", "parameters": {"b": "loaf"}, "used_by": "bake",
                        "text": "loaf {b} is baked", "negated": "loaf {b} is raw"}],
        "actions": [{"domain": "bakery", "name": "bake", "parameters": {"b": "loaf"}, "requires": ["the oven is hot"],
                     "effects": ["loaf A is baked"], "text": "bake loaf {b}", "indefinite": "bake a loaf A",
                     "variables": {"b": "the loaf to bake"}}],
    }
    path = tmp_path / "examples.yaml"
    path.write_text(yaml.safe_dump(examples), encoding="utf-8")
    llm = ScriptedLLM(responder(curated("ferry")))
    generate_templates(ferry(), llm, examples=path)
    first = llm.calls[0]["messages"]
    assert len(first) == 4 and first[1]["content"].startswith("Domain: bakery")
    assert first[2] == {"role": "assistant", "content": "text: loaf {b} is baked\nnegated: loaf {b} is raw",
                        "cache": True}
    action = calls_about(llm, "action", "sail")[0]["messages"]
    assert "?b: the loaf to bake" in action[2]["content"] and "- the oven is hot" in action[1]["content"]


def test_bundled_examples_are_well_formed():
    examples = load_examples()
    assert len(examples["predicates"]) >= 8 and len(examples["actions"]) >= 4
    for item in examples["predicates"]:
        params = sorted(item["parameters"])
        assert sorted(re.findall(r"\{(\w+)\}", item["text"])) == params
        assert sorted(re.findall(r"\{(\w+)\}", item["negated"])) == params
    for item in examples["actions"]:
        assert sorted(re.findall(r"\{(\w+)\}", item["text"])) == sorted(item["parameters"])
        assert sorted(item.get("variables") or {}) == sorted(item["parameters"])


def test_bad_examples_are_a_clear_error(tmp_path):
    with pytest.raises(NLGenerateError, match="predicates example 1 needs the keys name, text, negated"):
        load_examples({"predicates": [{"name": "on", "text": "{x} is on {y}"}]})
    with pytest.raises(NLGenerateError, match="cannot read the examples file"):
        load_examples(tmp_path / "missing.yaml")


# ---- apb nl generate ----------------------------------------------------------------------------------------------
def nl_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["nl", *argv])


def test_cli_generates_an_nl_yaml_from_a_scripted_llm(tmp_path, capsys):
    out = tmp_path / "nl.yaml"
    args = nl_args("generate", str(domain_file("ferry")), "--llm", f"scripted:{DATA / 'ferry_responses.txt'}",
                   "--out", str(out))
    assert args.func is cmd_nl_generate
    assert cmd_nl_generate(args) == 0
    templates = load_nl_yaml(out, ferry())
    assert templates.actions["board"].text == "drive car {car} onto the ferry at {loc}"
    assert templates.predicates["at-ferry"].text == "the ferry is docked at {l}"
    assert templates.intro.startswith("I run a ferry")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Written by `apb nl generate` with scripted:") and "format: 1" in text
    captured = capsys.readouterr()
    assert "predicate 4/7 at-ferry: ok" in captured.err and "action 3/3 debark: ok" in captured.err
    assert f"Wrote {out}" in captured.out and "LLM calls: 11" in captured.out
    assert "rule-based fallbacks: 0" in captured.out and "cost: $0.0000" in captured.out


def test_cli_reports_fallbacks(tmp_path, capsys):
    script = (DATA / "ferry_responses.txt").read_text(encoding="utf-8").split("\n---\n")
    script[4] = "text: car {c} is parked\nnegated: car {c} is not parked"  # predicate at, wrong twice
    script.insert(5, script[4])
    path = tmp_path / "script.yaml"
    path.write_text(yaml.safe_dump(script), encoding="utf-8")
    out = tmp_path / "nl.yaml"
    assert cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", f"scripted:{path}",
                                   "--out", str(out))) == 0
    captured = capsys.readouterr()
    assert "predicate 5/7 at: fallback" in captured.err
    assert "LLM calls: 12" in captured.out and "rule-based fallbacks: 1" in captured.out
    assert "predicate at: the text must mention {c} and {l}; it mentions only {c}" in captured.out
    assert load_nl_yaml(out, ferry()).predicates["at"].text == rule_templates(ferry()).predicates["at"].text
    assert "# Rule-based wording (the LLM's answers did not fit):\n#   predicate at\n" in out.read_text()


def test_cli_refuses_to_overwrite_without_force(tmp_path, capsys):
    out = tmp_path / "nl.yaml"
    out.write_text("keep me\n", encoding="utf-8")
    script = f"scripted:{DATA / 'ferry_responses.txt'}"
    with pytest.raises(NLGenerateError, match="exists; pass --force to overwrite it") as info:
        cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", script, "--out", str(out)))
    assert isinstance(info.value, ApbError)  # the main CLI prints it and exits with code 2
    assert out.read_text(encoding="utf-8") == "keep me\n"
    assert capsys.readouterr().err == ""  # refused before any LLM call
    assert cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", script, "--out", str(out),
                                   "--force")) == 0
    load_nl_yaml(out, ferry())


def test_cli_input_errors_are_apb_errors(tmp_path):
    script = f"scripted:{DATA / 'ferry_responses.txt'}"
    with pytest.raises(NLGenerateError, match="does not exist"):
        cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", script,
                                "--out", str(tmp_path / "missing" / "nl.yaml")))
    with pytest.raises(ApbError, match="file not found"):
        cmd_nl_generate(nl_args("generate", str(tmp_path / "nope.pddl"), "--llm", script,
                                "--out", str(tmp_path / "nl.yaml")))
    with pytest.raises(ApbError):
        cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", "scripted:" + str(tmp_path / "x"),
                                "--out", str(tmp_path / "nl.yaml")))
    assert not (tmp_path / "nl.yaml").exists()
    with pytest.raises(SystemExit) as info:
        nl_args("generate", str(domain_file("ferry")), "--out", "nl.yaml")  # --llm is required
    assert info.value.code == 2


@pytest.mark.parametrize("name", domain_names())
def test_every_bundled_domain_goes_through(name):
    """Answers in the rules' wording pass the checks for every bundled domain (constants, types, arities)."""
    domain = load_domain(domain_file(name))
    data = rule_data(domain)
    llm = ScriptedLLM(responder(data))
    templates = generate_templates(domain, llm)
    assert templates.fallbacks == [] and templates.report.repairs == []
    assert missing_entries(templates, domain) == []
    assert "{" not in DomainText(domain, templates).description()


def test_cli_writes_nothing_when_the_llm_fails(tmp_path, monkeypatch):
    """Replay-only cache with nothing recorded: the first call fails, no file is written, no network is used."""
    monkeypatch.setenv("APB_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "nl.yaml"
    with pytest.raises(LLMError):
        cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", "openai:gpt-4o-mini",
                                "--cache", "replay", "--out", str(out)))
    assert not out.exists()

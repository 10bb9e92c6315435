"""`apb nl generate` checks that answers are about their entry: an off-topic intro or template gets a repair turn,
then falls back to rule wording, and the summary counts both (scripted LLMs). The topic check must not reject
good wording: the curated nl.yaml files, the rule-based wording and AutoPlanBench's descriptions all pass."""

from __future__ import annotations

import warnings

import pytest
import yaml
from conftest import dataset_dir, dataset_params, reference_domain
from test_nl_generator import DATA, calls_about, curated, ferry, nl_args, responder

from apb.domains.registry import domain_file, domain_names
from apb.engine import PDDLWarning, load_domain
from apb.llm.scripted import ScriptedLLM
from apb.nl import load_nl_yaml
from apb.nl.cli import cmd_nl_generate
from apb.nl.generator import generate_templates
from apb.nl.generator.checks import Topic, mentions
from apb.nl.importers import from_autoplanbench
from apb.nl.nl_yaml import NLTemplates
from apb.nl.rules import rule_templates

COFFEE = ("intro: I run a small coffee bar where I brew drinks and serve them to the customers waiting at the "
          "tables")
GOOD_INTRO = "intro: I sail a ferry that carries one car at a time between locations"


def topic(domain) -> Topic:
    return Topic(domain, rule_templates(domain))


def off_topic_texts(domain, templates: NLTemplates) -> list[str]:
    """The entries (and intro) of `templates` that the topic check rejects."""
    check = topic(domain)
    bad = [f"predicate {n}: {p.text}" for n, p in templates.predicates.items()
           if check.entry_issue("predicate", n, p.text)]
    bad += [f"action {n}: {a.text}" for n, a in templates.actions.items() if check.entry_issue("action", n, a.text)]
    if templates.intro and check.intro_issue(templates.intro):
        bad.append(f"intro: {templates.intro}")
    return bad


# ---- what "mentions" means ------------------------------------------------------------------------------------------
def test_entry_words_come_from_the_name_its_types_and_the_rule_wording():
    check = topic(ferry())
    assert {"ferry", "location"} <= set(check.entry_words("predicate", "at-ferry").values())
    assert "equal" in check.entry_words("predicate", "not-eq").values()  # 'eq' is read as 'equal'
    assert "on" in check.entry_words("predicate", "on").values()  # a name of prepositions only gives them
    assert "at" not in check.entry_words("predicate", "at-ferry").values()  # else 'at' would pass anything
    assert {"sail", "location"} <= set(check.entry_words("action", "sail").values())
    assert {"ferry", "car", "location", "board", "sail", "debark"} <= set(check.domain_words().values())


def test_inflections_and_compounds_match():
    assert mentions("the ferries are docked at {l}", {"ferry": "ferry"})
    assert mentions("I am boarding {c}", {"board": "board"})
    assert mentions("I calibrated {i}", {"calibration": "calibration"})
    assert mentions("I stack blocks on the table", {"blocksworld": "blocksworld"})
    assert not mentions("the espresso machine is warm at {l}", {"ferry": "ferry", "location": "location"})
    assert mentions("{x} is at {y}", {"at": "at"})  # an entry's preposition matches itself


def test_an_off_topic_intro_is_rejected():
    check = topic(ferry())
    issue = check.intro_issue(COFFEE.removeprefix("intro: "))
    assert issue is not None and issue.part == "topic"
    assert "not about the ferry domain" in issue.message and "ferry" in issue.message
    assert check.intro_issue(GOOD_INTRO.removeprefix("intro: ")) is None


# ---- the run --------------------------------------------------------------------------------------------------------
def test_an_off_topic_intro_is_retried_and_a_good_retry_kept():
    llm = ScriptedLLM(responder(curated("ferry"), {("intro", ""): [COFFEE, GOOD_INTRO]}))
    events = []
    templates = generate_templates(ferry(), llm, on_progress=events.append)
    assert templates.intro == GOOD_INTRO.removeprefix("intro: ") + "."
    assert templates.fallbacks == []
    assert templates.report.off_topic == ["intro ferry"]
    calls = calls_about(llm, "intro", "")
    assert len(calls) == 2
    repair = calls[1]["messages"][-1]["content"]
    assert repair.startswith("That answer does not work: the intro is not about the ferry domain")
    assert repair.rstrip().endswith("intro: <the sentence>")
    assert calls[1]["messages"][-2] == {"role": "assistant", "content": COFFEE}
    assert [e.outcome for e in events if e.stage == "intro"] == ["repaired"]


def test_off_topic_templates_are_retried_then_fall_back_to_rule_wording():
    domain = ferry()
    coffee_sail = ("text: brew coffee from {from} to {to}\nindefinite: brew coffee from A to B\n"
                   "?from: the cup\n?to: the saucer")
    overrides = {("predicate", "at-ferry"): ["text: the espresso machine is warm at {l}\n"
                                             "negated: the espresso machine is cold at {l}",
                                             "text: the ferry is docked at {l}\nnegated: the ferry is not at {l}"],
                 ("action", "sail"): [coffee_sail]}
    llm = ScriptedLLM(responder(curated("ferry"), overrides))
    templates = generate_templates(domain, llm)
    assert templates.predicates["at-ferry"].text == "the ferry is docked at {l}"
    rule = rule_templates(domain).actions["sail"]
    assert (templates.actions["sail"].text, templates.actions["sail"].indefinite) == (rule.text, rule.indefinite)
    assert [f.label for f in templates.fallbacks] == ["action sail"]
    assert templates.fallbacks[0].reason.startswith("the text is not about the action sail: it uses none of the "
                                                    "words sail")
    assert templates.report.off_topic == ["predicate at-ferry", "action sail"]
    assert templates.report.repaired == ["predicate at-ferry"]
    assert len(calls_about(llm, "action", "sail")) == 2


def cli_run(tmp_path, script: list[str], capsys) -> tuple[str, str]:
    path = tmp_path / "script.yaml"
    path.write_text(yaml.safe_dump(script), encoding="utf-8")
    out = tmp_path / "nl.yaml"
    assert cmd_nl_generate(nl_args("generate", str(domain_file("ferry")), "--llm", f"scripted:{path}",
                                   "--out", str(out))) == 0
    return capsys.readouterr().out, out.read_text(encoding="utf-8")


def script_lines() -> list[str]:
    return (DATA / "ferry_responses.txt").read_text(encoding="utf-8").split("\n---\n")


def test_cli_summary_counts_an_intro_fixed_by_its_retry(tmp_path, capsys):
    script = script_lines()
    good = script[-1]
    script[-1:] = [COFFEE, good]
    printed, _ = cli_run(tmp_path, script, capsys)
    assert "rule-based fallbacks: 0 of 10 entries" in printed and "and the intro" not in printed
    assert ("off-topic answers (not about their entry or domain): 1 (intro ferry); 1 fixed by the repair turn, "
            "0 fell back to rule wording") in printed
    assert "LLM calls: 12" in printed


def test_cli_summary_counts_an_intro_that_stays_off_topic(tmp_path, capsys):
    script = script_lines()
    script[-1:] = [COFFEE, COFFEE]
    printed, written = cli_run(tmp_path, script, capsys)
    assert "rule-based fallbacks: 0 of 10 entries, and the intro" in printed
    assert "1 (intro ferry); 0 fixed by the repair turn, 1 fell back to rule wording" in printed
    assert "intro ferry: the intro is not about the ferry domain" in printed
    assert load_nl_yaml_intro(written) == rule_templates(ferry()).intro
    assert "coffee" not in written


def load_nl_yaml_intro(text: str) -> str:
    return yaml.safe_load(text)["intro"]


def test_cli_summary_counts_template_fallbacks(tmp_path, capsys):
    script = script_lines()
    assert script[3].endswith("negated: the ferry is not docked at {l}")  # at-ferry, the 4th predicate
    off = "text: the barista is warm at {l}\nnegated: the barista is cold at {l}"
    script[3:4] = [off, off]
    printed, _ = cli_run(tmp_path, script, capsys)
    assert "rule-based fallbacks: 1 of 10 entries" in printed
    assert "1 (predicate at-ferry); 0 fixed by the repair turn, 1 fell back to rule wording" in printed
    assert load_nl_yaml(tmp_path / "nl.yaml", ferry()).predicates["at-ferry"].text == \
        rule_templates(ferry()).predicates["at-ferry"].text


# ---- no false alarms on good wording --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", domain_names())
def test_curated_and_rule_wording_of_bundled_domains_is_on_topic(name):
    domain = load_domain(domain_file(name))
    assert off_topic_texts(domain, rule_templates(domain)) == []
    curated_file = domain_file(name).with_name("nl.yaml")
    if curated_file.is_file():
        assert off_topic_texts(domain, load_nl_yaml(curated_file, domain)) == []


@pytest.mark.parametrize("dataset", dataset_params())
def test_autoplanbench_descriptions_and_rule_wording_are_on_topic(dataset):
    domain = reference_domain(dataset)
    assert off_topic_texts(domain, rule_templates(domain)) == []
    for path in sorted(dataset_dir(dataset).glob("domain_description_seed*.json")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PDDLWarning)
            templates = from_autoplanbench(path, domain)
        assert off_topic_texts(domain, templates) == [], path.name

"""Importers of NL descriptions (apb.nl.importers): AutoPlanBench domain_description*.json (all reference domains)
and PDDLGym-style YAML (tests/data/nl), with negations derived, gaps filled by the rule-based generator, and
malformed files reported with their file and line."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from conftest import dataset_dir, dataset_kind, dataset_params, reference_domain, smallest_and_largest_orig_problem

from apb.domains.registry import domain_file, problem_files
from apb.engine import PDDLWarning, load_domain, load_task
from apb.nl import DomainText, NLTemplateError, TaskText, load_templates
from apb.nl.importers import add_subject, from_autoplanbench, from_pddlgym_yaml, negate
from apb.nl.rules import rule_templates
from apb.nl.template_builder import complete, missing_entries

DATA = Path(__file__).parent / "data" / "nl"


def bundled(name: str):
    return load_domain(domain_file(name))


def apb_file(dataset: str) -> Path:
    folder = dataset_dir(dataset)
    files = sorted(folder.glob("domain_description*.json"))
    assert files, f"no domain_description*.json in {folder}"
    return files[-1] if dataset_kind(dataset) != "planbench" else folder / "domain_description.json"


# ---- negation and subjects ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, negated", [
    ("{x} is clear", "{x} is not clear"),
    ("the ferry is empty", "the ferry is not empty"),
    ("{x} is not equal to {y}", "{x} is equal to {y}"),
    ("I am holding {x}", "I am not holding {x}"),
    ("I have chips", "I do not have chips"),
    ("{r} has {c}", "{r} does not have {c}"),
    ("{x} has been visited", "{x} has not been visited"),
    ("{r} can traverse from {x} to {y}", "{r} cannot traverse from {x} to {y}"),
    ("{c} supports {m}", "{c} does not support {m}"),
    ("{r} carries {o}", "{r} does not carry {o}"),
    ("{k} matches {l}", "{k} does not match {l}"),
    ("there is a bomb at {x}", "there is no bomb at {x}"),
    ("there is no bomb at {x}", "there is a bomb at {x}"),
    ("there are no rocks at {x}", "there are some rocks at {x}"),
    ("{x} has nothing on top of it", "it is not the case that {x} has nothing on top of it"),
    ("the ferry carries no car", "it is not the case that the ferry carries no car"),
    ("power is available for {s}", "power is not available for {s}"),
    ("{w} communicated soil data", "it is not the case that {w} communicated soil data"),
])
def test_negate(text, negated):
    assert negate(text) == negated


def test_add_subject():
    assert add_subject("holding {x}") == "I am holding {x}"
    assert add_subject("holding a bomb") == "I am holding a bomb"
    assert add_subject("have chips") == "I have chips"
    assert add_subject("{x} is clear") == "{x} is clear"
    assert add_subject("the hand is empty") == "the hand is empty"
    assert add_subject("nothing is on {x}") == "nothing is on {x}"


# ---- AutoPlanBench ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dataset", dataset_params())
def test_autoplanbench_descriptions_import_complete_and_render(dataset):
    path = apb_file(dataset)
    domain = reference_domain(dataset)
    t = from_autoplanbench(path, domain)
    assert t.source == f"autoplanbench:{path}" and t.file == str(path)
    data = json.loads(path.read_text())
    imported = data.get("predicate_nl_templates") or data.get("predicate_mappings")
    # every predicate with a text that fits is imported; '=' and '!=' are skipped with a reason
    assert all(name in t.predicates for name in imported if name in domain.predicates and imported[name])
    assert set(t.actions) == {a.name for a in domain.actions}
    if "=" in imported:
        assert "predicate =: equality is built in" in t.skipped
    for p in t.predicates.values():
        assert p.text != p.negated and not re.search(r"\{\?", p.text + p.negated)
    for a in t.actions.values():
        assert "{?" not in a.text and "{" not in a.indefinite
    complete(t, rule_templates(domain))
    assert missing_entries(t, domain) == []
    description = DomainText(domain, t).description()
    assert "{" not in description and "I can only" in description
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        task = load_task(domain, smallest_and_largest_orig_problem(dataset)[0])
    text = TaskText(task, t)
    problem = text.problem_description()
    assert "{" not in problem and problem.startswith("I have the following objects")
    assert all("{" not in text.action(a) for a in task.applicable(task.initial_state))


def test_autoplanbench_ferry_wording(reference):
    domain = reference_domain("ferry")
    t = from_autoplanbench(reference / "ferry" / "domain_description_seed1.json", domain)
    assert t.actions["sail"].text == "sail from location {from} to location {to}"
    assert t.actions["sail"].indefinite == "sail from a location A to a location B"
    assert t.actions["board"].indefinite == "board a car A at a location B"
    assert (t.predicates["at"].text, t.predicates["at"].negated) == ("{c} is at {l}", "{c} is not at {l}")
    assert t.predicates["not-eq"].negated == "{x} is equal to {y}"
    assert t.predicates["empty-ferry"].negated == "the ferry is not empty"
    assert sorted(t.skipped) == ["predicate !=: equality is built in", "predicate =: equality is built in"]
    description = DomainText(domain, complete(t, rule_templates(domain))).description()
    assert "- sail from a location A to a location B" in description


def test_autoplanbench_indefinite_letters_follow_parameter_order(reference):
    domain = reference_domain("rovers")
    t = from_autoplanbench(reference / "rovers" / "domain_description_seed1.json", domain)
    # (sample_soil ?x ?s ?p): the text names ?p first, which is still C
    assert t.actions["sample_soil"].indefinite == "sample soil at a waypoint C using a rover A and store in a store B"
    assert t.predicates["supports"].negated == "{c} does not support {m}"
    assert t.predicates["communicated_soil_data"].negated == \
        "it is not the case that {w} communicated soil data"


def test_autoplanbench_subjectless_texts_get_a_subject(reference):
    t = from_autoplanbench(reference / "blocksworld" / "domain_description_seed1.json",
                           reference_domain("blocksworld"))
    assert (t.predicates["holding"].text, t.predicates["holding"].negated) == \
        ("I am holding {x}", "I am not holding {x}")
    t = from_autoplanbench(reference / "movie-complex" / "domain_description_seed1.json",
                           reference_domain("movie-complex"))
    assert (t.predicates["have-chips"].text, t.predicates["have-chips"].negated) == \
        ("I have chips", "I do not have chips")


def test_autoplanbench_old_positional_format(reference):
    folder = reference / "logistics_planbench"
    t = from_autoplanbench(folder / "domain_description.json", reference_domain("logistics_planbench"))
    assert t.actions["drive-truck"].text == "drive {truck} from {loc-from} to {loc-to} in {city}"
    assert t.actions["drive-truck"].indefinite == "drive A from B to C in D"
    assert t.intro.startswith("I have to plan logistics") and "Here are" not in t.intro
    assert "predicate truck: the text is not a non-empty string" in t.skipped


def test_autoplanbench_entries_that_do_not_fit_are_skipped():
    domain = bundled("blocksworld")
    t = from_autoplanbench(DATA / "apb_partial.json", domain)
    assert set(t.predicates) == {"clear", "handempty", "holding"}
    assert set(t.actions) == {"stack"}
    assert t.actions["stack"].indefinite == "stack a block A onto a block B"
    assert t.predicates["holding"].text == "I am holding {x}"
    reasons = "\n".join(t.skipped)
    for expected in ("predicate levitating: not in domain", "predicate =: equality is built in",
                     "action teleport: not in domain", "predicate on: placeholders", "action pick-up: placeholders"):
        assert expected in reasons
    assert missing_entries(complete(t, rule_templates(domain)), domain) == []


@pytest.mark.parametrize("name, message", [
    ("bad_json.json", r"bad_json\.json:4: invalid JSON"),
    ("not_object.json", r"not_object\.json: an AutoPlanBench description must be a JSON object"),
])
def test_malformed_autoplanbench_files_name_the_file(name, message):
    with pytest.raises(NLTemplateError, match=message) as info:
        from_autoplanbench(DATA / name, bundled("blocksworld"))
    assert info.value.file == str(DATA / name)


def test_autoplanbench_file_without_templates_is_an_error(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"type_hierarchy": []}')
    with pytest.raises(NLTemplateError, match=r"other\.json: not an AutoPlanBench description"):
        from_autoplanbench(path, bundled("ferry"))
    path.write_text('{"predicate_nl_templates": ["{?x} is clear"]}')
    with pytest.raises(NLTemplateError, match="predicate_nl_templates must be a JSON object"):
        from_autoplanbench(path, bundled("blocksworld"))


def test_json_descriptions_are_found_by_load_templates(tmp_path, reference):
    domain = reference_domain("ferry")
    t = load_templates(domain, reference / "ferry" / "domain_description_seed1.json")
    assert t.source.startswith("autoplanbench:") and missing_entries(t, domain) == []
    assert t.actions["debark"].text == "debark car {car} at location {loc}"


# ---- PDDLGym-style YAML ------------------------------------------------------------------------------------------
def test_pddlgym_blocksworld():
    domain = bundled("blocksworld")
    path = DATA / "blocksworld_pddlgym.yaml"
    t = from_pddlgym_yaml(path, domain)
    assert t.source == f"pddlgym:{path}" and t.skipped == []
    assert t.intro == "I am stacking toy blocks on a table with one hand."
    assert t.types["object"].singular == "block"
    # `on:` unquoted is still the predicate on; ?x, {x} and {?x} all work
    assert (t.predicates["on"].text, t.predicates["on"].negated) == \
        ("{x} is on top of {y}", "{x} is not on top of {y}")
    assert t.predicates["ontable"].text == "{x} is on the table"
    assert (t.predicates["clear"].text, t.predicates["clear"].negated) == \
        ("{x} has nothing on top of it", "it is not the case that {x} has nothing on top of it")
    assert t.predicates["holding"].negated == "I am not holding {x}"
    stack = t.actions["stack"]
    assert stack.text == "stack {ob} on top of {underob}"
    assert stack.indefinite == "stack a block A on top of a block B"
    assert stack.variables == {"ob": "the block to stack", "underob": "the block to put it on"}
    assert t.actions["put-down"].variables == {"ob": "the block in my hand"}
    assert t.actions["unstack"].indefinite == "take a block A off a block B"
    assert missing_entries(t, domain) == []
    description = DomainText(domain, t).description()
    assert description.startswith("I am stacking toy blocks")
    assert "I can only stack a block A on top of a block B if B has nothing on top of it and I am holding A." \
        in description
    assert "Once I stack a block A on top of a block B, it is not the case that B has nothing on top of it " \
        "anymore" in description
    task = load_task(domain, problem_files("blocksworld", "test")[0])
    assert "{" not in TaskText(task, t).problem_description()


def test_pddlgym_ferry_maps_other_variable_names_by_position():
    domain = bundled("ferry")
    t = from_pddlgym_yaml(DATA / "ferry_pddlgym.yaml", domain)
    assert t.predicates["at-ferry"].text == "the ferry is docked at {l}"
    assert t.predicates["at"].text == "{c} is parked at {l}"
    assert t.predicates["not-eq"].text == "{x} and {y} are different places"
    assert t.predicates["empty-ferry"].negated == "the ferry carries a car"
    assert t.actions["sail"].text == "sail the ferry from {from} to {to}"
    assert t.actions["sail"].indefinite == "sail the ferry from A to B"
    assert t.actions["board"].text == "drive car {car} onto the ferry at {loc}"
    assert t.actions["board"].variables == {"car": "the car that boards", "loc": "the location where it boards"}
    assert t.actions["debark"].text == "drive car {car} off the ferry at {loc}"
    assert sorted(t.skipped) == ["predicate sunny: not in domain ferry", "skill fly: not an action of domain ferry"]
    t = load_templates(domain, DATA / "ferry_pddlgym.yaml")  # completed from the rules
    assert missing_entries(t, domain) == [] and t.predicates["location"].text == "{l} is a location"
    task = load_task(domain, problem_files("ferry", "test")[0])
    sail = next(a for a in task.applicable(task.initial_state) if a.schema.name == "sail")
    assert TaskText(task, t).action(sail) == f"sail the ferry from {sail.args[0]} to {sail.args[1]}"


def test_pddlgym_other_domain_name_is_noted(tmp_path):
    path = tmp_path / "desc.yml"
    path.write_text("domain: baking\npredicates:\n  clear: '?x is free'\n")
    t = from_pddlgym_yaml(path, bundled("blocksworld"))
    assert t.skipped == ["domain: the file is for 'baking', the domain is 'blocksworld-4ops'"]
    assert t.predicates["clear"].negated == "{x} is not free"


@pytest.mark.parametrize("name, line, message", [
    ("bad_yaml.yaml", 3, "invalid YAML"),
    ("not_mapping.yaml", None, "must be a mapping with predicates and skills"),
    ("bad_text.yaml", 3, "predicate 'holding': the description must be a non-empty string"),
    ("bad_placeholder.yaml", 3, r"predicate 'on': the placeholders of .* do not match the parameters \(\?x, \?y\)"),
    ("bad_variables.yaml", 4, "variables must map variable names to descriptions"),
    ("unknown_key.yaml", 3, "unknown key 'objects'"),
])
def test_malformed_pddlgym_files_name_file_and_line(name, line, message):
    path = DATA / name
    with pytest.raises(NLTemplateError, match=message) as info:
        from_pddlgym_yaml(path, bundled("blocksworld"))
    assert info.value.file == str(path) and info.value.line == line
    where = f"{path}:{line}: " if line else f"{path}: "
    assert str(info.value).startswith(where)


def test_pddlgym_skill_variables_that_do_not_match(tmp_path):
    path = tmp_path / "desc.yaml"
    path.write_text("skills:\n  stack:\n    description: stack ?a on ?b\n    variables:\n      ?a: the block\n")
    with pytest.raises(NLTemplateError, match=r"desc\.yaml:2: skill 'stack': the placeholders"):
        from_pddlgym_yaml(path, bundled("blocksworld"))
    path.write_text("skills:\n  stack:\n    description: stack ?ob on ?underob\n    variables:\n"
                    "      ?ob: the block\n      ?top: one\n      ?bottom: two\n")
    with pytest.raises(NLTemplateError, match=r"desc\.yaml:4: skill 'stack': variables \?ob, \?top, \?bottom"):
        from_pddlgym_yaml(path, bundled("blocksworld"))

"""The NL layer: nl.yaml loading and errors, English helpers, rendering (golden texts), curated-text review
checks for every bundled domain, and the template parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apb.domains.registry import domain_file, domain_names, problem_files
from apb.engine import load_domain, load_task
from apb.envs.text_env import PDDLTextEnv
from apb.nl import DomainText, NLTemplateError, TaskText, load_nl_yaml, load_templates
from apb.nl.grammar import article, join_and, letter, plural, words
from apb.nl.nl_yaml import Template
from apb.nl.parse import TemplateParser
from apb.nl.template_builder import missing_entries

GOLDEN = Path(__file__).parent / "data" / "nl" / "golden"


def curated(name: str):
    domain = load_domain(domain_file(name))
    return domain, load_nl_yaml(domain_file(name).parent / "nl.yaml", domain)


# ---- English helpers -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("word, expected", [("block", "a"), ("airplane", "an"), ("instrument", "an"),
                                            ("hour", "an"), ("unit", "a"), ("A", "an"), ("B", "a"), ("F", "an"),
                                            ("objective", "an"), ("8", "an"), ("uniform", "a"), ("X", "an")])
def test_article(word, expected):
    assert article(word) == expected


def test_plural_join_words_letter():
    assert [plural(w) for w in ("box", "city", "day", "truck", "gold mine", "person")] == \
        ["boxes", "cities", "days", "trucks", "gold mines", "people"]
    assert join_and([]) == "" and join_and(["a"]) == "a" and join_and(["a", "b", "c"]) == "a, b and c"
    assert words("at-ferry") == ["at", "ferry"] and words("haveImage") == ["have", "image"]
    assert [letter(i) for i in (0, 1, 25, 26)] == ["A", "B", "Z", "A2"]


def test_template_fills_and_elides_a_type_word_the_name_already_has():
    t = Template("stack block {x} on top of block {y}", ("x", "y"), frozenset({"block"}))
    assert t.fill(("block_a", "b")) == "stack block_a on top of block b"
    assert t.fill(("blocky", "block-2")) == "stack block blocky on top of block-2"
    assert Template("{x} is clear", ("x",)).fill(("a",)) == "a is clear"


# ---- loading and errors ---------------------------------------------------------------------------------------
def write(tmp_path, text: str) -> Path:
    path = tmp_path / "nl.yaml"
    path.write_text(text)
    return path


def test_nl_yaml_errors_name_file_line_and_what_to_do(tmp_path):
    domain = load_domain(domain_file("blocksworld"))
    cases = [
        ("predicates:\n  clear:\n    text: {x} is clear\n", r"nl\.yaml:3: invalid YAML.*quote templates"),
        ("predicates:\n  clear:\n    text: '{y} is clear'\n    negated: '{x} is not clear'\n",
         r"nl\.yaml:3: predicate clear text '\{y\} is clear' uses \{y\}, which is not a parameter; "
         r"the parameters are \{x\}"),
        ("predicates:\n  clear:\n    text: 'it is clear'\n    negated: '{x} is not clear'\n",
         r"nl\.yaml:3: .*does not mention \{x\}"),
        ("predicates:\n  flying:\n    text: '{x} flies'\n    negated: '{x} does not fly'\n",
         r"nl\.yaml:2: predicate 'flying' is not a predicate of domain blocksworld"),
        ("predicates:\n  clear: '{x} is clear'\n", r"needs both forms"),
        ("actions:\n  stack:\n    text: 'stack {ob} on {underob}'\n    indefinite: 'stack a block A'\n",
         r"nl\.yaml:4: action stack indefinite .*does not mention B"),
        ("actions:\n  stack:\n    text: 'stack {ob} on {underob}'\n    colour: red\n", r"unknown key 'colour'"),
        ("flavour: 1\n", r"unknown key 'flavour'"),
        ("- a list\n", r"must be a mapping"),
        ("types:\n  vehicle: car\n", r"type 'vehicle' is not a type of domain"),
    ]
    for text, pattern in cases:
        with pytest.raises(NLTemplateError, match=pattern):
            load_nl_yaml(write(tmp_path, text), domain)
    with pytest.raises(NLTemplateError, match=r"missing\.yaml: description file not found"):
        load_nl_yaml(tmp_path / "missing.yaml", domain)


def test_indefinite_form_is_derived_from_types_when_missing(tmp_path):
    domain = load_domain(domain_file("depot"))
    text = "actions:\n  drive:\n    text: drive truck {x} from {y} to {z}\n"
    t = load_nl_yaml(write(tmp_path, text), domain)
    assert t.actions["drive"].indefinite == "drive a truck A from a place B to a place C"
    assert t.actions["drive"].first_person == "I drive truck {x} from {y} to {z}"


def test_partial_templates_are_completed_from_the_rule_based_generator(tmp_path):
    domain = load_domain(domain_file("ferry"))
    path = tmp_path / "partial.yaml"
    path.write_text("format: 1\npredicates:\n  at-ferry:\n    text: the ferry is at {l}\n"
                    "    negated: the ferry is not at {l}\n")
    t = load_templates(domain, path)
    assert missing_entries(t, domain) == []
    assert t.predicates["at-ferry"].text == "the ferry is at {l}"


def test_unknown_description_is_a_clear_error():
    domain = load_domain(domain_file("ferry"))
    with pytest.raises(NLTemplateError, match="unknown description 'fancy'"):
        load_templates(domain, "fancy")
    with pytest.raises(NLTemplateError, match="no such description file"):
        load_templates(domain, "nothing/here.yaml")


# ---- golden texts (reviewed by hand for grammar) ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["blocksworld", "ferry"])
def test_golden_domain_and_problem_text(name):
    env = PDDLTextEnv(name, problem=1)
    obs, info = env.reset()
    assert info["domain_description"] + "\n" == (GOLDEN / f"{name}_domain.txt").read_text()
    assert obs + "\n" == (GOLDEN / f"{name}_p01.txt").read_text()


def test_negative_preconditions_get_their_own_sentence():
    domain, t = curated("movie")
    rules = DomainText(domain, t).action_rules(t.actions["get-chips"])
    assert rules[0].startswith("I can only get") and "the counter is at zero" in rules[0]
    assert rules[1] == f"I can only {t.actions['get-chips'].indefinite} if the movie is not rewound."


def test_delete_then_add_is_not_described_as_ending():
    domain, t = curated("rovers")
    text = " ".join(DomainText(domain, t).action_rules(t.actions["communicate_soil_data"]))
    assert "not available anymore" not in text and "available" in text


def test_type_hierarchy_sentences():
    domain, t = curated("depot")
    hierarchy = DomainText(domain, t).type_hierarchy()
    assert any(s.startswith("Every depot and every distributor is a place") for s in hierarchy)


# ---- curated review checks for every bundled domain ------------------------------------------------------------
def english_texts(name: str) -> list[str]:
    domain, t = curated(name)
    task = load_task(domain_file(name), problem_files(name)[0])
    tt = TaskText(task, t)
    texts = [DomainText(domain, t).description(), tt.problem_description(), t.intro]
    texts += [tt.action(a) for a in task.actions] + [tt.first_person(a) for a in task.actions]
    texts += [tt.words.unmet(c) for a in task.actions for c in task.explain(task.initial_state, a)]
    return texts


@pytest.mark.parametrize("name", domain_names())
def test_curated_templates_cover_the_domain(name):
    domain, t = curated(name)
    assert missing_entries(t, domain) == []
    assert t.intro and t.intro.endswith(".")
    for a in t.actions.values():
        assert set(a.variables) == set(a.params), f"{name} {a.name}: describe every parameter"


@pytest.mark.parametrize("name", domain_names())
def test_curated_text_has_no_raw_pddl_names_or_article_errors(name):
    domain, _ = curated(name)
    raw = {n for n in [*domain.predicates, *(a.name for a in domain.actions)] if re.search(r"[-_]", n)}
    for text in english_texts(name):
        for word in raw:
            assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), (word, text)
        for art, nxt in re.findall(r"(?<![\w-])(a|an) ([A-Za-z]+)\b", text):
            if (nxt.isupper() and len(nxt) == 1) or nxt.islower():
                assert article(nxt) == art.lower(), f"'{art} {nxt}' in {text!r}"
        assert "{" not in text and "}" not in text and "?" not in text, text
        assert "  " not in text.replace("\n\n", "\n"), text


def test_no_role_swaps_in_known_tricky_predicates():
    _, ferry = curated("ferry")
    assert ferry.predicates["at-ferry"].text == "the ferry is at {l}"
    _, floortile = curated("floortile")
    assert floortile.predicates["up"].text.index("{x}") < floortile.predicates["up"].text.index("{y}")
    assert "above" in floortile.predicates["up"].text
    _, visitall = curated("visitall")
    assert visitall.predicates["at-robot"].text.startswith("the robot is at")


# ---- template parser --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", domain_names())
def test_every_ground_action_text_parses_back(name):
    for number in (1, 20):
        env = PDDLTextEnv(name, problem=number)
        _, info = env.reset()
        task, text = env.task, env.text
        parser = TemplateParser(env.templates, info["objects"], [s["name"] for s in info["action_schemas"]],
                                [str(a) for a in task.actions])
        for action in task.actions:
            english = text.action(action)
            assert parser.parse(f"Now I will {english}.").action == str(action), english
            assert parser.parse(english.upper()).action == str(action), english


def test_parser_tolerates_chatter_articles_and_several_actions():
    env = PDDLTextEnv("blocksworld", problem=1)
    _, info = env.reset()
    parser = TemplateParser(env.templates, info["objects"], ["pick-up", "put-down", "stack", "unstack"],
                            [str(a) for a in env.task.actions])
    cases = {
        "First, I pick up block_b.": "(pick-up block_b)",
        "Instruction: Unstack the block block_b from on top of the block block_d": "(unstack block_b block_d)",
        "stack block_a on top of block_c, then pick up block_b": "(stack block_a block_c)",
        "I think (put-down block_a) is best": "(put-down block_a)",
        "pick-up block_b please": "(pick-up block_b)",
    }
    for text, expected in cases.items():
        assert parser.parse(text).action == expected, text
    assert parser.parse("I have no idea") is None
    assert parser.parse("") is None

"""Rule-based NL templates for any PDDL domain, read off predicate, action, parameter and type names.

`rule_templates(domain)` writes an nl.yaml-shaped mapping and checks it with `build_templates`, so every predicate
and action of the domain gets a text, a negated text (predicates), an indefinite form and parameter descriptions
(actions). It is the fallback for imported domains that come without descriptions and fills the gaps of imported
descriptions.

How names are read:

- Names are split into words (`at-ferry`, `atFerry`; compounds from a small lexicon: `handempty` -> hand empty,
  `curpos` -> current position), common abbreviations are expanded (`conn` -> connected, `loc` -> location,
  `robby` -> robot, ...).
- Every parameter gets nouns: its declared type (and supertypes), the static unary "type predicates" that actions
  require of it in untyped domains (`(car ?car)`), and its own name if that is a word (`?truck`, `?loc`).
- Predicates are matched against a handful of English patterns: a type noun (`car ?c` -> "{c} is a car"),
  preposition + noun (`at-ferry ?l` -> "the ferry is at {l}", `in-city ?o ?c` -> "{o} is in city {c}"),
  noun + preposition (`robot-at ?x` -> "the robot is at {x}", `bomb-at ?x` -> "there is a bomb at {x}"),
  bare relations and directions (`on ?x ?y` -> "{x} is on {y}", `up ?x ?y` -> "{x} is above {y}"), adjectives and
  participles (`clear`, `empty-ferry`, `movie-rewound`), verbs (`supports`, `holding`, `have_image`, `can_traverse`).
  The PDDL argument order is read literally, never swapped (`(up ?x ?y)`: ?x is above ?y), every argument is
  mentioned exactly once, and the negated form is built with the sentence ("is not", "does not support",
  "I do not have", "there is no", "cannot"). Whatever matches no pattern becomes "{x} is <words> {y}" or
  "<words> holds for {a}, {b} and {c}".
- Actions read as imperatives: the verb from the action name, a direct object with its noun ("board car {car}"),
  then prepositional phrases: parameters named after a preposition (`?from`, `?loc-to`) keep it, places get "at",
  cities and rooms "in", two places of a movement "from ... to ...", agents and tools "with"/"using".

Modules: lexicon (the words the rules know), morphology (word forms), reader (PDDL names -> words and nouns),
predicates (predicate patterns), actions (imperatives and their phrases); this one puts them together.
"""

from __future__ import annotations

import re

from apb.engine.model import Domain
from apb.nl.grammar import words
from apb.nl.nl_yaml import NLTemplates
from apb.nl.rules.actions import ActionRules
from apb.nl.rules.lexicon import NOISE_DOMAIN_WORDS
from apb.nl.rules.predicates import PredicateRules
from apb.nl.rules.reader import Reader
from apb.nl.template_builder import build_templates


def domain_words(name: str) -> str:
    """'gold-miner-typed' -> 'gold miner', 'blocksworld-4ops' -> 'blocksworld'."""
    split = words(name)
    kept = [w for w in split if w not in NOISE_DOMAIN_WORDS and not re.fullmatch(r"\d+\w*", w)]
    return " ".join(kept or split or ["planning"])


def rule_data(domain: Domain) -> dict:
    """The nl.yaml-shaped mapping the rules produce for `domain` (not yet checked)."""
    reader = Reader(domain)
    types = {name: noun for name, noun in reader.type_names.items()}
    predicates = {}
    for name in domain.predicates:
        text, negated = PredicateRules(reader, name).render()
        predicates[name] = {"text": _tidy(text), "negated": _tidy(negated)}
    _tell_apart(domain, predicates)
    actions = {}
    for schema in domain.actions:
        entry = ActionRules(reader, schema).build()
        entry["text"] = _tidy(entry["text"])
        entry["indefinite"] = _tidy(entry["indefinite"])
        actions[schema.name] = entry
    intro = f"I am acting in the {domain_words(domain.name)} domain."
    return {"format": 1, "domain": domain.name, "intro": intro, "types": types, "predicates": predicates,
            "actions": actions}


def _tell_apart(domain: Domain, predicates: dict) -> None:
    """Predicates whose English would read the same for the same kinds of arguments (Barman's `cocktail-part1` and
    `cocktail-part2`: "{c} is a cocktail part of {i}") name their predicate after the text, so a reader (a model, or
    apb's own English reader) can tell their facts apart."""
    seen: dict[tuple, list[str]] = {}
    for name, entry in predicates.items():
        schema = domain.predicates[name]
        shape = re.sub(r"\{[^{}]*\}", "{}", entry["text"])
        seen.setdefault((shape, tuple(p.types for p in schema.parameters)), []).append(name)
    for names in seen.values():
        if len(names) > 1:
            for name in names:
                entry = predicates[name]
                entry["text"], entry["negated"] = f"{entry['text']} ({name})", f"{entry['negated']} ({name})"


def _tidy(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def rule_templates(domain: Domain) -> NLTemplates:
    """Complete, checked templates for any domain, read off its names (source 'rule')."""
    return build_templates(domain, rule_data(domain), source="rule")


__all__ = ["rule_data", "rule_templates"]

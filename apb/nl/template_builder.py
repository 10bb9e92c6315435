"""Building a domain's NL templates (`NLTemplates`, the nl.yaml format of `apb.nl.nl_yaml`) from an nl.yaml mapping
or file, checked against the domain: every placeholder a parameter, every parameter mentioned, errors naming the
file, line and key; the indefinite forms derived; missing entries listed and filled from a fallback.
"""

from __future__ import annotations

import re
from pathlib import Path

from apb.engine.model import ROOT_TYPE, Domain
from apb.nl.grammar import LETTERS, article, letter, plural
from apb.nl.nl_yaml import (
    _PLACEHOLDER,
    NL_KEYS,
    ActionTemplate,
    NLTemplateError,
    NLTemplates,
    PredicateTemplate,
    TypeName,
    read_yaml_with_lines,
)


def param_names(parameters) -> tuple[str, ...]:
    """Placeholder names of PDDL parameters: '?ob' -> 'ob'."""
    return tuple(p.name.lstrip("?") for p in parameters)


def derive_indefinite(text: str, params: tuple[str, ...], types: tuple[str, ...], noun_of) -> str:
    """The indefinite form from the imperative one: each {param} becomes 'a <type> A' ('board car {c}' ->
    'board a car A'); an untyped parameter becomes its letter alone."""
    out = text
    for i, (name, type_name) in enumerate(zip(params, types)):
        noun = noun_of(type_name)
        mark = letter(i)
        if noun:
            before = re.compile(r"(?:\b(?:the|a|an)\s+)?" + re.escape(noun) + r"\s+\{" + re.escape(name) + r"\}")
            if before.search(out):
                out = before.sub(f"{article(noun)} {noun} {mark}", out, count=1)
                continue
            out = out.replace("{" + name + "}", f"{article(noun)} {noun} {mark}", 1)
        else:
            out = re.sub(r"(?:\b(?:the|a|an)\s+)?\{" + re.escape(name) + r"\}", mark, out, count=1)
    return out


def build_templates(domain: Domain, data: dict, *, source: str, file: str | Path | None = None,
                    lines: dict | None = None) -> NLTemplates:
    """NLTemplates from an nl.yaml mapping, checked against the domain. Errors name the file, line and key."""
    lines = lines or {}

    def fail(message: str, *path) -> NLTemplateError:
        return NLTemplateError(message, file=file, line=lines.get(tuple(path)))

    if not isinstance(data, dict):
        raise fail("an nl.yaml file must be a mapping with the keys domain, types, predicates, actions")
    unknown = set(data) - set(NL_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise fail(f"unknown key {key!r}: the keys are {', '.join(NL_KEYS)}", key)
    intro = data.get("intro") or ""
    if not isinstance(intro, str):
        raise fail("intro must be one line of text", "intro")

    types: dict[str, TypeName] = {}
    raw_types = data.get("types") or {}
    if not isinstance(raw_types, dict):
        raise fail("types must map PDDL type names to nouns, e.g. 'truck: truck'", "types")
    for name, value in raw_types.items():
        name = str(name).lower()
        if name not in domain.types:
            raise fail(f"type {name!r} is not a type of domain {domain.name} "
                       f"(types: {', '.join(sorted(domain.types))})", "types", name)
        if isinstance(value, str):
            types[name] = TypeName(value, plural(value))
        elif isinstance(value, dict) and isinstance(value.get("singular"), str):
            types[name] = TypeName(value["singular"], str(value.get("plural") or plural(value["singular"])))
        else:
            raise fail(f"type {name!r}: give a noun ('{name}: {name}') or {{singular: ..., plural: ...}}",
                       "types", name)

    nouns = type_nouns(domain, types)

    def noun_of(type_name: str) -> str | None:
        entry = types.get(type_name)
        if entry is not None:
            return entry.singular
        return None if type_name == ROOT_TYPE else type_name.replace("-", " ").replace("_", " ")

    def check_placeholders(text, params, what, *path) -> None:
        if not isinstance(text, str) or not text.strip():
            raise fail(f"{what} must be a non-empty string", *path)
        found = _PLACEHOLDER.findall(text)
        wrong = [p for p in found if p not in params]
        if wrong:
            raise fail(f"{what} {text!r} uses {{{wrong[0]}}}, which is not a parameter; the parameters are "
                       + (", ".join("{" + p + "}" for p in params) or "none"), *path)
        missing = [p for p in params if p not in found]
        if missing:
            raise fail(f"{what} {text!r} does not mention {{{missing[0]}}}: every parameter must appear so "
                       "that the text names exactly one fact or action", *path)

    predicates: dict[str, PredicateTemplate] = {}
    raw_preds = data.get("predicates") or {}
    if not isinstance(raw_preds, dict):
        raise fail("predicates must map predicate names to {text: ..., negated: ...}", "predicates")
    for name, value in raw_preds.items():
        key = str(name).lower()
        schema = domain.predicates.get(key)
        if schema is None:
            raise fail(f"predicate {key!r} is not a predicate of domain {domain.name}", "predicates", name)
        params = param_names(schema.parameters)
        if isinstance(value, str):
            raise fail(f"predicate {key!r} needs both forms: {{text: ..., negated: ...}}", "predicates", name)
        if not isinstance(value, dict):
            raise fail(f"predicate {key!r} must be a mapping with text and negated", "predicates", name)
        check_placeholders(value.get("text"), params, f"predicate {key} text", "predicates", name, "text")
        check_placeholders(value.get("negated"), params, f"predicate {key} negated", "predicates", name,
                           "negated")
        predicates[key] = PredicateTemplate(key, params, value["text"], value["negated"], nouns)

    actions: dict[str, ActionTemplate] = {}
    raw_actions = data.get("actions") or {}
    if not isinstance(raw_actions, dict):
        raise fail("actions must map action names to {text: ..., indefinite: ...}", "actions")
    for name, value in raw_actions.items():
        key = str(name).lower()
        schema = domain.action(key)
        if schema is None:
            raise fail(f"action {key!r} is not an action of domain {domain.name}", "actions", name)
        params = param_names(schema.parameters)
        if isinstance(value, str):
            value = {"text": value}
        if not isinstance(value, dict):
            raise fail(f"action {key!r} must be a mapping with text (and optionally indefinite, first_person, "
                       "variables)", "actions", name)
        bad = set(value) - {"text", "first_person", "indefinite", "variables"}
        if bad:
            raise fail(f"action {key!r}: unknown key {sorted(bad)[0]!r} (keys: text, first_person, indefinite, "
                       "variables)", "actions", name, sorted(bad)[0])
        text = value.get("text")
        check_placeholders(text, params, f"action {key} text", "actions", name, "text")
        first = value.get("first_person") or "I " + text
        check_placeholders(first, params, f"action {key} first_person", "actions", name, "first_person")
        type_list = tuple(p.types[0] if len(p.types) == 1 else ROOT_TYPE for p in schema.parameters)
        indefinite = value.get("indefinite") or derive_indefinite(text, params, type_list, noun_of)
        if not isinstance(indefinite, str) or _PLACEHOLDER.search(indefinite):
            raise fail(f"action {key} indefinite must use the letters A, B, C for the parameters, not "
                       "placeholders", "actions", name, "indefinite")
        for i in range(len(params)):
            if not re.search(r"\b" + letter(i) + r"\b", indefinite):
                raise fail(f"action {key} indefinite {indefinite!r} does not mention {letter(i)} (parameter "
                           f"?{params[i]}); parameters are called {', '.join(LETTERS[:len(params)])} in order",
                           "actions", name, "indefinite")
        variables = value.get("variables") or {}
        if not isinstance(variables, dict) or any(str(v).lstrip("?") not in params for v in variables):
            raise fail(f"action {key} variables must map parameter names ({', '.join(params)}) to descriptions",
                       "actions", name, "variables")
        variables = {str(k).lstrip("?"): str(v) for k, v in variables.items()}
        actions[key] = ActionTemplate(key, params, text, first, indefinite, variables, nouns)

    goals = data.get("goals") or {}
    if not isinstance(goals, dict) or not all(isinstance(v, str) and v.strip() for v in goals.values()):
        raise fail("goals must map problem names (as in '(define (problem NAME)') to one clause of text each, "
                   "e.g. 'p01: dessert_1 is a souffle'", "goals")
    return NLTemplates(domain=str(data.get("domain") or domain.name), intro=intro.strip(), types=types,
                       predicates=predicates, actions=actions, source=source,
                       file=str(file) if file is not None else None, nouns=nouns,
                       goals={str(k).lower(): " ".join(v.split()) for k, v in goals.items()})


def type_nouns(domain: Domain, types: dict[str, TypeName]) -> frozenset[str]:
    """Every word that names a kind of object: the type nouns, the type names, and the names of static unary
    predicates, which act as types in untyped domains (`(truck ?t)`)."""
    nouns = {t.singular.lower() for t in types.values()}
    nouns.update(name.replace("-", " ").replace("_", " ") for name in domain.types if name != ROOT_TYPE)
    changed = {lit.predicate for action in domain.actions for lit in action.effects}
    nouns.update(name for name, schema in domain.predicates.items()
                 if schema.arity == 1 and name not in changed and name.isalpha())
    return frozenset(n for n in nouns if n)


def missing_entries(templates: NLTemplates, domain: Domain) -> list[str]:
    """Predicates and actions of the domain that have no template ('predicate at', 'action sail')."""
    out = [f"predicate {p}" for p in domain.predicates if p not in templates.predicates]
    out += [f"action {a.name}" for a in domain.actions if a.name not in templates.actions]
    return out


def complete(templates: NLTemplates, fallback: NLTemplates) -> NLTemplates:
    """Fills what `templates` lacks (predicates, actions, type names) from `fallback` (rule-based wording)."""
    for name, p in fallback.predicates.items():
        templates.predicates.setdefault(name, p)
    for name, a in fallback.actions.items():
        templates.actions.setdefault(name, a)
    for name, t in fallback.types.items():
        templates.types.setdefault(name, t)
    templates.nouns = templates.nouns | fallback.nouns
    if not templates.intro:
        templates.intro = fallback.intro
    return templates


def load_nl_yaml(path: str | Path, domain: Domain) -> NLTemplates:
    """Reads an apb nl.yaml file and checks it against `domain`."""
    data, lines = read_yaml_with_lines(path)
    return build_templates(domain, data, source=str(path), file=path, lines=lines)

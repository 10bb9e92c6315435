"""NL templates of a domain (the `nl.yaml` format): predicate, action and type wording, loaded and checked.

A template is text with placeholders named after the PDDL parameters without `?`: `"{x} is on top of {y}"`.
Templates are compiled once into literal parts and argument slots, so filling one is a single join.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from apb.engine.errors import ApbError, decode_problem
from apb.engine.model import ROOT_TYPE, Domain
from apb.nl.grammar import LETTERS, article, letter, plural

_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
FORMAT_VERSION = 1
NL_KEYS = ("format", "domain", "intro", "types", "predicates", "actions", "goals")


class NLTemplateError(ApbError):
    """An nl.yaml (or imported description) that is malformed or does not fit its domain."""

    def __init__(self, message: str, *, file: str | Path | None = None, line: int | None = None) -> None:
        self.file = str(file) if file is not None else None
        self.line = line
        where = ""
        if self.file:
            where = f"{self.file}:{line}: " if line else f"{self.file}: "
        super().__init__(where + message)
        self.message = message


class Template:
    """A compiled template: `fill(["a", "b"])` with arguments in parameter order.

    A type noun written right before a placeholder ("block {x}") is dropped when the object's own name already
    starts with it, so `block_a` reads "block_a", not "block block_a", while `a` still reads "block a".
    """

    __slots__ = ("elide", "params", "parts", "slots", "text")

    def __init__(self, text: str, params: tuple[str, ...], nouns: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.params = params
        index = {p: i for i, p in enumerate(params)}
        parts: list[str] = []
        slots: list[int] = []
        elide: list[tuple[str, ...] | None] = []
        pos = 0
        for match in _PLACEHOLDER.finditer(text):
            name = match.group(1)
            if name not in index:
                raise KeyError(name)
            before = text[pos:match.start()]
            parts.append(before)
            slots.append(index[name])
            elide.append(_noun_before(before, nouns))
            pos = match.end()
        parts.append(text[pos:])
        self.parts = tuple(parts)
        self.slots = tuple(slots)
        self.elide = tuple(elide) if any(elide) else None

    def fill(self, args) -> str:
        parts = self.parts
        if self.elide is None:
            out = [parts[0]]
            for k, slot in enumerate(self.slots):
                out.append(args[slot])
                out.append(parts[k + 1])
            return "".join(out)
        out = [parts[0]]
        for k, slot in enumerate(self.slots):
            arg = args[slot]
            noun = self.elide[k]
            if noun is not None and _starts_with_noun(arg, noun):
                out[-1] = out[-1][:-len(noun[0]) - 1]
            out.append(arg)
            out.append(parts[k + 1])
        return "".join(out)

    def placeholders(self) -> list[str]:
        return [self.params[s] for s in self.slots]

    def __repr__(self) -> str:
        return f"Template({self.text!r})"


def _noun_before(before: str, nouns: frozenset[str]) -> tuple[str, ...] | None:
    """(noun, spellings of it at the start of an object name) if `before` ends with '<noun> '."""
    low = before.lower()
    best = None
    for noun in nouns:
        if (low.endswith(noun + " ") and (len(low) == len(noun) + 1 or not low[-len(noun) - 2].isalnum())
                and (best is None or len(noun) > len(best))):
            best = noun
    if best is None:
        return None
    compact = {best.replace(" ", sep) for sep in ("_", "-", "")}
    return (best, *sorted(compact))


def _starts_with_noun(arg: str, noun: tuple[str, ...]) -> bool:
    low = arg.lower()
    for spelling in noun[1:]:
        if low.startswith(spelling) and (len(low) == len(spelling) or not low[len(spelling)].isalpha()):
            return True
    return False


@dataclass
class TypeName:
    singular: str
    plural: str


@dataclass
class PredicateTemplate:
    """How a predicate reads: `text` when it holds, `negated` when it does not."""

    name: str
    params: tuple[str, ...]
    text: str
    negated: str

    nouns: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.compiled = Template(self.text, self.params, self.nouns)
        self.compiled_negated = Template(self.negated, self.params, self.nouns)


@dataclass
class ActionTemplate:
    """How an action reads: imperative `text`, `first_person` ("I ..."), `indefinite` with letters A, B, C."""

    name: str
    params: tuple[str, ...]
    text: str
    first_person: str
    indefinite: str
    variables: dict[str, str] = field(default_factory=dict)
    nouns: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        self.compiled = Template(self.text, self.params, self.nouns)
        self.compiled_first_person = Template(self.first_person, self.params, self.nouns)


@dataclass
class NLTemplates:
    """Every piece of wording a domain needs. `source` says where it came from (curated, rule, a file)."""

    domain: str
    intro: str
    types: dict[str, TypeName]
    predicates: dict[str, PredicateTemplate]
    actions: dict[str, ActionTemplate]
    source: str = "curated"
    file: str | None = None
    nouns: frozenset[str] = frozenset()  # words naming kinds of objects (elided before matching object names)
    goals: dict[str, str] = field(default_factory=dict)  # problem name -> hand-written goal (a clause)

    def type_noun(self, type_name: str) -> str | None:
        """The singular noun of a PDDL type, or None for 'object' / unnamed types."""
        entry = self.types.get(type_name)
        if entry is not None:
            return entry.singular
        return None if type_name == ROOT_TYPE else type_name.replace("-", " ").replace("_", " ")

    def type_plural(self, type_name: str) -> str:
        entry = self.types.get(type_name)
        if entry is not None:
            return entry.plural
        return plural(type_name.replace("-", " ").replace("_", " "))

    def to_dict(self) -> dict:
        """The nl.yaml mapping (derived fields that equal their default are left out)."""
        types = {}
        for name, t in self.types.items():
            types[name] = t.singular if t.plural == plural(t.singular) else {"singular": t.singular,
                                                                              "plural": t.plural}
        preds = {name: {"text": p.text, "negated": p.negated} for name, p in self.predicates.items()}
        actions = {}
        for name, a in self.actions.items():
            entry: dict = {"text": a.text}
            if a.first_person != "I " + a.text:
                entry["first_person"] = a.first_person
            entry["indefinite"] = a.indefinite
            if a.variables:
                entry["variables"] = dict(a.variables)
            actions[name] = entry
        data: dict = {"format": FORMAT_VERSION, "domain": self.domain}
        if self.intro:
            data["intro"] = self.intro
        data["types"] = types
        data["predicates"] = preds
        data["actions"] = actions
        if self.goals:
            data["goals"] = dict(self.goals)
        return data

    def to_yaml(self) -> str:
        header = f"# NL templates for the PDDL domain {self.domain} (apb nl.yaml format {FORMAT_VERSION}).\n"
        return header + yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True, width=110)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_yaml(), encoding="utf-8")
        return path


# ---- building and checking --------------------------------------------------------------------------------------
def param_names(parameters) -> tuple[str, ...]:
    """Placeholder names of PDDL parameters: '?ob' -> 'ob'."""
    return tuple(p.name.lstrip("?") for p in parameters)


def derive_indefinite(text: str, params: tuple[str, ...], types: tuple[str, ...], templates_types: dict,
                      noun_of) -> str:
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
        indefinite = value.get("indefinite") or derive_indefinite(text, params, type_list, types, noun_of)
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


# ---- reading files ----------------------------------------------------------------------------------------------
def read_description_text(path: str | Path) -> str:
    """The text of a description file; NLTemplateError naming the file when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise NLTemplateError(f"the description file is not UTF-8 text ({decode_problem(err)}); re-save it as UTF-8",
                              file=path) from None
    except OSError as err:
        raise NLTemplateError(f"cannot read the file: {err.strerror or err}", file=path) from None


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: ~10x faster
_YAML_CACHE: dict[tuple[str, int, int], tuple[object, dict]] = {}


def read_yaml_with_lines(path: str | Path) -> tuple[object, dict]:
    """Parses a YAML file and records the line of every mapping key path, for error messages. Parsed once per
    file version (path, size, modification time); callers get their own copy of the data."""
    path = Path(path)
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is None or key not in _YAML_CACHE:
        parsed = _parse_yaml_with_lines(path)
        if key is None:
            return parsed
        _YAML_CACHE[key] = parsed
    data, lines = _YAML_CACHE[key]
    return copy.deepcopy(data), dict(lines)


def _parse_yaml_with_lines(path: Path) -> tuple[object, dict]:
    text = read_description_text(path)
    try:
        loader = _YAML_LOADER(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        hint = " (quote templates that start with '{', e.g. \"{x} is clear\")" if "{" in text else ""
        raise NLTemplateError(f"invalid YAML: {problem}{hint}", file=path,
                              line=mark.line + 1 if mark else None) from None
    lines: dict = {}

    def walk(n, prefix):
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                key = (*prefix, k.value)
                lines[key] = k.start_mark.line + 1
                walk(v, key)

    if node is not None:
        walk(node, ())
    return data, lines


def load_nl_yaml(path: str | Path, domain: Domain) -> NLTemplates:
    """Reads an apb nl.yaml file and checks it against `domain`."""
    data, lines = read_yaml_with_lines(path)
    return build_templates(domain, data, source=str(path), file=path, lines=lines)

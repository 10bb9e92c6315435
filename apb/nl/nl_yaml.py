"""The `nl.yaml` format: a domain's predicate, action and type wording as data (`NLTemplates`), its YAML form, and
reading description files with the line of every key (for errors). Building and checking templates against a
domain is `apb.nl.template_builder`.

A template is text with placeholders named after the PDDL parameters without `?`: `"{x} is on top of {y}"`.
Templates are compiled once into literal parts and argument slots, so filling one is a single join.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_CONFIG_BYTES, read_input
from apb.engine.model import ROOT_TYPE
from apb.nl.grammar import plural

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


# ---- reading files ----------------------------------------------------------------------------------------------
def read_description_text(path: str | Path) -> str:
    """The text of a description file; NLTemplateError naming the file when it cannot be read."""
    return read_input(path, "description file", limit=MAX_CONFIG_BYTES,
                      error=lambda reason: NLTemplateError(reason, file=path))


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

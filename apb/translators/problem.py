"""One problem as translators see it, built from an env's `info` alone: objects and their types, the action
schemas with their English templates, a type check, validation of PDDL actions and the template parser.

apb envs give the PDDL type hierarchy as `info["types"]`; for other envs it is read, where it can be, from the
domain description (the PDDL `(:types ...)` block, or the English 'Every depot and every distributor is a place.').
A parameter of type T accepts objects of type T or of a subtype of T; any object when T is `object`, or when T is
neither a type with objects of its own nor a supertype the description explains (a supertype we cannot see into);
and any type an admissible action has shown at that parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apb.nl.nl_yaml import Template
from apb.nl.parse import parser_from_info

_PDDL_ACTION = re.compile(r"\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)")
_SHOWN_OBJECTS = 40


@dataclass(frozen=True)
class Schema:
    name: str  # lower case
    params: tuple[str, ...]
    types: tuple[str, ...]  # lower case
    pddl: str  # "(stack ?ob ?underob)"
    nl: str  # "stack block {ob} on top of block {underob}"
    template: Template
    indefinite: str = ""  # "stack a block A on top of a block B"

    def fill(self, args) -> str:
        return self.template.fill(list(args))

    def pddl_form(self, args) -> str:
        return "(" + " ".join([self.name, *args]) + ")"


class ProblemView:
    """Per-problem data derived from `info`; cheap to query, built once per problem (see ProblemCache)."""

    def __init__(self, info: dict) -> None:
        self.domain = str(info.get("domain") or "")
        self.problem_id = str(info.get("problem_id") or "")
        objects = info.get("objects") or {}
        self.names: dict[str, str] = {}  # lower -> as given
        self.objects: dict[str, str] = {}  # name as given -> type (lower)
        for name, type_name in objects.items():
            name = str(name)
            self.names[name.lower()] = name
            self.objects[name] = str(type_name or "object").lower()
        self.nouns = frozenset(str(n).lower() for n in (info.get("type_nouns") or ()))
        self.schemas: dict[str, Schema] = {}
        for raw in info.get("action_schemas") or ():
            name = str(raw["name"]).lower()
            parameters = [(str(p), str(t or "object").lower()) for p, t in raw.get("parameters") or ()]
            params = tuple(p for p, _ in parameters)
            nl = raw.get("nl") or " ".join([name, *("{" + p + "}" for p in params)])
            try:
                template = Template(nl, params, self.nouns)
            except KeyError:  # a template naming an unknown parameter: fall back to the plain form
                nl = " ".join([name, *("{" + p + "}" for p in params)])
                template = Template(nl, params, self.nouns)
            pddl = raw.get("pddl") or "(" + " ".join([name, *("?" + p for p in params)]) + ")"
            self.schemas[name] = Schema(name, params, tuple(t for _, t in parameters), pddl, nl, template,
                                        str(raw.get("indefinite") or ""))
        self.direct_types = set(self.objects.values())
        known_types = self.direct_types | {t for s in self.schemas.values() for t in s.types}
        declared = info.get("types")  # apb envs give the hierarchy as data: {type: parent}
        if isinstance(declared, dict) and declared:
            self.parents = {str(c).lower(): str(p).lower() for c, p in declared.items()
                            if p is not None and p != "object" and c != p}
        else:  # other envs: read it from the domain description
            self.parents = type_hierarchy(str(info.get("domain_description") or ""), known_types)
        schemas = [{"name": s.name, "parameters": [[p, t] for p, t in zip(s.params, s.types)], "nl": s.nl}
                   for s in self.schemas.values()]
        self.parser_info = {"domain": self.domain, "objects": dict(self.objects), "type_nouns": sorted(self.nouns),
                            "action_schemas": schemas}
        self._observed: dict[str, set[str]] = {}
        self._seen_admissible: set[str] = set()
        self._pools: dict[str, list[str]] = {}
        self._parser = None
        self._aliases: re.Pattern | bool | None = False
        self._alias_keys: tuple[dict, dict] | None = None
        self.memo: dict[str, object] = {}  # per-problem data of the translators (fuzzy lexicon, T-LLM prompt)

    @staticmethod
    def key(info: dict) -> tuple:
        objects = info.get("objects") or {}
        schemas = tuple((str(s.get("name")), str(s.get("nl")), len(s.get("parameters") or ()))
                        for s in info.get("action_schemas") or ())
        return (str(info.get("domain") or ""), str(info.get("problem_id") or ""),
                tuple((str(k), str(v)) for k, v in objects.items()), schemas)

    # ---- types ----------------------------------------------------------------------------------------------
    def accepts(self, param_type: str, obj: str) -> bool:
        """Whether an object fits a parameter type, as far as `info` can tell (see the module docstring)."""
        obj_type = self.objects.get(obj)
        if obj_type is None:
            return False
        if param_type in ("object", obj_type) or obj_type in self._observed.get(param_type, ()):
            return True
        if param_type in self.parents.values():  # a supertype the description explains
            return param_type in self._ancestors(obj_type)
        return param_type not in self.direct_types

    def _ancestors(self, type_name: str) -> set[str]:
        seen: set[str] = set()
        while type_name in self.parents and type_name not in seen:
            seen.add(type_name)
            type_name = self.parents[type_name]
        return seen | {type_name}

    def learn(self, info: dict) -> None:
        """Types the admissible actions show at each parameter type (a window into the type hierarchy)."""
        for action in info.get("admissible_actions") or ():
            if action in self._seen_admissible:
                continue
            self._seen_admissible.add(action)
            name, args = split(action)
            schema = self.schemas.get(name)
            if schema is None or len(args) != len(schema.params):
                continue
            for param_type, arg in zip(schema.types, args):
                obj_type = self.objects.get(self.names.get(arg, arg))
                if obj_type is not None and obj_type != param_type:
                    self._observed.setdefault(param_type, set()).add(obj_type)
                    self._pools.pop(param_type, None)

    def pool(self, param_type: str) -> list[str]:
        """The objects a parameter of this type accepts (all objects if none would)."""
        found = self._pools.get(param_type)
        if found is None:
            found = [o for o in self.objects if self.accepts(param_type, o)] or list(self.objects)
            self._pools[param_type] = found
        return found

    # ---- validation -----------------------------------------------------------------------------------------
    def check(self, action: str, info: dict | None = None) -> tuple[str | None, str | None]:
        """(canonical action, None) if `action` is a well-formed action of this problem, else (None, problem)."""
        match = _PDDL_ACTION.search(action or "")
        if match is None:
            return None, "no PDDL action of the form (name object ...) found"
        name = match.group(1).lower()
        words = match.group(2).split()
        schema = self.schemas.get(name)
        if schema is None:
            return None, f"unknown action {match.group(1)}; actions are {', '.join(self.schemas)}"
        if len(words) != len(schema.params):
            return None, (f"{name} takes {len(schema.params)} object(s) {schema.pddl}, "
                          f"but {len(words)} were given")
        args = []
        for word in words:
            obj = self.names.get(word.lower())
            if obj is None:
                return None, f"unknown object {word}; objects are {self.object_list()}"
            args.append(obj)
        for i, (param_type, obj) in enumerate(zip(schema.types, args)):
            if not self.accepts(param_type, obj):
                if info is not None:
                    self.learn(info)
                if not self.accepts(param_type, obj):
                    return None, (f"{obj} is a {self.objects[obj]}, but parameter ?{schema.params[i]} of "
                                  f"{name} must be a {param_type}")
        return schema.pddl_form(args), None

    def object_list(self, limit: int = _SHOWN_OBJECTS) -> str:
        names = list(self.objects)
        shown = ", ".join(names[:limit])
        return shown + (f", ... ({len(names)} in all)" if len(names) > limit else "")

    def objects_by_type(self) -> str:
        """One line per type: '- truck: truck_0, truck_1' (untyped objects on one line)."""
        groups: dict[str, list[str]] = {}
        for name, type_name in self.objects.items():
            groups.setdefault(type_name, []).append(name)
        if list(groups) == ["object"]:
            return ", ".join(groups["object"])
        return "\n".join(f"- {t}: {', '.join(names)}" for t, names in groups.items())

    # ---- parsing helpers ------------------------------------------------------------------------------------
    @property
    def parser(self):
        if self._parser is None:
            # Ranks readings whose objects fit the parameter types first ('ground actions' we can check).
            self._parser = parser_from_info(self.parser_info, ground_actions=_TypeFit(self))
        return self._parser

    def alias_pattern(self) -> re.Pattern | None:
        """Object names written with other separators or none ('block a', 'truck-0', 'tile 0 1' for tile_0-1)."""
        if self._aliases is False:
            alternatives = []
            for name in sorted(self.objects, key=len, reverse=True):
                parts = [p for p in re.split(r"[_\-\s]+", name) if p]
                if len(parts) > 1:
                    alternatives.append(r"[\s_-]?".join(re.escape(p) for p in parts))
            self._aliases = (re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)
                             if alternatives else None)
        return self._aliases

    def canonical_alias(self, text: str) -> str | None:
        """The object a spelling variant names: separators normalised first, then ignored if that is unique."""
        if self._alias_keys is None:
            spaced: dict[str, str] = {}
            compact: dict[str, str | None] = {}
            for name in self.objects:
                spaced[re.sub(r"[\s_-]+", "_", name.lower())] = name
                key = re.sub(r"[\s_-]+", "", name.lower())
                compact[key] = None if key in compact and compact[key] != name else name
            self._alias_keys = (spaced, compact)
        spaced, compact = self._alias_keys
        low = text.lower()
        return spaced.get(re.sub(r"[\s_-]+", "_", low)) or compact.get(re.sub(r"[\s_-]+", "", low))

class _TypeFit:
    """A stand-in for the set of ground actions: an action 'exists' when its objects fit the parameter types."""

    def __init__(self, view: ProblemView) -> None:
        self.view = view

    def __contains__(self, action: object) -> bool:
        return isinstance(action, str) and self.view.check(action)[0] is not None


_PDDL_TYPES = re.compile(r"\(:types\b(.*?)\)", re.IGNORECASE | re.DOTALL)
_NL_HIERARCHY = re.compile(r"^every (.+?) (?:is|are) (?:a|an) (.+?)\.?$", re.IGNORECASE | re.MULTILINE)


def type_hierarchy(description: str, types: set[str]) -> dict[str, str]:
    """child type -> parent type, read from a PDDL `(:types ...)` block or the English hierarchy sentences;
    nouns are matched to the known type names ('locatable object' -> locatable). Best effort: {} if absent."""
    parents: dict[str, str] = {}
    match = _PDDL_TYPES.search(description)
    if match is not None and "(either" not in match.group(1).lower():
        pending: list[str] = []
        words = match.group(1).lower().split()
        i = 0
        while i < len(words):
            if words[i] == "-" and i + 1 < len(words):
                for child in pending:
                    parents[child] = words[i + 1]
                pending = []
                i += 2
                continue
            pending.append(words[i])
            i += 1
        return {c: p for c, p in parents.items() if p != "object" and c != p}
    spellings = sorted(((t.replace("-", " ").replace("_", " "), t) for t in types), key=lambda x: -len(x[0]))

    def type_of(noun: str) -> str | None:
        noun = noun.strip().lower()
        for spelling, name in spellings:
            if noun == spelling or noun.startswith(spelling + " "):
                return name
        return None

    for line in _NL_HIERARCHY.finditer(description):
        parent = type_of(line.group(2))
        if parent is None:
            continue
        for noun in re.split(r",\s*|\s+and\s+", line.group(1)):
            child = type_of(re.sub(r"^every\s+", "", noun.strip(), flags=re.IGNORECASE))
            if child is not None and child != parent:
                parents[child] = parent
    return parents


def split(action: str) -> tuple[str, list[str]]:
    """'(stack a b)' -> ('stack', ['a', 'b']); lower case."""
    words = action.strip().strip("()").lower().split()
    return (words[0] if words else ""), words[1:]

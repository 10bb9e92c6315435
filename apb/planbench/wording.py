"""A PlanBench config's own wording read back exactly: object names, action and fact sentences (its YAML's
`actions` and `predicates` templates) inverted into PDDL, one sentence at a time. apb's sound reading of responses
(apb.planbench.sound) and the problems of queries (t4's goal, t6's new state) use it; unlike PlanBench's reading
(apb.planbench.reading) it never guesses: a sentence reads as one action or fact exactly, or as nothing."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

_PLACEHOLDER = re.compile(r"\\\{\\\}")
_FILLER = re.compile(r"\b(?:the|currently)\b")


def normal(text: str) -> str:
    """Lower case, 'the' and 'currently' dropped, spaces collapsed: how sentences are compared."""
    return " ".join(_FILLER.sub(" ", text.lower()).split())


def object_text(name: str, data: dict) -> str:
    """How PlanBench's prompts write a PDDL object (its `get_action_text`): `a` -> `red block`, `o3` -> `object_3`,
    `l0-1` -> `location_0_1`; depots' names as they are."""
    domain = str(data.get("domain_name", ""))
    encoded = data.get("encoded_objects") or {}
    if "obfuscated" in domain:
        return name.replace("o", "object_")
    if "blocksworld" in domain:
        return str(encoded.get(name, name))
    if "logistics" in domain and name and name[0] in encoded:
        return str(encoded[name[0]]).format(*[c for c in name if c.isdigit()])
    return name


# Words a sentence may use between an action's verb and its objects besides the template's own ('unstack the red
# block from the blue block' for 'unstack the {} from on top of the {}').
CONNECTIVES = frozenset({"from", "on", "onto", "to", "top", "of", "into", "in", "at", "off", "with", "using", "a",
                         "an"})


class Wording:
    """The exact inverse of a config's templates over one problem's objects."""

    def __init__(self, data: dict, objects: list[str]) -> None:
        self.data = data
        texts = {}
        for name in objects:
            texts.setdefault(normal(object_text(name, data)), name)
        self.by_text = texts  # object text (lower case) -> PDDL name
        alternatives = sorted(texts, key=len, reverse=True)
        self._object = "|".join(re.escape(t) for t in alternatives) or r"(?!x)x"
        self._mention = re.compile(rf"(?<![\w-])(?:{self._object})(?![\w-])")

    def _compile(self, templates: dict) -> list[tuple[str, re.Pattern]]:
        out = []
        for name, template in templates.items():
            if not isinstance(template, str):
                continue
            pattern = _PLACEHOLDER.sub(f"({self._object})", re.escape(normal(template)))
            pattern = pattern.replace(r"\ ", r"\s+")
            out.append((str(name).lower(), re.compile(pattern)))
        return out

    @cached_property
    def action_patterns(self) -> list[tuple[str, re.Pattern]]:
        return self._compile(self.data.get("actions") or {})

    @cached_property
    def fact_patterns(self) -> list[tuple[str, re.Pattern]]:
        return self._compile(self.data.get("predicates") or {})

    def _read(self, text: str, patterns, prefix: bool) -> tuple[str, str] | None:
        """(PDDL, the rest of the text) of the one template reading the text (from its start; whole unless
        `prefix`), else None; two templates reading it differently (load into a truck or an airplane) is None too."""
        text = normal(text)
        found = set()
        for name, pattern in patterns:
            match = pattern.match(text) if prefix else pattern.fullmatch(text)
            if match:
                args = [self.by_text[g] for g in match.groups()]
                found.add(("(" + " ".join([name, *args]) + ")", match.end()))
        longest = max((f[1] for f in found), default=None)
        best = [f for f in found if f[1] == longest]
        if len(best) != 1:
            return None
        return best[0][0], text[best[0][1]:].strip()

    def action(self, text: str, prefix: bool = False) -> tuple[str, str] | None:
        """(the action a sentence states, `(stack a b)`, the text after its wording); None when it states none (or
        two)."""
        return self._read(text, self.action_patterns, prefix)

    def loose_actions(self, text: str) -> list[str]:
        """The actions a sentence may state in other words: the verb of an action's wording first, then exactly
        its number of objects in order, and no other word but the wording's own and connectives; every reading."""
        text = normal(text)
        objects = [self.by_text[m.group(0)] for m in self._mention.finditer(text)]
        words = self._mention.sub(" ", text).split()
        found = []
        for name, arity, verb, allowed in self._loose:
            if arity == len(objects) and words and words[0] == verb and all(w in allowed for w in words):
                found.append("(" + " ".join([name, *objects]) + ")")
        return found

    @cached_property
    def _loose(self) -> list[tuple[str, int, str, frozenset]]:
        out = []
        for name, template in (self.data.get("actions") or {}).items():
            own = normal(template) if isinstance(template, str) else ""
            if own.split():
                out.append((str(name).lower(), own.count("{}"), own.split()[0],
                            frozenset(own.replace("{}", " ").split()) | CONNECTIVES))
        return out

    def fact(self, text: str) -> str | None:
        """The fact a clause states exactly, `(on a b)`, else None."""
        found = self._read(text, self.fact_patterns, prefix=False)
        return None if found is None else found[0]

    def facts(self, text: str) -> list[str] | None:
        """The facts of a list as PlanBench writes states ('A, B and C', a final full stop allowed), or None
        when a clause reads as no fact."""
        text = text.strip().rstrip(".").strip()
        if not text:
            return []
        out = []
        for clause in re.split(r", ?(?:and )?| and ", " ".join(text.split())):
            fact = self.fact(clause)
            if fact is None:
                return None
            out.append(fact)
        return out


@lru_cache(maxsize=256)
def _cached(config, objects: tuple[str, ...]) -> Wording:
    return Wording(config.data, list(objects))


def wording_for(config, objects) -> Wording:
    """The wording of a config (hashable, with `.data`) over these objects, built once per object set; for the
    blocksworld family over every object the config names (a response naming a block the problem lacks then reads
    as an action the engine refuses), so one wording serves all its problems."""
    names = set(objects)
    if "blocksworld" in str(config.data.get("domain_name", "")):
        names |= set(config.data.get("encoded_objects") or {})
    return _cached(config, tuple(sorted(names)))

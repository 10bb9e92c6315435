"""The English side of the reader: templates (English with placeholders standing for PDDL facts or an action),
reading one phrase with them, lists of names, and the reader's error."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from apb.engine import ApbError

HERE = Path(__file__).parent
NAME = r"[A-Za-z0-9_][\w\-]*"
LIST = rf"{NAME}(?:(?:,\s+and\s+|,\s+|\s+and\s+){NAME})*"
_SPLIT = re.compile(r",\s+and\s+|,\s+|\s+and\s+")
_HOLE = re.compile(r"\{(\w+)(\*?)\}")
FACT_HOLE = re.compile(r"\{(\w+)(#?)\}")


class ContextError(ApbError):
    """A record's English that the reader cannot turn into PDDL (the message names the sentence)."""


def split_list(text: str) -> list[str]:
    """'a, b, and c' -> [a, b, c]."""
    return [part for part in _SPLIT.split(text.strip()) if part]


def normal_space(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Template:
    """An English template and the PDDL facts (or action) it stands for; `when`: facts (templates too) that must hold
    in the context for this reading to apply (a phrasing that names one action or another by a static fact, e.g.
    Alfworld's "picks up object o from receptacle r" by whether r is openable)."""

    english: str
    facts: list[str]
    when: list[str] = field(default_factory=list)
    pattern: re.Pattern = field(init=False, repr=False)

    def __post_init__(self):
        out, pos, seen = [], 0, set()
        for m in _HOLE.finditer(self.english):
            out.append(re.escape(self.english[pos:m.start()]).replace(r"\ ", r"\s+"))
            name, star = m.groups()
            if name in seen:
                out.append(f"(?P={name})")
            else:
                out.append(f"(?P<{name}>{LIST if star else NAME})")
                seen.add(name)
            pos = m.end()
        out.append(re.escape(self.english[pos:]).replace(r"\ ", r"\s+"))
        self.pattern = re.compile("".join(out), re.IGNORECASE)

    def read(self, text: str, known: frozenset[str] | set[str] | None = None) -> list[str] | None:
        """The facts this template reads from `text` (a full match), else None; a template with `when` reads only
        where `known` (the context's facts) holds its conditions."""
        m = self.pattern.fullmatch(text.strip())
        if m is None:
            return None
        if self.when:
            if known is None:
                return None
            single = m.groupdict()
            if any(FACT_HOLE.sub(lambda h: fill(single[h.group(1)], h.group(2)), f) not in known for f in self.when):
                return None
        values = {k: (split_list(v) if k in self._lists else [v]) for k, v in m.groupdict().items()}
        out = []
        for fact in self.facts:
            names = sorted({n for n, _ in FACT_HOLE.findall(fact)})
            for combo in itertools.product(*(values[n] for n in names)):
                chosen = dict(zip(names, combo))
                out.append(FACT_HOLE.sub(lambda h, c=chosen: fill(c[h.group(1)], h.group(2)), fact))
        return out

    @property
    def _lists(self) -> set[str]:
        return {name for name, star in _HOLE.findall(self.english) if star}


def fill(value: str, hash_: str) -> str:
    if not hash_:
        return value.lower()
    m = re.search(r"(\d+)$", value)
    return m.group(1) if m else value.lower()


def templates_of(rows) -> list[Template]:
    out = []
    for row in rows or []:
        english, facts, when = row[0], row[1], row[2] if len(row) > 2 else []
        out.append(Template(english, _listed(facts), _listed(when)))
    return out


def _listed(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def read_one(templates: list[Template], text: str, known: frozenset[str] | set[str] | None = None) -> list[str] | None:
    """The facts of the templates that read `text`, when they all agree (None when none or several disagree);
    `known`: the context's facts, which conditional templates (`when`) need."""
    found = {tuple(r) for t in templates if (r := t.read(text, known)) is not None}
    return list(next(iter(found))) if len(found) == 1 else None

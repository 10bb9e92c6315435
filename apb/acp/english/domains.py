"""The release's domains the reader knows: one data file each (`<domain>.yaml` beside `<domain>.pddl`), how a
context is recognised as one of them, and the types of its objects by name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import yaml

from apb.acp.english.phrases import HERE, Template, templates_of


@dataclass
class Domain:
    """One domain's data file, compiled."""

    name: str
    detect: re.Pattern
    pddl: str
    types: dict[str, re.Pattern]
    counts: list[dict]
    grid: dict | None
    distinct: list[dict]
    complement: list[dict]
    static: list[Template]
    state: list[Template]
    atoms: list[Template]
    actions: list[Template]
    non_actions: list[Template]
    item_lists: list[dict]
    ambiguous: list[Template]
    always: list[str]
    state_start: str
    prefixes: list[str]
    goal_start: str
    typed: bool
    lists: list[dict] = field(default_factory=list)
    readings: list[dict] = field(default_factory=list)
    count_lists: list[dict] = field(default_factory=list)
    plurals: dict[str, str] = field(default_factory=dict)
    named: list[dict] = field(default_factory=list)
    classes: dict | None = None
    switch: list[Template] = field(default_factory=list)
    reader: object = None  # (domain, context) -> Reading: a reader of its own (apb's wording, `generated`)
    generated: object = None  # what that reader needs (`apb.acp.english.generated.Generated`)

    def type_of(self, name: str) -> str | None:
        return next((t for t, p in self.types.items() if p.fullmatch(name)), None)


@cache
def domains() -> tuple[Domain, ...]:
    out = []
    for path in sorted(p for p in HERE.glob("*.yaml") if p.name != "questions.yaml"):
        data = yaml.safe_load(path.read_text())
        out.append(Domain(
            name=data["name"], detect=re.compile(data["detect"]), pddl=(HERE / data["pddl"]).read_text(),
            types={t: re.compile(p) for t, p in data["types"].items()}, counts=data.get("counts") or [],
            grid=data.get("grid"), distinct=data.get("distinct") or [],
            complement=data.get("complement") or [], static=templates_of(data.get("static")),
            state=templates_of(data.get("state")), atoms=templates_of(data.get("atoms")),
            actions=templates_of(data.get("actions")),
            non_actions=[Template(text, ["(not-an-action)"]) for text in data.get("non_actions") or []],
            item_lists=[{"head": Template(r["head"], []), "item": Template(r["item"], []), "facts": r["facts"]}
                        for r in data.get("item_lists") or []],
            always=list(data.get("always") or []),
            ambiguous=templates_of(data.get("ambiguous")),
            state_start=data.get("state_start", "Currently,"),
            prefixes=data.get("prefixes") or [],
            goal_start=data.get("goal_start", "The goal is to reach a state where the following facts hold:"),
            typed=data.get("typed", True), lists=data.get("lists") or [],
            readings=[{**r, "pddl": (HERE / r["pddl"]).read_text() if r.get("pddl") else None}
                      for r in data.get("readings") or []],
            count_lists=data.get("count_lists") or [], plurals=data.get("plurals") or {},
            named=data.get("named") or [], classes=data.get("classes"), switch=templates_of(data.get("switch"))))
    return tuple(out)


def domain_of(context: str) -> Domain | None:
    """The supported domain whose description opens the context, None when none does."""
    return next((d for d in domains() if d.detect.search(context)), None)

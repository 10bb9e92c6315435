"""Plan files: one `(action arg ...)` per line, `;` comments (e.g. `; cost = 8 (unit cost)`), any case."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from apb.engine.errors import PlanError
from apb.engine.input_files import MAX_PLAN_BYTES, read_input

_STEP = re.compile(r"^(?:\d+\s*:\s*)?(\([^()]*\))\s*(?:\[[^\]]*\])?$")
_COST = re.compile(r"cost\s*=\s*(\d+)", re.IGNORECASE)


@dataclass(frozen=True)
class PlanStep:
    """One action text as written (lower-cased, whitespace normalised) and the line it came from."""

    text: str
    line: int | None = None

    def __str__(self) -> str:
        return self.text


@dataclass
class Plan:
    """A sequence of action texts; `cost` is the value of a `; cost = N` comment if there was one."""

    steps: list[PlanStep] = field(default_factory=list)
    source: str | None = None
    cost: int | None = None

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps)

    @property
    def actions(self) -> list[str]:
        return [s.text for s in self.steps]


def parse_plan(text: str, name: str | None = None) -> Plan:
    """Reads plan text. A line that is not one `(action args)` raises PlanError naming file and line."""
    plan = Plan(source=name)
    for number, raw in enumerate(text.splitlines(), start=1):
        body, _, comment = raw.partition(";")
        if comment and plan.cost is None and (m := _COST.search(comment)):
            plan.cost = int(m.group(1))
        body = body.strip()
        if not body:
            continue
        match = _STEP.match(body)
        if not match:
            if body.count("(") != body.count(")"):
                problem = "unbalanced parentheses"
            elif body.count("(") > 1:
                problem = "more than one action on a line"
            else:
                problem = "not an action"
            raise PlanError(f"{problem} in {body!r}: write one '(action arg ...)' per line", file=name,
                            line=number)
        inner = match.group(1)[1:-1].split()
        if not inner:
            raise PlanError("empty action '()'", file=name, line=number)
        plan.steps.append(PlanStep("(" + " ".join(inner).lower() + ")", number))
    return plan


def read_plan(path: str | Path) -> Plan:
    """Reads a plan file; a missing or unreadable file raises PlanError."""
    path = Path(path)
    text = read_input(path, "plan file", limit=MAX_PLAN_BYTES, error=lambda reason: PlanError(reason, file=str(path)))
    return parse_plan(text, str(path))


def format_plan(actions: Iterable, *, cost_comment: bool = True) -> str:
    """Plan text: one action per line, then `; cost = N (unit cost)`."""
    lines = [str(a) for a in actions]
    if cost_comment:
        lines.append(f"; cost = {len(lines)} (unit cost)")
    return "\n".join(lines) + "\n"


def write_plan(actions: Iterable, path: str | Path, *, cost_comment: bool = True) -> Path:
    """Writes a plan file in the usual format and returns its path."""
    path = Path(path)
    path.write_text(format_plan(actions, cost_comment=cost_comment), encoding="utf-8")
    return path

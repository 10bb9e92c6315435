"""The closed-loop study's Table 1 layout: runs solved per problem (1-4) for open-loop, closed-loop H=5 and
closed-loop H=1, with the study's figures alongside. Shown for runs of the bundled Baking domain's `study` split
(examples/closed_loop_study.yaml); other runs get no such table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apb.domains.paper import closed_loop_table1
from apb.eval.metrics import Episode

STUDY_DOMAIN, STUDY_SPLIT = "baking", "study"
DEFAULT_HORIZON = 1  # ClosedLoopAgent's default
_NUMBER = re.compile(r"(\d+)$")


def condition(header: dict) -> str | None:
    """The study condition of an episode: `open-loop`, `closed-loop:horizon=H` (horizon from the agent's name or its
    agent_options; None for whole plans), or None for another agent."""
    from apb.agents.registry import agent_spec

    base, options = agent_spec(str(header.get("agent") or ""))
    if base == "open-loop":
        return base
    if base != "closed-loop":
        return None
    options = {**(header.get("agent_options") or {}), **options}
    horizon = options.get("horizon", DEFAULT_HORIZON)
    return f"closed-loop:horizon={'none' if horizon is None else horizon}"


def condition_label(name: str) -> str:
    """`closed-loop:horizon=5` -> `closed-loop H=5`, as the study writes it."""
    return name.replace(":horizon=", " H=")


def problem_number(episode: Episode) -> int | None:
    match = _NUMBER.search(str(episode.header.get("problem_id") or ""))
    return int(match.group(1)) if match else None


@dataclass
class StudyTable:
    """Solved/episodes per (condition, problem) for one model, and the study's solved counts out of `runs`."""

    model: str
    problems: list[int]
    conditions: list[str]
    cells: dict[tuple[str, int], tuple[int, int]]
    paper: dict[str, list[int]] = field(default_factory=dict)
    runs: int = 5

    def matrix(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows as text: `solved/episodes (the study's solved/5)`."""
        header = ["agent", *(f"problem {p}" for p in self.problems)]
        rows = []
        for name in self.conditions:
            cells = []
            for p in self.problems:
                solved, total = self.cells.get((name, p), (0, 0))
                text = f"{solved}/{total}" if total else "–"
                figures = self.paper.get(name)
                if figures and 1 <= p <= len(figures):
                    text += f" ({figures[p - 1]}/{self.runs})"
                cells.append(text)
            rows.append([condition_label(name), *cells])
        return header, rows

    def title(self) -> str:
        return f"The closed-loop study's Table 1 ({self.model or 'no LLM'}, Baking, split study)"

    def caption(self) -> str:
        return f"Runs solved per problem; the study's figures (GPT-4o, out of {self.runs}) in brackets."

    def markdown(self) -> str:
        header, rows = self.matrix()
        lines = [f"## {self.title()}", "", self.caption(), "",
                 "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines) + "\n"


def study_tables(episodes: list[Episode]) -> list[StudyTable]:
    """One Table 1 per model among the run's Baking `study` episodes (curated text) of the study's agents."""
    paper = closed_loop_table1()
    order = list(paper["rows"])
    by_model: dict[str, dict[tuple[str, int], list[int]]] = {}
    for e in episodes:
        domain, _, model, split = e.key
        if (domain, split) != (STUDY_DOMAIN, STUDY_SPLIT) or e.description != "curated":
            continue
        name, number = condition(e.header), problem_number(e)
        if name is None or number is None:
            continue
        cell = by_model.setdefault(model, {}).setdefault((name, number), [0, 0])
        cell[0] += e.success
        cell[1] += 1
    tables = []
    for model, cells in sorted(by_model.items()):
        names = {name for name, _ in cells}
        conditions = [n for n in order if n in names] + sorted(names - set(order))
        problems = sorted({p for _, p in cells} | set(range(1, 5)))
        tables.append(StudyTable(model, problems, conditions, {k: (v[0], v[1]) for k, v in cells.items()},
                                 paper["rows"], paper["runs"]))
    return tables

"""How much more search budget the solver's undecided questions need.

The solver (`apb.acp.solver`) decides a question within `Question.budget`, the states its prover may enumerate per
state space (`apb acp answer --budget`, default `apb.acp.space.DEFAULT_BUDGET`). `escalate` asks again at larger
budgets (each step FACTOR times the last) and says, per undecided question, the first budget that decides it, or
None when none of them does (then the question is undecided for another reason: English the reader cannot read,
readings of the English that disagree, a search beyond the planners' node limits). `apb acp answer` prints the
summary per task and format (`summary_rows`) and the answer files stay those of the budget asked for.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from apb.acp.records import Question

FACTOR = 4


def escalate(questions: list[Question], answer, budget: int, steps: int = 2) -> dict[int, int | None]:
    """{question id: the smallest budget of budget * FACTOR**k (k = 1..steps) at which `answer(q)` is not None, or
    None}; `answer` is the agent (e.g. `apb.acp.solver.solve_question`)."""
    found: dict[int, int | None] = {}
    for q in questions:
        found[q.id] = None
        for k in range(1, steps + 1):
            larger = budget * FACTOR ** k
            if answer(replace(q, budget=larger)) is not None:
                found[q.id] = larger
                break
    return found


def summary_rows(questions: list[Question], found: dict[int, int | None]) -> list[tuple[str, str, int, dict]]:
    """(task, format, undecided, {budget or None: questions it decides}) per task and format, sorted."""
    rows: dict[tuple[str, str], Counter] = {}
    for q in questions:
        rows.setdefault((q.task, q.format), Counter())[found.get(q.id)] += 1
    return [(task, fmt, sum(c.values()), dict(c)) for (task, fmt), c in sorted(rows.items())]

"""Which generated records ACPBench's own code can score.

The release's generative evaluators read a record's `PDDL_domain` and `PDDL_problem` (lower-cased) with tarski's
PDDL reader, errors raised, ground the problem by relaxed reachability (tarski's LP grounding, with clingo) and
build a STRIPS view of it (the :init and goal atoms among the grounded ones, each grounded action as a plain
operator); where the reader refuses the domain (tarski does not parse every domain apb loads: Storage's types, for
one), the grounding fails on the question's state (no action relaxed-reachable) or the STRIPS view fails (numeric
fluents in the :init, as in Nomystery's and every domain with action costs), the evaluators that need tarski cannot
score: just (every answer is checked as a plan with tarski: each is scored wrong), areach (an answer outside the
gold's list is grounded with tarski: the scorer stops) and nexta (an answer in the gold's `maybe` list; apb's is
empty). The other tasks compare answers with the gold's lists (reach asks a planner, not tarski), and bool and MCQ
records are scored on the response's text alone: they are always judgeable. This module takes the same steps
(tarski's own API, as the `acp-official` extra installs it) on each record of those tasks and says why one cannot
be scored. Without the extra nothing is checked: `available()` says what is missing.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path

from apb.acp.records import Question
from apb.acp.tasks import TASKS

EXTRA = "apb[acp-official]"


def available() -> str | None:
    """None when tarski and clingo import (the `acp-official` extra), else what is missing."""
    for module in ("tarski", "clingo"):
        try:
            __import__(module)
        except Exception as error:
            return f"{module} ({EXTRA}): {error}"
    return None


def _first_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:200]


@lru_cache(maxsize=64)
def domain_problem(domain_pddl: str) -> str | None:
    """Why tarski's reader refuses the domain (None: it reads it)."""
    from tarski.io import PDDLReader

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "domain.pddl"
        path.write_text(domain_pddl.lower(), encoding="utf-8")
        try:
            PDDLReader(raise_on_error=True).parse_domain(str(path))
        except Exception as error:
            return f"ACPBench's PDDL reader (tarski) refuses the domain: {_first_line(error)}"
    return None


@lru_cache(maxsize=4096)
def record_problem(domain_pddl: str, problem_pddl: str) -> str | None:
    """Why ACPBench's code cannot score a record with this PDDL (its reader refuses the domain or the problem, or its
    relaxed-reachability grounding fails on the problem's state); None when it can."""
    refused = domain_problem(domain_pddl)
    if refused is not None:
        return refused
    from tarski.grounding.lp_grounding import LPGroundingStrategy
    from tarski.io import PDDLReader
    from tarski.syntax import Atom
    from tarski.syntax.transform.action_grounding import ground_schema_into_plain_operator_from_grounding

    with tempfile.TemporaryDirectory() as folder:
        domain, problem = Path(folder) / "domain.pddl", Path(folder) / "problem.pddl"
        domain.write_text(domain_pddl.lower(), encoding="utf-8")
        problem.write_text(problem_pddl.lower(), encoding="utf-8")
        reader = PDDLReader(raise_on_error=True)
        try:
            reader.parse_domain(str(domain))
            parsed = reader.parse_instance(str(problem))
        except Exception as error:
            return f"ACPBench's PDDL reader (tarski) refuses the problem: {_first_line(error)}"
        stage = "grounding (tarski, relaxed reachability) fails on the state"
        try:
            grounder = LPGroundingStrategy(parsed, include_variable_inequalities=True)
            groundings = grounder.ground_actions()
            fluents = {variable.to_atom() for variable in grounder.ground_state_variables().objects}
            stage = "STRIPS view of the grounded problem fails on the state (its :init, goal or an action)"
            [atom for atom in parsed.init.as_atoms() if atom in fluents]  # numeric fluents fail here
            if not isinstance(parsed.goal, Atom):
                [atom for atom in parsed.goal.subformulas if atom in fluents]
            for name, bindings in groundings.items():
                schema = parsed.get_action(name)
                for binding in bindings:
                    ground_schema_into_plain_operator_from_grounding(schema, binding)
        except Exception as error:
            return f"ACPBench's {stage}: {_first_line(error)}"
    return None


def unjudgeable(questions: list[Question]) -> dict[int, str]:
    """{question id: why ACPBench's code cannot score it} for the records it cannot score: generative records whose
    evaluator reads the PDDL with tarski (each task's `tarski_check`) where tarski cannot read or ground it."""
    found = {}
    for q in questions:
        needs = TASKS[q.task].tarski_check(q) if q.format == "gen" else None
        if needs is None:
            continue
        reason = record_problem(q.domain_pddl, q.problem_pddl)
        if reason is not None:
            found[q.id] = f"{needs} needs tarski: {reason}"
    return found

"""Loading domains, problems and tasks from file paths, PDDL text, or `pddl` package objects."""

from __future__ import annotations

from pathlib import Path

from apb.engine.errors import PDDLError
from apb.engine.input_files import MAX_PDDL_BYTES, read_input
from apb.engine.limits import MAX_PROBLEM_CHARS, over_limit
from apb.engine.model import Domain, Problem
from apb.engine.parser import parse_domain, parse_problem
from apb.engine.task import Task


def _read(source, kind: str) -> tuple[str, str | None]:
    """(text, name) from a path, PDDL text, or an object of the `pddl` package (printed as PDDL)."""
    if isinstance(source, Path):
        return _read_file(source, kind), str(source)
    if isinstance(source, str):
        if "(" in source or "\n" in source or not source.strip():  # PDDL text, possibly empty or all comments
            return source, None
        return _read_file(Path(source), kind), source
    module = type(source).__module__ or ""
    if module.startswith("pddl."):
        return str(source), f"<pddl.{type(source).__name__}>"
    raise PDDLError(f"expected a {kind} file path or PDDL text, got {type(source).__name__}")


def _read_file(path: Path, kind: str) -> str:
    return read_input(path, f"{kind} file", limit=MAX_PDDL_BYTES,
                      error=lambda reason: PDDLError(reason, file=str(path)))


def load_domain(domain) -> Domain:
    """Parses a domain from a path, PDDL text or a `pddl.core.Domain`."""
    text, name = _read(domain, "domain")
    return parse_domain(text, name)


def load_problem(problem, domain: Domain) -> Problem:
    """Parses a problem (path, PDDL text or `pddl.core.Problem`) against a parsed domain."""
    text, name = _read(problem, "problem")
    return parse_problem(text, domain, name)


def problem_from_text(text: str, domain: Domain, name: str = "<answer>") -> Problem:
    """Parses PDDL problem text that may come from a model: only ever read as text (never opened as a path), and
    text over `apb.engine.limits.MAX_PROBLEM_CHARS` is refused with PDDLError before it is read."""
    if not isinstance(text, str):
        raise PDDLError(f"expected PDDL problem text, got {type(text).__name__}", file=name)
    refused = over_limit(text, MAX_PROBLEM_CHARS, "problem text")
    if refused is not None:
        raise PDDLError(refused, file=name)
    return parse_problem(text, domain, name)


def load_task(domain, problem, progress=None) -> Task:
    """Parses and grounds a task: `load_task("domain.pddl", "p01.pddl")` or with PDDL text. `progress`: see
    `Task`."""
    parsed = domain if isinstance(domain, Domain) else load_domain(domain)
    return Task(parsed, load_problem(problem, parsed), progress=progress)

"""Loading domains, problems and tasks from file paths, PDDL text, or `pddl` package objects."""

from __future__ import annotations

from pathlib import Path

from apb.engine.errors import PDDLError, PDDLSemanticError
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


def problem_file_text(path: str | Path) -> str:
    """A problem file read as the scorers read a model's problem text: its first `MAX_PROBLEM_CHARS` + 1
    characters (checked as every input file is), so a CLI scorer answers a huge file as fast, and with the same
    verdict, as the in-process scorer answers the text (`problem_from_text` refuses it)."""
    return read_input(path, "problem file", limit=MAX_PDDL_BYTES, head=MAX_PROBLEM_CHARS + 1,
                      error=lambda reason: PDDLError(reason, file=str(path)))


def problem_from_text(text: str, domain: Domain, name: str = "<answer>") -> Problem:
    """Parses PDDL problem text that may come from a model: only ever read as text (never opened as a path), and
    text over `apb.engine.limits.MAX_PROBLEM_CHARS` is refused with PDDLError before it is read."""
    if not isinstance(text, str):
        raise PDDLError(f"expected PDDL problem text, got {type(text).__name__}", file=name)
    refused = over_limit(text, MAX_PROBLEM_CHARS, "problem text")
    if refused is not None:
        raise PDDLError(refused, file=name)
    return parse_problem(text, domain, name)


def require_same_domain(problem: Problem, domain: Domain) -> Problem:
    """The problem, or PDDLSemanticError when its `(:domain NAME)` names another domain. The parser only warns (a
    model's problem is scored, not refused); the commands given a domain and a problem file refuse it."""
    if problem.domain_name != domain.name:
        raise PDDLSemanticError(f"the problem is for domain {problem.domain_name!r}, but "
                                f"{domain.source or 'the domain'} defines domain {domain.name!r}", file=problem.source,
                                hint="pass the problem's own domain file, or fix its (:domain ...) line")
    return problem


def load_task(domain, problem, progress=None, deadline: float | None = None, *, same_domain: bool = False) -> Task:
    """Parses and grounds a task: `load_task("domain.pddl", "p01.pddl")` or with PDDL text. `progress` and
    `deadline` (a time.monotonic() value: grounding stops with DeadlineExceeded once it has passed): see `Task`.
    `same_domain`: a problem for another domain is an error (`require_same_domain`), not a warning."""
    parsed = domain if isinstance(domain, Domain) else load_domain(domain)
    loaded = load_problem(problem, parsed)
    if same_domain:
        require_same_domain(loaded, parsed)
    return Task(parsed, loaded, progress=progress, deadline=deadline)

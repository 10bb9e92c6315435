"""Benchmark domains of the NL->PDDL task: Planetarium's five domain files, keyed by benchmark and domain name.

A problem names its domain in `(:domain NAME)`; `resolve_domain` finds that name among the shipped files (the key is
`planetarium/NAME`, since `floor-tile` is also the IPC 2011 domain bundled in apb.domains), or takes a domain given
explicitly as a key, a path, PDDL text or a parsed Domain.
"""

from __future__ import annotations

import re
from pathlib import Path

from apb.engine import Domain, load_domain
from apb.engine.errors import ApbError

DOMAIN_DIR = Path(__file__).parent / "domains"
BENCHMARKS = {"planetarium": ("blocksworld", "gripper", "floor-tile", "rover-single", "rover")}
_DOMAIN_REF = re.compile(r"\(\s*:domain\s+([^\s()]+)\s*\)", re.IGNORECASE)
_cache: dict[str, Domain] = {}


class UnknownBenchmarkDomainError(ApbError):
    """A domain name that no shipped benchmark has, and no domain was given."""


def domain_keys() -> list[str]:
    """Every shipped domain as `benchmark/name`."""
    return [f"{bench}/{name}" for bench, names in BENCHMARKS.items() for name in names]


def domain_path(key: str) -> Path:
    """The file of `benchmark/name` (or a bare name, looked up in Planetarium)."""
    bench, _, name = key.rpartition("/")
    bench = bench or "planetarium"
    if name not in BENCHMARKS.get(bench, ()):
        raise UnknownBenchmarkDomainError(f"unknown benchmark domain {key!r}: shipped are {', '.join(domain_keys())}")
    return DOMAIN_DIR / bench / f"{name}.pddl"


def benchmark_domain(key: str) -> Domain:
    """The parsed domain of `benchmark/name` (parsed once)."""
    path = domain_path(key)
    if str(path) not in _cache:
        _cache[str(path)] = load_domain(path)
    return _cache[str(path)]


def domain_name_of(problem_text: str) -> str | None:
    """The NAME of `(:domain NAME)` in a problem's text, lower-cased, or None."""
    match = _DOMAIN_REF.search(problem_text)
    return match.group(1).lower() if match else None


def is_domain_key(value: str) -> bool:
    """Whether `value` names a shipped domain (`floor-tile`, `planetarium/gripper`)."""
    try:
        domain_path(value)
    except UnknownBenchmarkDomainError:
        return False
    return True


def resolve_domain(problem_text: str, domain: Domain | str | Path | None = None) -> Domain:
    """The domain to read `problem_text` against: `domain` if given (a key, path, PDDL text or Domain), else the
    shipped domain its `(:domain NAME)` names."""
    if isinstance(domain, Domain):
        return domain
    if isinstance(domain, str) and "(" not in domain and is_domain_key(domain) and not Path(domain).is_file():
        return benchmark_domain(domain)
    if domain is not None:
        return load_domain(domain)
    name = domain_name_of(problem_text)
    if name is None:
        raise UnknownBenchmarkDomainError("the problem has no (:domain NAME): give the domain explicitly "
                                          f"(one of {', '.join(domain_keys())}, or a domain file)")
    if not is_domain_key(name):
        raise UnknownBenchmarkDomainError(f"(:domain {name}) is not a shipped benchmark domain "
                                          f"({', '.join(domain_keys())}): give the domain file explicitly")
    return benchmark_domain(name)

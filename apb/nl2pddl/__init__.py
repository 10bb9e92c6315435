"""The NL->PDDL problem benchmark (Planetarium's task, for any domain): score a generated problem against the gold
one (parseable, solvable, correct), build (description, gold problem) pairs from apb's datasets, import Planetarium's
rows, run an LLM over pairs and report.
"""

from apb.nl2pddl.evaluate import Assessment, Evaluation, assess, evaluate
from apb.nl2pddl.registry import (
    UnknownBenchmarkDomainError,
    benchmark_domain,
    domain_keys,
    domain_path,
    resolve_domain,
)

__all__ = [
    "Assessment",
    "Evaluation",
    "UnknownBenchmarkDomainError",
    "assess",
    "benchmark_domain",
    "domain_keys",
    "domain_path",
    "evaluate",
    "resolve_domain",
]

"""The NL->PDDL problem benchmark (Planetarium's task, for any domain): score a generated problem against the gold
one (parseable, solvable, correct), build (description, gold problem) pairs from apb's datasets, import Planetarium's
rows, run an LLM over pairs and report.
"""

from apb.nl2pddl.build import build_pairs
from apb.nl2pddl.evaluate import Assessment, Evaluation, assess, evaluate
from apb.nl2pddl.planetarium import PairsFormatError, import_planetarium, read_rows
from apb.nl2pddl.registry import (
    UnknownBenchmarkDomainError,
    benchmark_domain,
    domain_keys,
    domain_path,
    resolve_domain,
)
from apb.nl2pddl.report import summarize, write_report
from apb.nl2pddl.runner import run_pairs

__all__ = [
    "Assessment",
    "Evaluation",
    "PairsFormatError",
    "UnknownBenchmarkDomainError",
    "assess",
    "benchmark_domain",
    "build_pairs",
    "domain_keys",
    "domain_path",
    "evaluate",
    "import_planetarium",
    "read_rows",
    "resolve_domain",
    "run_pairs",
    "summarize",
    "write_report",
]

"""Bundled benchmark domains (data: domain.pddl, problems/, plans/, generator.py) and their registry."""

from apb.domains.registry import (
    BUNDLED,
    SPLITS,
    SplitStats,
    UnknownDomainError,
    domain_dir,
    domain_file,
    domain_names,
    generator,
    paper_table6,
    plan_file,
    problem_files,
    split_stats,
)

__all__ = [
    "BUNDLED",
    "SPLITS",
    "SplitStats",
    "UnknownDomainError",
    "domain_dir",
    "domain_file",
    "domain_names",
    "generator",
    "paper_table6",
    "plan_file",
    "problem_files",
    "split_stats",
]

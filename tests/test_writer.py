"""The PDDL writer: printing a parsed domain or problem and parsing it again gives an equal model, for every
domain and problem of the AutoPlanBench reference and for a domain that uses every supported feature.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from conftest import dataset_params
from conftest import require_reference as reference_root

from apb.engine import (
    Domain,
    PDDLWarning,
    Problem,
    domain_to_pddl,
    load_domain,
    load_problem,
    load_task,
    parse_domain,
    parse_problem,
    problem_to_pddl,
)

DATA = Path(__file__).resolve().parent / "data" / "planners"
PROBLEM_FOLDERS = ("orig_problems", "adapted_instances", "orig_few_shot_instance")


def assert_same_domain(a: Domain, b: Domain) -> None:
    for name in ("name", "requirements", "types", "constants", "predicates", "actions"):
        assert getattr(a, name) == getattr(b, name), name


def assert_same_problem(a: Problem, b: Problem) -> None:
    for name in ("name", "domain_name", "objects", "init", "goal"):
        assert getattr(a, name) == getattr(b, name), name
    assert list(a.objects) == list(b.objects), "declaration order"


def round_trip_domain(domain: Domain) -> Domain:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        return parse_domain(domain_to_pddl(domain))


@pytest.mark.parametrize("dataset", dataset_params())
def test_reference_domains_and_problems_survive_a_round_trip(dataset):
    folder = reference_root() / dataset
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        domain = load_domain(folder / "domain.pddl")
        printed = round_trip_domain(domain)
        assert_same_domain(domain, printed)
        assert domain_to_pddl(printed) == domain_to_pddl(domain)
        problems = [p for sub in PROBLEM_FOLDERS for p in sorted((folder / sub).glob("*.pddl"))]
        assert problems
        for path in problems:
            problem = load_problem(path, domain)
            again = parse_problem(problem_to_pddl(problem), printed)
            assert_same_problem(problem, again)


def test_every_supported_feature_is_printed_and_read_back():
    domain_path, problem_path = DATA / "features-domain.pddl", DATA / "features-p01.pddl"
    task = load_task(domain_path, problem_path)
    domain_text, problem_text = domain_to_pddl(task.domain), problem_to_pddl(task.problem)
    for piece in ("(either truck depot)", "(:constants home - place)", "(not (= ?from ?to))", "(not (parked ?t))",
                  "truck bike - vehicle", ":parameters ()", "(ready))"):
        assert piece in domain_text, piece
    assert "(not (at b1 shop))" in problem_text
    assert_same_domain(task.domain, parse_domain(domain_text))
    assert_same_problem(task.problem, parse_problem(problem_text, task.domain))
    printed = load_task(domain_text, problem_text)
    assert [str(a) for a in printed.actions] == [str(a) for a in task.actions]
    assert printed.fact_names == task.fact_names
    assert printed.facts(printed.initial_state) == task.facts(task.initial_state)
    assert printed.validate(["(start)", "(drive t1 shop home)", "(park t1)"]).valid


def test_untyped_domains_stay_untyped():
    task = load_task(DATA / "landmarks-domain.pddl", DATA / "landmarks-p01.pddl")
    text = domain_to_pddl(task.domain)
    assert ":types" not in text and " - " not in text
    assert_same_domain(task.domain, parse_domain(text))
    assert problem_to_pddl(task.problem).count("(:init)") == 1

"""The engine on the AutoPlanBench reference: every domain and problem loads, every gold plan validates,
and the lifted model agrees with the `pddl` package."""

from __future__ import annotations

import warnings
from functools import cache

import pddl
import pytest
from conftest import (
    EXPECTED_DATASETS,
    SPLITS,
    all_gold_cases,
    dataset_dir,
    dataset_kind,
    dataset_params,
    gold_cases,
    orphan_plans,
    problems_without_plan,
    reference_datasets,
    reference_domain,
    require_reference,
    resolve_orphan,
)

from apb.engine import PDDLWarning, load_domain, load_task, parse_plan, read_plan
from apb.engine.model import ROOT_TYPE


def test_reference_has_every_dataset():
    require_reference()
    kinds = {kind: 0 for kind in EXPECTED_DATASETS}
    for name in reference_datasets():
        kinds[dataset_kind(name)] += 1
    assert kinds == EXPECTED_DATASETS
    assert len(reference_datasets()) == 19


@pytest.mark.parametrize("dataset", dataset_params())
def test_domain_loads_with_only_undeclared_requirement_warnings(dataset):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        domain = load_domain(dataset_dir(dataset) / "domain.pddl")
    assert domain.actions, "a reference domain has actions"
    messages = [str(w.message) for w in caught]
    assert all(issubclass(w.category, PDDLWarning) for w in caught), messages
    assert all("does not declare it in :requirements" in m for m in messages), messages
    if dataset == "movie-complex":  # uses (not ...) in preconditions without declaring it
        assert any(":negative-preconditions" in m and "domain.pddl:" in m for m in messages), messages


@pytest.mark.parametrize("dataset", dataset_params())
def test_every_problem_has_a_gold_plan(dataset):
    assert problems_without_plan(dataset) == []
    counts = {split: len(gold_cases(dataset, split)) for split in SPLITS}
    assert counts["orig"] >= 20 and counts["adapted"] >= 20
    if dataset.endswith("_planbench"):
        assert counts["planbench_gold"] == counts["orig"]
    else:
        assert counts["few_shot"] == 1


@pytest.mark.parametrize("dataset", dataset_params())
def test_every_gold_plan_validates(dataset):
    domain = reference_domain(dataset)
    cases = all_gold_cases(dataset)
    failures = []
    for case in cases:
        task = load_task(domain, case.problem)
        assert task.actions, f"{case.id}: grounding found no action"
        plan = read_plan(case.plan)
        assert len(plan) > 0, f"{case.id}: empty plan"
        if plan.cost is not None:
            assert plan.cost == len(plan), f"{case.plan}: cost comment {plan.cost} but {len(plan)} steps"
        if case.rename:
            names = dict(case.rename)
            plan = parse_plan("\n".join("(" + " ".join(names.get(t, t) for t in step.text[1:-1].split()) + ")"
                                        for step in plan))
        result = task.validate(plan)
        if not result.valid:
            failures.append(f"{case.id} ({case.plan.name}): {result.reason}")
        else:
            assert result.steps == len(plan) and task.is_goal(result.final_state)
    assert failures == []
    assert len(cases) >= 40


@pytest.mark.parametrize("dataset", dataset_params())
def test_orphan_gold_plans_are_accounted_for(dataset):
    """Plans without their problem file: adapted ones map back to the original problem, and PlanBench's
    `orig_gold_plans/instance-0` is the one-shot example of the sibling dataset; only PlanBench's adapted
    orphans (renamed differently, without a mapping file) stay unchecked."""
    unresolved = [p for p in orphan_plans(dataset) if resolve_orphan(dataset, p) is None]
    if dataset.endswith("_planbench"):
        assert all(p.parent.name == "adapted_gold_plans" for p in unresolved), unresolved
    else:
        assert unresolved == []


def test_gold_plan_count():
    """~870 gold plans in all; every one is validated by `test_every_gold_plan_validates`."""
    require_reference()
    total = sum(len(all_gold_cases(name)) for name in reference_datasets())
    assert total >= 850


@pytest.mark.parametrize("dataset", dataset_params())
def test_planbench_gold_plans_match_orig_gold_plans(dataset):
    if not dataset.endswith("_planbench"):  # only PlanBench datasets have gold_plans/
        assert gold_cases(dataset, "planbench_gold") == []
        return
    for case in gold_cases(dataset, "planbench_gold"):
        orig = dataset_dir(dataset) / "orig_gold_plans" / case.plan.name
        assert read_plan(case.plan).actions == read_plan(orig).actions
        assert read_plan(case.plan).cost == len(read_plan(orig))


# ---- differential test against the `pddl` package ---------------------------------------------------------

@cache
def _parse_with_pddl(path):
    """(domain, None) from the `pddl` package, or (None, error) when it rejects the file."""
    try:
        return pddl.parse_domain(path), None
    except Exception as err:  # the pddl package raises a variety of its own errors
        return None, err


@cache
def _first_orig_problem(dataset):
    """The first orig problem (by instance number) and the `pddl` package's parse of it."""
    case = gold_cases(dataset, "orig")[0]
    return case, pddl.parse_problem(case.problem)


@pytest.mark.parametrize("dataset", dataset_params())
def test_lifted_model_agrees_with_pddl_package(dataset):
    path = dataset_dir(dataset) / "domain.pddl"
    ours = reference_domain(dataset)
    theirs, error = _parse_with_pddl(path)
    if theirs is None:
        # The `pddl` package rejects `(:types ... object ...)` (gripper); PDDL allows it and so do we.
        assert "object" in str(error), error
        assert ROOT_TYPE in path.read_text(encoding="utf-8").lower().split("(:types", 1)[1].split(")", 1)[0]
        assert dataset.startswith("gripper")
        problem = sorted(dataset_dir(dataset).joinpath("orig_problems").glob("*.pddl"))[0]
        assert load_task(ours, problem).actions
        return
    assert {a.name.lower(): len(a.parameters) for a in theirs.actions} == {
        a.name: len(a.parameters) for a in ours.actions}
    assert {p.name.lower(): p.arity for p in theirs.predicates} == {
        name: p.arity for name, p in ours.predicates.items()}
    their_types = {str(t).lower(): (str(parent).lower() if parent else ROOT_TYPE)
                   for t, parent in theirs.types.items()}
    assert their_types == {t: parent for t, parent in ours.types.items() if t != ROOT_TYPE}
    assert {str(c.name).lower() for c in theirs.constants} == set(ours.constants)


@pytest.mark.parametrize("dataset", dataset_params())
def test_problem_agrees_with_pddl_package(dataset):
    domain_path = dataset_dir(dataset) / "domain.pddl"
    if _parse_with_pddl(domain_path)[0] is None:
        assert dataset.startswith("gripper")
        return
    case, theirs = _first_orig_problem(dataset)
    ours = load_task(reference_domain(dataset), case.problem).problem
    assert {str(o.name).lower() for o in theirs.objects} == set(ours.objects)
    assert {str(a).lower().replace("  ", " ") for a in theirs.init} == {str(lit) for lit in ours.init}


@pytest.mark.parametrize("dataset", dataset_params())
def test_load_task_accepts_pddl_package_objects(dataset):
    domain_path = dataset_dir(dataset) / "domain.pddl"
    their_domain, _ = _parse_with_pddl(domain_path)
    if their_domain is None:
        assert dataset.startswith("gripper")
        return
    case, their_problem = _first_orig_problem(dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        from_objects = load_task(their_domain, their_problem)
    from_files = load_task(reference_domain(dataset), case.problem)
    assert [str(a) for a in from_objects.actions] == [str(a) for a in from_files.actions]
    assert from_objects.fact_names == from_files.fact_names
    assert from_objects.facts(from_objects.initial_state) == from_files.facts(from_files.initial_state)
    assert from_objects.validate(read_plan(case.plan)).valid

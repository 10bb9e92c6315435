"""apb.datasets: AutoPlanBench folders, PDDLGym's library (real and PDDLGym-style test files), plain folders."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import TESTS_DIR, dataset_dir, dataset_params

from apb.datasets import (
    Dataset,
    DatasetError,
    UnknownProblemError,
    from_autoplanbench,
    from_folder,
    from_pddlgym,
    load_dataset,
    pddlgym_domains,
)
from apb.datasets.autoplanbench import PLAN_SPLITS, SPLIT_FOLDERS, aligned_renaming
from apb.datasets.pddlgym_library import ROOT_ENV
from apb.engine import (
    ApbError,
    PDDLSemanticError,
    PDDLWarning,
    UnsupportedFeatureError,
    domain_to_pddl,
    load_domain,
    parse_plan,
    read_plan,
)
from apb.envs.text_env import PDDLTextEnv
from apb.planners import solve

DATA = TESTS_DIR / "data" / "datasets"
STYLE = DATA / "pddlgym_style"
STYLE_BAD = DATA / "pddlgym_bad"
BAD = DATA / "bad"
LAMPS_DOMAIN = DATA / "folder_flat" / "domain.pddl"
REFERENCE_WARNINGS = pytest.mark.filterwarnings("ignore::apb.engine.PDDLWarning")


def assert_gold_plans_valid(ds: Dataset) -> int:
    """Every gold plan of the dataset solves its problem; returns how many there are."""
    count = 0
    for entry in ds.problems:
        plan = ds.gold_plan(entry.id)
        if plan is None:
            continue
        result = ds.task(entry.id).validate(plan)
        assert result.valid, f"{entry.id}: {result.reason}"
        count += 1
    return count


# ---- AutoPlanBench reference folders ---------------------------------------------------------------------------
@REFERENCE_WARNINGS
@pytest.mark.parametrize("name", dataset_params())
def test_reference_folder_loads_with_all_problems_and_descriptions(name):
    folder = dataset_dir(name)
    ds = load_dataset(folder)
    assert ds.layout == "autoplanbench" and ds.name == name and ds.domain_file == folder / "domain.pddl"
    assert ds.domain.name == load_domain(folder / "domain.pddl").name
    for split, sub in SPLIT_FOLDERS.items():
        files = sorted((folder / sub).glob("*.pddl"))
        assert {e.path for e in ds.problems if e.split == split and e.path.parent == folder / sub} == set(files)
    assert set(ds.splits) <= {*SPLIT_FOLDERS, "test"}
    assert "orig" in ds.splits and len(ds.split("orig")) >= 20
    # the paper's 20 test problems: orig without the copy of the few-shot example (the scaled sets have no copy)
    test = ds.split("test")
    assert len(test) == 20 and set(test) <= set(ds.split("orig"))
    assert len(ds.split("orig")) - len(test) == (0 if name.endswith("_scaled") else 1)
    assert {"action_mappings", "predicate_mappings", "type_hierarchy"} <= set(ds.descriptions[1])


@REFERENCE_WARNINGS
@pytest.mark.slow
@pytest.mark.parametrize("name", dataset_params())
def test_reference_every_gold_plan_validates_through_the_dataset(name):
    folder = dataset_dir(name)
    ds = from_autoplanbench(folder)
    assert assert_gold_plans_valid(ds) == sum(e.plan_path is not None for e in ds.problems)
    used = {e.plan_path for e in ds.problems}
    for plan_dir in PLAN_SPLITS:
        for plan in sorted((folder / plan_dir).glob("*")) if (folder / plan_dir).is_dir() else []:
            if plan in used:
                continue
            # only PlanBench's gold_plans/ repeats orig_gold_plans/; the entry's plan must be the same actions
            assert plan_dir == "gold_plans", f"{plan} belongs to no problem of the dataset"
            entry = ds.entry("orig/" + plan.name.removesuffix("_gold_plan.txt"))
            assert read_plan(plan).actions == ds.gold_plan(entry.id).actions


@REFERENCE_WARNINGS
def test_reference_adapted_plan_without_its_problem_runs_on_the_original_problem(reference):
    ds = load_dataset(reference / "blocksworld")
    entry = ds.entry("adapted/instance-1")
    assert not (reference / "blocksworld" / "adapted_instances" / "instance-1.pddl").exists()
    assert entry.path == reference / "blocksworld" / "orig_problems" / "instance-1.pddl"
    assert entry.plan_renames and read_plan(entry.plan_path).actions != ds.gold_plan(entry.id).actions
    assert ds.task(entry.id).validate(ds.gold_plan(entry.id)).valid
    planbench = load_dataset(reference / "blocksworld_planbench")
    assert planbench.entry("few_shot/instance-0").path == reference / "blocksworld" / "orig_few_shot_instance" / \
        "instance-0.pddl"
    assert len(planbench.split("adapted")) == len(ds.split("adapted"))


# ---- AutoPlanBench layout on small files -----------------------------------------------------------------------
def test_autoplanbench_splits_ids_and_natural_order():
    ds = load_dataset(DATA / "apb_mini")
    assert [e.id for e in ds] == ["orig/instance-1", "orig/instance-2", "orig/instance-10", "adapted/instance-0",
                                  "adapted/instance-1", "adapted/instance-2", "adapted/instance-10",
                                  "few_shot/instance-0"]
    assert ds.splits == ["orig", "adapted", "few_shot", "test"]
    assert [e.id for e in ds.split("few_shot")] == ["few_shot/instance-0"]
    assert [e.id for e in ds.split("test")] == ["orig/instance-1", "orig/instance-2", "orig/instance-10"]
    assert assert_gold_plans_valid(ds) == 8


def test_autoplanbench_test_view_leaves_out_the_copy_of_the_few_shot_problem(tmp_path):
    folder = tmp_path / "apb_mini"
    shutil.copytree(DATA / "apb_mini", folder)
    example = (folder / "orig_few_shot_instance" / "instance-0.pddl").read_text()
    copy = example.replace("(problem few-0)", "(problem   inst-3)").replace("\n", "\n  ; a comment\n", 1)
    (folder / "orig_problems" / "instance-3.pddl").write_text(copy.upper())
    ds = load_dataset(folder)
    assert [e.id for e in ds.split("orig")] == ["orig/instance-1", "orig/instance-2", "orig/instance-3",
                                                "orig/instance-10"]
    assert [e.id for e in ds.split("test")] == ["orig/instance-1", "orig/instance-2", "orig/instance-10"]
    only = ds.only("test")
    assert only.splits == ["test"] and [e.id for e in only] == ["orig/instance-1", "orig/instance-2",
                                                                 "orig/instance-10"]
    assert only.entry("instance-2").path == folder / "orig_problems" / "instance-2.pddl"
    env = PDDLTextEnv(dataset=folder, split="test")
    _, info = env.reset(options={"problem": 10})
    assert info["problem_id"] == "orig/instance-10" and info["gold_plan"] == ["(switch-off l1)", "(switch-on l1 r1)"]
    assert info["optimal_plan_length"] is None  # AutoPlanBench's gold plans are not all optimal


def test_autoplanbench_orphan_adapted_plan_uses_the_object_mapping():
    ds = from_autoplanbench(DATA / "apb_mini")
    entry = ds.entry("adapted/instance-1")
    assert entry.path == DATA / "apb_mini" / "orig_problems" / "instance-1.pddl"
    assert entry.plan_path == DATA / "apb_mini" / "adapted_gold_plans" / "instance-1_gold_plan.txt"
    assert read_plan(entry.plan_path).actions == ["(switch-on lamp_1 room_1)"]
    assert ds.gold_plan(entry.id).actions == ["(switch-on l2 r2)"]
    assert ds.task(entry.id).validate(ds.gold_plan(entry.id)).valid


def test_autoplanbench_planbench_folder_borrows_few_shot_problem_and_aligns_orphan_plans():
    ds = load_dataset(DATA / "apb_mini_planbench")
    few_shot = ds.entry("few_shot/instance-0")
    assert few_shot.path == DATA / "apb_mini" / "orig_few_shot_instance" / "instance-0.pddl"
    assert few_shot.plan_path == DATA / "apb_mini_planbench" / "orig_gold_plans" / "instance-0_gold_plan.txt"
    adapted = ds.entry("adapted/instance-1")  # no adapted problem, no object mapping: aligned with the orig plan
    assert adapted.plan_renames == {"blue_lamp": "l2", "green_room": "r2"}
    assert assert_gold_plans_valid(ds) == 4


def test_aligned_renaming_needs_one_consistent_bijection():
    orig = parse_plan("(switch-on l1 r1)\n(switch-on l2 r2)")
    assert aligned_renaming(parse_plan("(switch-on a x)\n(switch-on b y)"), orig) == {
        "a": "l1", "x": "r1", "b": "l2", "y": "r2"}
    assert aligned_renaming(parse_plan("(switch-on a x)\n(switch-on a y)"), orig) is None  # a -> l1 and l2
    assert aligned_renaming(parse_plan("(switch-on a x)\n(switch-on b x)"), orig) is None  # x -> r1 and r2
    assert aligned_renaming(parse_plan("(switch-on a x)\n(switch-on c x)"), parse_plan(
        "(switch-on l1 r1)\n(switch-on l1 r1)")) is None  # a and c -> l1: not one-to-one
    assert aligned_renaming(parse_plan("(switch-off a)\n(switch-on b y)"), orig) is None
    assert aligned_renaming(parse_plan("(switch-on a x)"), orig) is None


def test_autoplanbench_descriptions_keyed_by_seed():
    ds = load_dataset(DATA / "apb_mini")
    assert sorted(ds.descriptions) == [1, 2]
    assert ds.descriptions[2]["action_nl_templates"]["switch-off"] == "turn off {?l}"
    assert load_dataset(DATA / "folder_flat").descriptions == {}


def test_autoplanbench_plan_for_a_missing_problem_is_an_error():
    with pytest.raises(DatasetError, match=r"instance-5_gold_plan\.txt: gold plan for a missing problem") as info:
        load_dataset(BAD / "apb_orphan")
    assert "adapted_instances" in str(info.value)


def test_from_autoplanbench_refuses_a_plain_folder():
    with pytest.raises(DatasetError, match=r"not an AutoPlanBench folder.*from_folder"):
        from_autoplanbench(DATA / "folder_flat")


# ---- problem lookup ---------------------------------------------------------------------------------------------
def test_problem_lookup_by_number_id_stem_path_and_digits():
    ds = load_dataset(DATA / "apb_mini")
    # every split together: the ids' numbers repeat, so problems are numbered by position from 1
    assert ds.numbers() == [1, 2, 3, 4, 5, 6, 7, 8] and not ds.numbered
    assert ds.entry(3).id == ds.entry("3").id == "orig/instance-10"
    assert ds.entry("orig/instance-2").path.name == "instance-2.pddl"
    assert from_pddlgym("lamps", root=STYLE).entry("problem1").id == "train/problem1"  # a unique stem
    assert ds.entry(DATA / "apb_mini" / "adapted_instances" / "instance-2.pddl").id == "adapted/instance-2"
    assert ds.entry(str(DATA / "apb_mini" / "orig_problems" / "instance-2.pddl")).id == "orig/instance-2"
    assert ds.entry("8").id == "few_shot/instance-0"
    assert ds.task(1).problem.name == ds.task("orig/instance-1").problem.name == "inst-1"
    orig = ds.only("orig")  # one split: the numbers the ids end with
    assert orig.numbers() == [1, 2, 10] and orig.numbered
    assert orig.entry(10).id == orig.entry("10").id == "orig/instance-10"
    assert orig.entry(1).id == orig.entry(" 1 ").id == "orig/instance-1"


def test_problem_lookup_errors_list_what_exists():
    ds = load_dataset(DATA / "apb_mini")
    with pytest.raises(UnknownProblemError, match=r"ambiguous.*adapted/instance-2"):
        ds.entry("instance-2")
    with pytest.raises(UnknownProblemError, match=r"no problem 'orig/instance-7'.*orig/instance-1, orig/instance-2"):
        ds.task("orig/instance-7")
    with pytest.raises(UnknownProblemError, match=r"no problem number 9 .*problem numbers here: 1-8"):
        ds.gold_plan(9)
    with pytest.raises(UnknownProblemError, match=r"no problem number 0 .*problem numbers here: 1-2, 10"):
        ds.only("orig").entry("0")
    with pytest.raises(UnknownProblemError):
        ds.entry(True)
    with pytest.raises(DatasetError, match=r"no split 'train'.*orig, adapted, few_shot, test"):
        ds.split("train")
    assert isinstance(UnknownProblemError("x"), ApbError)


# ---- plain folders ------------------------------------------------------------------------------------------------
def test_plain_folder_with_problems_next_to_the_domain():
    ds = load_dataset(DATA / "folder_flat")
    assert ds.layout == "folder" and ds.splits == ["problems"]
    assert [(e.id, e.plan_path.name) for e in ds] == [("p01", "p01.plan"), ("p02", "p02_gold_plan.txt")]
    assert ds.gold_plan("p02").actions == ["(switch-on hall_lamp hall)", "(switch-off desk_lamp)",
                                           "(switch-on desk_lamp study)"]
    assert assert_gold_plans_valid(ds) == 2


def test_plain_folder_with_problems_subfolder_and_txt_plans():
    ds = load_dataset(DATA / "folder_problems" / "domain.pddl")  # the domain file stands for its folder
    assert [e.id for e in ds] == ["large", "small"] and ds.splits == ["problems"]
    assert ds.gold_plan("large") is None
    assert ds.entry("small").plan_path.name == "small.txt"
    assert assert_gold_plans_valid(ds) == 1


def test_plain_folder_with_explicit_problem_and_plan_folders():
    ds = from_folder(DATA / "bad" / "orphan_plan", problem_dir="problems", plan_dir="problems")
    assert [e.id for e in ds] == ["p01"] and ds.gold_plan("p01") is None
    with pytest.raises(DatasetError, match="no such plan folder"):
        from_folder(DATA / "folder_flat", plan_dir="gold")


def test_folder_without_domain_names_the_likely_domain_file():
    with pytest.raises(DatasetError, match=r"no_domain: no domain\.pddl.*lamps-domain\.pddl looks like the domain"):
        load_dataset(BAD / "no_domain")


def test_empty_folder_and_missing_path(tmp_path):
    with pytest.raises(DatasetError, match=r"no domain\.pddl in this folder"):
        load_dataset(tmp_path)
    shutil.copy(LAMPS_DOMAIN, tmp_path / "domain.pddl")
    with pytest.raises(DatasetError, match="no problem files"):
        load_dataset(tmp_path)
    with pytest.raises(DatasetError, match="no such file or folder"):
        load_dataset(tmp_path / "nowhere" / "set.pddl")


def test_problem_for_another_domain_is_an_error():
    with pytest.raises(DatasetError, match=r"p02\.pddl: this problem is for domain 'switches'.*defines domain "
                                           r"'lamps'") as info:
        load_dataset(BAD / "wrong_domain")
    assert "(:domain ...)" in str(info.value)


def test_plan_for_a_missing_problem_is_an_error():
    with pytest.raises(DatasetError, match=r"p09\.plan: gold plan for a missing problem.*p09\.pddl"):
        load_dataset(BAD / "orphan_plan")


def test_two_plans_for_one_problem_is_an_error():
    with pytest.raises(DatasetError, match=r"two plans for problem p01: p01\.plan and p01\.txt"):
        load_dataset(BAD / "two_plans")


# ---- PDDLGym conventions on our own small files ------------------------------------------------------------------
def test_pddlgym_style_domain_normalises_to_standard_pddl():
    ds = from_pddlgym("lamps", root=STYLE)
    assert ds.layout == "pddlgym" and ds.domain_file == STYLE / "lamps.pddl"
    assert set(ds.domain.predicates) == {"lit", "inroom", "bright"}
    assert domain_to_pddl(ds.domain) == domain_to_pddl(load_domain(LAMPS_DOMAIN))
    assert ds.domain.action("switch-off").precondition == ()


def test_pddlgym_style_real_actions_section_and_nested_conjunctions():
    ds = from_pddlgym("lampsdecl", root=STYLE)
    assert set(ds.domain.predicates) == {"lit", "inroom", "bright"}
    assert [str(lit) for lit in ds.domain.action("switch-on").precondition] == ["(inroom ?l ?r)", "(not (lit ?l))"]
    assert [str(a) for a in solve(ds.task(0), "bfs").plan] == ["(switch-on hall_lamp hall)"]


def test_pddlgym_style_splits_ids_goal_before_init_and_dropped_action_facts():
    ds = from_pddlgym("lamps", root=STYLE)
    assert [(e.id, e.split) for e in ds] == [("train/problem0", "train"), ("train/problem1", "train"),
                                            ("test/problem0", "test")]
    problem = ds.problem("train/problem0")  # its (:goal ...) comes before its (:init ...)
    assert [str(g) for g in problem.goal] == ["(bright hall)"]
    assert [str(f) for f in problem.init] == ["(inroom hall_lamp hall)"]
    task = ds.task("train/problem1")
    assert not any("switch" in fact for fact in task.facts(task.initial_state))
    with pytest.raises(UnknownProblemError, match="ambiguous"):
        ds.entry("problem0")


def test_pddlgym_style_action_facts_do_not_restrict_actions():
    # PDDLGym ignores the init's action facts, so the desk lamp (which has none) can be switched too
    task = from_pddlgym("lamps", root=STYLE).task("train/problem1")
    result = solve(task, "bfs")
    assert result.status == "solved" and "(switch-on desk_lamp study)" in [str(a) for a in result.plan]
    assert task.validate(result.plan).valid


def test_pddlgym_style_errors_keep_file_and_line():
    ds = from_pddlgym("typo", root=STYLE_BAD)
    with pytest.raises(PDDLSemanticError) as info:
        ds.task(0)
    assert info.value.file.endswith(os.path.join("typo", "problem0.pddl"))
    assert (info.value.line, info.value.column) == (7, 23) and "kitchen" in info.value.message


def test_pddlgym_style_action_predicate_outside_the_precondition_is_refused():
    with pytest.raises(PDDLSemanticError, match="action predicate 'switchon' used outside") as info:
        from_pddlgym("misused", root=STYLE_BAD)
    assert info.value.file.endswith("misused.pddl") and info.value.line == 10


@pytest.mark.parametrize(("name", "feature", "line"), [("coinflip", "probabilistic effects", 3)])
def test_pddlgym_style_unsupported_features_are_named(name, feature, line):
    with pytest.raises(UnsupportedFeatureError, match=feature) as info:
        load_dataset(STYLE_BAD / f"{name}.pddl")
    assert info.value.file == str(STYLE_BAD / f"{name}.pddl") and info.value.line == line


def test_pddlgym_style_quantified_effects_load_now_that_the_engine_is_adl():
    with pytest.warns(PDDLWarning, match="does not declare it"):  # a forall effect without :adl
        ds = load_dataset(STYLE_BAD / "quantified.pddl")
    task = ds.task("problem0")
    state = task.apply(task.initial_state, "(switch-all)")
    assert {f for f in task.facts(state) if f.startswith("(lit ")} == {f"(lit {lamp})" for lamp, kind in
                                                                      task.objects.items() if kind == "lamp"}


def test_pddlgym_library_lists_domains_with_problems_and_suggests_names():
    assert pddlgym_domains(STYLE) == ["lamps", "lampsdecl"]
    with pytest.raises(DatasetError, match=r"no PDDLGym domain 'lamp' \(did you mean lamps, lampsdecl\? "
                                           r"available: lamps, lampsdecl\)"):
        from_pddlgym("lamp", root=STYLE)
    with pytest.raises(DatasetError, match=r"noproblems\.pddl has no problem folder"):
        from_pddlgym("noproblems", root=STYLE)
    with pytest.raises(DatasetError, match="no such folder"):
        from_pddlgym("lamps", root=STYLE / "missing")


def test_load_dataset_finds_pddlgym_entries_by_name_path_and_env(monkeypatch):
    monkeypatch.setenv(ROOT_ENV, str(STYLE))
    for source in ("lamps", "pddlgym:lamps", STYLE / "lamps.pddl", STYLE / "lamps_test", str(STYLE / "lamps")):
        ds = load_dataset(source)
        assert (ds.layout, ds.name, len(ds)) == ("pddlgym", "lamps", 3), source
    monkeypatch.setenv(ROOT_ENV, str(STYLE / "missing"))
    with pytest.raises(DatasetError, match=f"no such folder \\(set by \\${ROOT_ENV}\\)"):
        from_pddlgym("lamps")


def test_missing_pddlgym_gives_install_hint(monkeypatch):
    monkeypatch.delenv(ROOT_ENV, raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    with pytest.raises(DatasetError, match=r"pddlgym is not installed.*pip install pddlgym"):
        from_pddlgym("baking")
    with pytest.raises(DatasetError, match="baking: no such file or folder, and no PDDLGym library"):
        load_dataset("baking")


# ---- PDDLGym's own library (optional: pddlgym installed, or $APB_PDDLGYM_ROOT) ---------------------------------
def installed_pddlgym_library() -> Path | None:
    """PDDLGym's pddl/ folder from $APB_PDDLGYM_ROOT or the installed package (found without importing it)."""
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV])
    spec = importlib.util.find_spec("pddlgym")
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "pddl").is_dir():
            return Path(location) / "pddl"
    return None


@REFERENCE_WARNINGS
@pytest.mark.parametrize("name", ["blocks", "gripper", "depot", "baking"])
def test_pddlgym_library_domains_load_ground_and_solve(name):
    library = installed_pddlgym_library()
    if library is None:
        pytest.skip(f"pddlgym is not installed and ${ROOT_ENV} is not set (pddlgym is an optional extra)")
    imported_before = "pddlgym" in sys.modules
    ds = from_pddlgym(name, root=library)
    assert imported_before or "pddlgym" not in sys.modules  # read as data files, never imported
    assert ds.splits == ["train", "test"] and len(ds.split("train")) >= 4 and len(ds.split("test")) >= 4
    for entry in ds:  # every problem parses against the normalised domain
        assert ds.problem(entry.id).domain_name == ds.domain.name
    task = ds.task(0)
    result = solve(task, "gbfs", timeout=60)
    assert result.status == "solved" and task.validate(result.plan).valid
    if name in ("blocks", "baking"):  # action predicates removed from the domain
        assert not {"pickup", "putegginpan"} & set(ds.domain.predicates)
    if name == "baking":  # the closed-loop study's domain: every problem has a reachable goal
        for entry in ds:
            assert solve(ds.task(entry.id), "bfs", timeout=60).status == "solved", entry.id

"""The reader of ACPBench's released English (apb.acp.english): every generative record's context read back equals
its PDDL, and the solver answers the released bool/MCQ records from their English alone, every answer accepted by
the official scorer (issue 21)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from apb.acp.acceptance import judge
from apb.acp.english import ContextError, Template, domain_of, domains, read_context
from apb.acp.english.questions import read_question
from apb.acp.importer import import_file
from apb.acp.records import Question
from apb.acp.solver import solve_question

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "acpbench"
if not REFERENCE.is_dir():
    REFERENCE = Path("/work/shared/reference/acpbench")
DATASET = REFERENCE / "dataset"
needs_reference = pytest.mark.skipif(not DATASET.is_dir(), reason="ACPBench's dev split is not in ../shared")
DEV_DOMAINS = ("blocksworld", "ferry", "floortile", "grid", "grippers", "logistics", "rovers", "visitall")
# the release's other five domains are in the test split only: tests/test_acp_english_release.py and
# tests/test_acp_english_alfworld.py read text written in their wording
SUPPORTED = {*DEV_DOMAINS, "alfworld", "depot", "goldminer", "satellite", "swap"}
CHOICE_TASKS = ("app", "prog", "reach", "areach", "val", "just", "land")
# The solver's figures on the 560 released bool/MCQ dev records (printed by
# `python benchmarks/acp_solver.py --formats bool,mcq`): every one is answered and accepted by the official scorer.
# One Floortile just MCQ names two actions each removable at one of its occurrences (a question with two correct
# options): the solver answers the one removable latest in the plan, which is the gold's.
UNANSWERED: dict[str, set[int]] = {}


def _facts(text: str) -> set[str]:
    return {re.sub(r"\s+", " ", f.lower()) for f in re.findall(r"\([^()]*\)", text)}


def test_templates_read_lists_and_numbers():
    t = Template("{cs*} are at {l}", ["(at {cs} {l})"])
    assert t.read("c1, c2, and c3 are at l0") == ["(at c1 l0)", "(at c2 l0)", "(at c3 l0)"]
    assert t.read("c1 and c2 are at l0") == ["(at c1 l0)", "(at c2 l0)"]
    assert t.read("c1 is at l0") is None
    free = Template("The left gripper of robot {r} is free", ["(free {r} left{r#})"])
    assert free.read("The left gripper of robot robot2 is free") == ["(free robot2 left2)"]


def test_unsupported_domain_and_unreadable_sentence():
    assert read_context("This is a sokoban domain. Currently, the box is somewhere.") is None
    text = ("This is a ferry domain, where the task is to transport cars. There are 2 locations and 1 car, numbered "
            "consecutively. Currently, the ferry is at l0 location and it is empty. The cars are at locations as "
            "follows: c0 is at l1. The car c0 is painted red.")
    with pytest.raises(ContextError, match="painted red"):
        read_context(text)
    reading = read_context(text.replace(" The car c0 is painted red.", ""))
    assert set(reading.init) == {"(at-ferry l0)", "(empty-ferry)", "(at c0 l1)", "(not-eq l0 l1)", "(not-eq l1 l0)"}
    assert {d.name for d in domains()} == SUPPORTED


@needs_reference
@pytest.mark.parametrize("domain", DEV_DOMAINS)
def test_every_generative_record_reads_back_to_its_pddl(domain):
    """Objects, init (static facts included) and goal read from the English equal the record's PDDL, for each of the
    40 generative records of each domain of the dev split. The one difference allowed: Grid's lock shape of a cell
    already opened, which the English does not state and no action can use again (unlock needs the cell locked)."""
    checked = Counter()
    for path in sorted(DATASET.glob("*/dev.gen.json")):
        for record in json.loads(path.read_text()):
            dom = domain_of(record["context"])
            if dom is None or dom.name != domain:
                continue
            reading = read_context(record["context"])
            problem = record["PDDL_problem"]
            init = _facts(problem.split("(:init")[1].split("(:goal")[0])
            goal = _facts(problem.split("(:goal")[1])
            objects = set(re.findall(r"[\w\-]+", re.sub(r"- [\w\-]+", "", problem.split("(:objects")[1]
                                                        .split("(:init")[0])))
            missing = init - set(reading.init)
            opened = {f.strip("()").split()[1] for f in reading.init if f.startswith("(open ")}
            assert all(f.startswith("(lock-shape ") and f.split()[1] in opened for f in missing), (path, missing)
            assert set(reading.init) <= init, (path, set(reading.init) - init)
            assert set(reading.objects) == objects, path
            if dom.goal_start in record["context"]:
                assert set(reading.goal) == goal, path
            assert dom.pddl.strip() == record["PDDL_domain"].strip()
            checked[dom.name] += 1
    assert checked == {domain: 40}


@needs_reference
def test_reader_never_reads_the_answer():
    q = import_file(DATASET / "val" / "dev.mcq.json")[0]
    read = read_question(q)
    blank = read_question(Question(**{**q.__dict__, "answer": None}))
    assert read.item == blank.item and read.options == blank.options and read.problem_pddl == blank.problem_pddl


@pytest.mark.slow
@needs_reference
@pytest.mark.parametrize("task", CHOICE_TASKS)
def test_solver_on_released_bool_and_mcq_records(task):
    """Every released bool/MCQ record is answered from its English (the gold blanked before the solver runs) except
    the listed ones, and the official scorer accepts every answer: no record needs a gold-wrong proof."""
    unanswered, accepted = set(), 0
    for fmt in ("bool", "mcq"):
        for q in import_file(DATASET / task / f"dev.{fmt}.json"):
            assert domain_of(q.context) is not None
            gold, q.answer = q.answer, None
            found = solve_question(q)
            q.answer = gold
            if found is None:
                unanswered.add(q.id)
                continue
            outcome = judge(q, found[1])
            assert outcome.kind == "accepted", (task, fmt, q.id, found, outcome.reason)
            accepted += 1
    assert unanswered == UNANSWERED.get(task, set())
    assert accepted == 80 - len(unanswered)

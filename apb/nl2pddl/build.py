"""Builds NL->PDDL pairs from any dataset apb reads: the English description (apb's NL layer, as the envs word a
task) and the gold PDDL problem, with Planetarium's fields.

Every problem gives an explicit pair (every initial fact and goal fact in words). Where facts of one predicate cover
every object of a type the same way ("every ball is in room b", "every block is clear"), abstract variants word them
as one phrase, as Planetarium's generator pairs each initial description (explicit or abstract) with each goal
description: `-abstract-init` (abstract initial state, explicit goal), `-abstract-goal` (explicit initial state,
abstract goal) and `-abstract` (both), each where that part has such a phrase; the `init` / `goal` fields and the
`init_is_abstract` / `goal_is_abstract` flags say which. Such a phrase fixes the facts exactly, so abstract pairs
are not placeholders (`is_placeholder` is False).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from apb.engine import Task
from apb.envs.text_env import PDDLTextEnv
from apb.equivalence.scene import EquivalenceError, goal_literals
from apb.nl.grammar import join_and
from apb.nl.render import DomainText, TaskText

PAIRS_FILE = "pairs.jsonl"


def _abstract_groups(facts: list[tuple], objects: dict[str, str], min_size: int = 2) -> list[tuple]:
    """(predicate, position, args with None at the position, type) for fact groups covering every object of a type
    at one argument position, all other arguments equal."""
    by_type: dict[str, set[str]] = defaultdict(set)
    for name, kind in objects.items():
        by_type[kind].add(name)
    groups: dict[tuple, set[str]] = defaultdict(set)
    for fact in facts:
        for pos, arg in enumerate(fact[1:]):
            key = (fact[0], pos, tuple(None if i == pos else a for i, a in enumerate(fact[1:])), objects.get(arg))
            groups[key].add(arg)
    found, used = [], set()
    for key in sorted(groups, key=str):
        pred, pos, args, kind = key
        members = groups[key]
        if kind is None or len(members) < min_size or members != by_type[kind]:
            continue
        facts_of = {(pred, *(m if a is None else a for a in args)) for m in members}
        if facts_of & used:
            continue
        used |= facts_of
        found.append(key)
    return found


def _words(facts: list[tuple], objects: dict[str, str], words: DomainText, templates,
           abstract: bool = True) -> tuple[str, bool]:
    """The facts in English, each covering group as one 'every <noun>' phrase (when `abstract`); and whether any
    group was used."""
    groups = _abstract_groups(facts, objects) if abstract else []
    covered = set()
    phrases = []
    for pred, _pos, args, kind in groups:
        noun = templates.type_noun(kind) or "object"
        phrase = words.fact(pred, tuple(f"every {noun}" if a is None else a for a in args), True)
        phrases.append(phrase.replace(f"{noun} every {noun}", f"every {noun}"))  # "gripper every gripper"
        covered |= {fact for fact in facts if fact[0] == pred and all(
            a is None or a == b for a, b in zip(args, fact[1:], strict=True))}
    phrases += [words.fact(f[0], f[1:], True) for f in facts if f not in covered]
    return join_and(phrases) or "nothing is the case", bool(groups)


def _row(source: str, entry_id: str, task: Task, text: TaskText, problem_pddl: str, domain_file: str,
         variant: str, language: str, init_abstract: bool, goal_abstract: bool) -> dict:
    problem = task.problem
    return {
        "id": f"{source}-{entry_id}-{variant}", "name": problem.name, "domain": task.domain.name,
        "domain_file": domain_file, "source": source, "problem_id": entry_id,
        "init": "abstract" if init_abstract else "explicit", "goal": "abstract" if goal_abstract else "explicit",
        "natural_language": language, "problem_pddl": problem_pddl, "init_is_abstract": init_abstract,
        "goal_is_abstract": goal_abstract, "is_placeholder": False, "num_objects": len(problem.objects),
        "init_num_propositions": len(problem.init), "goal_num_propositions": len(goal_literals(problem)),
    }


def build_pairs(dataset: str, count: int, out: str | Path, *, split: str | None = None,
                description: str = "curated", executor: str = "thread", concurrency: int = 1) -> list[dict]:
    """Writes DIR/pairs.jsonl (and the domain file under DIR/domains/) for the first `count` problems of `dataset`
    (a bundled domain name, dataset folder, ... as `apb run` takes); returns the rows. Each problem is an item of
    `executor` (thread | ray; `concurrency` at a time): the rows do not depend on either."""
    from apb.eval.executors import absolute_source, collect

    dataset = absolute_source(dataset)
    env = _env(dataset, split, description)
    out = Path(out)
    (out / "domains").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(env.dataset.domain_file, out / f"domains/{env.dataset.name}.pddl")
    items = [ProblemPairs(dataset, split, description, entry.id) for entry in list(env.dataset)[:count]]
    records = collect(items, out, executor=executor, concurrency=concurrency)
    rows = [row for record in records for row in record["rows"]]
    write_rows(rows, out / PAIRS_FILE)
    return rows


_envs: dict[tuple, PDDLTextEnv] = {}
_envs_lock = threading.Lock()


def _env(dataset: str, split: str | None, description: str) -> PDDLTextEnv:
    """The text env of a dataset, one per process (problems are read through it; its rendering is read-only)."""
    key = (dataset, split, description)
    with _envs_lock:
        if key not in _envs:
            _envs[key] = PDDLTextEnv(dataset, split=split, description=description)
        return _envs[key]


class ProblemPairs:
    """The pairs of one problem (explicit, and the abstract variants it has) as an item of the runner's executors."""

    model = None

    def __init__(self, dataset: str, split: str | None, description: str, problem: str) -> None:
        self.dataset, self.split, self.description = dataset, split, description
        self.id = problem

    def run(self, out_dir: Any, llm: Any, stop: Any) -> dict:
        return {"id": self.id, "rows": problem_pairs(_env(self.dataset, self.split, self.description), self.id)}


def problem_pairs(env: PDDLTextEnv, entry_id: str) -> list[dict]:
    """The rows of one problem of the env's dataset: none when its goal is quantified or disjunctive."""
    source = env.dataset.name
    domain_rel = f"domains/{source}.pddl"
    task = env.dataset.task(entry_id)
    try:
        goal_atoms = goal_literals(task.problem)
    except EquivalenceError:
        return []  # a quantified or disjunctive goal is outside the task
    text = TaskText(task, env.templates)
    problem_pddl = env.dataset.problem_text(entry_id)
    explicit = text.problem_description()
    rows = [_row(source, entry_id, task, text, problem_pddl, domain_rel, "explicit", explicit, False, False)]
    objects = dict(task.problem.objects)
    init = [(lit.predicate, *lit.args) for lit in task.problem.init]
    goal = [(lit.predicate, *lit.args) for lit in goal_atoms if lit.positive]
    init_words = {kind: _words(init, objects, text.words, env.templates, kind) for kind in (False, True)}
    goal_words = {kind: _words(goal, objects, text.words, env.templates, kind) for kind in (False, True)}
    for init_abstract, goal_abstract, variant in ((True, False, "abstract-init"), (False, True, "abstract-goal"),
                                                  (True, True, "abstract")):
        if (init_abstract and not init_words[True][1]) or (goal_abstract and not goal_words[True][1]):
            continue  # that part has no phrase covering a whole type: its abstract description is the explicit one
        language = (f"I have the following objects: {text.objects()}.\n\nCurrently, "
                    f"{init_words[init_abstract][0]}.\n\nMy goal is that {goal_words[goal_abstract][0]}.")
        rows.append(_row(source, entry_id, task, text, problem_pddl, domain_rel, variant, language,
                         init_abstract, goal_abstract))
    return rows


def write_rows(rows: list[dict], path: Path) -> None:
    """Writes rows as JSON lines (replacing the file)."""
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
        handle.flush()
        os.fsync(handle.fileno())

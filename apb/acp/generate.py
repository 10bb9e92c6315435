"""Generates ACP questions from a dataset: problems -> state spaces -> sampled states -> the eight tasks -> wording.

Everything random comes from seeded `random.Random` objects derived from (seed, task, format, question number),
never from the view, so `--view nl` and `--view pddl` give the same questions with the same gold. Every search is
bounded in states or expansions, never in seconds, so the same settings write the same file under any load; the
one wall-clock limit (`time_limit` per group, a safety net) stops a group and is reported as such (`stats.timed_out`,
and `apb acp generate` exits 1 naming it), never silently.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from apb.acp.balance import target
from apb.acp.errors import ACPError
from apb.acp.records import FORMATS, TASKS, Question, group_name, question_id, task_formats
from apb.acp.sampling import rollout_states, sample_states
from apb.acp.space import DEFAULT_BUDGET, TIME_LIMIT, StateSpace
from apb.acp.tasks import TASKS as REGISTRY
from apb.acp.tasks import ProblemInfo, Situation
from apb.acp.wording import VIEWS, Wording
from apb.engine import PDDLError
from apb.eval.items import ItemInterrupted
from apb.nl.sources import load_templates

STATES_PER_PROBLEM = 8
TRIES_PER_QUESTION = 40
MAX_PROBLEMS = 4  # problems a hard-to-fill group may pull in beyond the first two
WIDEN_ROUNDS = 3  # rounds of random-rollout states per problem for questions the sampled states cannot give
WIDE_TRIES = 30  # further tries of such a question, among those states only (10 per round)
_SAMPLED: dict[tuple, tuple] = {}  # (domain, problem, seed, budget) -> (ProblemInfo, situations), per process
_SAMPLED_LOCKS: dict[tuple, threading.Lock] = {}
_SAMPLED_LOCK = threading.Lock()
# failed tries of a situation before it is given up for a group: per yes/no answer for bool questions, shared by
# the four letters for MCQ (a letter never makes a question harder), once for generative ones (deterministic)
FAILURES = {"bool": 3, "mcq": 6, "gen": 1}


@dataclass
class GenerationStats:
    """What a generation run did: questions per group, seconds per task, problems used and skipped."""

    questions: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    short: dict[str, int] = field(default_factory=dict)
    timed_out: dict[str, int] = field(default_factory=dict)  # group -> questions it kept when the safety net stopped it
    unjudgeable: dict[str, str] = field(default_factory=dict)  # question id -> why ACPBench's code cannot score it
    left_out: int = 0  # unjudgeable records left out (official_only)
    official_check: str | None = None  # why the official check did not run (None: it ran)


def resolve_dataset(source: str):
    """A Dataset from a bundled domain name (its test split) or any dataset folder or problem file."""
    from apb.datasets import resolve

    return resolve(str(source))


def check_choice(values: list[str], allowed: tuple[str, ...], what: str) -> list[str]:
    """The values, or ACPError naming the bad one and the allowed ones."""
    for value in values:
        if value not in allowed:
            raise ACPError(f"unknown {what} {value!r}: choose from {', '.join(allowed)}")
    return values


class Generator:
    """Builds questions from one dataset: situations are created lazily, smallest problems first."""

    def __init__(self, source: str, *, seed: int = 0, budget: int = DEFAULT_BUDGET, description: str = "curated",
                 time_limit: float | None = TIME_LIMIT) -> None:
        self.dataset = resolve_dataset(source)
        self.seed = seed
        self.budget = budget
        self.description = description
        self.time_limit = time_limit
        self.stats = GenerationStats()
        entries = sorted(self.dataset.problems, key=lambda e: (e.path.stat().st_size, e.id))
        self._entries: Iterator = iter(entries)
        self.situations: list[Situation] = []
        self._infos: dict[str, ProblemInfo] = {}
        self._failures: dict[tuple, int] = {}
        self._widened = 0
        self._wide: list[Situation] = []  # rollout states for the questions the sampled ones cannot give
        self._wordings: dict[tuple[str, str], Wording] = {}
        self._domain_pddl = self.dataset.domain_text()
        # a bad description (file) is refused now, not after generating
        load_templates(self.dataset.domain, description, domain_file=self.dataset.domain_file)

    def _more(self) -> bool:
        """Adds the situations of the next problem that loads; False when there are no problems left."""
        for entry in self._entries:
            try:
                info, added = self._sampled(entry)
            except PDDLError as error:
                self.stats.skipped.append(f"{entry.id}: {error}")
                continue
            self._infos[entry.id] = info
            self.stats.problems.append(entry.id)
            if not added:
                continue
            self.situations.extend(added)
            return True
        return False

    def _widen(self) -> None:
        """Adds STATES_PER_PROBLEM more states of every problem in use to the wide pool, from seeded random rollouts
        (at most WIDEN_ROUNDS times): for a question no sampled state gives (Zenotravel's non-trivial landmarks are
        in few states). The sampled pool is left as it is, so every question it gives stays the same."""
        if self._widened >= WIDEN_ROUNDS:
            return
        self._widened += 1
        for problem, info in self._infos.items():
            known = {sit.state for sit in self.situations + self._wide if sit.info is info}
            rng = random.Random(question_id(self.seed, "widen", problem, self._widened))
            for state in rollout_states(info.task, rng, STATES_PER_PROBLEM, known):
                self._wide.append(Situation(info, state, "random"))

    def _sampled(self, entry) -> tuple[ProblemInfo, list[Situation]]:
        """A problem's state space and sampled situations, computed once per process for the task items running
        side by side (they depend only on the problem, the seed and the budget, so sharing them changes nothing but
        the time: large domains' plans and spaces are the bulk of it)."""
        key = (self._domain_pddl, str(entry.path), entry.id, self.seed, self.budget)
        with _SAMPLED_LOCK:
            lock = _SAMPLED_LOCKS.setdefault(key, threading.Lock())
        with lock:
            if key not in _SAMPLED:
                task = self.dataset.task(entry.id)
                space = StateSpace(task, task.initial_state, self.budget)
                info = ProblemInfo(self.dataset.name, entry.id, task, space, self._domain_pddl)
                rng = random.Random(question_id(self.seed, "states", entry.id))
                if len(_SAMPLED) >= 64:
                    _SAMPLED.clear()
                _SAMPLED[key] = info, [Situation(info, state, origin) for state, origin in
                                       sample_states(task, space, rng, STATES_PER_PROBLEM, info.plans)]
            return _SAMPLED[key]

    def one(self, task: str, fmt: str, number: int, seen: set[int], balance_seed: int | None = None
            ) -> Question | None:
        """The `number`-th question of a group: tries situations in a seeded order until one fits, with the gold
        the balancing rule (`apb.acp.balance.target`, keyed by `balance_seed`, else the seed) gives that number."""
        generator = REGISTRY[task].generate
        expected = target(fmt, number, self.seed if balance_seed is None else balance_seed)
        want = expected == "yes" if fmt == "bool" else expected
        repeats = 0
        for attempt in range(TRIES_PER_QUESTION + WIDE_TRIES):
            wide = attempt >= TRIES_PER_QUESTION
            if wide and self._widened <= (attempt - TRIES_PER_QUESTION) // 10:
                self._widen()  # no sampled state gives this question: rollout states of every problem in use
            elif attempt and attempt % 10 == 0 and (repeats or len(self.stats.problems) < MAX_PROBLEMS):
                self._more()  # the states so far cannot fill this group (or only repeat questions): widen the pool
            pool = self._wide if wide else self.situations
            if not pool:
                break
            rng = random.Random(question_id(self.seed, task, fmt, number, attempt))
            sit = pool[rng.randrange(len(pool))]
            key = (id(sit), task, fmt, want if fmt == "bool" else None)  # an MCQ fails the same for every letter
            if self._failures.get(key, 0) >= FAILURES[fmt]:
                continue  # this situation cannot give such a question (generative ones fail deterministically)
            question = generator(sit, fmt, rng, want)
            if question is not None and expected is not None and question.answer != expected:
                question = None  # the proved gold is not the one this number needs: another situation
            if question is not None and question.id not in seen:
                return question
            repeats += question is not None
            if question is None:
                self._failures[key] = self._failures.get(key, 0) + 1
        return None

    def generate(self, tasks: list[str], formats: list[str], count: int, stop: Any = None, first: int = 0,
                 balance_seed: int | None = None) -> list[Question]:
        """`count` questions for every (task, format) pair, where the task has the format, numbered from `first`
        (the number picks the gold by the balancing rule); `stop` (an Event, set on Ctrl-C) ends the work between
        two questions with ItemInterrupted."""
        check_choice(tasks, TASKS, "task")
        check_choice(formats, FORMATS, "format")
        if count < 1:
            raise ACPError(f"--count must be at least 1, got {count}")
        while len(self.situations) < 2 * STATES_PER_PROBLEM and self._more():
            pass
        if not self.situations:
            raise ACPError(f"dataset {self.dataset.name!r} has no problem apb can generate questions from"
                           + (f" ({self.stats.skipped[0]})" if self.stats.skipped else ""))
        questions: list[Question] = []
        seen: set[int] = set()
        for task in tasks:
            start = time.perf_counter()
            for fmt in formats:
                if fmt not in task_formats(task):
                    continue
                made = 0
                group_start = time.perf_counter()
                for number in range(first, first + count):
                    if stop is not None and stop.is_set():
                        raise ItemInterrupted
                    if self.time_limit and time.perf_counter() - group_start > self.time_limit:
                        # the safety net: this run's file is no longer the deterministic one; said loudly
                        self.stats.timed_out[group_name(task, fmt)] = made
                        break
                    question = self.one(task, fmt, number, seen, balance_seed)
                    if question is None:
                        continue
                    seen.add(question.id)
                    questions.append(question)
                    made += 1
                group = group_name(task, fmt)
                self.stats.questions[group] = made
                if made < count:
                    self.stats.short[group] = count - made
            self.stats.seconds[task] = self.stats.seconds.get(task, 0.0) + time.perf_counter() - start
        return questions

    def word(self, questions: list[Question], view: str = "nl") -> list[Question]:
        """Fills the text of every question in the view (nl or pddl)."""
        if view not in VIEWS:
            raise ACPError(f"unknown view {view!r}: use nl or pddl")
        for q in questions:
            info = self._infos[q.problem]
            key = (q.problem, view)
            wording = self._wordings.get(key)
            if wording is None:
                wording = self._wordings[key] = Wording(info.task, view, description=self.description,
                                                        domain_file=self.dataset.domain_file,
                                                        domain_pddl=self._domain_pddl)
            wording.render(q, info.task.state_from_facts(q.state))
        return questions


class TaskItem:
    """The questions of one task (every format asked) as an item of the one runner's executors: its own Generator,
    so tasks run side by side (threads, or Ray workers) and give the same questions in any order."""

    model = None

    def __init__(self, source: str, task: str, formats: list[str], count: int, *, seed: int, view: str,
                 description: str, budget: int, time_limit: float | None = TIME_LIMIT, start: int = 0,
                 balance_seed: int | None = None) -> None:
        self.id = task
        self.source, self.formats, self.count = source, formats, count
        self.seed, self.view, self.description, self.budget = seed, view, description, budget
        self.time_limit = time_limit
        self.first, self.balance_seed = start, balance_seed

    def run(self, out_dir: Any, llm: Any, stop: Any) -> dict:
        # in threads (a stop Event given) generate() has set the filter for them all (catch_warnings is not
        # thread-safe); a Ray worker (stop None) sets its own
        with warnings.catch_warnings() if stop is None else contextlib.nullcontext():
            warnings.simplefilter("ignore", category=UserWarning)
            generator = Generator(self.source, seed=self.seed, budget=self.budget, description=self.description,
                                  time_limit=self.time_limit)
            questions = generator.word(generator.generate([self.id], self.formats, self.count, stop, self.first,
                                                          self.balance_seed), self.view)
        return {"id": self.id, "questions": [q.to_dict() for q in questions], "stats": asdict(generator.stats)}


def merge_stats(parts: list[dict]) -> GenerationStats:
    """The statistics of a whole run from those of its task items (problems and skips once each, in order)."""
    stats = GenerationStats()
    for part in parts:
        stats.questions.update(part["questions"])
        stats.seconds.update(part["seconds"])
        stats.short.update(part["short"])
        stats.timed_out.update(part.get("timed_out") or {})
        stats.problems += [p for p in part["problems"] if p not in stats.problems]
        stats.skipped += [s for s in part["skipped"] if s not in stats.skipped]
    return stats


def generate(source: str, *, tasks: list[str] | None = None, formats: list[str] | None = None, count: int = 10,
             seed: int = 0, view: str = "nl", description: str = "curated", budget: int = DEFAULT_BUDGET,
             executor: str = "thread", concurrency: int = 1, time_limit: float | None = TIME_LIMIT,
             official_only: bool = False, start: int = 0, balance_seed: int | None = None
             ) -> tuple[list[Question], GenerationStats]:
    """Questions about a dataset (bundled name or folder), worded in `view`; with the run's statistics. Each task is
    an item of `executor` (thread | ray; `concurrency` at a time): the questions do not depend on either, nor on the
    machine's load (`time_limit`: seconds per group, a safety net reported in `stats.timed_out`; None: none). The
    golds are balanced (`apb.acp.balance`): questions are numbered from `start` in each group, and a caller that asks
    one question per entry passes the entry's index as `start` and its dataset's seed as `balance_seed`. With the
    `acp-official` extra, `stats.unjudgeable` names the generative records ACPBench's code cannot score
    (`apb.acp.judgeable`) and `official_only` leaves them out (ACPError without the extra)."""
    from apb.acp.judgeable import EXTRA, available, unjudgeable
    from apb.eval.executors import absolute_source, collect

    tasks = check_choice(list(TASKS if tasks is None else tasks), TASKS, "task")
    formats = check_choice(list(FORMATS if formats is None else formats), FORMATS, "format")
    if not tasks or not formats:
        raise ACPError(f"no {'task' if not tasks else 'format'} to generate: name at least one (or pass None for all)")
    if count < 1:
        raise ACPError(f"--count must be at least 1, got {count}")
    if view not in VIEWS:
        raise ACPError(f"unknown view {view!r}: use nl or pddl")
    missing = available()
    if official_only and missing is not None:
        raise ACPError(f"--official-only needs ACPBench's PDDL tools: pip install '{EXTRA}' ({missing})")
    source = absolute_source(source)
    resolve_dataset(source)  # a bad name or folder fails here, once
    items = [TaskItem(source, task, formats, count, seed=seed, view=view, description=description, budget=budget,
                      time_limit=time_limit, start=start, balance_seed=balance_seed) for task in tasks]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=UserWarning)
        records = collect(items, ".", executor=executor, concurrency=concurrency)
    questions = [Question.from_dict(q) for record in records for q in record["questions"]]
    stats = merge_stats([record["stats"] for record in records])
    stats.official_check = missing
    if missing is None:
        stats.unjudgeable = {str(qid): why for qid, why in unjudgeable(questions).items()}
        if official_only:
            kept = [q for q in questions if str(q.id) not in stats.unjudgeable]
            stats.left_out = len(questions) - len(kept)
            questions = kept
    return questions, stats

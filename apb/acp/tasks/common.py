"""What every task generator shares: the situation a question is asked in (a problem and a state, with its lazy
analyses), building `Question`s with stable ids, MCQ option shuffling, and the universes of atoms and actions."""

from __future__ import annotations

import copy
import itertools
import random
import threading
import weakref
from dataclasses import dataclass, field, replace

from apb.acp.proofs import Prover
from apb.acp.records import LABELS, Question, question_id
from apb.acp.space import StateSpace
from apb.acp.truth import question_prover
from apb.engine import ApbError, GroundAction, Literal, State, Task, problem_to_pddl
from apb.engine.ground import fluent_predicates
from apb.planners.h2 import H2

SMALL_BUDGET = 1000  # states enumerated for a state that is outside its problem's (incomplete) space
WITNESS_NODES = 200_000  # expansions of the lazy greedy search (h_FF, preferred operators) that finds a plan beyond the
# enumerated space: deterministic, as every budget here is a count of states or expansions, never of seconds
GREEDY_NODES = 3000  # expansions of that search for a generation situation without a known plan (300 left most
# of Barman's random-walk states without one)
_UNSET = object()
_GREEDY_PLANS: dict[tuple, list[str] | None] = {}
_VIEWS = threading.local()  # per thread: {task: its view} (`task_at`)
UNIVERSE_LIMIT = 20000  # atoms or actions; larger universes are sampled, and "None" answers are not generated


@dataclass
class ProblemInfo:
    """A problem questions are generated from: its task, the state space from its initial state, and its PDDL."""

    dataset: str
    problem: str
    task: Task
    space: StateSpace
    domain_pddl: str
    provers: dict = field(default_factory=dict)
    plans: dict = field(default_factory=dict)  # state -> a known plan from it (beyond the enumerated space)
    _h2: H2 | None = None

    def h2(self) -> H2:
        """h^2 from the initial state: its mutexes hold in every state reachable from there."""
        if self._h2 is None:
            self._h2 = H2(self.task, self.task.initial_state)
        return self._h2


class Situation:
    """A state of a problem, where questions are asked; analyses are computed on first use and shared."""

    def __init__(self, info: ProblemInfo, state: State, origin: str, greedy_nodes: int = GREEDY_NODES,
                 known_plan: list[str] | None = None) -> None:
        self.info = info
        self.known_plan = known_plan  # a plan from the state found elsewhere (the rest of a plan it lies on)
        self.greedy_nodes = greedy_nodes
        self.task = info.task
        self.state = state
        self.origin = origin
        self.facts = sorted(self.task.facts(state))
        self._plan: list[str] | object | None = _UNSET
        self.cache: dict = {}
        self._problem_pddl: str | None = None

    @property
    def prover(self) -> Prover:
        prover = self.info.provers.get(self.state)
        if prover is None:
            # a state outside an incomplete problem space gets a small space of its own: enough for witnesses,
            # while "never" claims then rest on the relaxation and h^2
            budget = self.info.space.budget if self.info.space.complete else SMALL_BUDGET
            prover = Prover(self.task, self.state, self.info.space, h2=self.info.h2, budget=budget)
            self.info.provers[self.state] = prover
        return prover

    def plan(self) -> list[str] | None:
        """A shortest plan from the state within the enumerated space; beyond it (the space from the state is not
        complete) the rest of the plan sampling found through the state (`ProblemInfo.plans`), else one from greedy
        search (`greedy_plan`, GREEDY_NODES expansions); None when there is no plan or none is found."""
        if self._plan is _UNSET:
            # computed in full before it is stored: the generators of tasks running side by side in threads share
            # situations, and one must never see the "no plan" of another that is still searching
            found = self.prover.plan()
            plan = None if found is None else [str(a) for a in found]
            if found is None and not self.prover.exhaustive:
                known = self.known_plan or self.info.plans.get(self.state)
                plan = list(known) if known else self._greedy()
            self._plan = plan
        return self._plan

    def _greedy(self) -> list[str] | None:
        """`greedy_plan` from the state, shared by the generators of one process (each task's generator has its own
        situations of the same states; the plan depends only on the problem, the state and the budget)."""
        info = self.info
        key = (info.domain_pddl, info.dataset, info.problem, self.state.bits, self.greedy_nodes)
        if key not in _GREEDY_PLANS:
            if len(_GREEDY_PLANS) > 4096:
                _GREEDY_PLANS.clear()
            _GREEDY_PLANS[key] = greedy_plan(self.task, self.state, self.greedy_nodes)
        return _GREEDY_PLANS[key]

    def problem_pddl(self) -> str:
        """The problem with the state as its :init (static facts included)."""
        if self._problem_pddl is None:
            init = [atom_literal(f) for f in sorted(self.task.static_facts) + self.facts]
            problem = replace(self.task.problem, init=tuple(init))
            self._problem_pddl = problem_to_pddl(problem)
        return self._problem_pddl

    def question(self, task: str, fmt: str, item: dict, answer, gold: dict, proof: dict,
                 options: list[dict] | None = None) -> Question:
        """A question about this situation; its id depends only on view-independent data."""
        info = self.info
        qid = question_id(info.dataset, info.problem, self.facts, task, fmt, item, options)
        return Question(id=qid, task=task, format=fmt, domain=info.dataset, problem=info.problem,
                        state=list(self.facts), goal=[str(lit) for lit in self.task.goal], item=item,
                        options=options, answer=answer, gold=gold, proof=proof, domain_pddl=info.domain_pddl,
                        problem_pddl=self.problem_pddl(), origin=self.origin, budget=info.space.budget)


def task_at(task: Task, state: State) -> Task:
    """The task with `state` as its initial state (a shallow copy that shares the grounding, one per task and
    thread: the task items of `apb acp generate` run side by side in threads and share their problems' tasks, so a
    view shared between threads could have its initial state changed by another thread during a search)."""
    views = getattr(_VIEWS, "by_task", None)
    if views is None:
        views = _VIEWS.by_task = weakref.WeakKeyDictionary()
    view = views.get(task)
    if view is None:
        view = views[task] = copy.copy(task)
    view.initial_state = state
    return view


def greedy_plan(task: Task, state: State, max_nodes: int = WITNESS_NODES, avoid: int = 0) -> list[str] | None:
    """A plan from `state` by lazy greedy best-first search with h_FF and its preferred operators, as LAMA's first
    iteration (apb.planners.lazy_gbfs; at most `max_nodes` expansions, no time limit: the same plan on every run),
    on which no fact of `avoid` (a bitmask) ever holds; None when none is found."""
    from apb.planners.lazy_gbfs import lazy_greedy

    result = lazy_greedy(task_at(task, state), timeout=None, max_nodes=max_nodes, avoid=avoid)
    return [str(a) for a in result.plan] if result.solved else None


ATOM_NODES = 3000  # expansions of the greedy search for a plan that makes one atom true (a reachability witness)


def atom_plan(task: Task, state: State, fid: int, max_nodes: int = ATOM_NODES) -> list[str] | None:
    """A plan from `state` to a state where fact `fid` holds: greedy best-first search (h_FF, preferred operators)
    on the task with that fact as its only goal, at most `max_nodes` expansions; None when none is found."""
    view = copy.copy(task)
    text = f"({task.fact_names[fid].strip('()')})"
    view.goal = (atom_literal(text),)
    view._goal_checks = ((fid, True, text),)
    view.goal_parts = view.goal_extra = view.goal_neg = ()
    view.goal_pos, view.goal_pos_mask, view.goal_neg_mask = (fid,), 1 << fid, 0
    return greedy_plan(view, state, max_nodes)


def atom_literal(atom: str) -> Literal:
    name, *args = atom.strip("() ").split()
    return Literal(name, tuple(args))


def arrange(rng: random.Random, correct: dict, distractors: list[dict], label: str) -> tuple[list[dict], str]:
    """Four options: the correct one at `label` (the balancing rule's letter, `apb.acp.balance`) and three
    distractors around it in a seeded random order; with the label."""
    others = list(distractors[:3])
    rng.shuffle(others)
    at = LABELS.index(label)
    return [*others[:at], correct, *others[at:]], label


def pick(rng: random.Random, items: list, count: int) -> list:
    """Up to `count` distinct items in a seeded random order (items sorted first, so the order of the input does
    not matter)."""
    items = sorted(items, key=str)
    rng.shuffle(items)
    return items[:count]


_ATOMS: weakref.WeakKeyDictionary[Task, list[str]] = weakref.WeakKeyDictionary()
_ACTIONS: weakref.WeakKeyDictionary[Task, list[str]] = weakref.WeakKeyDictionary()
_PARSED: weakref.WeakKeyDictionary[Task, dict] = weakref.WeakKeyDictionary()


def _objects_of(task: Task, types: tuple[str, ...]) -> list[str]:
    return sorted(name for name, kind in task.objects.items() if task.domain.is_subtype(kind, types))


def bindings(task: Task, schemas):
    """'(name arg ...)' for every type-consistent binding of (name, parameters) pairs, lazily, in sorted order
    per schema."""
    for name, parameters in schemas:
        domains = [_objects_of(task, p.types) for p in parameters]
        for args in itertools.product(*domains):
            yield "(" + " ".join((name, *args)) + ")"


def sampled_bindings(task: Task, schemas, rng: random.Random, count: int) -> list[str]:
    """Up to `count` distinct type-consistent bindings drawn at random (a schema, then each parameter's object), for
    universes too big to list (`bindings` enumerates them in order); at most 4 * count draws."""
    domains = [(name, [_objects_of(task, p.types) for p in parameters]) for name, parameters in schemas]
    domains = [(name, objects) for name, objects in domains if all(objects)]
    found: dict[str, None] = {}
    for _ in range(4 * count if domains else 0):
        name, objects = domains[rng.randrange(len(domains))]
        found["(" + " ".join((name, *(rng.choice(o) for o in objects))) + ")"] = None
        if len(found) >= count:
            break
    return list(found)


def fluent_schemas(task: Task) -> list[tuple[str, tuple]]:
    """(name, parameters) of the domain's fluent predicates."""
    fluent = fluent_predicates(task.domain)
    return [(name, schema.parameters) for name, schema in task.domain.predicates.items() if name in fluent]


def action_schemas(task: Task) -> list[tuple[str, tuple]]:
    """(name, parameters) of the domain's actions."""
    return [(schema.name, schema.parameters) for schema in task.domain.actions]


def _ground_all(task: Task, schemas) -> list[str] | None:
    """Every type-consistent binding of (name, parameters) pairs; None above the limit."""
    found = list(itertools.islice(bindings(task, schemas), UNIVERSE_LIMIT + 1))
    return None if len(found) > UNIVERSE_LIMIT else found


def atom_universe(task: Task) -> list[str] | None:
    """Every type-consistent ground atom of a fluent predicate (None when there are more than UNIVERSE_LIMIT)."""
    if task not in _ATOMS:
        _ATOMS[task] = _ground_all(task, fluent_schemas(task))
    return _ATOMS[task]


def action_universe(task: Task) -> list[str] | None:
    """Every type-consistent ground action (None when there are more than UNIVERSE_LIMIT)."""
    if task not in _ACTIONS:
        _ACTIONS[task] = _ground_all(task, action_schemas(task))
    return _ACTIONS[task]


def parsed_action(task: Task, text: str) -> GroundAction | None:
    """`task.parse_action(text)`, remembered per task; None when the task cannot ground it (e.g. an action whose
    cost the problem does not define)."""
    cache = _PARSED.get(task)
    if cache is None:
        cache = _PARSED[task] = {}
    if text not in cache:
        try:
            cache[text] = task.parse_action(text)
        except ApbError:
            cache[text] = None
    return cache[text]


def question_situation(q: Question) -> Situation:
    """A generation situation for a given question's own state (for landmark and h* analyses)."""
    prover = question_prover(q)
    info = ProblemInfo(q.domain or "question", q.problem or str(q.id), prover.task, prover.space, q.domain_pddl)
    info.provers[prover.state] = prover
    return Situation(info, prover.state, "question", WITNESS_NODES)  # answering one question: a patient search

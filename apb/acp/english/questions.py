"""A released bool/MCQ record read into the PDDL question apb's solver decides: `read_question(q)` returns a copy
of `q` with `domain_pddl` and `problem_pddl` (the domain's file, the objects, state and goal its context states) and
the `item` and `options` the question and choices name, in apb's own item shapes (each task's
`decide`, `apb.acp.tasks`).

The question wordings are `questions.yaml`; actions and atoms are read with the domain's templates
(`apb.acp.english`). The record's answer is never read. Where the English is ambiguous, every reading is kept:
a just question naming an action that occurs several times in the plan carries each occurrence (`steps_any`),
and the solver reads "can the action be removed" as "can one of its occurrences be removed"; a val plan with a step
that the domain file lists as ambiguous carries every reading (`plans_any`), and the solver answers only when every
reading gives the same answer. A `switch` step (Alfworld's "toggles") reads as the one of its actions that
applies where it is performed, and a phrasing whose template has `when` conditions reads by the context's facts.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from functools import cache

import yaml

from apb.acp.english.context import Reading, read_context, readings, segmentations, split_atoms
from apb.acp.english.domains import Domain, domains
from apb.acp.english.generated import read_generated_atoms
from apb.acp.english.phrases import HERE, ContextError, normal_space, read_one
from apb.acp.records import Question
from apb.acp.truth import canonical_action, first_failure
from apb.engine import ApbError, Task, load_domain, load_task

MAX_READINGS = 16  # readings of a plan with ambiguous steps that a question is decided over
Known = frozenset[str] | None  # the context's facts (init, static facts included), which `when` templates consult


@cache
def wordings() -> dict:
    return yaml.safe_load((HERE / "questions.yaml").read_text())


def read_action(dom: Domain, text: str, known: Known = None) -> str:
    """The PDDL action an English phrase names (ContextError when no template, or templates that disagree, read
    it); `known`: the context's facts, for phrasings whose action depends on them (templates with `when`)."""
    text = normal_space(text).rstrip(".")
    facts = read_one(dom.actions, text, known)
    if facts and len(facts) == 1:
        return facts[0]
    if read_one(dom.non_actions, text):
        return f"(not-an-action-of-{dom.name})"
    for other in domains():  # an action of another domain (the release's distractors) is no action of this one
        found = read_one(other.actions, text) if other is not dom else None
        if found:
            return f"(foreign-{other.name}-{found[0].strip('()')})"
    raise ContextError(f"{dom.name}: cannot read the action {text[:100]!r}")


def read_atoms(dom: Domain, text: str, reading: Reading | None = None) -> list[str]:
    """The atoms of 'A and B' (each read with the domain's atom templates; in apb's wording of a domain, as the
    types of the reading's objects admit)."""
    if dom.generated is not None:
        return read_generated_atoms(dom, text, reading)
    return [f for part in split_atoms(dom, normal_space(text).rstrip(".")) for f in part]


class Switch(list):
    """The alternatives of a `switch` phrasing: it names the one that applies where the action is performed."""


def read_plan(dom: Domain, text: str, known: Known = None, task: Task | None = None) -> list[list[str]]:
    """A comma-separated sequence of English actions, in PDDL: every reading of it (one unless a step has an
    `ambiguous` phrasing of the domain file, then one per combination; ContextError when it cannot be read). A
    `switch` step reads as the alternative that applies in the state `task` reaches there (its first when none
    does, or no `task` is given)."""
    pieces = re.split(r"(,\s+)", normal_space(text))
    ways = segmentations(pieces[0::2], pieces[1::2], lambda s: _step_or_none(dom, s, known), limit=2)
    if len(ways) != 1:
        raise ContextError(f"{dom.name}: {'cannot read' if not ways else 'ambiguous'} plan {text[:100]!r}")
    plans = [list(p) for p in itertools.product(*ways[0]) if _switched(task, ways[0], p)]
    if len(plans) > MAX_READINGS:
        raise ContextError(f"{dom.name}: more than {MAX_READINGS} readings of the plan {text[:100]!r}")
    return plans


def _switched(task: Task | None, steps: list[list[str]], plan: tuple[str, ...]) -> bool:
    """Whether `plan` takes at each `switch` step the alternative that applies there (the first when none does)."""
    if not any(isinstance(alternatives, Switch) for alternatives in steps):
        return True
    state = task.initial_state if task is not None else None
    for alternatives, action in zip(steps, plan):
        if isinstance(alternatives, Switch) and action != _applying(task, state, alternatives):
            return False
        if state is not None:
            ground = canonical_action(task, action)
            state = None if ground is None or task.explain(state, ground) else task.apply(state, ground)
    return True


def _applying(task: Task | None, state, alternatives: list[str]) -> str:
    """The first alternative that applies in `state`, else the first."""
    if task is not None and state is not None:
        for action in alternatives:
            ground = canonical_action(task, action)
            if ground is not None and not task.explain(state, ground):
                return action
    return alternatives[0]


def _step_or_none(dom: Domain, text: str, known: Known = None) -> list[str] | None:
    """The readings of one plan step: its action, else the alternatives a `switch` (a Switch) or an `ambiguous`
    phrasing allows."""
    try:
        return [read_action(dom, text, known)]
    except ContextError:
        for templates, kind in ((dom.switch, Switch), (dom.ambiguous, list)):
            found = {tuple(r) for t in templates if (r := t.read(normal_space(text).rstrip("."))) is not None}
            if len(found) == 1:
                return kind(next(iter(found)))
        return None


def read_steps(dom: Domain, plan: list[str], text: str, size: int, known: Known = None) -> list[list[int]]:
    """The positions in `plan` of the action (size 1) or consecutive pair (size 2) the text names: every
    occurrence (ContextError when there is none)."""
    text = normal_space(text).rstrip(".")
    if size == 1:
        steps = _step_or_none(dom, text, known)
        if steps is None:
            raise ContextError(f"{dom.name}: cannot read the action {text[:100]!r}")
        actions = [steps]
    else:
        pieces = re.split(r"(\s+and\s+)", text)
        ways = segmentations(pieces[0::2], pieces[1::2], lambda s: _step_or_none(dom, s, known), limit=4)
        ways = [way for way in ways if len(way) == 2]
        if len({tuple(map(tuple, w)) for w in ways}) != 1:
            raise ContextError(f"{dom.name}: cannot read the pair of actions {text[:100]!r}")
        actions = ways[0]
    found = [list(range(i, i + size)) for i in range(len(plan) - size + 1)
             if all(step in alternatives for step, alternatives in zip(plan[i:i + size], actions))]
    if not found:
        raise ContextError(f"{dom.name}: {text[:80]!r} is not a step of the plan")
    return found


def read_question(q: Question, dom: Domain | None = None) -> Question | None:
    """`q` with the PDDL and items its English states; None when its domain has no data file; ContextError when a
    sentence, action or atom is not read. `dom`: the domain to read it as (apb's wording of a domain,
    `apb.acp.english.generated`), else the release's domain its context opens with."""
    if q.format not in ("bool", "mcq"):
        return None
    reading = read_context(q.context, dom)
    if reading is None:
        return None
    dom = reading.domain
    known = frozenset(reading.init)
    spec = _spec(dom, q.task)
    question = normal_space(q.question)
    match, form = None, None
    for form in spec[q.format]:
        match = re.match(form["pattern"], question)
        if match:
            break
    if match is None:
        raise ContextError(f"{q.task} {q.format}: unknown question wording {question[:100]!r}")
    groups = match.groupdict()
    item: dict = {}
    task = _task_of(reading)
    if groups.get("action"):
        item["action"] = _action_in_state(reading, groups["action"], known, task)
    if groups.get("plan"):
        plans = read_plan(dom, groups["plan"], known, task() if dom.switch else None)
        item["plan"] = plans[0]
        if len(plans) > 1:
            if not spec.get("plans_any"):
                raise ContextError(f"{q.task}: a plan with an ambiguous step {groups['plan'][:100]!r}")
            item["plans_any"] = plans
    if form.get("asks"):
        item["asks"] = form["asks"]
    if groups.get("atoms"):
        atoms = read_atoms(dom, groups["atoms"], reading)
        if spec["option"] == "atom":
            if len(atoms) != 1:
                raise ContextError(f"{q.task}: expected one fact, read {atoms}")
            item["atom"] = atoms[0]
        else:
            item["atoms"] = atoms
    if groups.get("steps"):
        item["steps_any"] = read_steps(dom, item["plan"], groups["steps"], form["size"], known)
    options = None
    if q.format == "mcq":
        options = [_option(reading, spec, form, item, text, known, task) for text in (q.choices or {}).get("text")
                   or []]
    return replace(q, domain_pddl=reading.domain_pddl, problem_pddl=reading.problem_pddl(), item=item,
                   options=options, state=list(reading.init), goal=list(reading.goal))


def _spec(dom: Domain, task: str) -> dict:
    """The question wordings of a task: the release's (apb words its questions as the release does)."""
    specs = wordings()
    if task not in specs:
        raise ContextError(f"{task}: no bool/MCQ wording to read")
    return specs[task]


def read_question_readings(q: Question, dom: Domain | None = None) -> list[Question] | None:
    """`read_question(q)` under every reading of its context (`apb.acp.english.readings`): one question unless the
    domain file lists facts the release's English leaves out (None and ContextError as `read_question`)."""
    first = read_question(q, dom)
    if first is None:
        return None
    alternatives = readings(read_context(q.context, dom))
    premise = _spec(alternatives[0].domain, q.task).get("premise")
    if len(alternatives) > 1 and premise == "plan" and first.item.get("plan"):
        alternatives = _plan_premise(alternatives, first.item["plan"])
    elif len(alternatives) > 1 and premise == "action" and first.item.get("action"):
        alternatives = _plan_premise(alternatives, [first.item["action"]], goal=False)
    return [replace(first, domain_pddl=r.domain_pddl, problem_pddl=r.problem_pddl(), state=list(r.init))
            for r in alternatives]


def _task_of(reading: Reading):
    """The reading's task, loaded once and only when asked for."""
    @cache
    def task() -> Task:
        return load_task(reading.domain_pddl, reading.problem_pddl())
    return task


def _action_in_state(reading: Reading, text: str, known: Known, task) -> str:
    """The action a question names in the current state: its one reading, or for a `switch` phrasing the
    alternative that applies there (its first when none does)."""
    try:
        return read_action(reading.domain, text, known)
    except ContextError:
        alternatives = _step_or_none(reading.domain, text, known)
        if not isinstance(alternatives, Switch):
            raise
    ground = task()
    return _applying(ground, ground.initial_state, alternatives)


def _plan_premise(alternatives: list, plan: list[str], goal: bool = True) -> list:
    """A just question's plan is a plan, a prog question's action applies (their premises): every reading gets the
    facts of the `open` predicates the steps require (they hold in the problem the question is about), and a reading
    under which the steps still fail (Swap's not-eq domain for a step that swaps an agent with itself), or the plan
    does not reach the goal, is dropped; all are kept if none is left."""
    opened = {rule["predicate"] for v in alternatives[0].domain.readings for rule in v.get("open") or []}
    needed: set[str] = set()
    if opened:
        schemas = {a.name: a for a in load_domain(alternatives[0].domain_pddl).actions}
        for step in plan:
            name, *args = step.strip("()").split()
            schema = schemas.get(name)
            if schema is None or len(args) != len(schema.parameters):
                continue
            binding = {p.name: a for p, a in zip(schema.parameters, args)}
            needed |= {"(" + " ".join((lit.predicate, *(binding.get(x, x) for x in lit.args))) + ")"
                       for lit in schema.precondition if lit.predicate in opened and lit.positive}
    kept = []
    for r in alternatives:
        r = replace(r, init=sorted(set(r.init) | needed))
        try:
            task = load_task(r.domain_pddl, r.problem_pddl())
        except ApbError:
            continue
        failed, reached = first_failure(task, task.initial_state, plan)
        if failed is None and (reached or not goal):
            kept.append(r)
    return kept or alternatives


def _option(reading: Reading, spec: dict, form: dict, item: dict, text: str, known: Known, task) -> dict:
    dom = reading.domain
    kind = spec["option"]
    if kind == "action":
        return {"action": _action_in_state(reading, text, known, task)}
    if kind == "atoms":
        return {"atoms": read_atoms(dom, text, reading)}
    if kind == "atom":
        atoms = read_atoms(dom, text, reading)
        if len(atoms) != 1:
            raise ContextError(f"expected one fact, read {atoms}")
        return {"atom": atoms[0]}
    if kind == "claim":
        claim = spec["claims"].get(normal_space(text).rstrip("."))
        if claim is None:
            raise ContextError(f"unknown claim {text!r}")
        return {"claim": claim}
    return {"steps_any": read_steps(dom, item["plan"], text, form["size"], known)}

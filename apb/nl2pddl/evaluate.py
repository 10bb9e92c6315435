"""Planetarium's score of a generated PDDL problem against the gold one: parseable, solvable, correct.

- parseable: the text parses against the domain (apb's engine) and its goal is a conjunction of positive atoms
  (negative or disjunctive goals are outside the task, so they count as unparseable);
- solvable: not a state Planetarium's own Blocksworld/Gripper oracle cannot plan from (`apb.nl2pddl.oracle_rules`:
  an unsupported block, a cycle of `on`, balls and no gripper), no quick proof of unsolvability (a goal fact the
  delete relaxation never reaches, two goal facts h^2 proves mutually exclusive, an exact domain rule's verdict:
  see `unsolvable_proof`) and an apb planner finds a plan within its budget (greedy search with h_FF's preferred
  operators; else, with the `planners` extra, Fast Downward's greedy search) that apb's engine validates;
- correct: the problem is solvable and equivalent to the gold one (apb.equivalence: same initial state and goal
  states up to renaming objects and implied goal facts); as in Planetarium, an unsolvable problem is never correct,
  and the equivalence verdict is reported beside the triple (`Assessment.verdict`).
An unparseable problem scores all false, except that what Planetarium's lenient parser reads (an unknown predicate,
an unknown object type, untyped objects in a typed domain) is parseable and never correct, with apb's diagnostic in
`error`; it is solvable as in Planetarium: in Blocksworld and Gripper, which Planetarium plans with an oracle that
skips initial facts of unknown predicates and object types (VAL then accepts the plan), when the problem without
them is solvable; elsewhere, or with an unknown predicate in the goal, never.
The gold problem must parse, or at least be what Planetarium's lenient parser reads (then the predicted problem is
scored as above but is never correct: a problem apb's engine reads is never equivalent to it); anything else is the
caller's error.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from apb.engine import Domain, Problem, Task
from apb.engine.errors import ApbError, PDDLError, PDDLWarning
from apb.engine.loader import problem_file_text, problem_from_text
from apb.equivalence import Budget, check
from apb.equivalence.closure import UNSOLVABLE, is_strips
from apb.equivalence.rules import rule_closure
from apb.equivalence.scene import load_scene
from apb.nl2pddl.oracle_rules import oracle_refusal
from apb.nl2pddl.registry import domain_name_of, is_domain_key, resolve_domain
from apb.planners import solve
from apb.planners.downward import find_driver
from apb.planners.h2 import reachable_pairs
from apb.planners.relaxed import relaxed_closure

# apb parse errors that Planetarium's lenient problem parser does not raise (see `assess`)
LENIENT_ERRORS = ("unknown predicate", "of type 'object' cannot be argument", "unknown type")
# domains Planetarium plans with its own oracle on the scene graph, which skips initial facts of predicates the domain
# lacks and object types; VAL then accepts the plan, so such a problem is solvable there when the rest of it is
ORACLE_LENIENT = ("blocksworld", "gripper")
_ATOM = re.compile(r"\(\s*([^\s()]+)[^()]*\)")
_OBJECTS = re.compile(r"\(\s*:objects([^()]*)\)", re.IGNORECASE)
_SYNTAX = {"problem", "and", "not", "or", "="}
_COMPLEX_GOAL = re.compile(r"\(\s*(not|or|imply|forall|exists)[\s(]", re.IGNORECASE)
H2_FACTS = 2000  # h^2 is tried on tasks with at most this many facts (its cost grows with their square)


class Evaluation(NamedTuple):
    """Planetarium's triple."""

    parseable: bool
    solvable: bool
    correct: bool


@dataclass
class Assessment:
    """The triple plus what decided it: the parse error, the planner's status, the equivalence verdict and reason."""

    evaluation: Evaluation
    domain: str
    error: str = ""
    planner_status: str = ""
    plan_length: int | None = None
    verdict: str = ""
    reason: str = ""

    def to_dict(self) -> dict:
        """A JSON-ready record."""
        return {**self.evaluation._asdict(), "domain": self.domain, "error": self.error,
                "planner_status": self.planner_status, "plan_length": self.plan_length, "verdict": self.verdict,
                "reason": self.reason}


def _text(source: str | Path) -> str:
    """PDDL text from a Path (which must exist; read up to the bound, as `problem_from_text` reads text) or a
    string, which is the text itself: a string is never opened as a path (a model's answer is data)."""
    return problem_file_text(source) if isinstance(source, Path) else source


def parse_problem_text(text: str, domain: Domain, name: str) -> Problem:
    """The problem, or PDDLError; negative goal literals are refused here (the engine itself allows them)."""
    if "(" not in text:
        raise PDDLError("not a PDDL problem: expected '(define (problem ...) ...)'", file=name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        problem = problem_from_text(text, domain, name)
    goal = problem.goal
    if getattr(problem, "complex_goal", ()) or not isinstance(goal, tuple) or any(not lit.positive for lit in goal):
        raise PDDLError("the goal must be a conjunction of positive atoms (negative or disjunctive goals are "
                        "outside the NL->PDDL task)", file=name)
    return problem


def fast_downward_available() -> bool:
    """Whether the `planners` extra (up-fast-downward) is installed."""
    try:
        find_driver()
    except ApbError:
        return False
    return True


def unsolvable_proof(task: Task) -> str | None:
    """A quick proof that no plan exists, else None (tasks with derived predicates or negative goals get none).

    Each proof is sound: the delete relaxation over-approximates the reachable facts, so a goal fact it never
    reaches is unreachable; h^2 (apb.planners.h2) over-approximates the pairs of facts that hold together in a
    reachable state, so two goal facts it never pairs are never true at once; and where an exact domain rule of
    apb.equivalence.rules applies (Planetarium's Blocksworld, Gripper and Floor Tile from a proper initial state),
    its `unsolvable` verdict is a proof by the argument in that rule's docstring (a goal with a cycle of `on`, a
    paint no robot can do, a ball in two places, ...), which catches what pairs of facts cannot show (a cycle of
    three blocks); where the initial state is not proper (a fact missing), a goal that breaks an invariant the
    initial state keeps and every action preserves (apb.equivalence.rules.CONFLICTS). tests/test_nl2pddl_solvable.py
    compares the proofs with an exhaustive search."""
    if getattr(task, "axioms", None) is not None or any(not lit.positive for lit in task.goal):
        return None
    closure = relaxed_closure(task, task.initial_state)
    if not closure.goal:
        return "a goal fact is unreachable under the delete relaxation"
    index = {name: i for i, name in enumerate(task.fact_names)}
    goal = [index[str(lit)] for lit in task.goal if str(lit) in index]
    if len(goal) >= 2 and task.num_facts <= H2_FACTS:
        masks = reachable_pairs(task, task.initial_state.bits, [task.actions[i] for i in sorted(closure.actions)])
        for i, p in enumerate(goal):
            for q in goal[i + 1:]:
                if not (masks[p] >> q & 1 and masks[q] >> p & 1):
                    return f"h^2: {task.fact_names[p]} and {task.fact_names[q]} never hold together"
    return _rule_proof(task)


def _rule_proof(task: Task) -> str | None:
    """The reason an exact domain rule (apb.equivalence.rules) gives for the goal being unreachable, else None."""
    if not is_strips(task.domain):
        return None
    closure = rule_closure(task.domain, load_scene(task.domain, task.problem))
    if closure is None or closure.status != UNSOLVABLE:
        return None
    return f"{closure.method}: {closure.reason}"


def find_plan(domain: Domain, problem: Problem, *, planner: str = "gbfs", max_nodes: int = 200000,
              timeout: float | None = 60.0) -> tuple[list[str] | None, str]:
    """(the plan as PDDL action strings, or None; the status): a proof of unsolvability first (`unsolvable_proof`),
    else a plan by apb's planner (gbfs with h_FF's preferred operators; Fast Downward's greedy search with the
    `planners` extra when the budget runs out) that apb's engine validates."""
    task = Task(domain, problem)
    proof = unsolvable_proof(task)
    if proof is not None:
        return None, f"unsolvable ({proof})"
    result = solve(task, planner, timeout=timeout, max_nodes=max_nodes, preferred=planner == "gbfs")
    if not result.solved and result.status != "unsolvable" and fast_downward_available():
        # the budget ran out: Fast Downward's greedy search (as Planetarium plans outside its oracle's domains)
        result = solve(task, "fd-sat", timeout=timeout)
    if not result.solved:
        return None, result.status
    if not task.validate(result.plan).valid:
        return None, "invalid_plan"
    return result.plan_strings(), result.status


def solvable(domain: Domain, problem: Problem, *, planner: str = "gbfs", max_nodes: int = 200000,
             timeout: float | None = 60.0) -> tuple[bool, str, int | None]:
    """(solvable, planner status, plan length), by `find_plan`."""
    plan, status = find_plan(domain, problem, planner=planner, max_nodes=max_nodes, timeout=timeout)
    return plan is not None, status, None if plan is None else len(plan)


def _lenient_solvable(text: str, domain: Domain, planner: str, max_nodes: int) -> tuple[bool, str]:
    """Planetarium's solvability of a problem its oracle reads leniently: the problem without the atoms of predicates
    the domain lacks and without object types (an untyped domain) is solvable."""
    predicates = {name.lower() for name in domain.predicates}
    text = _ATOM.sub(lambda m: m.group(0) if m.group(1).startswith(":") or m.group(1).lower() in predicates
                     or m.group(1).lower() in _SYNTAX else "", text)
    if not domain.types or set(domain.types) <= {"object"}:
        text = _OBJECTS.sub(lambda m: "(:objects " + re.sub(r"\s-\s*[^\s()]+", " ", m.group(1)) + ")", text)
    try:
        problem = parse_problem_text(text, domain, "<predicted>")
    except ApbError:
        return False, ""
    refusal = oracle_refusal(domain.name, problem)
    if refusal is not None:
        return False, f"not solvable in Planetarium: {refusal}"
    ok, status, _ = solvable(domain, problem, planner=planner, max_nodes=max_nodes)
    return ok, f"{status} (read as Planetarium's oracle reads it)"


def _strict_flaw(text: str, domain: Domain) -> str | None:
    """What makes a problem unparseable to Planetarium's lenient parser as well (a negative or disjunctive goal, an
    atom naming an undeclared object), for a problem apb's engine stopped reading at a lenient error first."""
    start = text.find("(:goal")
    goal = text[start:] if start >= 0 else ""
    if _COMPLEX_GOAL.search(goal):
        return "the goal is not a conjunction of positive atoms"
    objects = _OBJECTS.search(text)
    if objects is None:
        return None
    tokens = objects.group(1).split()
    declared = {t.lower() for i, t in enumerate(tokens) if t != "-" and (i == 0 or tokens[i - 1] != "-")}
    declared |= {c.lower() for c in getattr(domain, "constants", {})}
    init = text.find("(:init")
    for atom in _ATOM.finditer(text[init:] if init >= 0 else ""):
        name, *args = atom.group(0).strip("()").split()
        if name.startswith(":") or name.lower() in _SYNTAX:
            continue
        missing = [a for a in args if not a.startswith("?") and a.lower() not in declared]
        if missing:
            return f"the object {missing[0]!r} is not declared"
    return None


def assess(gold: str | Path, predicted: str | Path, domain: Domain | str | Path | None = None, *,
           placeholder: bool = False, planner: str = "gbfs", max_nodes: int = 200000,
           budget: Budget | None = None) -> Assessment:
    """Scores `predicted` against `gold` (each a Path or PDDL text; a string is never opened as a path) and says why
    (see the module docstring). A predicted text over `apb.engine.limits.MAX_PROBLEM_CHARS` is unparseable."""
    gold_text, pred_text = _text(gold), _text(predicted)
    dom = resolve_domain(gold_text, domain)
    gold_error = ""
    try:
        gold_problem = parse_problem_text(gold_text, dom, str(gold) if isinstance(gold, Path) else "<gold>")
    except ApbError as error:
        if not any(sign in str(error) for sign in LENIENT_ERRORS):
            raise
        # a gold only Planetarium's lenient parser reads (its generator's rover-single golds declare `store`
        # objects): the predicted problem is scored, but nothing the engine reads can be equivalent to it
        gold_problem, gold_error = None, f"the gold is readable only leniently ({error}), so nothing is correct"
    try:
        pred_problem = parse_problem_text(pred_text, dom, "<predicted>")
    except ApbError as error:
        # Planetarium's lenient parser reads a problem with an unknown predicate, or with untyped objects in a typed
        # domain: parseable there, neither solvable nor correct; apb's stricter diagnostic is kept beside the triple
        lenient = any(sign in str(error) for sign in LENIENT_ERRORS)
        flaw = _strict_flaw(pred_text, dom) if lenient else None
        if flaw:  # a flaw Planetarium's lenient parser rejects too, behind the one apb reported first
            return Assessment(Evaluation(False, False, False), dom.name, error=f"{error}; and {flaw}")
        ok, status = False, ""
        if lenient and dom.name.lower() in ORACLE_LENIENT and "in the goal" not in str(error):
            ok, status = _lenient_solvable(pred_text, dom, planner, max_nodes)
        return Assessment(Evaluation(lenient, ok, False), dom.name, error=str(error), planner_status=status)
    named = domain_name_of(pred_text)
    if domain is None and named is not None and named != dom.name.lower() and not is_domain_key(named):
        # Planetarium reads such a problem but has no domain to plan with: parseable, neither solvable nor correct
        return Assessment(Evaluation(True, False, False), dom.name,
                          error=f"the problem names (:domain {named}), which is not a benchmark domain")
    refusal = oracle_refusal(dom.name, pred_problem)
    if refusal is not None:  # Planetarium's own oracle cannot plan from this state: not solvable there
        ok, status, length = False, f"not solvable in Planetarium: {refusal}", None
    else:
        ok, status, length = solvable(dom, pred_problem, planner=planner, max_nodes=max_nodes)
    if gold_problem is None:
        return Assessment(Evaluation(True, ok, False), dom.name, error=gold_error, planner_status=status,
                          plan_length=length)
    result = check(dom, gold_problem, pred_problem, placeholder=placeholder, budget=budget)
    # Planetarium's rule: an unsolvable problem is never correct (the equivalence verdict is kept beside the triple)
    return Assessment(Evaluation(True, ok, ok and result.verdict == "equivalent"), dom.name, planner_status=status,
                      plan_length=length, verdict=result.verdict, reason=result.reason)


def evaluate(gold_problem: str | Path, predicted_problem: str | Path, domain: Domain | str | Path | None = None, *,
             placeholder: bool = False) -> Evaluation:
    """Planetarium's (parseable, solvable, correct) for `predicted_problem` against `gold_problem`; the domain is
    the shipped one named by the gold problem's `(:domain ...)` unless given."""
    return assess(gold_problem, predicted_problem, domain, placeholder=placeholder).evaluation

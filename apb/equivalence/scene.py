"""A problem as equivalence sees it: typed objects, the initial facts and the goal literals, as plain tuples.

Built from the engine's parsed model (`apb.engine.load_domain` / `load_problem`): a problem is a Path (a file), PDDL
text (a string, never opened as a path) or a parsed Problem, and bad PDDL fails with the engine's located error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apb.engine import Domain, Literal, Problem, load_domain, load_problem
from apb.engine.errors import ApbError
from apb.engine.loader import problem_from_text

Atom = tuple  # (predicate, arg, ...)


class EquivalenceError(ApbError):
    """The problems cannot be compared: unreadable input, or a goal that is not a conjunction of literals."""


@dataclass(frozen=True, eq=False)
class Scene:
    """One problem: objects (name -> type, domain constants excluded), init atoms, positive and negative goals."""

    name: str
    objects: dict[str, str]
    init: frozenset
    goal: frozenset
    goal_neg: frozenset
    problem: Problem

    @property
    def num_objects(self) -> int:
        """Objects declared by the problem (domain constants not counted)."""
        return len(self.objects)


def as_domain(domain: Domain | str | Path) -> Domain:
    """A parsed domain from a Domain, a path or PDDL text."""
    return domain if isinstance(domain, Domain) else load_domain(domain)


def goal_literals(problem: Problem) -> tuple[Literal, ...]:
    """The goal as a tuple of literals; EquivalenceError when it is a richer formula (quantifiers, disjunction)."""
    goal = problem.goal
    if not getattr(problem, "complex_goal", ()) and isinstance(goal, tuple) \
            and all(isinstance(lit, Literal) for lit in goal):
        return goal
    raise EquivalenceError(f"{problem.source or problem.name}: the goal is not a conjunction of literals; "
                           "equivalence compares conjunctive goals only")


def load_scene(domain: Domain, problem: Problem | str | Path) -> Scene:
    """Parses `problem` against `domain` (unless already parsed) and extracts its facts: a Path is read as a file,
    a string is PDDL text only (never opened as a path: a model's answer is data), bounded as
    `apb.engine.loader.problem_from_text` bounds it."""
    if isinstance(problem, Problem):
        parsed = problem
    elif isinstance(problem, str):
        parsed = problem_from_text(problem, domain, "<text>")
    else:
        parsed = load_problem(problem, domain)
    literals = goal_literals(parsed)
    init = frozenset((lit.predicate, *lit.args) for lit in parsed.init if lit.positive)
    goal = frozenset((lit.predicate, *lit.args) for lit in literals if lit.positive)
    goal_neg = frozenset((lit.predicate, *lit.args) for lit in literals if not lit.positive)
    objects = {name: kind for name, kind in parsed.objects.items() if name not in domain.constants}
    return Scene(parsed.name, objects, init, goal, goal_neg, parsed)


def atom_str(atom: Atom) -> str:
    """`(on a b)`."""
    return "(" + " ".join(atom) + ")"


def unconditional_effect_predicates(domain: Domain) -> frozenset[str]:
    """Predicates some action changes by an unconditional effect. On a STRIPS domain (where the closure uses it)
    these are the fluent predicates; the engine's `fluent_predicates` also counts conditional effects and axioms."""
    return frozenset(eff.predicate for action in domain.actions for eff in action.effects)


def monotone_predicates(domain: Domain) -> frozenset[str]:
    """Fluent predicates no action deletes: a fact of one, once true, stays true."""
    deleted = {eff.predicate for action in domain.actions for eff in action.effects if not eff.positive}
    return unconditional_effect_predicates(domain) - deleted

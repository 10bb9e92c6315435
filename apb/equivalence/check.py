"""`check(domain, a, b)`: are two PDDL problems the same task up to renaming objects and up to implied goal facts?

Planetarium's notion: the initial states must be equal under a renaming of objects, and the goals must pick out the
same goal states, i.e. their full specifications (closures, apb.equivalence.closure) must be equal under the same
renaming. With `placeholder=True` the goal may use its own renaming (a description that names goal objects only by
role, e.g. "some block on another"): init and goal are matched separately.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from apb.engine import Domain, Problem
from apb.equivalence.closure import EXACT, PARTIAL, UNKNOWN, UNSOLVABLE, Budget, Closure, generic_closure, is_strips
from apb.equivalence.graph import SceneGraph, isomorphism_mapping
from apb.equivalence.rules import DERIVATIONS, rule_closure
from apb.equivalence.scene import Scene, as_domain, load_scene

EQUIVALENT, NOT_EQUIVALENT, UNDECIDED = "equivalent", "not_equivalent", "unknown"
VERDICTS = (EQUIVALENT, NOT_EQUIVALENT, UNDECIDED)


@dataclass
class EquivalenceResult:
    """A verdict (equivalent / not_equivalent / unknown), the object renaming a -> b when equivalent, and why."""

    verdict: str
    mapping: dict[str, str] | None = None
    reason: str = ""
    closures: tuple[Closure, Closure] | None = field(default=None, repr=False)

    def __bool__(self) -> bool:
        return self.verdict == EQUIVALENT

    def to_dict(self) -> dict:
        """A JSON-ready summary."""
        mapping = dict(sorted(self.mapping.items())) if self.mapping else self.mapping
        out = {"verdict": self.verdict, "mapping": mapping, "reason": self.reason}
        if self.closures:
            out["closures"] = [{"method": c.method, "status": c.status, "facts": len(c.lower)} for c in self.closures]
        return out


def full_specification(domain: Domain, scene: Scene, budget: Budget | None = None) -> Closure:
    """The goal's closure: a domain rule's where one applies (or a rule's proof that the goal is unreachable),
    else the generic closure."""
    strips = is_strips(domain)
    closure = rule_closure(domain, scene) if strips else None
    if closure is not None:
        return closure
    closure = generic_closure(domain, scene, budget)
    if not strips or closure.status != PARTIAL or closure.upper is None:
        return closure
    lower = closure.lower
    for derive in DERIVATIONS:
        lower = derive(domain, scene, lower)
    if lower == closure.lower or not lower <= closure.upper:
        return closure
    exact = lower == closure.upper
    return Closure(EXACT if exact else PARTIAL, lower, closure.upper, closure.method + "+derived",
                   "" if exact else closure.reason, closure.nodes)


def _graph(domain: Domain, scene: Scene, scenes: dict) -> SceneGraph:
    return SceneGraph(scene.objects, domain.constants, scenes)


def _counts(facts) -> Counter:
    return Counter(f[0] for f in facts)


def check(domain: Domain | str | Path, problem_a: Problem | str | Path, problem_b: Problem | str | Path, *,
          placeholder: bool = False, backend: str = "auto", budget: Budget | None = None) -> EquivalenceResult:
    """Compares two problems of `domain` (each a Problem, a Path or PDDL text: a string is never opened as a path);
    see the module docstring. Unreadable problems raise the engine's PDDLError (EquivalenceError for goals that are
    not conjunctions)."""
    dom = as_domain(domain)
    a, b = load_scene(dom, problem_a), load_scene(dom, problem_b)
    if sorted(a.objects.values()) != sorted(b.objects.values()):
        return EquivalenceResult(NOT_EQUIVALENT, reason=f"the objects differ: {a.num_objects} vs {b.num_objects} "
                                 "objects, or a different number of some type")
    init_a, init_b = _graph(dom, a, {"init": a.init}), _graph(dom, b, {"init": b.init})
    init_map = isomorphism_mapping(init_a, init_b, backend)
    if init_map is None:
        return EquivalenceResult(NOT_EQUIVALENT, reason="the initial states differ (no renaming maps one onto the "
                                 "other)")
    ca, cb = full_specification(dom, a, budget), full_specification(dom, b, budget)
    closures = (ca, cb)
    if UNSOLVABLE in (ca.status, cb.status):
        if ca.status == cb.status:
            return EquivalenceResult(EQUIVALENT, init_map, "both goals are unsatisfiable from the same initial state",
                                     closures)
        if UNKNOWN not in (ca.status, cb.status):
            which = "a" if ca.status == UNSOLVABLE else "b"
            return EquivalenceResult(NOT_EQUIVALENT, reason=f"only problem {which}'s goal is unsatisfiable "
                                     f"({(ca if which == 'a' else cb).reason})", closures=closures)
        return EquivalenceResult(UNDECIDED, reason="one goal is unsatisfiable, the other's solvability is unknown",
                                 closures=closures)
    goal_a = {"goal": ca.lower, "goal-not": a.goal_neg}
    goal_b = {"goal": cb.lower, "goal-not": b.goal_neg}
    if placeholder:
        mapping = init_map if isomorphism_mapping(_graph(dom, a, goal_a), _graph(dom, b, goal_b),
                                                  backend) is not None else None
    else:
        mapping = isomorphism_mapping(_graph(dom, a, {"init": a.init, **goal_a}),
                                      _graph(dom, b, {"init": b.init, **goal_b}), backend)
    if mapping is not None:
        return EquivalenceResult(EQUIVALENT, mapping, "", closures)
    exact = ca.exact and cb.exact and not a.goal_neg and not b.goal_neg
    if exact:
        return EquivalenceResult(NOT_EQUIVALENT, reason=_goal_difference(ca, cb, placeholder), closures=closures)
    upper_a, upper_b = ca.upper or ca.lower, cb.upper or cb.lower
    if ca.upper is not None and cb.upper is not None and not (a.goal_neg or b.goal_neg):
        low_a, low_b, up_a, up_b = _counts(ca.lower), _counts(cb.lower), _counts(upper_a), _counts(upper_b)
        for pred in sorted(set(low_a) | set(low_b)):
            if low_a[pred] > up_b[pred] or low_b[pred] > up_a[pred]:
                return EquivalenceResult(NOT_EQUIVALENT, reason=f"the goals imply different numbers of {pred!r} "
                                         "facts", closures=closures)
    reasons = "; ".join(c.reason for c in closures if c.reason) or "negative goal literals are compared as written"
    return EquivalenceResult(UNDECIDED, reason=f"the goal closure is not exact ({reasons})", closures=closures)


def _goal_difference(ca: Closure, cb: Closure, placeholder: bool) -> str:
    """A short account of why two exact closures do not match."""
    ca_counts, cb_counts = _counts(ca.lower), _counts(cb.lower)
    for pred in sorted(set(ca_counts) | set(cb_counts)):
        if ca_counts[pred] != cb_counts[pred]:
            return (f"the goals differ: {ca_counts[pred]} vs {cb_counts[pred]} {pred!r} facts after full "
                    "specification")
    scope = "goal" if placeholder else "initial state and goal together"
    return f"the goals differ: no renaming maps one {scope} onto the other"


def equivalent(domain: Domain | str | Path, problem_a: Problem | str | Path, problem_b: Problem | str | Path, *,
               placeholder: bool = False) -> bool:
    """True when `check` proves the problems equivalent (an `unknown` verdict counts as False)."""
    return check(domain, problem_a, problem_b, placeholder=placeholder).verdict == EQUIVALENT

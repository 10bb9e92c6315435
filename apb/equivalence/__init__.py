"""PDDL problem equivalence (Planetarium's notion): same initial state and same goal states up to renaming objects.

`equivalent(domain, a, b)` answers yes or no; `check(...)` returns an `EquivalenceResult` with a three-valued verdict
(equivalent / not_equivalent / unknown), the object renaming found, or the reason there is none. Built on scene
graphs, goal full specification (domain rules, else a sound generic closure with budgets) and labelled graph
isomorphism (networkx; rustworkx when installed).
"""

from apb.equivalence.check import (
    EQUIVALENT,
    NOT_EQUIVALENT,
    UNDECIDED,
    VERDICTS,
    EquivalenceResult,
    check,
    equivalent,
    full_specification,
)
from apb.equivalence.closure import Budget, Closure, generic_closure
from apb.equivalence.graph import BACKENDS, SceneGraph, have_rustworkx, isomorphism_mapping
from apb.equivalence.scene import EquivalenceError, Scene, load_scene

__all__ = [
    "BACKENDS",
    "EQUIVALENT",
    "NOT_EQUIVALENT",
    "UNDECIDED",
    "VERDICTS",
    "Budget",
    "Closure",
    "EquivalenceError",
    "EquivalenceResult",
    "Scene",
    "SceneGraph",
    "check",
    "equivalent",
    "full_specification",
    "generic_closure",
    "have_rustworkx",
    "isomorphism_mapping",
    "load_scene",
]

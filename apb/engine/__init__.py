"""The planning engine: parse PDDL, ground it, simulate with explanations, validate plans.

This package imports nothing from the rest of `apb`.
"""

from apb.engine.errors import (
    ActionError,
    ApbError,
    NotApplicableError,
    PDDLError,
    PDDLSemanticError,
    PDDLSyntaxError,
    PDDLWarning,
    PlanError,
    UnsupportedFeatureError,
)
from apb.engine.explain import Unmet
from apb.engine.loader import load_domain, load_problem, load_task
from apb.engine.model import (
    ActionSchema,
    And,
    Axiom,
    ConditionalEffect,
    CostTerm,
    Domain,
    Exists,
    Forall,
    Imply,
    Literal,
    Not,
    Or,
    Parameter,
    PredicateSchema,
    Problem,
)
from apb.engine.parser import parse_domain, parse_problem
from apb.engine.plan_files import Plan, PlanStep, format_plan, parse_plan, read_plan, write_plan
from apb.engine.task import GroundAction, State, Task, ValidationResult
from apb.engine.writer import domain_to_pddl, problem_to_pddl

__all__ = [
    "ActionError",
    "ActionSchema",
    "And",
    "ApbError",
    "Axiom",
    "ConditionalEffect",
    "CostTerm",
    "Domain",
    "Exists",
    "Forall",
    "GroundAction",
    "Imply",
    "Literal",
    "Not",
    "NotApplicableError",
    "Or",
    "PDDLError",
    "PDDLSemanticError",
    "PDDLSyntaxError",
    "PDDLWarning",
    "Parameter",
    "Plan",
    "PlanError",
    "PlanStep",
    "PredicateSchema",
    "Problem",
    "State",
    "Task",
    "Unmet",
    "UnsupportedFeatureError",
    "ValidationResult",
    "domain_to_pddl",
    "format_plan",
    "load_domain",
    "load_problem",
    "load_task",
    "parse_domain",
    "parse_plan",
    "parse_problem",
    "problem_to_pddl",
    "read_plan",
    "write_plan",
]

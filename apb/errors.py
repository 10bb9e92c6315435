"""Every error a user can cause is one of these; catch `ApbError` to catch them all."""

from apb.datasets.dataset import DatasetError, UnknownProblemError
from apb.domains.registry import UnknownDomainError
from apb.engine.errors import (
    ACTION_ERROR_KINDS,
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

__all__ = [
    "ACTION_ERROR_KINDS",
    "ActionError",
    "ApbError",
    "DatasetError",
    "NotApplicableError",
    "PDDLError",
    "PDDLSemanticError",
    "PDDLSyntaxError",
    "PDDLWarning",
    "PlanError",
    "UnknownDomainError",
    "UnknownProblemError",
    "UnsupportedFeatureError",
]

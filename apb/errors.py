"""Every error a user can cause, importable from here; catch `ApbError` to catch them all.

The engine's and the data layers' errors are imported below. The errors of higher layers (LLM backends, agents,
eval, ACP, NL->PDDL, integrations, the CLI) keep their homes beside the code that raises them and are served from
here on first use (`from apb.errors import LLMError` imports `apb.llm.base` then), so this low module imports no
higher layer at import time.
"""

from importlib import import_module

from apb.datasets.dataset import DatasetError, UnknownProblemError
from apb.domains.registry import UnknownDomainError
from apb.engine.deadline import DeadlineExceeded
from apb.engine.errors import (
    ACTION_ERROR_KINDS,
    ActionError,
    ApbError,
    InputFileError,
    NotApplicableError,
    PDDLError,
    PDDLSemanticError,
    PDDLSyntaxError,
    PDDLWarning,
    PlanError,
    UnsupportedFeatureError,
)

# error class -> the module that defines it (and raises it)
_HOMES = {
    "ACPError": "apb.acp.errors",
    "AgentError": "apb.agents.base",
    "CacheMissError": "apb.llm.base",
    "ConfigError": "apb.eval.config",
    "ContextError": "apb.acp.english",
    "ContextTooSmall": "apb.eval.context",
    "EquivalenceError": "apb.equivalence.scene",
    "EvalError": "apb.eval.episode_specs",
    "LLMConfigError": "apb.llm.base",
    "LLMError": "apb.llm.base",
    "MissingExtraError": "apb.integrations",
    "NLGenerateError": "apb.nl.generator.results",
    "NLTemplateError": "apb.nl.nl_yaml",
    "PairsFormatError": "apb.nl2pddl.planetarium",
    "ProviderError": "apb.llm.retry",
    "QuestionPDDLError": "apb.acp.truth",
    "RunDirError": "apb.eval.rundir",
    "RunInputError": "apb.eval.metrics",
    "TrajectoryError": "apb.eval.trajectory",
    "UnknownBenchmarkDomainError": "apb.nl2pddl.registry",
    "VariantError": "apb.nl.variants",
}


def __getattr__(name: str):
    """The error class `name` from its home module (imported on first use)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'apb.errors' has no attribute {name!r}")
    error = getattr(import_module(home), name)
    globals()[name] = error
    return error


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ACTION_ERROR_KINDS",
    "ActionError",
    "ApbError",
    "DatasetError",
    "DeadlineExceeded",
    "InputFileError",
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
__all__ += sorted(_HOMES)

"""verifiers' name for apb's game taskset: `--env.taskset.id apb-verifiers` imports this top-level module (verifiers
resolves a taskset id to a top-level module), which is `apb.integrations.verifiers` (extra: verifiers)."""

from apb.integrations.verifiers import ApbGameEnv, ApbGameTaskset, load_environment

__all__ = ["ApbGameEnv", "ApbGameTaskset", "load_environment"]

"""Gymnasium environments: PDDLTextEnv, registration of apb/<Domain>-v0, wrappers."""

from apb.envs.registration import ENV_NAMES, env_id, register_dataset, register_envs
from apb.envs.spaces import PrintableText
from apb.envs.text_env import PDDLTextEnv

register_envs()

__all__ = ["ENV_NAMES", "PDDLTextEnv", "PrintableText", "env_id", "register_dataset", "register_envs"]

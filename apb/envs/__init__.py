"""Gymnasium environments: PDDLTextEnv, the native PDDLVectorEnv, observation/action modes, registration of
apb/<Domain>-v0, wrappers."""

from apb.envs.registration import ENV_NAMES, env_id, register_dataset, register_envs
from apb.envs.spaces import PrintableText
from apb.envs.text_env import PDDLTextEnv
from apb.envs.vector import PDDLVectorEnv

register_envs()

__all__ = ["ENV_NAMES", "PDDLTextEnv", "PDDLVectorEnv", "PrintableText", "env_id", "register_dataset", "register_envs"]

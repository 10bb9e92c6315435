"""apb inside other frameworks: each adapter is a module of this package behind its own optional extra.

- `inspect_tasks`: Inspect AI tasks `apb/game`, `apb/acp`, `apb/nl2pddl` (extra `inspect`; registered through
  Inspect's package entry point, so `inspect eval apb/game ...` works once apb is installed).
- `verifiers`: `load_environment(domain=...)`, a multi-turn verifiers environment (extra `verifiers`).
- `openenv`: an OpenEnv server and client for the text games, `apb serve openenv` (extra `openenv`).
- `reasoning_gym`: procedural plan datasets `apb_<domain>` scored by apb's validator (extra `reasoning-gym`).
- `gem`: GEM environments `apb:<Domain>-v0` and apb's reasoning-gym datasets as `rg:apb_<...>` (extra `gem`).
- `lm_eval`: `apb acp export --format lm-eval DIR` and `apb nl2pddl export --format lm-eval DIR`,
  lm-evaluation-harness tasks scored by apb (extra `lm-eval`).

`game.GameSession` is the text-turn game they share. Nothing below this layer imports it; the core install does
not need any of these frameworks (`pip install "apb[integrations]"` installs them all).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from apb.engine.errors import ApbError


class MissingExtraError(ApbError):
    """An adapter used without its framework installed."""


def require(module: str, extra: str) -> ModuleType:
    """`import module`, or a one-line error naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise MissingExtraError(f"{module} is not installed ({err}): pip install \"apb[{extra}]\"") from None


def as_flag(value: object) -> bool:
    """A boolean option as a framework passes it: a bool, or text typed on a command line (`true`, `false`, `1`)."""
    return value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes", "on")


def as_steps(value: object) -> object:
    """A step limit as a framework passes it: a number typed on a command line (`--env.taskset.max-steps 4` arrives
    as the text "4") becomes the number; anything else (an int, `default`) is left as it is."""
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value)
    return value

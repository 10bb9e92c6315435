"""Registers apb's environments with Gymnasium as soon as `gymnasium` is imported, without importing apb.

Gymnasium 1.x dropped entry-point plugins, so `gymnasium.make("apb/Logistics-v0")` in a fresh interpreter would
not find the ids. apb installs `apb-gymnasium.pth`, which imports this module at interpreter start-up. It adds one
import hook that waits for `gymnasium` and then calls `apb.envs.registration.register_envs()` (cheap: it only
records ids and entry points). Nothing of apb is imported unless gymnasium is. Set APB_NO_GYM_HOOK=1 to disable.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
import warnings


class _GymnasiumHook(importlib.abc.MetaPathFinder):
    """Finds nothing itself; when `gymnasium` is about to load, wraps its loader to register apb afterwards."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "gymnasium":
            return None
        uninstall()
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            if "apb.envs" in sys.modules:  # apb.envs is being imported and registers the ids itself
                return
            try:
                from apb.envs.registration import register_envs

                register_envs()
            except Exception as err:  # never break `import gymnasium`
                warnings.warn(f"apb could not register its Gymnasium environments: {err}", stacklevel=2)

        loader.exec_module = exec_module
        return spec


_HOOK = _GymnasiumHook()


def install() -> None:
    if os.environ.get("APB_NO_GYM_HOOK") or "gymnasium" in sys.modules or _HOOK in sys.meta_path:
        return
    sys.meta_path.insert(0, _HOOK)


def uninstall() -> None:
    if _HOOK in sys.meta_path:
        sys.meta_path.remove(_HOOK)


install()

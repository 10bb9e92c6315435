"""The IPC 2023 Learning Track's domain names (its data is not bundled: apb.datasets.ipc2023 reads a copy of the
track's repository) and the Gymnasium name of each (apb/IPC2023-<Name>-v0)."""

from __future__ import annotations

DOMAINS = ("blocksworld", "childsnack", "ferry", "floortile", "miconic", "rovers", "satellite", "sokoban",
           "spanner", "transport")
ENV_PREFIX = "IPC2023-"


def env_name(domain: str) -> str:
    """'blocksworld' -> 'IPC2023-Blocksworld' (the id is apb/IPC2023-Blocksworld-v0)."""
    return ENV_PREFIX + domain.capitalize()

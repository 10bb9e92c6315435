"""Registration of the apb/<Domain>-v0 ids with Gymnasium, and of imported datasets under their own ids.

`register_envs()` is cheap (it imports nothing heavy) and idempotent; it runs when `apb.envs` is imported and,
through the startup hook installed with the package, as soon as `gymnasium` is imported.
"""

from __future__ import annotations

import os
import re

from gymnasium.envs.registration import register, registry

from apb.datasets.planbench import GAME_FAMILIES, GAME_STEP_LIMIT
from apb.domains import ipc2023
from apb.domains.registry import BUNDLED, bundled_step_limit
from apb.engine.errors import ApbError

NAMESPACE = "apb"
ENTRY_POINT = "apb.envs.text_env:PDDLTextEnv"
PLANBENCH_ENTRY_POINT = "apb.planbench.game:make_game"
VECTOR_ENTRY_POINT = "apb.envs.vector:PDDLVectorEnv"  # gymnasium.make_vec's default for every apb id
GENERIC_ID = f"{NAMESPACE}/PDDL-v0"  # any problem source: domain= (a name or folder), or domain_file= + problem_file=
# Bundled domain -> the name in its id (apb/<Name>-v0), for the domains the registry lists.
ENV_NAMES = {domain: domain.capitalize() for domain in BUNDLED}


def env_id(domain: str) -> str:
    """'blocksworld' -> 'apb/Blocksworld-v0'."""
    return f"{NAMESPACE}/{ENV_NAMES.get(domain, domain)}-v0"


def register_envs() -> list[str]:
    """Registers every bundled domain, apb/PDDL-v0 and the IPC 2023 Learning Track's domains; returns the ids
    (already registered ones are kept)."""
    ids = []
    for domain, name in ENV_NAMES.items():
        ids.append(_register(f"{NAMESPACE}/{name}-v0", {"domain": domain}, lambda d=domain: bundled_step_limit(d)))
    ids.append(_register(GENERIC_ID, {}, lambda: None))
    for family in GAME_FAMILIES:  # PlanBench's games (apb.planbench.game), worded as its configs are
        id_ = planbench_id(family)
        if id_ not in registry:
            register(id=id_, entry_point=PLANBENCH_ENTRY_POINT, kwargs={"family": family},
                     max_episode_steps=GAME_STEP_LIMIT)
        ids.append(id_)
    for domain in ipc2023.DOMAINS:  # the IPC 2023 Learning Track's test tasks, from $APB_IPC2023 when made
        ids.append(_register(f"{NAMESPACE}/{ipc2023.env_name(domain)}-v0", {"domain": f"ipc2023:{domain}"},
                             lambda: None))
    return ids


def planbench_id(family: str) -> str:
    """'MysteryBlocksworld' -> 'apb/PlanBench-MysteryBlocksworld-v0'."""
    return f"{NAMESPACE}/PlanBench-{family}-v0"


def _register(id_: str, kwargs: dict, limit) -> str:
    """Registers once; `limit()` gives the id's default step limit (only computed when registering)."""
    if id_ not in registry:
        register(id=id_, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT, kwargs=kwargs,
                 max_episode_steps=limit())
    return id_


def register_dataset(source, env_id: str | None = None, **kwargs) -> str:
    """Registers an imported dataset (a folder, a PDDLGym name, or a Dataset) under its own id, by default
    apb/<Name>-v0 from the dataset's name; extra kwargs become the env's defaults. Returns the id."""
    from apb.datasets import Dataset, load_dataset, step_limit

    dataset = source if isinstance(source, Dataset) else load_dataset(source)
    if env_id is None:
        name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", dataset.name) if part)
        env_id = f"{NAMESPACE}/{name or 'Dataset'}-v0"
    spec_kwargs = {"dataset": dataset if not isinstance(source, str | os.PathLike) else os.fspath(source)}
    spec_kwargs.update(kwargs)
    taken = registry.get(env_id)
    if taken is not None and taken.kwargs == spec_kwargs:
        return env_id
    if taken is not None:
        raise ApbError(f"the id {env_id} is already registered (for {taken.kwargs.get('domain') or 'another dataset'})"
                       f"; pass env_id='apb/<YourName>-v0' to register_dataset")
    register(id=env_id, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT, kwargs=spec_kwargs,
             max_episode_steps=step_limit(dataset))
    return env_id

"""Wrappers: discrete actions with an action mask (RL libraries), PDDLGym-style literal observations, and
free-text actions through any translator callable (LLM agents)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.spaces import Dict, Discrete

from apb.engine.errors import ApbError
from apb.envs.spaces import TextTuple, action_index

MAX_LITERAL_LENGTH = 1000  # characters of one literal or object in LiteralObservations
SELECT_INFO_KEYS = ("problem_id", "admissible_actions", "action_valid", "goal_reached")


def _base(env: gym.Env):
    """The PDDLTextEnv under any wrappers."""
    from apb.envs.text_env import PDDLTextEnv

    inner = env.unwrapped
    if not isinstance(inner, PDDLTextEnv):
        raise ApbError(f"this wrapper needs an apb PDDLTextEnv, got {type(inner).__name__}")
    return inner


def find_wrapper(env: gym.Env, kind: type) -> gym.Wrapper | None:
    """The outermost wrapper of type `kind` in env's wrapper stack, or None."""
    while isinstance(env, gym.Wrapper):
        if isinstance(env, kind):
            return env
        env = env.env
    return None


def every_task(env: gym.Env) -> list:
    """The grounded task of every problem the env can pick (loaded once; fixed indices are built over them)."""
    base = _base(env)
    return [base.task_for(entry.id) for entry in base.dataset.problems]


class DiscreteActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Actions are indices into a fixed, sorted list of every ground action of every problem the env can pick
    (`action_names`); `info["action_mask"]` (and `action_masks()`) marks the applicable ones. Actions that do
    not exist in the current problem are never applicable. Recreatable from its spec (`env.spec.make()`)."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        super().__init__(env)
        names: set[str] = set()
        for task in every_task(env):
            names.update(str(a) for a in task.actions)
        self.action_names: list[str] = sorted(names)
        self._index = {name: i for i, name in enumerate(self.action_names)}
        self.action_space = Discrete(len(self.action_names))
        self._mask = np.zeros(len(self.action_names), dtype=np.int8)

    def _with_mask(self, info: dict) -> dict:
        mask = np.zeros(len(self.action_names), dtype=np.int8)
        for name in info["admissible_actions"]:
            mask[self._index[name]] = 1
        self._mask = mask
        info["action_mask"] = mask.copy()
        return info

    def reset(self, **kwargs) -> tuple[Any, dict]:
        obs, info = self.env.reset(**kwargs)
        return obs, self._with_mask(info)

    def step(self, action) -> tuple[Any, float, bool, bool, dict]:
        index = action_index(action, len(self.action_names))
        obs, reward, terminated, truncated, info = self.env.step(self.action_names[index])
        return obs, reward, terminated, truncated, self._with_mask(info)

    def action_masks(self) -> np.ndarray:
        """The mask of the current state (the method name MaskablePPO looks for)."""
        return self._mask.copy()


def pddlgym_literal(fact: str, objects: dict[str, str]) -> str:
    """'(on a b)' -> 'on(a:block,b:block)' (PDDLGym's string form; untyped objects are 'default')."""
    inner = fact.strip()[1:-1].split()
    name, args = inner[0], inner[1:]
    typed = ",".join(f"{a}:{_pddlgym_type(objects.get(a, 'object'))}" for a in args)
    return f"{name}({typed})"


def _pddlgym_type(type_name: str) -> str:
    return "default" if type_name == "object" else type_name


class LiteralObservations(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """PDDLGym-style observations: `{"literals", "objects", "goal"}` as sorted tuples of strings, with static
    facts included like PDDLGym does. `literal_format="pddl"` gives '(on a b)', `"pddlgym"` 'on(a:default,...)'.
    Each field is a `TextTuple` sized for the largest problem the env can pick, so async vector envs share it."""

    def __init__(self, env: gym.Env, literal_format: str = "pddl") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, literal_format=literal_format)
        super().__init__(env)
        if literal_format not in ("pddl", "pddlgym"):
            raise ApbError(f"literal_format must be 'pddl' or 'pddlgym', not {literal_format!r}")
        self.literal_format = literal_format
        sizes = {"literals": 0, "objects": 0, "goal": 0}
        for task in every_task(env):
            every_fact = set(task.fact_names) | set(task.static_facts)
            fields = self._fields(every_fact, [str(g) for g in task.goal], dict(task.objects))
            for key, texts in fields.items():
                sizes[key] = max(sizes[key], sum(len(t) + 1 for t in texts))
        self.observation_space = Dict({key: TextTuple(MAX_LITERAL_LENGTH, size) for key, size in sizes.items()})
        self._info: dict | None = None

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._info = info
        return self.observation(obs), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._info = info
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation) -> dict:
        info = self._info
        return self._fields(info["state_pddl"], info["goal_pddl"], info["objects"])

    def _fields(self, facts, goal: list[str], objects: dict[str, str]) -> dict:
        if self.literal_format == "pddlgym":
            facts = [pddlgym_literal(f, objects) for f in facts]
            goal = [pddlgym_literal(g, objects) if not g.startswith("(not ") else g for g in goal]
            object_names = [f"{o}:{_pddlgym_type(t)}" for o, t in objects.items()]
        else:
            object_names = [f"{o} - {t}" for o, t in objects.items()]
        return {"literals": tuple(sorted(facts)), "objects": tuple(sorted(object_names)), "goal": tuple(goal)}


class TranslatedActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Free-text actions: `translator(text, info)` returns a grounded PDDL action (a string), None, or a result
    with `.action` (apb translators). Untranslatable text is passed on unchanged, so the env explains the
    problem. `info["translation"]` records input, output and, when given, method and confidence."""

    def __init__(self, env: gym.Env, translator) -> None:
        super().__init__(env)
        if isinstance(translator, str | bytes) or not (callable(translator) or hasattr(translator, "translate")):
            raise ApbError("translator must be a callable translator(text, info) or have .translate(text, info)")
        gym.utils.RecordConstructorArgs.__init__(self, translator=translator, _disable_deepcopy=True)
        self.translator = translator
        self._info: dict = {}

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._info = info
        return obs, info

    def step(self, action):
        translate = self.translator.translate if hasattr(self.translator, "translate") else self.translator
        result = translate(action, self._info)
        pddl = getattr(result, "action", result)
        record = {"input": action, "action": pddl, "method": getattr(result, "method", None),
                  "confidence": getattr(result, "confidence", None)}
        obs, reward, terminated, truncated, info = self.env.step(pddl if isinstance(pddl, str) and pddl else action)
        info["translation"] = record
        self._info = info
        return obs, reward, terminated, truncated, info


class SelectInfo(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Keeps only `keys` of every info (default: SELECT_INFO_KEYS, plus action_mask over DiscreteActions), for
    throughput: vector envs batch every info key into arrays, and apb's full infos (domain text, PDDL, schemas)
    are most of a vector step's cost. Apply it last (encoders read the full info). A key that neither the reset
    nor the first step info has is an error (a typo would otherwise vanish silently)."""

    def __init__(self, env: gym.Env, keys: list[str] | tuple[str, ...] | None = None) -> None:
        if keys is not None and (isinstance(keys, str) or not all(isinstance(k, str) for k in keys)):
            raise ApbError(f"SelectInfo keys must be a list of info key names, not {keys!r}")
        gym.utils.RecordConstructorArgs.__init__(self, keys=None if keys is None else tuple(keys))
        super().__init__(env)
        if keys is None:
            keys = SELECT_INFO_KEYS + (("action_mask",) if find_wrapper(env, DiscreteActions) is not None else ())
        self.keys = tuple(keys)
        self._reset_keys: set[str] = set()
        self._checked = False

    def _select(self, info: dict) -> dict:
        return {k: info[k] for k in self.keys if k in info}

    def reset(self, **kwargs) -> tuple[Any, dict]:
        obs, info = self.env.reset(**kwargs)
        self._reset_keys = set(info)
        return obs, self._select(info)

    def step(self, action) -> tuple[Any, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if not self._checked:
            known = self._reset_keys | set(info)
            unknown = sorted(set(self.keys) - known)
            if unknown:
                raise ApbError(f"SelectInfo: no info key {', '.join(map(repr, unknown))}; the keys are "
                               f"{', '.join(sorted(known))}")
            self._checked = True
        return obs, reward, terminated, truncated, self._select(info)

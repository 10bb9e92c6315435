"""Numeric encodings for RL: the state's facts and the goal as a multi-hot vector over a fixed per-domain fact index,
with discrete actions and the action mask, so a masked policy needs no encoder of its own."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.spaces import MultiBinary

from apb.envs.wrappers import DiscreteActions, every_task, find_wrapper


class MultiHotObservations(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Observations are `MultiBinary(2 * len(fact_names))` int8 vectors: the true facts of the state, then the
    positive goal facts, over `fact_names` (every fluent fact of every problem the env can pick, sorted; the same
    index for all of them). Actions are discrete with `info["action_mask"]` (a `DiscreteActions` is added below
    this wrapper unless the env has one). Negated goal literals are not encoded."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        discrete = find_wrapper(env, DiscreteActions)
        super().__init__(env if discrete is not None else DiscreteActions(env))
        self._discrete: DiscreteActions = discrete if discrete is not None else self.env
        names: set[str] = set()
        for task in every_task(self.env):
            names.update(task.fact_names)
        self.fact_names: list[str] = sorted(names)
        self._index = {name: i for i, name in enumerate(self.fact_names)}
        self.observation_space = MultiBinary(2 * len(self.fact_names))
        self._info: dict = {}

    @property
    def action_names(self) -> list[str]:
        """The action of each discrete index."""
        return self._discrete.action_names

    def action_masks(self) -> np.ndarray:
        """The mask of the current state (the method name MaskablePPO looks for)."""
        return self._discrete.action_masks()

    def reset(self, **kwargs) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset(**kwargs)
        self._info = info
        return self.observation(obs), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._info = info
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation: Any) -> np.ndarray:
        """The multi-hot vector of the last info's state and goal (the text observation is not needed)."""
        vector = np.zeros(self.observation_space.n, dtype=np.int8)
        index, size = self._index, len(self.fact_names)
        vector[[index[f] for f in self._info["state_pddl"]]] = 1
        goal = [index[g] for g in self._info["goal_pddl"] if g in index]
        vector[[size + i for i in goal]] = 1
        return vector

    def decode(self, vector: np.ndarray) -> tuple[list[str], list[str]]:
        """(state facts, goal facts) of an observation vector, as PDDL strings."""
        size = len(self.fact_names)
        return ([self.fact_names[i] for i in np.flatnonzero(vector[:size])],
                [self.fact_names[i] for i in np.flatnonzero(vector[size:])])

"""PDDLVectorEnv: N episodes stepped in one process over shared grounded tasks (the `vector_entry_point` of every
apb id, so `gymnasium.make_vec("apb/Blocksworld-v0", num_envs=N)` returns it).

Each sub-env ("lane") is a PDDLTextEnv sharing the loaded problems (parse, grounding, NL renderer, encoding) with
the others; it keeps its own state, step count and random generator, so the same seeds give the same trajectories
as N single envs in Gymnasium's SyncVectorEnv (seed i + k for lane k; autoresets draw from the lane's generator).
Observations and actions follow `obs_mode` / `action_mode` (apb.envs.observations). Infos are batched Gymnasium's
way (an array per key plus a `_key` mask) but only for `info_keys`: by default the keys a training loop needs
(`DEFAULT_INFO_KEYS`, plus `action_mask` outside text/text); any other key of the single env's info on request,
or `info_keys="all"` for all of them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from apb.engine.errors import ApbError
from apb.envs.text_env import MAX_ACTION_LENGTH, MAX_OBSERVATION_LENGTH, PDDLTextEnv

DEFAULT_INFO_KEYS = ("problem_id", "admissible_actions", "action_valid", "goal_reached")
# Keys computed without the single env's full info (state text, schemas, PDDL): everything else builds it.
_LEAN_KEYS = frozenset(DEFAULT_INFO_KEYS) | {"action_mask", "feedback", "action", "step", "action_cost",
                                             "look_around", "failure"}
_AUTORESET = {mode.value: mode for mode in AutoresetMode} | {mode: mode for mode in AutoresetMode}


class PDDLVectorEnv(VectorEnv):
    """`num_envs` PDDLTextEnv episodes in one process; every other kwarg is PDDLTextEnv's (domain, split, problem,
    problems, description, require_finish, obs_mode, action_mode, ...). `max_episode_steps` truncates like
    Gymnasium's TimeLimit; `autoreset_mode` is "NextStep" (default), "SameStep" or "Disabled"."""

    def __init__(self, num_envs: int = 1, *, max_episode_steps: int | None = None,
                 info_keys: Sequence[str] | str | None = None, autoreset_mode: str | AutoresetMode = "NextStep",
                 render_mode: str | None = None, **env_kwargs: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ApbError(f"num_envs must be a positive integer, not {num_envs!r}")
        if autoreset_mode not in _AUTORESET:
            raise ApbError(f"autoreset_mode={autoreset_mode!r}: use NextStep, SameStep or Disabled")
        if render_mode not in (None, "rgb_array", "ansi"):
            raise ApbError(f"render_mode {render_mode!r}: the native vector env renders 'rgb_array' (a picture per "
                           "sub-env) or 'ansi'")
        base = PDDLTextEnv(render_mode=render_mode, **env_kwargs)
        self.num_envs = num_envs
        self.autoreset_mode = _AUTORESET[autoreset_mode]
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": ["rgb_array", "ansi"],
                         "render_fps": base.metadata["render_fps"]}
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        self.obs_mode, self.action_mode = base.obs_mode, base.action_mode
        self._encoded = (base.obs_mode, base.action_mode) != ("text", "text")
        if isinstance(info_keys, str) and info_keys != "all":
            raise ApbError(f"info_keys must be a list of info key names or 'all', not {info_keys!r}")
        if info_keys is None:
            info_keys = DEFAULT_INFO_KEYS + (("action_mask",) if self._encoded else ())
        self.info_keys = info_keys if info_keys == "all" else tuple(info_keys)
        self._lean = self.info_keys != "all" and set(self.info_keys) <= _LEAN_KEYS
        if self._encoded or self.info_keys == "all" or "action_mask" in self.info_keys:
            base.encoding  # noqa: B018  (built once here, shared by every lane)
        self.lanes: list[PDDLTextEnv] = [base] + [_lane(base) for _ in range(num_envs - 1)]
        self.single_observation_space = base.observation_space
        self.single_action_space = base.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = create_empty_array(self.single_observation_space, num_envs)
        self._obs: list[Any] = [None] * num_envs
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    # ---- helpers ----------------------------------------------------------------------------------------------
    @property
    def encoding(self):
        """The shared fixed index (apb.envs.observations.Encoding) of the lanes' split."""
        return self.lanes[0].encoding

    @property
    def action_names(self) -> list[str]:
        return self.lanes[0].action_names

    def action_masks(self) -> np.ndarray:
        """(num_envs, action-space mask) booleans: the applicable actions of each lane (MaskablePPO's method)."""
        encoding = self.encoding
        return np.stack([encoding.space_mask(lane.task, lane.state.bits) for lane in self.lanes])

    def _observe(self, lane: PDDLTextEnv, text: str) -> Any:
        if self.obs_mode == "text":
            return text
        return lane._encoding.observe(lane._current.task, lane._state.bits)

    def _info(self, lane: PDDLTextEnv, fields: dict) -> dict:
        """The requested info keys of one lane; `fields` holds what the step already knows."""
        if not self._lean:
            info = lane._info(lane._state)
            info.update(fields)
            if self._encoded or self.info_keys == "all" or "action_mask" in self.info_keys:
                info.setdefault("action_mask", lane.encoding.mask(lane._current.task, lane._state.bits))
            return info if self.info_keys == "all" else {k: info[k] for k in self.info_keys if k in info}
        task, bits, out = lane._current.task, lane._state.bits, {}
        for key in self.info_keys:
            if key in fields:
                out[key] = fields[key]
            elif key == "problem_id":
                out[key] = lane._current.entry.id
            elif key == "admissible_actions":
                names = lane._current.action_names
                ids = lane._encoding.applicable(task, bits)[0] if lane._encoding else task.applicable_ids(bits)
                out[key] = [names[i] for i in ids]
            elif key == "goal_reached":
                out[key] = task.is_goal_bits(bits)
            elif key == "action_mask":
                out[key] = lane._encoding.applicable(task, bits)[1].copy()
            elif key == "step":
                out[key] = lane._steps
        return out

    def _batch(self, infos: list[dict | None]) -> dict:
        """Gymnasium's batched infos: an array per key (bool/int/float/ndarray typed, else object) and `_key`."""
        batched: dict = {}
        keys = dict.fromkeys(k for info in infos if info for k in info)
        for key in keys:
            present = np.array([info is not None and key in info for info in infos], dtype=np.bool_)
            values = [info[key] if info is not None and key in info else None for info in infos]
            sample = next(v for v, p in zip(values, present) if p)
            if isinstance(sample, np.ndarray):
                array = np.zeros((self.num_envs, *sample.shape), dtype=sample.dtype)
            elif type(sample) in (int, float, bool) or isinstance(sample, np.number):
                array = np.zeros(self.num_envs, dtype=type(sample))
            else:
                array = np.full(self.num_envs, None, dtype=object)
            for i, value in enumerate(values):
                if present[i]:
                    array[i] = value
            batched[key], batched[f"_{key}"] = array, present
        return batched

    def _concatenated(self) -> Any:
        if self.obs_mode != "facts":  # texts are immutable and every graph is built fresh: no copy needed
            return tuple(self._obs)
        self._observations = concatenate(self.single_observation_space, self._obs, self._observations)
        return self._observations.copy()

    # ---- Gymnasium VectorEnv API ------------------------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict | None = None) -> tuple[Any, dict]:
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ApbError(f"reset got {len(seeds)} seeds for {self.num_envs} envs")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if mask is None:
            mask = np.ones(self.num_envs, dtype=np.bool_)
        elif not isinstance(mask, np.ndarray) or mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ApbError(f"options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},)")
        infos: list[dict | None] = [None] * self.num_envs
        for i in np.flatnonzero(mask):
            lane = self.lanes[i]
            text = lane._begin(seeds[i], options)
            self._obs[i] = self._observe(lane, text)
            infos[i] = self._info(lane, {"feedback": text})
            self._terminations[i] = self._truncations[i] = self._autoreset[i] = False
        return self._concatenated(), self._batch(infos)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        actions = list(iterate(self.action_space, actions)) if not isinstance(actions, list | tuple) else actions
        if len(actions) != self.num_envs:
            raise ApbError(f"step got {len(actions)} actions for {self.num_envs} envs")
        infos: list[dict | None] = [None] * self.num_envs
        finals: dict[int, tuple] = {}
        limit = self.max_episode_steps
        for i, lane in enumerate(self.lanes):
            if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset[i]:
                text = lane._begin(None, None)
                self._obs[i] = self._observe(lane, text)
                self._rewards[i] = 0.0
                self._terminations[i] = self._truncations[i] = False
                infos[i] = self._info(lane, {"feedback": text})
                continue
            if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset[i]:
                raise ApbError(f"env {i} finished its episode: reset it (options={{'reset_mask': ...}}) before "
                               "stepping with autoreset_mode='Disabled'")
            action = actions[i]
            if self._encoded and self.action_mode != "text":
                action = lane._encoding.action_text(lane._current.task, action)
            text, reward, terminated, valid, failure, executed, look, cost = lane._transition(action)
            self._obs[i] = self._observe(lane, text)
            self._rewards[i] = reward
            self._terminations[i] = terminated
            self._truncations[i] = ((limit is not None and lane._steps >= limit)  # TimeLimit's rule
                                    or (not terminated and lane._max_steps is not None
                                        and lane._steps >= lane._max_steps))  # the env's own limit, if it has one
            fields = {"action_valid": valid, "feedback": text, "failure": failure, "look_around": look,
                      "action_cost": cost if valid else 0.0,
                      "action": executed if executed is not None else (action if isinstance(action, str)
                                                                       else repr(action))}
            infos[i] = self._info(lane, fields)
            if self.autoreset_mode == AutoresetMode.SAME_STEP and (terminated or self._truncations[i]):
                finals[i] = (self._obs[i], infos[i])
                text = lane._begin(None, None)
                self._obs[i] = self._observe(lane, text)
                infos[i] = self._info(lane, {"feedback": text})
        self._autoreset = self._terminations | self._truncations
        batched = self._batch(infos)
        if finals:
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info: list[dict | None] = [None] * self.num_envs
            for i, (obs, info) in finals.items():
                final_obs[i], final_info[i] = obs, info
            present = np.zeros(self.num_envs, dtype=np.bool_)
            present[list(finals)] = True
            batched.update(final_obs=final_obs, _final_obs=present, final_info=self._batch(final_info),
                           _final_info=present)
        return (self._concatenated(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(),
                batched)

    def render(self) -> tuple | None:
        """Each sub-env's render (a picture per lane with render_mode="rgb_array"), as Gymnasium's vector envs."""
        if self.render_mode is None:
            return None
        return tuple(lane.render() for lane in self.lanes)

    def close_extras(self, **kwargs: Any) -> None:
        for lane in self.lanes:
            lane.close()

    def __repr__(self) -> str:
        return f"PDDLVectorEnv({self.lanes[0].dataset.name}, num_envs={self.num_envs}, obs_mode={self.obs_mode!r})"


def _lane(base: PDDLTextEnv) -> PDDLTextEnv:
    """A sub-env sharing `base`'s loaded problems and encoding, with its own episode state and random generator."""
    lane = copy.copy(base)
    lane._np_random = None
    lane._np_random_seed = None
    lane._current = lane._state = None
    lane._steps = 0
    lane._terminated = False
    lane._history = []
    lane._last = None
    lane._state_text = {}
    return lane


__all__ = ["DEFAULT_INFO_KEYS", "MAX_ACTION_LENGTH", "MAX_OBSERVATION_LENGTH", "PDDLVectorEnv"]

"""PDDLVectorEnv: N episodes stepped in one process over shared grounded tasks (the `vector_entry_point` of every
apb id, so `gymnasium.make_vec("apb/Blocksworld-v0", num_envs=N)` returns it).

Each sub-env ("lane") is a PDDLTextEnv sharing the loaded problems (parse, grounding, NL renderer, encoding) with
the others; it keeps its own state, step count and random generator, so the same seeds give the same trajectories
as N single envs in Gymnasium's SyncVectorEnv (seed i + k for lane k; autoresets draw from the lane's generator).
Observations and actions follow `obs_mode` / `action_mode` (apb.envs.observations). Infos are batched Gymnasium's
way (an array per key plus a `_key` mask) but only for `info_keys`: by default the keys a training loop needs
(`DEFAULT_INFO_KEYS`, plus `action_mask` outside text/text); any other key of the single env's info on request,
or `info_keys="all"` for all of them.

Stepping: with `obs_mode="facts"`, `action_mode="index"` and info keys the batch path computes itself
(`apb.envs.batched.BATCH_INFO_KEYS`, the default ones included), all lanes step at once on numpy arrays over
packed bit states (apb.envs.batched); the lanes then keep only their problem and random generator. Any other
mode, an info key that needs the single env's text (feedback, failure, state, ...), `require_finish`, or a split
whose tasks the batch path cannot cover (conditional effects, complex conditions, axioms) steps the lanes one by
one: `stepping` (and the repr) says which, `fallback_reason` why.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate

from apb.engine.errors import ApbError
from apb.envs.batched import BATCH_INFO_KEYS, BatchTables, batch_tables
from apb.envs.spaces import action_index
from apb.envs.text_env import MAX_ACTION_LENGTH, MAX_OBSERVATION_LENGTH, PDDLTextEnv

DEFAULT_INFO_KEYS = ("problem_id", "admissible_actions", "action_valid", "goal_reached")
# Keys computed without the single env's full info (state text, schemas, PDDL): everything else builds it.
_LEAN_KEYS = frozenset(DEFAULT_INFO_KEYS) | {"action_mask", "feedback", "action", "step", "action_cost",
                                             "look_around", "failure"}
_STEP_KEYS = frozenset({"action_valid", "action", "action_cost", "look_around"})  # in step infos, not reset ones
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
        self._batch_tables: BatchTables | None = None
        self.fallback_reason = self._batch_path(base)
        self.stepping = "batched" if self.fallback_reason is None else "per-env loop"

    def _batch_path(self, base: PDDLTextEnv) -> str | None:
        """Builds the batch tables and the batched state, or returns why the lanes step one by one."""
        if (self.obs_mode, self.action_mode) != ("facts", "index"):
            return f"obs_mode={self.obs_mode!r}, action_mode={self.action_mode!r} (batched: facts and index)"
        if base.require_finish:
            return "require_finish=True"
        if self.render_mode is not None:
            return f"render_mode={self.render_mode!r} (pictures are drawn from each sub-env's own state)"
        if self.info_keys == "all" or not set(self.info_keys) <= BATCH_INFO_KEYS:
            extra = "all" if self.info_keys == "all" else ", ".join(sorted(set(self.info_keys) - BATCH_INFO_KEYS))
            return f"info_keys {extra} need the single env's step"
        ids = base.problem_ids
        tables = batch_tables(base.encoding, [base.task_for(pid) for pid in ids])
        if isinstance(tables, str):
            return tables
        self._batch_tables = tables
        self._problem_of = {pid: k for k, pid in enumerate(ids)}
        self._problem_ids = np.array(ids, dtype=object)
        self._states = np.zeros((self.num_envs, tables.words), dtype="<u8")
        self._problems = np.zeros(self.num_envs, dtype=np.int64)
        self._steps = np.zeros(self.num_envs, dtype=np.int64)
        self._mask = np.zeros((self.num_envs, tables.num_actions), dtype=np.bool_)
        self._goal = np.zeros(self.num_envs, dtype=np.bool_)
        return None

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
        if self._batch_tables is not None:
            return self._mask.copy()
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

    # ---- the batch path (apb.envs.batched) --------------------------------------------------------------------
    def _begin_rows(self, rows: np.ndarray, seeds: list | None, options: dict | None) -> None:
        """New episodes on these lanes: each lane draws its problem (its own generator, as a single env does), its
        row takes the problem's initial state, and the rows' masks and goal flags are recomputed."""
        tables = self._batch_tables
        problems = self._problems
        for i in rows.tolist():
            lane = self.lanes[i]
            lane._begin(seeds[i] if seeds is not None else None, options)
            problems[i] = self._problem_of[lane._current.entry.id]
        self._states[rows] = tables.initial[problems[rows]]
        self._steps[rows] = 0
        self._mask[rows] = tables.applicable(self._states[rows], problems[rows])
        self._goal[rows] = tables.is_goal(self._states[rows], problems[rows])

    def _action_indices(self, actions: Any, stepped: np.ndarray) -> np.ndarray:
        """The (num_envs,) action indices, checked for the lanes that step (0 for the others)."""
        size = self._batch_tables.num_actions
        values = actions if isinstance(actions, np.ndarray) else np.asarray(actions, dtype=object)
        if values.ndim != 1 or len(values) != self.num_envs:
            count = len(values) if values.ndim else 1
            raise ApbError(f"step got {count} actions for {self.num_envs} envs")
        if not np.issubdtype(values.dtype, np.integer):
            return np.array([action_index(a, size, "action_mode='index'") if go else 0
                             for a, go in zip(values.tolist(), stepped.tolist())], dtype=np.int64)
        bad = stepped & ((values < 0) | (values >= size))
        if bad.any():
            action_index(int(values[bad][0]), size, "action_mode='index'")
        return np.where(stepped, values, 0).astype(np.int64, copy=False)

    def _batched_infos(self, present: np.ndarray, stepped: np.ndarray | None, valid: np.ndarray | None = None,
                       chosen: np.ndarray | None = None, cost: np.ndarray | None = None) -> dict:
        """Gymnasium's batched infos of the batch path: the lanes of `present` have an info, those of `stepped`
        (a step, not a reset) also the step's keys; the same arrays, dtypes and `_key` masks as `_batch`."""
        out: dict = {}
        tables = self._batch_tables
        for key in self.info_keys:
            where = stepped if key in _STEP_KEYS else present
            if where is None or not where.any():
                continue
            if key == "problem_id":
                value = np.where(where, self._problem_ids[self._problems], None)
            elif key == "admissible_actions":
                value = np.full(self.num_envs, None, dtype=object)
                rows = np.flatnonzero(where)
                sub = self._mask[rows]
                names = tables.action_names[np.nonzero(sub)[1]].tolist()
                end = 0
                for i, count in zip(rows.tolist(), sub.sum(axis=1).tolist()):
                    value[i] = names[end:end + count]
                    end += count
            elif key == "goal_reached":
                value = self._goal & where
            elif key == "action_mask":
                value = self._mask.astype(np.int8)
                value[~where] = 0
            elif key == "step":
                value = np.where(where, self._steps, 0)
            elif key == "action_valid":
                value = valid & where
            elif key == "action":
                value = np.where(where, tables.action_names[chosen], None)
            elif key == "action_cost":
                value = np.where(where, cost, 0.0)
            else:  # look_around: index actions are never the look-around
                value = np.zeros(self.num_envs, dtype=np.bool_)
            out[key], out[f"_{key}"] = value, where.copy()
        return out

    def _reset_batched(self, seeds: list, options: dict, mask: np.ndarray) -> tuple[np.ndarray, dict]:
        rows = np.flatnonzero(mask)
        self._begin_rows(rows, seeds, options)
        self._terminations[rows] = self._truncations[rows] = self._autoreset[rows] = False
        observations = self._batch_tables.observe(self._states, self._problems)
        return observations, self._batched_infos(mask, None)

    def _step_batched(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        tables, n = self._batch_tables, self.num_envs
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset.any():
            raise ApbError(f"env {int(np.flatnonzero(self._autoreset)[0])} finished its episode: reset it "
                           "(options={'reset_mask': ...}) before stepping with autoreset_mode='Disabled'")
        restart = self._autoreset if self.autoreset_mode == AutoresetMode.NEXT_STEP else np.zeros(n, dtype=np.bool_)
        stepped = ~restart
        chosen = self._action_indices(actions, stepped)
        valid = self._mask[np.arange(n), chosen] & stepped
        moved = np.flatnonzero(valid)
        if len(moved):
            self._states[moved] = tables.apply(self._states[moved], chosen[moved])
        self._steps += stepped
        terminated = valid & tables.is_goal(self._states, self._problems)
        truncated = np.zeros(n, dtype=np.bool_)
        if self.max_episode_steps is not None:  # TimeLimit's rule
            truncated |= self._steps >= self.max_episode_steps
        own = self.lanes[0]._max_steps
        if own is not None:  # the env's own limit, if it has one
            truncated |= ~terminated & (self._steps >= own)
        truncated &= stepped
        cost = np.where(valid, tables.cost[self._problems, chosen], 0.0)
        if restart.any():
            self._begin_rows(np.flatnonzero(restart), None, None)
        self._mask = tables.applicable(self._states, self._problems)
        self._goal = tables.is_goal(self._states, self._problems)
        observations = tables.observe(self._states, self._problems)
        everyone = np.ones(n, dtype=np.bool_)
        finished = terminated | truncated
        if self.autoreset_mode != AutoresetMode.SAME_STEP or not finished.any():
            infos = self._batched_infos(everyone, stepped, valid, chosen, cost)
        else:
            final_info = self._batched_infos(finished, finished, valid, chosen, cost)
            rows = np.flatnonzero(finished)
            final_obs = np.full(n, None, dtype=object)
            for i in rows.tolist():
                final_obs[i] = observations[i].copy()
            self._begin_rows(rows, None, None)
            observations[rows] = tables.observe(self._states[rows], self._problems[rows])
            infos = self._batched_infos(everyone, stepped & ~finished, valid, chosen, cost)
            infos.update(final_obs=final_obs, _final_obs=finished.copy(), final_info=final_info,
                         _final_info=finished.copy())
        self._terminations, self._truncations = terminated, truncated
        self._autoreset = finished
        return observations, terminated.astype(np.float64), terminated.copy(), truncated.copy(), infos

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
        if self._batch_tables is not None:
            return self._reset_batched(seeds, options, mask)
        infos: list[dict | None] = [None] * self.num_envs
        for i in np.flatnonzero(mask):
            lane = self.lanes[i]
            text = lane._begin(seeds[i], options)
            self._obs[i] = self._observe(lane, text)
            infos[i] = self._info(lane, {"feedback": text})
            self._terminations[i] = self._truncations[i] = self._autoreset[i] = False
        return self._concatenated(), self._batch(infos)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict]:
        if self._batch_tables is not None:
            return self._step_batched(actions)
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
        how = self.stepping if self.fallback_reason is None else f"{self.stepping}: {self.fallback_reason}"
        return (f"PDDLVectorEnv({self.lanes[0].dataset.name}, num_envs={self.num_envs}, obs_mode={self.obs_mode!r}, "
                f"action_mode={self.action_mode!r}, stepping={how!r})")


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

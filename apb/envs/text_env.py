"""PDDLTextEnv: a PDDL problem as a Gymnasium text game with first-person feedback.

Actions are grounded PDDL strings (`(stack b1 b2)`), `(look-around)` or `(finish)`. Observations are English
(or PDDL with `description="pddl"`). A bad action never raises and never changes the state; its feedback names
exactly what is wrong. See the environment contract in the README.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from apb.datasets import Dataset, ProblemEntry, optimal_length, resolve
from apb.engine.errors import ActionError, ApbError
from apb.engine.limits import MAX_TURN_CHARS
from apb.engine.task import State, Task
from apb.envs.observations import Encoding, check_modes
from apb.envs.spaces import PrintableText
from apb.nl.feedback import MAX_QUOTED, Diagnosis, NLFeedback, PDDLFeedback, diagnose, split_action
from apb.nl.render import DomainText, TaskText
from apb.nl.sources import load_templates
from apb.nl.variants import VARIANTS, apply_variant

LOOK_AROUND = "(look-around)"  # the two meta actions, as agents send them
FINISH = "(finish)"
RESET_OPTIONS = ("problem",)
MAX_OBSERVATION_LENGTH = 1_000_000
MAX_ACTION_LENGTH = 4096
_STATE_CACHE_LIMIT = 20_000


class _Loaded:
    """Everything derived from one problem that does not change during an episode."""

    __slots__ = ("action_names", "base_info", "entry", "feedback", "observation", "painter", "task", "text")

    def __init__(self, env: PDDLTextEnv, entry: ProblemEntry) -> None:
        self.entry = entry
        self.task: Task = env.dataset.task(entry.id)
        self.text = TaskText(self.task, env.templates)
        self.feedback = PDDLFeedback(self.text) if env.description == "pddl" else NLFeedback(self.text)
        self.action_names = [str(a) for a in self.task.actions]
        self.painter = None  # apb.envs.pictures.Painter, made at the first picture
        task = self.task
        problem_pddl = env.dataset.problem_text(entry.id)
        gold_plan = _gold_plan(env.dataset, entry)
        if env.description == "pddl":
            domain_text = env.domain_pddl
            self.observation = problem_pddl
        else:
            domain_text = env.domain_text
            self.observation = self.text.problem_description()
        self.base_info = {
            "domain": env.dataset.name,
            "problem_id": entry.id,
            "domain_description": domain_text,
            "goal": self.text.goal() if env.description != "pddl" else " ".join(str(g) for g in task.goal),
            "goal_pddl": [str(g) for g in task.goal],
            "objects": dict(task.objects),
            "action_schemas": env.action_schemas,
            "type_nouns": sorted(env.templates.nouns),
            "types": dict(env.dataset.domain.types),
            "optimal_plan_length": (optimal := optimal_length(env.dataset, entry, gold_plan)),
            "action_costs": task.has_costs,
            "optimal_plan_cost": _optimal_cost(task, gold_plan) if optimal is not None else None,
            # for symbolic baselines (planners, oracle) and PDDL-input agents
            "domain_pddl": env.domain_pddl,
            "problem_pddl": problem_pddl,
            "gold_plan": gold_plan,
        }


def _optimal_cost(task: Task, gold_plan: list[str]) -> float | None:
    """The cost of an optimal gold plan, for tasks with action costs (None without costs or for a broken plan)."""
    if not task.has_costs:
        return None
    result = task.validate(gold_plan)
    return result.cost if result.valid else None


def _gold_plan(dataset: Dataset, entry: ProblemEntry) -> list[str] | None:
    """The problem's gold plan as PDDL action strings, when the dataset has one."""
    try:
        plan = dataset.gold_plan(entry.id)
    except ApbError:
        return None
    return [step.text for step in plan.steps] if plan is not None else None


class PDDLTextEnv(gym.Env):
    """A PDDL planning problem as a text game with first-person feedback.

    Build it with `gymnasium.make("apb/<Domain>-v0", ...)` or directly from one problem source (anything
    `apb.datasets.resolve` takes): `PDDLTextEnv("blocksworld")`, `PDDLTextEnv("path/to/dataset")`,
    `PDDLTextEnv(domain_file=..., problem_file=...)`, `PDDLTextEnv(dataset=Dataset)`.

    - Observation space: printable text (`PrintableText`, at most 1,000,000 characters): the task (goal and initial
      situation) after `reset`, first-person feedback after `step`.
    - Action space: printable text: a grounded PDDL action `(stack b1 b2)` (case and whitespace tolerant),
      `(look-around)` or `(finish)`. A bad action never raises and never changes the state.
    - Reward: 1.0 on the step that reaches the goal (with `require_finish`, the `(finish)` step in a goal state),
      else 0.0.
    - Termination: the goal is reached (or declared with `(finish)`); after that, further steps keep
      `terminated=True` and change nothing. Truncation: `max_episode_steps`.
    - `info` keys after `reset` and `step`: domain, problem_id, domain_description, goal, goal_pddl, objects,
      action_schemas, type_nouns, types, optimal_plan_length, action_costs (the task minimizes total-cost),
      optimal_plan_cost (the optimal gold plan's cost, with action costs; else None), domain_pddl, problem_pddl,
      gold_plan, state, state_pddl, admissible_actions, goal_reached, unsatisfied_goals, step; `step` adds action,
      action_valid, failure (`kind`, `unmet`, `text`), look_around and action_cost (`task.cost` of the executed
      action as a float: 1.0 per action without action costs, 0.0 for look-around, finish and invalid actions).
    - `obs_mode` ("text" | "facts" | "graph") and `action_mode` ("text" | "index" | "lifted"): policy-ready
      observations and actions (apb.envs.observations); outside text/text, `info["action_mask"]` (int8 over
      `action_names`) is in every info and text feedback moves to `info["feedback"]`. `action_masks()` (MaskablePPO)
      works in every mode.
    - `reset(seed, options={"problem": N})`: a problem number (`1` and `"1"` alike), id or path; without one the
      seed picks a problem. Other option keys are an error.
    """

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(self, domain: str | os.PathLike | Dataset | None = None, *, split: str | None = None,
                 problem: Any = None, problems: Any = None, domain_file: str | os.PathLike | None = None,
                 problem_file: str | os.PathLike | None = None, dataset: str | os.PathLike | Dataset | None = None,
                 description: str | os.PathLike = "curated", require_finish: bool = False,
                 max_episode_steps: int | None = None, render_mode: str | None = None, obs_mode: str = "text",
                 action_mode: str = "text") -> None:
        check_modes(obs_mode, action_mode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ApbError(f"render_mode {render_mode!r} is not supported: use 'ansi', 'human', 'rgb_array' or None")
        sources = [s for s in (domain, dataset, domain_file) if s is not None]
        if len(sources) != 1:
            raise ApbError("PDDLTextEnv needs a bundled domain name or a dataset folder, domain_file= with "
                           "problem_file= or problems=, or dataset= (exactly one of them)")
        if problem_file is not None and problems is not None:
            raise ApbError("pass problem_file= or problems=, not both")
        files = problem_file if problem_file is not None else problems
        source = (domain_file, files) if domain_file is not None else sources[0]
        self.dataset = resolve(source, split, problems=files if domain_file is None else None)
        self.description = "pddl" if description == "pddl" else str(description)
        variant = self.description if self.description in VARIANTS else None  # obfuscated / shuffled: the curated
        self.templates = load_templates(self.dataset.domain, "curated" if variant else description,  # text, renamed
                                        domain_file=self.dataset.domain_file)
        if variant:
            self.dataset, self.templates = apply_variant(self.dataset, self.templates, variant)
        self.require_finish = bool(require_finish)
        self.render_mode = render_mode
        self._max_steps = max_episode_steps
        self.domain_pddl = self.dataset.domain_text()
        self.domain_text = DomainText(self.dataset.domain, self.templates).description()
        self.action_schemas = self._schemas()
        self.obs_mode, self.action_mode = obs_mode, action_mode
        self._fixed_problem = self.dataset.entry(problem) if problem is not None else None
        self._loaded: dict[str, _Loaded] = {}
        self._encoding: Encoding | None = None
        self._encoded = (obs_mode, action_mode) != ("text", "text")  # observations/actions through the encoding
        if self._encoded:
            self.observation_space = self.encoding.observation_space(MAX_OBSERVATION_LENGTH)
            self.action_space = self.encoding.action_space(MAX_ACTION_LENGTH)
        else:
            self.observation_space = PrintableText(MAX_OBSERVATION_LENGTH)
            self.action_space = PrintableText(MAX_ACTION_LENGTH)
        self._current: _Loaded | None = None
        self._state: State | None = None
        self._steps = 0
        self._terminated = False
        self._history: list[tuple[str, str]] = []
        self._state_text: dict[int, tuple] = {}
        self._last: tuple | None = None  # (action, valid, state before, missing facts) of the last step, for pictures

    # ---- public helpers -------------------------------------------------------------------------------------
    @property
    def task(self) -> Task:
        """The grounded task of the current episode (after `reset`)."""
        if self._current is None:
            raise ApbError("call reset() before using the environment")
        return self._current.task

    @property
    def text(self) -> TaskText:
        """The NL renderer of the current episode's problem (state, action and goal text), after `reset`."""
        if self._current is None:
            raise ApbError("call reset() before using the environment")
        return self._current.text

    @property
    def problem_id(self) -> str:
        """The id of the current episode's problem (after `reset`)."""
        if self._current is None:
            raise ApbError("call reset() before using the environment")
        return self._current.entry.id

    def task_for(self, problem: Any) -> Task:
        """The grounded task of any problem of this env (number, id or path), loaded once and kept."""
        return self._load(self.dataset.entry(problem)).task

    @property
    def state(self) -> State:
        if self._state is None:
            raise ApbError("call reset() before using the environment")
        return self._state

    @property
    def problem_ids(self) -> list[str]:
        return [e.id for e in self.dataset.problems]

    def _schemas(self) -> list[dict]:
        out = []
        for schema in self.dataset.domain.actions:
            template = self.templates.actions.get(schema.name)
            out.append({"name": schema.name,
                        "parameters": [[p.name.lstrip("?"), p.type_str] for p in schema.parameters],
                        "pddl": schema.pddl_signature(),
                        "nl": template.text if template else None,
                        "indefinite": template.indefinite if template else None,
                        "variables": dict(template.variables) if template else {}})
        return out

    def _load(self, entry: ProblemEntry) -> _Loaded:
        loaded = self._loaded.get(entry.id)
        if loaded is None:
            loaded = self._loaded[entry.id] = _Loaded(self, entry)
        return loaded

    # ---- Gymnasium API ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        observation = self._begin(seed, options)
        info = self._info(self._state)
        if self.render_mode == "human":
            self.render()
        return self._observe(observation, info), info

    def _begin(self, seed: int | None, options: dict | None) -> str:
        """The reset without info: seeds, picks the problem, returns the task text."""
        super().reset(seed=seed)
        options = options or {}
        if unknown := sorted(set(options) - set(RESET_OPTIONS)):
            raise ApbError(f"unknown reset option(s) {', '.join(map(repr, unknown))}: the only option is "
                           "'problem' (a problem number, id or path)")
        if options.get("problem") is not None:
            entry = self.dataset.entry(options["problem"])
        elif self._fixed_problem is not None:
            entry = self._fixed_problem
        else:
            entry = self.dataset.problems[int(self.np_random.integers(len(self.dataset.problems)))]
        if self._current is None or self._current.entry.id != entry.id:
            self._current = self._load(entry)
            self._state_text = {}
        self._state = self._current.task.initial_state
        self._steps = 0
        self._terminated = False
        observation = self._current.observation
        self._history = [("", observation)]
        self._last = None
        return observation

    # ---- observation and action modes (apb.envs.observations) -------------------------------------------------
    @property
    def encoding(self) -> Encoding:
        """The fixed fact and action index of this env's split (built over every problem on first use)."""
        if self._encoding is None:
            tasks = [self.task_for(entry.id) for entry in self.dataset.problems]
            self._encoding = Encoding(self.dataset.domain, tasks, self.obs_mode, self.action_mode)
        return self._encoding

    @property
    def action_names(self) -> list[str]:
        """The ground action of each index (action_mode="index") and of each entry of the action mask."""
        return self.encoding.action_names

    def action_masks(self) -> np.ndarray:
        """The applicable actions of the current state in the shape of the action space, as booleans
        (Stable-Baselines3 MaskablePPO's convention; see Encoding.space_mask for lifted actions)."""
        return self.encoding.space_mask(self.task, self.state.bits)

    def _observe(self, text: str, info: dict) -> Any:
        """The observation of the current state in this env's obs_mode; outside text mode the text goes to
        info["feedback"]. Adds info["action_mask"] whenever an encoding is in use."""
        if not self._encoded:
            return text
        task, bits = self._current.task, self._state.bits
        info["action_mask"] = self._encoding.mask(task, bits)
        if self.obs_mode == "text":
            return text
        info["feedback"] = text
        return self._encoding.observe(task, bits)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        if self._current is None:
            raise ApbError("call reset() before step()")
        if self._encoded and self.action_mode != "text":
            action = self._encoding.action_text(self._current.task, action)
        if self._terminated:
            return self._step_after_end(action)
        observation, reward, terminated, valid, failure, executed, look, cost = self._transition(action)
        truncated = not terminated and self._max_steps is not None and self._steps >= self._max_steps
        info = self._info(self._state)
        info["action"] = executed if executed is not None else (action if isinstance(action, str) else repr(action))
        info["action_valid"] = valid
        info["failure"] = failure
        info["look_around"] = look
        info["action_cost"] = cost if valid else 0.0
        self._history.append((info["action"], observation))
        if self.render_mode == "human":
            self.render()
        return self._observe(observation, info), reward, terminated, truncated, info

    def _transition(self, action: Any) -> tuple[str, float, bool, bool, dict, str | None, bool, float]:
        """One step on the state (no info): (feedback, reward, terminated, valid, failure, executed action,
        look-around, cost). The native vector env calls it directly and batches only the infos it needs."""
        loaded = self._current
        task = loaded.task
        state = before = self._state
        feedback = loaded.feedback
        self._steps += 1
        reward = 0.0
        terminated = False
        valid = True
        failure: dict = {}  # falsy when valid, and a dict in every step info (vector envs batch infos by type)
        look = False
        executed = None
        cost = 0.0  # look-around and finish cost nothing; always a float: vector envs batch infos by type
        too_long = isinstance(action, str) and len(action) > MAX_TURN_CHARS  # refused unread: a syntax failure
        try:
            ground = None if too_long else task.parse_action(action)
        except ActionError:
            ground = None
        if ground is not None:
            detail = task.explain_detail(state, ground) if not task.is_applicable(state, ground) else None
            unmet = [s for u in detail for s in u.strings()] if detail is not None else None
            executed = str(ground)
            if unmet:
                valid = False
                observation = feedback.unmet(ground, unmet, detail)
                failure = {"kind": "unmet_preconditions", "unmet": unmet, "text": observation}
            else:
                state = self._state = task.successor(state, ground)
                cost = float(task.cost(ground))
                observation = feedback.executed(ground)
                if not self.require_finish and task.is_goal(state):
                    terminated = True
                    reward = 1.0
                    observation += " " + feedback.goal_reached()
        else:
            meta = split_action(action) if isinstance(action, str) and not too_long else None
            if meta is not None and f"({meta[0]})" == LOOK_AROUND and not meta[1]:
                look = True
                executed = LOOK_AROUND
                observation = feedback.look_around(state)
            elif meta is not None and f"({meta[0]})" == FINISH and not meta[1]:
                executed = FINISH
                if task.is_goal(state):
                    terminated = True
                    reward = 1.0
                    observation = feedback.finished()
                else:
                    valid = False
                    detail = task.goal_detail(state)
                    unsatisfied = [s for u in detail for s in u.strings()]  # = task.unsatisfied_goals(state)
                    observation = feedback.not_finished(unsatisfied, detail)
                    failure = {"kind": "goal_not_reached", "unmet": unsatisfied, "text": observation}
            else:
                diagnosis = Diagnosis("syntax", action[:MAX_QUOTED + 1]) if too_long else diagnose(task, action)
                valid = False
                observation = feedback.failure(diagnosis)
                failure = {"kind": diagnosis.kind, "unmet": [], "text": observation}
        self._terminated = terminated
        shown = executed if executed is not None else (action if isinstance(action, str) else repr(action))
        self._last = (shown[:200], valid, before, tuple(failure.get("unmet", ())) if failure else ())
        return observation, reward, terminated, valid, failure, executed, look, cost

    def _step_after_end(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """A step after the episode terminated: nothing changes, `terminated` stays True, reward 0.0."""
        self._steps += 1
        observation = self._current.feedback.episode_over()
        info = self._info(self._state)
        info["action"] = action if isinstance(action, str) else repr(action)
        info["action_valid"] = False
        info["failure"] = {"kind": "episode_over", "unmet": [], "text": observation}
        info["look_around"] = False
        info["action_cost"] = 0.0
        self._history.append((info["action"], observation))
        self._last = (info["action"][:200], False, self._state, ())
        return self._observe(observation, info), 0.0, True, False, info

    def _info(self, state: State) -> dict:
        loaded = self._current
        cached = self._state_text.get(state.bits)
        if cached is None:
            task = loaded.task
            nl, state_pddl = loaded.text.state_both(state)
            if self.description == "pddl":
                nl = " ".join(state_pddl)
            names = loaded.action_names
            admissible = [names[i] for i in task.applicable_ids(state.bits)]
            goal = task.is_goal(state)
            if len(self._state_text) >= _STATE_CACHE_LIMIT:
                self._state_text.clear()
            cached = self._state_text[state.bits] = (nl, state_pddl, admissible, goal,
                                                     [] if goal else task.unsatisfied_goals(state))
        info = dict(loaded.base_info)
        # Fresh containers on every call: users keep infos (Gymnasium's data-reuse rule).
        info["goal_pddl"] = list(info["goal_pddl"])
        info["type_nouns"] = list(info["type_nouns"])
        info["types"] = dict(info["types"])
        if info["gold_plan"] is not None:
            info["gold_plan"] = list(info["gold_plan"])
        info["objects"] = dict(info["objects"])
        info["action_schemas"] = [{**s, "parameters": [list(p) for p in s["parameters"]],
                                   "variables": dict(s["variables"])} for s in info["action_schemas"]]
        info["state"] = cached[0]
        info["state_pddl"] = list(cached[1])
        info["admissible_actions"] = list(cached[2])
        info["goal_reached"] = cached[3]
        info["unsatisfied_goals"] = list(cached[4])
        info["step"] = self._steps
        return info

    def render(self) -> str | np.ndarray | None:
        """`ansi`: the last action and its feedback as text; `rgb_array`: the picture of the current state (an
        H×W×3 uint8 array, see `picture`); `human`: the text printed to the terminal."""
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: pass render_mode='ansi', 'human' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return self._render_text()
        if self.render_mode == "rgb_array":
            return self.picture()
        from apb.envs.rendering import render_human

        render_human(self)
        return None

    # ---- pictures (apb.envs.pictures) -----------------------------------------------------------------------------
    @property
    def painter(self):
        """The apb.envs.pictures.Painter of the current problem (its layout is fixed for the problem)."""
        if self._current is None:
            raise ApbError("call reset() before drawing the environment")
        if self._current.painter is None:
            from apb.envs.pictures import Painter

            self._current.painter = Painter(self._current.task)
        return self._current.painter

    def _last_step(self):
        from apb.envs.pictures import LastStep

        return LastStep(*self._last) if self._last is not None else None

    def picture(self) -> np.ndarray:
        """The current state as an H×W×3 uint8 array (the same size for every state of a problem), the last
        action's changes outlined in orange or, after a failed action, the objects of the missing facts in red."""
        return self.painter.array(self.state, self._last_step())

    def picture_svg(self) -> str:
        """The same picture as `picture()`, as SVG text."""
        return self.painter.svg(self.state, self._last_step())

    def _render_text(self) -> str:
        if self._current is None:
            return "(not reset)"
        lines = []
        for action, observation in self._history[-1:]:
            if action:
                lines.append(f"> {action}")
            lines.append(observation)
        return "\n".join(lines)

    def close(self) -> None:
        self._loaded.clear()
        self._state_text = {}

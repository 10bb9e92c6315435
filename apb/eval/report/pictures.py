"""The picture of every state of an episode, for the report's episode viewer. Trajectories record actions, not
states: the states are rebuilt by replaying the recorded actions through the engine on the episode's problem
(the header names the domain, split, problem and description), and each is drawn as SVG by apb.envs.pictures."""

from __future__ import annotations

from typing import Any

from apb.engine.errors import ApbError
from apb.eval.metrics import Episode

MAX_PICTURED_STEPS = 500  # longer episodes: the first 500 steps get pictures (the rest is listed without them)
_META = ("(look-around)", "(finish)")


class EpisodePictures:
    """Replays episodes and draws their states; envs and painters are kept per problem source and problem."""

    def __init__(self) -> None:
        self._envs: dict[tuple, Any] = {}
        self._painters: dict[tuple, Any] = {}

    def _env(self, header: dict[str, Any]):
        from apb.envs.text_env import PDDLTextEnv

        key = (str(header.get("domain")), header.get("split"), str(header.get("description") or "curated"))
        if key not in self._envs:
            # the robustness variants rename objects and actions as the run saw them; otherwise the PDDL view (no
            # wording needed: pictures need the task only)
            description = key[2] if key[2] in ("obfuscated", "shuffled") else "pddl"
            try:
                self._envs[key] = PDDLTextEnv(key[0], split=key[1], description=description)
            except (ApbError, OSError) as error:
                self._envs[key] = error
        return self._envs[key]

    def draw(self, episode: Episode) -> tuple[list[str], str, list[str] | None]:
        """(SVG of the initial state and of the state after each step, a note when pictures are missing, the
        initial state's facts that some step changes: what step 0 shows, rather than every static fact; None
        without a replay)."""
        from apb.envs.pictures import LastStep, Painter

        header = episode.header
        env = self._env(header)
        if isinstance(env, Exception):
            return [], f"no pictures: the episode's domain could not be loaded ({env})", None
        problem, task, failure = None, None, None
        for problem in (header.get("problem_id"), header.get("problem")):  # a variant's dataset renumbers ids
            if problem is None:
                continue
            try:
                task = env.task_for(problem)
                break
            except (ApbError, OSError) as error:
                failure = failure or f"no pictures: problem {problem!r} could not be loaded ({error})"
        if task is None:
            return [], failure or "no pictures: the trajectory names no problem", None
        key = (id(env), str(problem))
        painter = self._painters.get(key)
        if painter is None:
            painter = self._painters[key] = Painter(task)
        state = task.initial_state
        start = task.facts(state)
        changed: set[str] = set()
        pictures = [painter.svg(state)]
        for number, step in enumerate(episode.steps[:MAX_PICTURED_STEPS], start=1):
            action = str(step.get("action") or "")
            valid = bool(step.get("action_valid"))
            before, missing = state, ()
            ground = None
            if action.lower() not in _META:
                try:
                    ground = task.parse_action(action)
                except ApbError:
                    ground = None
            if valid and ground is not None:
                if not task.is_applicable(state, ground):
                    return pictures, (f"pictures stop at step {number}: {action} is recorded as executed but is not "
                                      "applicable in the replayed state (the problem file changed since the run?)"
                                      ), sorted(start & changed)
                state = task.apply(state, ground)
                changed.update(task.facts(before) ^ task.facts(state))
            elif not valid and ground is not None:
                missing = tuple(task.explain(state, ground))
            elif not valid and action.lower() == "(finish)":
                missing = tuple(task.unsatisfied_goals(state))
            pictures.append(painter.svg(state, LastStep(action[:200], valid, before, missing)))
        note = ""
        if len(episode.steps) > MAX_PICTURED_STEPS:
            note = f"pictures of the first {MAX_PICTURED_STEPS} steps only"
        return pictures, note, sorted(start & changed)

"""GEM (gem-llm) environments for apb's text games, and apb's reasoning-gym datasets under GEM's `rg:` ids
(extra `gem`).

    import gem
    import apb.integrations.gem             # registers apb:<Domain>-v0 (and rg:apb_<...>) with GEM
    env = gem.make("apb:Blocksworld-v0", problem=1)
    observation, info = env.reset()           # the rules, the domain and the task, as GEM games start
    observation, reward, terminated, truncated, info = env.step("unstack block_b from on top of block_d")

GEM has no plugin mechanism (its registry is filled by `gem.envs` at import), so importing this module registers
the ids: `apb:<Domain>-v0` for every bundled domain (`apb:Blocksworld-v0`, the names of `apb/<Domain>-v0`) and
`apb:PDDL-v0` for any problem source (`gem.make("apb:PDDL-v0", domain=FOLDER)`). An episode is
`apb.integrations.game.GameSession`: the model's text (English, or PDDL with `description="pddl"`; the content
of the last `\\boxed{...}` when there is one, GEM's answer convention) goes through apb's translator to the env,
whose feedback names every unmet precondition of a failed action. Reward 1.0 when the goal is reached, else 0.0
(apb's, also for invalid actions: no penalty); the step limit is `apb eval`'s. `make` kwargs: `problem` (fixed;
else `reset(seed)` draws one of the split's problems), `split`, `description`, `translator`, `max_steps`, `hints`,
`require_finish`, `seed` (the first reset's, as `gem.make_vec` passes it).

reasoning-gym datasets reach GEM as `rg:<name>` (GEM's ReasoningGymEnv: one question, the answer in
`\\boxed{...}`, scored by the dataset's `score_answer`). GEM registers the datasets it finds when `gem.envs` is
imported; this module adds `rg:apb_<...>` for apb's datasets (`apb.integrations.reasoning_gym`) registered later.
"""

from __future__ import annotations

from typing import Any

from apb.integrations import as_flag, require

require("gem", "gem")

from gem.core import Env  # noqa: E402
from gem.envs.registration import ENV_REGISTRY, register  # noqa: E402
from gem.utils.parsing import extract_last_boxed_answer  # noqa: E402

from apb.engine.limits import MAX_TURN_CHARS  # noqa: E402
from apb.integrations.game import DEFAULT_MAX_STEPS, GameSession  # noqa: E402

NAMESPACE = "apb"
ENTRY_POINT = "apb.integrations.gem:ApbGemEnv"
GENERIC_ID = f"{NAMESPACE}:PDDL-v0"


class ApbGemEnv(Env):
    """An apb text game as a GEM env: `reset(seed)` -> (rules and task, info), `step(text)` -> (feedback, reward,
    terminated, truncated, info); info has the problem id, the executed action, validity, the failure and
    goal_reached."""

    def __init__(self, domain: str = "blocksworld", *, problem: int | str | None = None, split: str = "test",
                 description: str = "curated", translator: str = "cascade",
                 max_steps: int | str | None = DEFAULT_MAX_STEPS, hints: bool = False, require_finish: bool = False,
                 seed: int | None = None, **_: Any) -> None:
        super().__init__()
        hints, require_finish = as_flag(hints), as_flag(require_finish)  # kwargs typed as text stay booleans
        self.config = {"domain": domain, "problem": problem, "split": split, "description": description,
                       "translator": translator, "max_steps": max_steps, "hints": hints,
                       "require_finish": require_finish}
        self.game = GameSession(domain, split=split, description=description, translator=translator,
                                max_steps=max_steps, hints=hints, require_finish=require_finish)
        self.problem, self.seed = problem, seed

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        """A new episode on `problem` (else one of the split's problems drawn by the seed); the first observation
        holds the instructions and the task, as GEM's games begin."""
        super().reset(seed)
        seed = self.seed if seed is None else seed
        self.seed = None  # make_vec's seed applies to the first reset only
        task = self.game.reset(problem=self.problem, seed=seed)
        return f"{self.game.system_prompt}\n\n{task}", self._info(None)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        text = action if isinstance(action, str) else str(action)
        boxed = extract_last_boxed_answer(text) if "\\boxed" in text and len(text) <= MAX_TURN_CHARS else None
        turn = self.game.step(boxed if boxed is not None else text)
        return turn.observation, turn.reward, turn.terminated, turn.truncated, self._info(turn)

    def _info(self, turn) -> dict[str, Any]:
        info = {"problem_id": self.game.problem_id, "goal_reached": self.game.goal_reached,
                "optimal_length": self.game.info.get("optimal_plan_length")}
        if turn is not None:
            info.update(action=turn.action, valid=turn.valid, failure=turn.failure)
        return info

    def sample_random_action(self) -> str:
        """One of the actions applicable now, as the model would write it (English, or PDDL with description=pddl)."""
        import random

        from apb.agents.act import english_action

        actions = self.game.info.get("admissible_actions") or ["(look-around)"]
        action = random.choice(actions)
        return action if self.config["description"] == "pddl" else english_action(action, self.game.info)

    def spawn(self, same_state: bool = False, **kwargs: Any) -> ApbGemEnv:
        """A new env with this one's settings (`kwargs` override them); `same_state`: on this episode's problem,
        with its turns replayed."""
        child = ApbGemEnv(**{**self.config, **kwargs})
        if same_state:
            child.problem = self.game.problem_id
            child.reset()
            for turn in self.game.turns:
                child.game.step(turn.text)
            child.problem = self.problem
        return child

    @property
    def summary(self) -> dict[str, Any]:
        """apb's account of the episode (goal_reached, steps, invalid_actions, plan_length, optimal_length, ...)."""
        return self.game.summary()


def register_envs() -> list[str]:
    """Registers apb:<Domain>-v0 for every bundled domain, apb:PDDL-v0, and rg:<name> for apb's reasoning-gym
    datasets that GEM has not registered yet (idempotent); returns the ids."""
    from apb.envs.registration import ENV_NAMES

    ids = []
    for domain, name in ENV_NAMES.items():
        ids.append(_register(f"{NAMESPACE}:{name}-v0", domain=domain))
    ids.append(_register(GENERIC_ID))
    ids.extend(register_reasoning_gym())
    return ids


def register_reasoning_gym() -> list[str]:
    """rg:apb_<...> for apb's reasoning-gym datasets, with GEM's settings for the others (500 entries, seed 42)."""
    from apb.integrations.reasoning_gym import DATASET_NAMES

    return [_register(f"rg:{name}", entry_point="gem.envs.reasoning_gym:ReasoningGymEnv", name=name, size=500,
                      seed=42) for name in DATASET_NAMES]


def _register(env_id: str, entry_point: str = ENTRY_POINT, **kwargs: Any) -> str:
    if env_id not in ENV_REGISTRY:
        register(env_id, entry_point, **kwargs)
    return env_id


ENV_IDS = register_envs()

__all__ = ["ENV_IDS", "GENERIC_ID", "ApbGemEnv", "register_envs", "register_reasoning_gym"]

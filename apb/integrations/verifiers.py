"""apb's text games as a verifiers environment (extra `verifiers`; verifiers 0.4, `verifiers.v1`).

    from apb.integrations.verifiers import load_environment
    env = load_environment(domain="blocksworld", problems="1-5")     # a verifiers.v1 Env

or from verifiers' command line: `--env.taskset.id apb-verifiers --env.taskset.domain blocksworld` (the top-level
module apb_verifiers re-exports this one). Each task is one (problem, seed) of `apb eval`'s selection; its prompt is the
task text and its system prompt the Act agent's instructions with the domain's description. The env plays the
user, one env step per turn: the model's reply goes through apb's translator (`GameSession.step`) to the env, and
the env's feedback (what happened, or why the action failed) is the next user message, until the goal is reached
or the step limit (the split's, as in `apb eval`) is hit.

Rubric: `goal_reached` (1.0 or 0.0, weight 1). Optional shaping, off by default (weight 0): `valid_action_rate`
(valid actions / steps) with weight `valid_action_weight`, and `plan_length_ratio` (optimal / executed length
when the goal is reached, else 0) with weight `plan_length_weight`. Steps, invalid actions, plan length and
optimal length are recorded as metrics, the plan and stop reason in `trace.info["apb"]`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from apb.integrations import as_steps, require

require("verifiers.v1", "verifiers")

import verifiers.v1 as vf  # noqa: E402
from pydantic import field_validator  # noqa: E402

from apb.integrations.game import DEFAULT_MAX_STEPS, GameSession  # noqa: E402

TASKSET_ID = "apb-verifiers"  # verifiers imports a taskset id as a top-level module: apb_verifiers.py re-exports this


class ApbGameConfig(vf.TasksetConfig):
    """Which episodes (as `apb eval` selects them) and how they are played and rewarded."""

    domain: str = "blocksworld"
    problems: str = "1-5"
    split: str = "test"
    description: str = "curated"
    translator: str = "cascade"
    seeds: int = 1
    max_steps: int | str = DEFAULT_MAX_STEPS
    hints: bool = False
    valid_action_weight: float = 0.0
    plan_length_weight: float = 0.0

    @field_validator("max_steps", mode="before")
    @classmethod
    def _steps_as_number(cls, value: Any) -> Any:
        """`--env.taskset.max-steps 4` arrives as the text "4": a number of steps, else `default`."""
        return as_steps(value)


class ApbGameData(vf.TaskData):
    info: dict
    """domain, split, problem id, seed and optimal length: enough to replay the episode."""


class ApbGameTask(vf.Task[ApbGameData, vf.State, vf.TaskConfig]):
    pass


class ApbGameTaskset(vf.Taskset[ApbGameTask, ApbGameConfig]):
    def load(self) -> Iterator[ApbGameTask]:
        from apb.datasets import source_name
        from apb.eval.episode_specs import parse_problems, resolve_problems

        config = self.config
        name = source_name(config.domain)
        for problem in resolve_problems(config.domain, config.split, parse_problems(config.problems)):
            for seed in range(config.seeds):
                game = session(config)
                prompt = game.reset(problem=problem, seed=seed)
                info = {"domain": config.domain, "split": config.split, "problem": game.problem_id, "seed": seed,
                        "optimal_length": game.info.get("optimal_plan_length")}
                yield ApbGameTask(ApbGameData(id=f"{name}-{game.problem_id}-s{seed}",
                                              name=f"{name} {game.problem_id} seed {seed}",
                                              prompt=prompt, system_prompt=game.system_prompt, info=info),
                                  config.task)
                game.close()


class ApbGameEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime={"type": "subprocess"})
    """The model under training or evaluation: a tool-less chat (verifiers' `null` harness) in a local subprocess
    (the game needs no sandbox; `--env.player.runtime.type` picks another)."""


class ApbGameEnv(vf.Env[ApbGameEnvConfig]):
    """The env steps host-side as the run's user: each reply is one env step, its feedback the next user turn."""

    async def run(self, task: ApbGameTask, agents: Any) -> None:
        config = self.taskset.config
        game = session(config)
        game.reset(problem=task.data.info["problem"], seed=task.data.info["seed"])
        try:
            async with agents.player.interaction(task) as interaction:
                await play(game, interaction)
            record_rubric(interaction.trace, game, config)
        finally:
            game.close()


def session(config: ApbGameConfig) -> GameSession:
    return GameSession(config.domain, split=config.split, description=config.description,
                       translator=config.translator, max_steps=config.max_steps, hints=config.hints)


async def play(game: GameSession, interaction: Any) -> None:
    """Model turn, env step, feedback as the next user turn, until the episode ends or the run stops."""
    segment = await interaction.turn()
    while not segment.terminated:
        turn = game.step(segment.last_reply)
        if turn.done:
            break
        segment = await interaction.turn(turn.observation)


def record_rubric(trace: Any, game: GameSession, config: ApbGameConfig) -> None:
    """The rubric on a finished episode's trace (see the module docstring)."""
    summary = game.summary()
    trace.record_reward("goal_reached", 1.0 if summary["goal_reached"] else 0.0, 1.0)
    if config.valid_action_weight:
        trace.record_reward("valid_action_rate", summary["valid_action_rate"], config.valid_action_weight)
    if config.plan_length_weight:
        trace.record_reward("plan_length_ratio", summary["plan_length_ratio"], config.plan_length_weight)
    trace.record_metrics({"steps": summary["steps"], "invalid_actions": summary["invalid_actions"],
                          "plan_length": summary["plan_length"],
                          "optimal_length": summary["optimal_length"] or 0})
    stop = "goal" if summary["goal_reached"] else "step_limit" if game.done else "model_stopped"
    trace.info["apb"] = {"plan": summary["plan"], "stop_reason": stop, "problem_id": summary["problem_id"]}


def load_environment(domain: str = "blocksworld", problems: str = "1-5", **options: Any) -> ApbGameEnv:
    """The verifiers env for a domain; `options`: split, description, translator, seeds, max_steps, hints,
    valid_action_weight, plan_length_weight (ApbGameConfig), and `player` (a verifiers AgentConfig dict)."""
    player = options.pop("player", None)
    config = {"taskset": {"id": TASKSET_ID, "domain": domain, "problems": str(problems), **options}}
    if player is not None:
        config["player"] = player
    return vf.load_environment(ApbGameEnvConfig.model_validate(config))


__all__ = ["ApbGameConfig", "ApbGameData", "ApbGameEnv", "ApbGameTask", "ApbGameTaskset", "load_environment"]

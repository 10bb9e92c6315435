"""Inspect AI tasks: `apb/game` (the text games), `apb/acp` (ACP questions) and `apb/nl2pddl` (NL -> PDDL).

Installing apb with the `inspect` extra registers them through Inspect's `inspect_ai` package entry point:

    inspect eval apb/game -T domain=blocksworld -T problems=1-2 -T agent=react --model openai/gpt-4o-mini

`apb/game` plays each problem with one of apb's agents (act, react, closed-loop, ... exactly as `apb eval` runs
them), in plain text turns: the agent builds the prompts and its LLM calls go to the Inspect model (each one a
model event of the log), the env's feedback comes back as the next user turn, and apb's translator turns the
model's English into PDDL actions. The scorer says whether the goal was reached (1 or 0) and keeps the plan
length, the optimal length, the invalid actions, the stop reason and every step as metadata. `-T` parameters:
`domain`, `problems` (as in `apb eval`: 1-5, 1,3, all), `split`, `agent` (act, react, closed-loop:H, ...),
`description` (curated, rule, obfuscated, shuffled, an nl.yaml), `translator`, `seeds`, `max_steps`,
`require_finish`.
"""

from __future__ import annotations

import time
from typing import Any

from apb.integrations import require

require("inspect_ai", "inspect")

import anyio  # noqa: E402  (Inspect's own dependency, present once inspect_ai is)
from inspect_ai import Task, task  # noqa: E402
from inspect_ai.dataset import MemoryDataset, Sample  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
)
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr  # noqa: E402
from inspect_ai.solver import Generate, TaskState, solver  # noqa: E402

from apb.llm import Completion, Usage  # noqa: E402

INSPECT_MODEL = "inspect"  # the model name apb records for episodes whose LLM is Inspect's


class InspectLLM:
    """apb's LLM protocol on an Inspect model, for agents that run in a worker thread of Inspect's event loop:
    each `complete` goes back to the loop (`anyio.from_thread.run`), so Inspect logs it as a model event."""

    spec = INSPECT_MODEL

    def __init__(self, model: Model) -> None:
        self.model = model
        self.last_messages: list[Any] = []

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        return anyio.from_thread.run(self._generate, list(messages), max_tokens, temperature, stop, seed)

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                        choices=None) -> Completion:
        return await self._generate(list(messages), max_tokens, temperature, stop, seed)

    async def _generate(self, messages, max_tokens, temperature, stop, seed) -> Completion:
        chat = [to_inspect_message(m) for m in messages]
        config = GenerateConfig(max_tokens=max_tokens, temperature=temperature, seed=seed,
                                stop_seqs=list(stop) if stop else None)
        start = time.perf_counter()
        output = await self.model.generate(chat, config=config)
        self.last_messages = [*chat, ChatMessageAssistant(content=output.completion)]
        usage = output.usage
        return Completion(output.completion,
                          Usage(usage.input_tokens, usage.output_tokens) if usage is not None else Usage(),
                          cost=None, latency=time.perf_counter() - start, model=str(self.model),
                          provider=INSPECT_MODEL, finish_reason=output.stop_reason)


def to_inspect_message(message: dict) -> Any:
    role, content = message.get("role"), str(message.get("content", ""))
    if role == "system":
        return ChatMessageSystem(content=content)
    if role == "assistant":
        return ChatMessageAssistant(content=content)
    return ChatMessageUser(content=content)


# ---- apb/game -------------------------------------------------------------------------------------------------
def game_samples(domain: str, problems: Any, *, split: str = "test", agent: str = "act",
                 description: str = "curated", translator: str = "cascade", seeds: Any = 1,
                 max_steps: int | None = None, require_finish: bool = False) -> list[Sample]:
    """One Sample per episode `apb eval` would run for these settings (checked the same way before anything runs);
    its input is the problem's task text, its metadata the episode spec."""
    from apb.eval.episode import build_env
    from apb.eval.plan import plan_episodes

    specs = plan_episodes([domain], [agent], problems, seeds, model=INSPECT_MODEL, split=split,
                          translator=translator, require_finish=require_finish, max_steps=max_steps,
                          description=description)
    samples = []
    for spec in specs:
        env, _ = build_env(spec)
        try:
            observation, info = env.reset(seed=spec.seed, options={"problem": spec.problem})
        finally:
            env.close()
        samples.append(Sample(input=observation, target="goal reached",
                              id=f"{spec.domain_name}-{info['problem_id']}-{spec.agent}-s{spec.seed}",
                              metadata={"spec": spec.to_dict(), "problem_id": info["problem_id"],
                                        "optimal_length": info.get("optimal_plan_length")}))
    return samples


def play_episode(spec_data: dict, llm: Any) -> dict:
    """Runs one apb episode (in a worker thread) and returns what the scorer needs."""
    from apb.agents import run_episode
    from apb.eval.episode import build_agent, build_env
    from apb.eval.trajectory import EpisodeSpec

    spec = EpisodeSpec(**spec_data)
    env, _ = build_env(spec)
    try:
        first = env.reset(seed=spec.seed, options={"problem": spec.problem})
        agent = build_agent(spec, llm)
        try:
            result = run_episode(env, agent, max_steps=spec.horizon, first=first)
        finally:
            agent.close()
    finally:
        env.close()
    plan = [s.action for s in result.steps if s.action_valid and s.action not in ("(finish)", "(look-around)")]
    return {"goal_reached": result.success, "stop_reason": result.stop_reason, "error": result.error,
            "detail": result.detail, "steps": len(result.steps), "invalid_actions": result.invalid_actions,
            "plan_length": len(plan), "plan": plan,
            "transcript": [{"action": s.action, "valid": s.action_valid, "observation": s.observation}
                           for s in result.steps]}


@solver
def apb_agent():
    """Plays the sample's episode with the apb agent of its spec, the Inspect model answering the agent's calls."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        llm = InspectLLM(get_model())
        outcome = await anyio.to_thread.run_sync(play_episode, state.metadata["spec"], llm)
        if llm.last_messages:
            state.messages = llm.last_messages
        state.metadata["apb"] = outcome
        state.output.completion = "\n".join(outcome["plan"])
        state.completed = True
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def goal_reached():
    """1 when the episode reached the goal, else 0; plan length, optimal length and the steps as metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        outcome = state.metadata.get("apb") or {}
        optimal = state.metadata.get("optimal_length")
        reached = bool(outcome.get("goal_reached"))
        explanation = (f"goal reached in {outcome.get('plan_length')} actions (optimal {optimal})" if reached else
                       f"goal not reached: {outcome.get('stop_reason')} {outcome.get('detail') or ''}".strip())
        return Score(value=CORRECT if reached else INCORRECT, answer="\n".join(outcome.get("plan", [])),
                     explanation=explanation,
                     metadata={**{k: outcome.get(k) for k in ("plan_length", "steps", "invalid_actions",
                                                               "stop_reason", "error", "transcript")},
                               "optimal_length": optimal})

    return score


@task
def game(domain: str = "blocksworld", problems: str = "1-5", split: str = "test", agent: str = "act",
         description: str = "curated", translator: str = "cascade", seeds: int = 1, max_steps: int | None = None,
         require_finish: bool = False) -> Task:
    """apb's text game as an agent task: the model plays each problem through apb's agent, scored by goal reached."""
    samples = game_samples(domain, str(problems), split=split, agent=agent, description=description,
                           translator=translator, seeds=int(seeds),
                           max_steps=None if max_steps is None else int(max_steps),
                           require_finish=_flag(require_finish))
    return Task(dataset=MemoryDataset(samples, name=f"apb-{domain}"), solver=apb_agent(), scorer=goal_reached(),
                metadata={"apb_domain": domain, "apb_agent": agent, "apb_description": description})


def _flag(value: Any) -> bool:
    """A -T flag: Inspect passes `true`/`false` through YAML, a string from some callers."""
    return value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes")


__all__ = ["InspectLLM", "apb_agent", "game", "game_samples", "goal_reached", "play_episode"]

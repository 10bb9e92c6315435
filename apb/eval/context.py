"""Before a run: does the first prompt of each (domain, agent, settings) fit the model's context window?

Only models that know their window and can count tokens (the local llama.cpp model: `n_ctx`, `count_tokens`) are
checked; hosted models answer a too-long prompt with an error of their own. The check builds the episode's env and
agent, lets the agent write its first prompt to a probe instead of the model, and counts it with the model's own
tokenizer (plus the answer tokens the agent asks for). When it does not fit, `ContextTooSmall` says by how much and
which settings make it fit (no one-shot example: `--shots 0`; the rule-based description), measured the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from apb.engine.errors import ApbError
from apb.eval.trajectory import EpisodeSpec


class ContextTooSmall(ApbError):
    """An LLM agent's prompt does not fit the model's context window."""


class _Written(Exception):
    """Raised by the probe once the agent has written its first prompt."""


class _Probe:
    """Stands in for the LLM: records the first request and stops the agent there."""

    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self.messages: list[dict] | None = None
        self.max_tokens = 0

    def complete(self, messages, **kwargs):
        self.messages = list(messages)
        self.max_tokens = int(kwargs.get("max_tokens") or 0)
        raise _Written

    async def acomplete(self, messages, **kwargs):
        return self.complete(messages, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.llm, name)


def prompt_tokens(spec: EpisodeSpec, llm: Any) -> int | None:
    """Tokens of the episode's first LLM request (prompt + requested answer), None when the agent asks nothing."""
    from apb.eval.episode import build_agent, build_env

    env, _ = build_env(spec)
    try:
        observation, info = env.reset(seed=spec.seed, options={"problem": spec.problem})
        probe = _Probe(llm)
        agent = build_agent(spec, probe)
        try:
            agent.reset(observation, info)
            agent.act(observation, info)
        except _Written:
            pass
        except Exception:
            return None  # the episode reports its own errors
        if probe.messages is None:
            return None
        text = "\n".join(str(m.get("content", "")) for m in probe.messages)
        return llm.count_tokens(text) + (probe.max_tokens or int(getattr(llm, "default_max_tokens", 0) or 0))
    finally:
        env.close()


def check_context(specs: list[EpisodeSpec], llms: dict[str, Any]) -> None:
    """ContextTooSmall for the first (domain, split, agent, options, description, model) whose prompt is longer
    than its model's window, naming the settings that fit."""
    seen = set()
    for spec in specs:
        llm = llms.get(spec.model) if spec.model else None
        window = getattr(llm, "n_ctx", None)
        if not isinstance(window, int) or not hasattr(llm, "count_tokens"):
            continue
        key = (spec.domain, spec.split, spec.agent, repr(sorted(spec.agent_options.items())), spec.description,
               spec.model)
        if key in seen:
            continue
        seen.add(key)
        needed = prompt_tokens(spec, llm)
        if needed is None or needed <= window:
            continue
        fits = []
        for label, variant in _smaller(spec):
            tokens = prompt_tokens(variant, llm)
            if tokens is not None:
                fits.append(f"{label}: {tokens} tokens{' (fits)' if tokens <= window else ''}")
        hint = "; ".join(fits) if fits else "no smaller setting of this agent"
        raise ContextTooSmall(f"the {spec.agent} agent's first prompt on {spec.domain_name} {spec.problem} needs "
                              f"{needed} tokens (prompt and answer) but {spec.model} holds {window}; smaller settings: "
                              f"{hint}. Use a setting that fits or a model with a larger context")


def _smaller(spec: EpisodeSpec) -> list[tuple[str, EpisodeSpec]]:
    from apb.agents import agent_class

    options = agent_class(spec.agent).options
    variants = []
    if "shots" in options and spec.agent_options.get("shots", 1):
        variants.append(("--shots 0", replace(spec, agent_options={**spec.agent_options, "shots": 0})))
    if spec.description != "rule":
        variants.append(("--description rule", replace(spec, description="rule")))
    if len(variants) == 2:
        variants.append(("--shots 0 --description rule",
                         replace(spec, description="rule", agent_options={**spec.agent_options, "shots": 0})))
    return variants

"""The LLM protocol every backend implements, and the values a call returns.

A message is a dict `{"role": "system" | "user" | "assistant", "content": str}`; a message may also carry
`"cache": True` to mark the end of the static prompt prefix (providers with prompt caching cache up to there).
`complete` is synchronous, `acomplete` asynchronous; both return a `Completion`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

from apb.engine.errors import ApbError

Message = dict[str, Any]
ROLES = ("system", "user", "assistant")


class LLMError(ApbError):
    """An LLM call that failed for good (after retries), or a bad spec or configuration."""


class LLMConfigError(LLMError):
    """A backend that cannot be set up: unknown spec, missing API key, missing optional extra."""


class CacheMissError(LLMError):
    """Replay-only cache mode and the request was never recorded."""


@dataclass
class Usage:
    """Token counts of one call. `input_tokens` is the whole prompt, cached parts included (for Anthropic the
    sum of its input, cache-read and cache-write counts, so the figure means the same for every provider);
    `cached_tokens`: the part read from the provider's prompt cache; `cache_write_tokens`: the part written to
    it (Anthropic)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens,
                     self.cached_tokens + other.cached_tokens, self.cache_write_tokens + other.cache_write_tokens)

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class Completion:
    """One answer. `cached` is True when it came from apb's response cache (no provider call, cost 0);
    `cost` is in USD from the price table (None when the model has no price); `latency` in seconds."""

    text: str
    usage: Usage = field(default_factory=Usage)
    cost: float | None = 0.0
    cached: bool = False
    latency: float = 0.0
    model: str = ""
    provider: str = ""
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["usage"] = self.usage.to_dict()
        return data


@runtime_checkable
class LLM(Protocol):
    """What agents and translators call. `choices` (optional) restricts the answer to one of the given
    strings where the backend can (grammar on the local model; validated elsewhere)."""

    spec: str

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None, temperature: float = 0.0,
                 stop: Sequence[str] | None = None, seed: int | None = None,
                 choices: Sequence[str] | None = None) -> Completion: ...

    async def acomplete(self, messages: Sequence[Message], *, max_tokens: int | None = None,
                        temperature: float = 0.0, stop: Sequence[str] | None = None, seed: int | None = None,
                        choices: Sequence[str] | None = None) -> Completion: ...


class SyncLLM:
    """Base class for backends that are naturally synchronous: `acomplete` runs `complete` in a thread."""

    spec = ""

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:  # pragma: no cover - abstract
        raise NotImplementedError

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                        choices=None) -> Completion:
        return await asyncio.to_thread(self.complete, messages, max_tokens=max_tokens, temperature=temperature,
                                       stop=stop, seed=seed, choices=choices)


def check_messages(messages: Sequence[Message]) -> list[Message]:
    """Validates the message list and returns it as a list of plain dicts (LLMError on malformed input)."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ROLES or not isinstance(m.get("content"), str):
            shown = repr(m)[:200]
            raise LLMError(f"message {i} must be {{'role': 'system'|'user'|'assistant', 'content': str}}, got {shown}")
        out.append(dict(m))
    if not out:
        raise LLMError("no messages to send")
    return out


class LLMWrapper:
    """An LLM around another (`inner`): a cache, a concurrency cap, running totals. Attributes it does not define
    itself are the inner LLM's; `spec` is the inner one's unless set."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.spec = inner.spec

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

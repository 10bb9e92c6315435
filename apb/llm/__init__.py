"""LLM backends behind one protocol (OpenAI, Anthropic, OpenAI-compatible, local, scripted), cache, usage.

    from apb.llm import make_llm
    llm = make_llm("openai:gpt-4o-mini")            # or anthropic:<model>, openai-compatible:<url>:<model>,
    answer = llm.complete([{"role": "user", "content": "Hi"}], max_tokens=50)   # local, scripted:<file>
    answer.text, answer.usage, answer.cost, answer.cached, answer.latency; llm.totals

- `specs`: spec strings -> `Spec` (`parse_spec`). `factory`: `make_llm(spec, cache=, cache_path=, concurrency=,
  prices=, max_retries=, **client_kwargs)` -> `TrackedLLM` (running `.totals`).
- `openai_backend.OpenAIChat`, `anthropic_backend.AnthropicMessages`: sync and async (the SDKs' async clients);
  keys from OPENAI_API_KEY / ANTHROPIC_API_KEY / OPENAI_COMPATIBLE_API_KEY only, never logged, cached or shown.
- `retry`: what the SDKs do not do (their own `max_retries` back off on 429/5xx/timeouts/connection errors honouring
  retry-after): the process-wide request cap per provider (per host for openai-compatible servers; defaults in
  apb.request_caps; runs set it with `request_cap`: --llm-concurrency, else --concurrency for openai-compatible
  servers),
  classified one-line errors without credentials.
- `pricing` + `prices.yaml`: USD per million tokens; `$APB_PRICES` or `prices=` override; unknown model -> None.
- `cache`: sqlite answer cache at `$APB_CACHE_DIR/llm.sqlite` (modes rw, replay, off); `CachedLLM`.
- `cli`: `apb cache stats|clear`.
"""

from __future__ import annotations

from typing import Any

from apb.llm.base import (
    LLM,
    CacheMissError,
    Completion,
    LLMConfigError,
    LLMError,
    Message,
    SyncLLM,
    Usage,
    check_messages,
)
from apb.llm.cache import CachedLLM, CacheStats, ResponseCache, default_cache_path
from apb.llm.factory import LimitedLLM, Totals, TrackedLLM, make_llm, request_cap
from apb.llm.pricing import ModelPrice, PriceTable, load_prices
from apb.llm.retry import ProviderError, ProviderLimit, set_concurrency
from apb.llm.scripted import ScriptedLLM
from apb.llm.specs import Spec, parse_spec

__all__ = [
    "LLM",
    "AnthropicMessages",
    "CacheMissError",
    "CacheStats",
    "CachedLLM",
    "Completion",
    "LLMConfigError",
    "LLMError",
    "LimitedLLM",
    "Message",
    "ModelPrice",
    "OpenAIChat",
    "PriceTable",
    "ProviderError",
    "ProviderLimit",
    "ResponseCache",
    "ScriptedLLM",
    "Spec",
    "SyncLLM",
    "Totals",
    "TrackedLLM",
    "Usage",
    "check_messages",
    "default_cache_path",
    "load_prices",
    "make_llm",
    "parse_spec",
    "request_cap",
    "set_concurrency",
]

_LAZY = {"OpenAIChat": "apb.llm.openai_backend", "AnthropicMessages": "apb.llm.anthropic_backend"}


def __getattr__(name: str) -> Any:
    """The API backends import their SDKs (slow), so they load on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'apb.llm' has no attribute {name!r}")

"""`make_llm(spec)`: a ready backend from a spec string, behind the answer cache, with running totals."""

from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from apb.llm.base import Completion, LLMConfigError, LLMWrapper, Usage
from apb.llm.cache import CachedLLM, ResponseCache, check_mode
from apb.llm.pricing import PricesArg, load_prices
from apb.llm.retry import ProviderLimit, provider_limit, set_concurrency
from apb.llm.specs import Spec, parse_spec


@dataclass
class Totals:
    """Running accounting of one LLM object. `usage` and `cost` count provider calls only (what was paid for):
    cache hits are counted in `cached_calls` and cost nothing. `unpriced_calls`: provider calls whose model has
    no price, so `cost` leaves them out. `latency`: summed seconds of all calls."""

    calls: int = 0
    cached_calls: int = 0
    errors: int = 0
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    unpriced_calls: int = 0
    latency: float = 0.0

    def add(self, completion: Completion) -> None:
        self.calls += 1
        self.latency += completion.latency
        if completion.cached:
            self.cached_calls += 1
            return
        self.usage = self.usage + completion.usage
        if completion.cost is None:
            self.unpriced_calls += 1
        else:
            self.cost += completion.cost

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["usage"] = self.usage.to_dict()
        return data


class TrackedLLM(LLMWrapper):
    """What `make_llm` returns: the LLM protocol plus `.totals` (a snapshot of the running Totals),
    `.cache` (the ResponseCache, None when off) and the inner backend's attributes."""

    def __init__(self, inner: Any, *, spec: str | None = None, cache: ResponseCache | None = None) -> None:
        super().__init__(inner)
        self.spec = spec or inner.spec
        self.cache = cache
        self._totals = Totals()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TrackedLLM({self.spec!r})"

    @property
    def totals(self) -> Totals:
        with self._lock:
            return replace(self._totals, usage=replace(self._totals.usage))

    def reset_totals(self) -> None:
        with self._lock:
            self._totals = Totals()

    def _record(self, completion: Completion | None) -> None:
        with self._lock:
            if completion is None:
                self._totals.errors += 1
            else:
                self._totals.add(completion)

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        try:
            completion = self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop,
                                             seed=seed, choices=choices)
        except Exception:
            self._record(None)
            raise
        self._record(completion)
        return completion

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                        choices=None) -> Completion:
        try:
            completion = await self.inner.acomplete(messages, max_tokens=max_tokens, temperature=temperature,
                                                    stop=stop, seed=seed, choices=choices)
        except Exception:
            self._record(None)
            raise
        self._record(completion)
        return completion


class LimitedLLM(LLMWrapper):
    """A backend without its own cap (the local model) behind its provider's process-wide concurrency cap."""

    def __init__(self, inner: Any, key: str, provider: str) -> None:
        super().__init__(inner)
        self._key, self._provider = key, provider

    @property
    def limit(self) -> ProviderLimit:
        return provider_limit(self._key, self._provider)

    def complete(self, messages, **kwargs) -> Completion:
        with self.limit.slot():
            return self.inner.complete(messages, **kwargs)

    async def acomplete(self, messages, **kwargs) -> Completion:
        async with self.limit.aslot():
            return await self.inner.acomplete(messages, **kwargs)


SELF_HOSTED = frozenset({"openai-compatible"})  # servers the user runs: their capacity is theirs to use


def request_cap(spec: str | None, llm_concurrency: int | None = None, concurrency: int | None = None) -> int | None:
    """The provider request cap a run sets for `spec` (what `make_llm(..., concurrency=)` takes): the run's
    `--llm-concurrency` when given; for a self-hosted server (openai-compatible, e.g. vLLM, Ollama, a llama.cpp
    server) the run's `--concurrency`, so every item in flight can have its request in flight; otherwise None,
    the provider's default (apb.request_caps: safe for hosted rate limits; one model in process for local)."""
    if llm_concurrency is not None:
        return llm_concurrency
    if not spec or concurrency is None:
        return None
    try:
        provider = parse_spec(spec).provider
    except LLMConfigError:
        return None  # make_llm reports the bad spec
    return concurrency if provider in SELF_HOSTED else None


def _local_llm(spec: Spec, client_kwargs: dict[str, Any]) -> Any:
    try:
        from apb.llm.local import LocalLLM
    except ImportError as err:
        raise LLMConfigError(f"{spec}: the local model needs the optional extra: pip install 'apb[local]' "
                             f"({err})") from None
    return LocalLLM(model_path=spec.path, **client_kwargs)


def make_llm(spec: str, *, cache: str = "rw", cache_path: str | Path | None = None, concurrency: int | None = None,
             prices: PricesArg = None, max_retries: int = 5, **client_kwargs: Any) -> TrackedLLM:
    """A backend for `spec` (see `apb.llm.specs`), wrapped in the answer cache (`rw` | `replay` | `off`) and
    with running `.totals`.

    `concurrency` sets the process-wide cap of the spec's provider (openai-compatible: per host); `prices` (a
    YAML file or a {model: {input, output, ...}} mapping) is merged over the bundled table and `$APB_PRICES`.
    `max_retries` are the SDK's retries (see `apb.llm.retry`). `client_kwargs` go to the backend (e.g. `timeout`,
    `http_client`, `api_key_env`).
    Scripted backends are never cached (their answers depend on call order). In replay mode API keys are not
    required, since no provider is ever called.
    """
    parsed = parse_spec(spec)
    mode = check_mode(cache)
    if parsed.provider == "scripted":
        from apb.llm.scripted import ScriptedLLM

        return TrackedLLM(ScriptedLLM(parsed.path, **client_kwargs), spec=str(parsed))
    if parsed.provider == "replay":
        from apb.llm.replay import ReplayLLM

        return TrackedLLM(ReplayLLM(parsed.path), spec=str(parsed))
    if parsed.provider == "local":
        inner: Any = _local_llm(parsed, client_kwargs)
        key = "local"
        if concurrency is not None:
            set_concurrency(key, concurrency)
        inner = LimitedLLM(inner, key, "local")
    else:
        table = load_prices(prices)
        if parsed.provider == "anthropic":
            from apb.llm.anthropic_backend import AnthropicMessages

            inner = AnthropicMessages(parsed.model, prices=table, max_retries=max_retries, **client_kwargs)
        else:
            from apb.llm.openai_backend import OpenAIChat

            inner = OpenAIChat(parsed.model, base_url=parsed.base_url, prices=table, max_retries=max_retries,
                               **client_kwargs)
        if concurrency is not None:
            set_concurrency(inner.limit_key, concurrency)
        if mode != "replay":
            inner.check_key()
    if mode == "off":
        return TrackedLLM(inner, spec=str(parsed))
    store = ResponseCache(cache_path, mode)
    return TrackedLLM(CachedLLM(inner, store), spec=str(parsed), cache=store)

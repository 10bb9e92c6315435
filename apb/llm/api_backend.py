"""`APIBackend`: the shared call path of the API backends (OpenAI, Anthropic, OpenAI-compatible servers): the key
from an environment variable, lazily built SDK clients (which retry), the provider's concurrency cap
(`apb.llm.retry`), classified errors, usage and cost."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any

from apb.llm.base import LLMConfigError
from apb.llm.retry import Failure, ProviderError, ProviderLimit, give_up, provider_limit, sanitize, status_failure


class APIBackend:
    """An LLM behind an HTTP API with an official SDK: the key from an environment variable, lazily built SDK
    clients (one async client per event loop), retries, the provider's concurrency cap, usage and cost.

    Subclasses set `sdk` (the SDK module) and implement `_make_client`, `build_request`, `_send`, `_asend`
    and `parse`. Retries are the SDK's (`max_retries`, backoff, `retry-after`); a call holds its concurrency slot
    through them. `Completion.latency` is the wall time of the whole call, retries and waits included; `cost` is
    None when the model has no price or the response has no usage.
    """

    provider = ""
    sdk: Any = None
    sdk_error: type[BaseException] = Exception

    def __init__(self, model: str, *, api_key_env: str, base_url: str | None = None, timeout: float = 120.0,
                 max_retries: int = 5, prices: Any = None,
                 limit: ProviderLimit | None = None, http_client: Any = None, async_http_client: Any = None,
                 fallback_key: str | None = None) -> None:
        from apb.llm.pricing import load_prices

        if not model:
            raise LLMConfigError(f"{self.provider}: no model name given")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.timeout = timeout
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise LLMConfigError(f"max_retries must be a whole number of at least 0, got {max_retries!r}")
        self.max_retries = max_retries
        self.prices = load_prices(prices)
        self._limit = limit
        self._http_client = http_client
        self._async_http_client = async_http_client
        self._fallback_key = fallback_key
        self._client: Any = None
        self._aclients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
        self._shared_aclient: Any = None
        self._lock = threading.Lock()

    # -- identity --------------------------------------------------------------------------------------------
    @property
    def spec(self) -> str:
        if self.provider == "openai-compatible":
            return f"openai-compatible:{self.base_url}:{self.model}"
        return f"{self.provider}:{self.model}"

    @property
    def host(self) -> str | None:
        """host[:port] of the base URL (None for the provider's default endpoint)."""
        if not self.base_url:
            return None
        from urllib.parse import urlsplit

        parts = urlsplit(self.base_url)
        return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else self.base_url

    @property
    def limit_key(self) -> str:
        return f"{self.provider}:{self.host}" if self.provider == "openai-compatible" else self.provider

    @property
    def limit(self) -> ProviderLimit:
        """The concurrency cap: the one given, else the process-wide one of this provider (looked up per call)."""
        return self._limit or provider_limit(self.limit_key, self.provider)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"

    # -- credentials -----------------------------------------------------------------------------------------
    def check_key(self) -> None:
        """LLMConfigError naming the environment variable when the API key is missing."""
        self._api_key()

    def _api_key(self) -> str:
        key = os.environ.get(self.api_key_env, "").strip()
        if key:
            return key
        if self._fallback_key is not None:
            return self._fallback_key
        raise LLMConfigError(f"{self.spec}: the environment variable {self.api_key_env} is not set; export your "
                             f"{self.provider} API key in it (keys are read from the environment only)")

    def _secrets(self) -> list[str | None]:
        return [os.environ.get(self.api_key_env)]

    # -- SDK clients -----------------------------------------------------------------------------------------
    def _make_client(self, api_key: str, http_client: Any, asynchronous: bool) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _client_options(self, api_key: str, http_client: Any) -> dict[str, Any]:
        """Keyword arguments both SDKs' client classes take: key, timeout, retries, base URL, transport."""
        options: dict[str, Any] = {"api_key": api_key, "timeout": self.timeout, "max_retries": self.max_retries}
        if self.base_url:
            options["base_url"] = self.base_url
        if http_client is not None:
            options["http_client"] = http_client
        return options

    def _sync_client(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._make_client(self._api_key(), self._http_client, False)
            return self._client

    def _async_client(self) -> Any:
        with self._lock:
            if self._async_http_client is not None:
                if self._shared_aclient is None:
                    self._shared_aclient = self._make_client(self._api_key(), self._async_http_client, True)
                return self._shared_aclient
            loop = asyncio.get_running_loop()
            client = self._aclients.get(loop)
            if client is None:
                client = self._aclients[loop] = self._make_client(self._api_key(), None, True)
            return client

    def close(self) -> None:
        """Closes the synchronous SDK client (async clients close with their event loop's garbage)."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    # -- the call --------------------------------------------------------------------------------------------
    def build_request(self, messages: list[dict], *, max_tokens: int | None, temperature: float | None,
                      stop: list[str] | None, seed: int | None) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def _send(self, client: Any, request: dict) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    async def _asend(self, client: Any, request: dict) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse(self, response: Any) -> tuple[str, Any, str | None, str | None]:  # pragma: no cover - abstract
        """(text, Usage or None when the response has none, finish reason, the model that answered)."""
        raise NotImplementedError

    def _prepare(self, messages, max_tokens, temperature, stop, seed) -> tuple[dict, list[str] | None]:
        from apb.llm.base import check_messages

        stops = [s for s in stop if s] if stop else None
        request = self.build_request(check_messages(messages), max_tokens=max_tokens, temperature=temperature,
                                     stop=stops or None, seed=seed)
        return request, stops or None

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None, choices=None):
        """One chat call (with the SDK's retries). `choices` is not sent: callers validate the answer."""
        request, stops = self._prepare(messages, max_tokens, temperature, stop, seed)
        client = self._sync_client()
        start = time.perf_counter()
        try:
            with self.limit.slot():
                response = self._send(client, request)
        except Exception as exc:
            raise self._final(exc) from None
        return self._completion(response, stops, time.perf_counter() - start)

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None, choices=None):
        """The async twin of `complete`, on the SDK's async client."""
        request, stops = self._prepare(messages, max_tokens, temperature, stop, seed)
        client = self._async_client()
        start = time.perf_counter()
        try:
            async with self.limit.aslot():
                response = await self._asend(client, request)
        except Exception as exc:
            raise self._final(exc) from None
        return self._completion(response, stops, time.perf_counter() - start)

    def _final(self, exc: Exception) -> Exception:
        """The error a failed call raises: a ProviderError for an API failure (the SDK has made its retries),
        else `exc` itself."""
        failure = self.classify(exc)
        if failure is None:
            return exc
        attempts = self.max_retries + 1 if failure.retryable else 1
        return give_up(failure, provider=self.provider, model=self.model, attempts=attempts)

    def _completion(self, response: Any, stops: list[str] | None, latency: float):
        from apb.llm.base import Completion, Usage

        text, usage, finish_reason, _answered_by = self.parse(response)
        if stops:
            cut = min((i for i in (text.find(s) for s in stops) if i >= 0), default=-1)
            if cut >= 0:
                text, finish_reason = text[:cut], finish_reason or "stop"
        cost = None if usage is None else self.prices.cost(self.model, usage)
        return Completion(text=text, usage=usage or Usage(), cost=cost, latency=latency, model=self.model,
                          provider=self.provider, finish_reason=finish_reason)

    def malformed(self, reason: str) -> ProviderError:
        """The error for a response the SDK accepted but that is not a usable answer."""
        return give_up(Failure("malformed", False, sanitize(reason, self._secrets())), provider=self.provider,
                       model=self.model, attempts=1)

    def classify(self, exc: BaseException) -> Failure | None:
        """SDK exception -> Failure (None: not an API failure, let it propagate)."""
        sdk, secrets = self.sdk, self._secrets()
        if isinstance(exc, sdk.APITimeoutError):
            return Failure("timeout", True, f"no answer within {self.timeout:g} s")
        if isinstance(exc, sdk.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f"{exc}" + (f" ({type(cause).__name__}: {cause})" if cause else "")
            return Failure("connection", True, sanitize(detail, secrets))
        if isinstance(exc, sdk.APIResponseValidationError):
            return Failure("malformed", False, sanitize(str(exc), secrets), getattr(exc, "status_code", None))
        if isinstance(exc, sdk.APIStatusError):
            reason = _error_message(getattr(exc, "body", None)) or str(exc)
            return status_failure(exc.status_code, exc.response.headers, sanitize(reason, secrets))
        if isinstance(exc, json.JSONDecodeError):
            return Failure("malformed", False, sanitize(f"invalid JSON: {exc}", secrets))
        if isinstance(exc, self.sdk_error):
            return Failure("error", False, sanitize(f"{type(exc).__name__}: {exc}", secrets))
        return None


def _error_message(body: Any) -> str | None:
    """`error.message` (or `message`) of an error body, when it has one."""
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping) and isinstance(inner.get("message"), str):
            return inner["message"]
        if isinstance(body.get("message"), str):
            return body["message"]
    if isinstance(body, str) and body.strip():
        return body
    return None

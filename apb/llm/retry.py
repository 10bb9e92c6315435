"""What the SDKs do not do for apb's API calls: a process-wide cap of requests in flight per provider (per host for
openai-compatible servers), classified failures with one-line messages, and credentials scrubbed from them.

Retries are the SDKs' own (`max_retries` of the `openai` and `anthropic` clients): HTTP 408, 409, 429 and 5xx,
timeouts and connection errors, with exponential backoff and jitter (0.5 s doubling up to 8 s), a `retry-after-ms`
/ `retry-after` header setting the wait (up to 2 minutes) and `x-should-retry` obeyed. Other 4xx and malformed
responses are not retried. A request keeps its slot under the cap while its SDK waits to retry it, so a rate-limited
provider gets fewer requests, not more.
"""

from __future__ import annotations

import asyncio
import re
import threading
import weakref
from collections.abc import Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

from apb.llm.base import LLMConfigError, LLMError
from apb.request_caps import default_request_cap

RETRY_STATUSES = frozenset({408, 409, 429})
MAX_REASON_CHARS = 200


# ---- credentials out of messages ------------------------------------------------------------------------------
_SECRET_PATTERNS = (
    (re.compile(r"sk-[A-Za-z0-9_\-*.]{6,}"), "sk-[redacted]"),
    (re.compile(r"(?i)(bearer\s+)[^\s'\",}]+"), r"\1[redacted]"),
    (re.compile(r"(?i)((?:x-api-key|api[_-]?key|authorization)['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+"),
     r"\1[redacted]"),
)


def sanitize(text: str, secrets: Iterable[str | None] = (), limit: int | None = MAX_REASON_CHARS) -> str:
    """`text` with every given secret and anything that looks like an API key or auth header redacted,
    whitespace collapsed and cut to `limit` characters."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "[redacted]")
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


# ---- failures -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Failure:
    """A failed call, classified. `kind`: rate_limited | server_error | timeout | connection | client_error |
    malformed | error; `retryable`: the SDK retries such failures; `reason` is short and already sanitised."""

    kind: str
    retryable: bool
    reason: str = ""
    status: int | None = None


class ProviderError(LLMError):
    """A provider call that failed for good; `status` is the HTTP status when there was one."""

    def __init__(self, message: str, *, provider: str, model: str, kind: str, status: int | None = None,
                 attempts: int = 1) -> None:
        super().__init__(message)
        self.provider = provider
        self.model = model
        self.kind = kind
        self.status = status
        self.attempts = attempts


def status_failure(status: int, headers: Mapping[str, str] | None, reason: str) -> Failure:
    """A failure from an HTTP status: 408/409/429/5xx retryable (the SDK retried it) unless the server said
    `x-should-retry: false`."""
    retryable = status in RETRY_STATUSES or status >= 500
    should = (headers or {}).get("x-should-retry")
    if should in ("true", "false"):
        retryable = should == "true"
    kind = "rate_limited" if status == 429 else "server_error" if status >= 500 else "client_error"
    return Failure(kind, retryable, reason, status)


_KIND_TEXT = {"rate_limited": "rate limited", "server_error": "server error", "timeout": "timed out",
              "connection": "connection error", "client_error": "request rejected",
              "malformed": "malformed response", "error": "error"}


def give_up(failure: Failure, *, provider: str, model: str, attempts: int) -> ProviderError:
    """The final error of a call: provider, model, status, what happened and a short reason."""
    what = _KIND_TEXT.get(failure.kind, failure.kind)
    if failure.status is not None:
        what = f"HTTP {failure.status} {what}"
    tries = f"gave up after {attempts} attempts" if attempts > 1 else "not retried" if not failure.retryable \
        else "no retries allowed"
    message = f"{provider} {model}: {what} ({tries})"
    if failure.reason:
        message += f": {failure.reason}"
    return ProviderError(message, provider=provider, model=model, kind=failure.kind, status=failure.status,
                         attempts=attempts)


# ---- concurrency cap ------------------------------------------------------------------------------------------
class ProviderLimit:
    """At most `limit` calls in flight: a BoundedSemaphore for threads and an asyncio.Semaphore per event loop.
    `in_flight` and `peak` count both."""

    def __init__(self, key: str, limit: int) -> None:
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise LLMConfigError(f"concurrency for {key} must be a whole number of at least 1, got {limit!r}")
        self.key = key
        self.limit = limit
        self._threads = threading.BoundedSemaphore(limit)
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = \
            weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)

    def _exit(self) -> None:
        with self._lock:
            self.in_flight -= 1

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._threads:
            self._enter()
            try:
                yield
            finally:
                self._exit()

    @asynccontextmanager
    async def aslot(self):
        loop = asyncio.get_running_loop()
        with self._lock:
            semaphore = self._loops.get(loop)
            if semaphore is None:
                semaphore = self._loops[loop] = asyncio.Semaphore(self.limit)
        async with semaphore:
            self._enter()
            try:
                yield
            finally:
                self._exit()

    def __repr__(self) -> str:
        return f"ProviderLimit({self.key!r}, limit={self.limit}, in_flight={self.in_flight})"


_limits: dict[str, ProviderLimit] = {}
_limits_lock = threading.Lock()


def provider_limit(key: str, provider: str | None = None) -> ProviderLimit:
    """The process-wide limit for `key` (a provider, or `openai-compatible:<host>`), created with the
    provider's default (apb.request_caps) on first use."""
    with _limits_lock:
        limit = _limits.get(key)
        if limit is None:
            limit = _limits[key] = ProviderLimit(key, default_request_cap(provider or key))
        return limit


def set_concurrency(key: str, limit: int) -> ProviderLimit:
    """Replaces the process-wide limit for `key`; calls already in flight finish under the old one."""
    new = ProviderLimit(key, limit)
    with _limits_lock:
        _limits[key] = new
    return new

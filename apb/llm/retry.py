"""How a call reaches a provider: retries with exponential backoff and jitter, a process-wide concurrency cap
per provider, and error messages scrubbed of credentials.

Retried: HTTP 408, 409, 429 and 5xx, timeouts and connection errors (a `retry-after-ms` / `retry-after` header
sets the wait). Not retried: other 4xx (400, 401, 403, 404, ...) and malformed responses. The sleep functions
are injectable so tests never sleep.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import re
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar

from apb.llm.base import LLMConfigError, LLMError

T = TypeVar("T")

RETRY_STATUSES = frozenset({408, 409, 429})
DEFAULT_CONCURRENCY = {"openai": 8, "anthropic": 8, "openai-compatible": 4, "local": 1}
FALLBACK_CONCURRENCY = 4
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
    """One failed attempt, classified. `kind`: rate_limited | server_error | timeout | connection |
    client_error | malformed | error; `reason` is short and already sanitised."""

    kind: str
    retryable: bool
    reason: str = ""
    status: int | None = None
    retry_after: float | None = None


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


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """The wait a response asks for: `retry-after-ms`, else `retry-after` (seconds or an HTTP date)."""
    if not headers:
        return None
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def status_failure(status: int, headers: Mapping[str, str] | None, reason: str) -> Failure:
    """A failure from an HTTP status: 408/409/429/5xx retryable unless the server says `x-should-retry: false`."""
    retryable = status in RETRY_STATUSES or status >= 500
    should = (headers or {}).get("x-should-retry")
    if should in ("true", "false"):
        retryable = should == "true"
    kind = "rate_limited" if status == 429 else "server_error" if status >= 500 else "client_error"
    return Failure(kind, retryable, reason, status, retry_after_seconds(headers) if retryable else None)


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


# ---- retries --------------------------------------------------------------------------------------------------
class RetryPolicy:
    """Exponential backoff with jitter: the n-th retry waits base x factor^(n-1), capped at `max_delay`, times a
    random factor in [1 - jitter, 1]; a `retry-after` header replaces that (capped at `max_retry_after`)."""

    def __init__(self, max_retries: int = 5, *, base_delay: float = 1.0, factor: float = 2.0,
                 max_delay: float = 60.0, jitter: float = 0.5, max_retry_after: float = 300.0,
                 sleep: Callable[[float], Any] = time.sleep,
                 async_sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
                 rng: random.Random | None = None) -> None:
        if max_retries < 0:
            raise LLMConfigError(f"max_retries must be at least 0, got {max_retries}")
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.factor = factor
        self.max_delay = max_delay
        self.jitter = min(max(jitter, 0.0), 1.0)
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.async_sleep = async_sleep
        self.rng = rng or random.Random()

    def delay(self, retry: int, failure: Failure) -> float:
        """Seconds to wait before retry number `retry` (1-based)."""
        if failure.retry_after is not None:
            return min(failure.retry_after, self.max_retry_after)
        delay = min(self.max_delay, self.base_delay * self.factor ** (retry - 1))
        return delay * (1.0 - self.jitter * self.rng.random())

    def run(self, call: Callable[[], T], classify: Callable[[BaseException], Failure | None], *,
            provider: str, model: str) -> T:
        """`call()` until it succeeds, fails for good (ProviderError) or raises something `classify` rejects."""
        attempts = 0
        while True:
            attempts += 1
            try:
                return call()
            except Exception as exc:
                failure = classify(exc)
                if failure is None:
                    raise
            if not failure.retryable or attempts > self.max_retries:
                raise give_up(failure, provider=provider, model=model, attempts=attempts)
            self.sleep(self.delay(attempts, failure))

    async def arun(self, call: Callable[[], Awaitable[T]], classify: Callable[[BaseException], Failure | None], *,
                   provider: str, model: str) -> T:
        """The async twin of `run`: awaits `call()` and `async_sleep` between attempts."""
        attempts = 0
        while True:
            attempts += 1
            try:
                return await call()
            except Exception as exc:
                failure = classify(exc)
                if failure is None:
                    raise
            if not failure.retryable or attempts > self.max_retries:
                raise give_up(failure, provider=provider, model=model, attempts=attempts)
            await self.async_sleep(self.delay(attempts, failure))


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


def default_concurrency(provider: str) -> int:
    return DEFAULT_CONCURRENCY.get(provider, FALLBACK_CONCURRENCY)


def provider_limit(key: str, provider: str | None = None) -> ProviderLimit:
    """The process-wide limit for `key` (a provider, or `openai-compatible:<host>`), created with the
    provider's default on first use."""
    with _limits_lock:
        limit = _limits.get(key)
        if limit is None:
            limit = _limits[key] = ProviderLimit(key, default_concurrency(provider or key))
        return limit


def set_concurrency(key: str, limit: int) -> ProviderLimit:
    """Replaces the process-wide limit for `key`; calls already in flight finish under the old one."""
    new = ProviderLimit(key, limit)
    with _limits_lock:
        _limits[key] = new
    return new

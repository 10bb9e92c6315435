"""A disk cache of LLM answers: sqlite at `$APB_CACHE_DIR/llm.sqlite` (default `~/.cache/apb/llm.sqlite`).

The key is the sha256 of the canonical JSON of the whole request: provider, model, base-URL host, messages
(role and content), max_tokens, temperature, stop, seed, choices. Credentials are never part of a request, a
key or a row. Modes: `rw` (read, and record new answers), `replay` (read only; a miss is a CacheMissError),
`off`. A cached answer comes back as a Completion with `cached=True`, `cost=0.0` (nothing was paid) and the
usage recorded when it was first answered.

Safe for threads and processes: WAL journal, a busy timeout, one connection per cache object behind a lock
(reopened after a fork), INSERT OR REPLACE writes. Replay mode opens the database read-only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from apb.llm.base import (
    CacheMissError,
    Completion,
    LLMConfigError,
    LLMError,
    LLMWrapper,
    Message,
    Usage,
    check_messages,
)
from apb.llm.specs import parse_spec

CACHE_ENV = "APB_CACHE_DIR"
CACHE_FILE = "llm.sqlite"
MODES = ("rw", "replay", "off")
KEY_VERSION = 1
BUSY_TIMEOUT_S = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost REAL,
    latency REAL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_by_model ON responses (provider, model);
"""

# hits and misses of this process, per cache file
_counts: dict[str, list[int]] = {}
_counts_lock = threading.Lock()


def default_cache_path() -> Path:
    """`$APB_CACHE_DIR/llm.sqlite` (`apb --cache-dir DIR` sets it), else `$XDG_CACHE_HOME/apb/llm.sqlite`, else
    `~/.cache/apb/llm.sqlite`."""
    folder = os.environ.get(CACHE_ENV)
    if not folder:
        folder = str(Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache") / "apb")
    return Path(folder).expanduser() / CACHE_FILE


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise LLMConfigError(f"unknown cache mode {mode!r}: use rw (read-write), replay (read only) or off")
    return mode


def request_payload(provider: str, model: str, host: str | None, messages: Sequence[Message], *,
                    max_tokens: int | None = None, temperature: float | None = 0.0,
                    stop: Sequence[str] | None = None, seed: int | None = None,
                    choices: Sequence[str] | None = None) -> dict[str, Any]:
    """The request as cached: everything that can change the answer, nothing secret, in canonical form."""
    return {
        "v": KEY_VERSION,
        "provider": provider,
        "model": model,
        "host": host,
        "messages": [{"role": m["role"], "content": m["content"]} for m in check_messages(messages)],
        "max_tokens": None if max_tokens is None else int(max_tokens),
        "temperature": None if temperature is None else float(temperature),
        "stop": list(stop) if stop else None,
        "seed": None if seed is None else int(seed),
        "choices": list(choices) if choices else None,
    }


def canonical_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(payload: dict[str, Any]) -> str:
    """sha256 (hex) of the canonical JSON of a request payload."""
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def request_summary(payload: dict[str, Any], width: int = 80) -> str:
    """The first `width` characters of the last user message (else of the last message), on one line."""
    messages = payload.get("messages") or []
    users = [m for m in messages if m.get("role") == "user"] or messages
    text = " ".join(str(users[-1].get("content", "")).split()) if users else ""
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass
class CacheStats:
    """What `ResponseCache.stats()` reports; `models` counts entries per `provider:model`."""

    path: str
    mode: str
    exists: bool
    entries: int = 0
    size_bytes: int = 0
    models: dict[str, int] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _when_unlocked(operation, attempts: int = 100, pause: float = 0.02):
    """Runs an SQLite operation, retrying while the database reports itself locked or busy (about 2 s at most
    on top of the busy timeout SQLite already applies where it can)."""
    for attempt in range(attempts):
        try:
            return operation()
        except sqlite3.OperationalError as err:
            message = str(err).lower()
            if ("locked" not in message and "busy" not in message) or attempt == attempts - 1:
                raise
            time.sleep(pause)
    return None  # pragma: no cover - the loop returns or raises


class ResponseCache:
    """The sqlite answer cache. `get`/`put` by key; `stats()`, `clear(model=None)`. Nothing is created on disk
    until the first write (and never in `replay` mode)."""

    def __init__(self, path: str | Path | None = None, mode: str = "rw") -> None:
        self.mode = check_mode(mode)
        self.path = Path(path).expanduser() if path is not None else default_cache_path()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r}, mode={self.mode!r})"

    # -- connection ------------------------------------------------------------------------------------------
    def _files(self) -> list[Path]:
        return [self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")]

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """The connection (under self._lock); None when the file does not exist and `create` is False."""
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn = None
        if not create and not self.path.exists():
            return None
        try:
            if self.mode == "replay":  # read-only: a recorded cache may live somewhere we cannot write
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S,
                                       isolation_level=None, check_same_thread=False)
                if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'responses'"
                                ).fetchone() is None:
                    conn.close()
                    return None
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                       check_same_thread=False)
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
                # Switching to WAL and creating the table take locks that SQLite may refuse at once (without
                # waiting for the busy timeout) while another connection does the same: retry those briefly.
                _when_unlocked(lambda: conn.execute("PRAGMA journal_mode = WAL"))
                conn.execute("PRAGMA synchronous = NORMAL")
                _when_unlocked(lambda: conn.executescript(_SCHEMA))
        except (OSError, sqlite3.Error) as err:
            raise LLMError(f"{self.path}: cannot open the LLM cache: {err}") from None
        self._conn, self._pid = conn, os.getpid()
        return conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def _count(self, hit: bool) -> None:
        with _counts_lock:
            counts = _counts.setdefault(str(self.path.resolve()), [0, 0])
            counts[0 if hit else 1] += 1

    # -- entries ---------------------------------------------------------------------------------------------
    def get(self, key: str) -> Completion | None:
        """The cached answer (cached=True, cost 0.0, usage as recorded), or None; counts a hit or a miss."""
        try:
            with self._lock:
                conn = self._connect(create=False)
                row = None if conn is None else conn.execute(
                    "SELECT text, finish_reason, input_tokens, output_tokens, cached_tokens, cache_write_tokens, "
                    "provider, model FROM responses WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as err:
            raise LLMError(f"{self.path}: cannot read the LLM cache: {err}") from None
        self._count(row is not None)
        if row is None:
            return None
        text, finish_reason, inp, out, cached, written, provider, model = row
        return Completion(text=text, usage=Usage(inp, out, cached, written), cost=0.0, cached=True,
                          model=model, provider=provider, finish_reason=finish_reason)

    def put(self, key: str, payload: dict[str, Any], completion: Completion) -> None:
        """Records an answer (INSERT OR REPLACE). Refused in replay mode; a failing write only warns."""
        if self.mode != "rw":
            raise LLMError(f"{self.path}: the LLM cache is in {self.mode} mode; it records nothing")
        usage = completion.usage
        row = (key, payload.get("provider", ""), payload.get("model", ""), canonical_json(payload), completion.text,
               completion.finish_reason, usage.input_tokens, usage.output_tokens, usage.cached_tokens,
               usage.cache_write_tokens, completion.cost, completion.latency, time.time())
        try:
            with self._lock:
                conn = self._connect(create=True)
                _when_unlocked(lambda: conn.execute(
                    "INSERT OR REPLACE INTO responses (key, provider, model, request, text, finish_reason, "
                    "input_tokens, output_tokens, cached_tokens, cache_write_tokens, cost, latency, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row))
        except (LLMError, sqlite3.Error) as err:
            warnings.warn(f"{self.path}: could not record an LLM answer in the cache: {err}", RuntimeWarning,
                          stacklevel=2)

    def miss_error(self, payload: dict[str, Any], key: str) -> CacheMissError:
        return CacheMissError(
            f"replay mode: no cached answer for {payload.get('provider')}:{payload.get('model')} "
            f"(request key {key}); last user message: {request_summary(payload)!r}. Run once with the cache in "
            f"rw mode to record it, or check that {self.path} is the cache you meant")

    # -- maintenance -----------------------------------------------------------------------------------------
    def stats(self) -> CacheStats:
        """Entries, size on disk (database + WAL), entries per `provider:model`, hits and misses this process."""
        with _counts_lock:
            hits, misses = _counts.get(str(self.path.resolve()), [0, 0])
        stats = CacheStats(path=str(self.path), mode=self.mode, exists=self.path.exists(), hits=hits, misses=misses)
        if not stats.exists:
            return stats
        try:
            with self._lock:
                conn = self._connect(create=False)
                if conn is not None:
                    rows = conn.execute("SELECT provider, model, COUNT(*) FROM responses GROUP BY provider, model "
                                        "ORDER BY provider, model").fetchall()
                    stats.models = {f"{p}:{m}": n for p, m, n in rows}
                    stats.entries = sum(stats.models.values())
        except sqlite3.Error as err:
            raise LLMError(f"{self.path}: cannot read the LLM cache: {err}") from None
        stats.size_bytes = sum(f.stat().st_size for f in self._files() if f.exists())
        return stats

    def count(self, model: str | None = None) -> int:
        """Entries in total, or of one model (`model` or `provider:model`)."""
        stats = self.stats()
        if model is None:
            return stats.entries
        return sum(n for name, n in stats.models.items() if model in (name, name.split(":", 1)[1]))

    def clear(self, model: str | None = None) -> int:
        """Deletes every entry, or those of one model (`gpt-4o` or `openai:gpt-4o`); returns how many."""
        if self.mode == "replay":
            raise LLMError(f"{self.path}: the LLM cache is open read-only (replay mode); nothing cleared")
        if not self.path.exists():
            return 0
        try:
            with self._lock:
                conn = self._connect(create=False)
                if conn is None:
                    return 0
                if model is None:
                    deleted = conn.execute("DELETE FROM responses").rowcount
                else:
                    deleted = conn.execute("DELETE FROM responses WHERE model = ? OR provider || ':' || model = ?",
                                           (model, model)).rowcount
                try:
                    if model is None:
                        conn.execute("VACUUM")
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.OperationalError:
                    pass  # another process holds the database; the space is reused later
        except sqlite3.Error as err:
            raise LLMError(f"{self.path}: cannot clear the LLM cache: {err}") from None
        return max(deleted, 0)


def llm_identity(llm: Any) -> tuple[str, str, str | None]:
    """(provider, model, base-URL host) of a backend, for cache keys: its attributes, else its spec."""
    provider, model, host = getattr(llm, "provider", None), getattr(llm, "model", None), getattr(llm, "host", None)
    if isinstance(provider, str) and provider and isinstance(model, str) and model:
        return provider, model, host if isinstance(host, str) else None
    spec = getattr(llm, "spec", "") or type(llm).__name__
    try:
        parsed = parse_spec(spec)
    except LLMConfigError:
        return "custom", spec, None
    host = None
    if parsed.base_url:
        host = parsed.base_url.split("://", 1)[-1].split("/", 1)[0]
    return parsed.provider, parsed.model or parsed.provider, host


class CachedLLM(LLMWrapper):
    """An LLM behind the answer cache (sync and async). Other attributes are those of the inner LLM."""

    def __init__(self, inner: Any, cache: ResponseCache | None = None) -> None:
        super().__init__(inner)
        self.cache = cache if cache is not None else ResponseCache()
        self.identity = llm_identity(inner)

    def __repr__(self) -> str:
        return f"CachedLLM({self.inner!r}, {self.cache!r})"

    def _lookup(self, messages, max_tokens, temperature, stop, seed, choices):
        provider, model, host = self.identity
        payload = request_payload(provider, model, host, messages, max_tokens=max_tokens, temperature=temperature,
                                  stop=stop, seed=seed, choices=choices)
        return payload, request_key(payload)

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        kwargs = {"max_tokens": max_tokens, "temperature": temperature, "stop": stop, "seed": seed,
                  "choices": choices}
        if self.cache.mode == "off":
            return self.inner.complete(messages, **kwargs)
        messages = check_messages(messages)
        start = time.perf_counter()
        payload, key = self._lookup(messages, **kwargs)
        hit = self.cache.get(key)
        if hit is not None:
            hit.latency = time.perf_counter() - start
            return hit
        if self.cache.mode == "replay":
            raise self.cache.miss_error(payload, key)
        completion = self.inner.complete(messages, **kwargs)
        self.cache.put(key, payload, completion)
        return completion

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                        choices=None) -> Completion:
        kwargs = {"max_tokens": max_tokens, "temperature": temperature, "stop": stop, "seed": seed,
                  "choices": choices}
        if self.cache.mode == "off":
            return await self.inner.acomplete(messages, **kwargs)
        messages = check_messages(messages)
        start = time.perf_counter()
        payload, key = self._lookup(messages, **kwargs)
        hit = await asyncio.to_thread(self.cache.get, key)
        if hit is not None:
            hit.latency = time.perf_counter() - start
            return hit
        if self.cache.mode == "replay":
            raise self.cache.miss_error(payload, key)
        completion = await self.inner.acomplete(messages, **kwargs)
        await asyncio.to_thread(self.cache.put, key, payload, completion)
        return completion

"""The sqlite answer cache: keys, hits and misses, replay mode, stats and clear, threads and processes, async."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from apb.llm import CachedLLM, CacheMissError, Completion, LLMConfigError, ResponseCache, ScriptedLLM, Usage
from apb.llm.cache import default_cache_path, llm_identity, request_key, request_payload

USER = [{"role": "system", "content": "You plan."}, {"role": "user", "content": "What next?"}]


def payload(**changes):
    base = {"provider": "openai", "model": "gpt-4o", "host": None, "messages": USER, "max_tokens": 10,
            "temperature": 0.0, "stop": None, "seed": None, "choices": None}
    base.update(changes)
    provider, model, host, messages = (base.pop(k) for k in ("provider", "model", "host", "messages"))
    return request_payload(provider, model, host, messages, **base)


def answer(text: str = "stack a b") -> Completion:
    return Completion(text=text, usage=Usage(120, 8, 100, 0), cost=0.0012, latency=0.5, model="gpt-4o",
                      provider="openai", finish_reason="stop")


class Counting:
    """A backend that answers `answer <n>` and counts its calls (sync and async)."""

    spec = "openai:gpt-4o"
    provider, model, host = "openai", "gpt-4o", None

    def __init__(self) -> None:
        self.calls = 0
        self._lock = threading.Lock()

    def complete(self, messages, **kwargs) -> Completion:
        with self._lock:
            self.calls += 1
            n = self.calls
        return Completion(text=f"answer {n}", usage=Usage(50, 5), cost=0.001, latency=0.2, model="gpt-4o",
                          provider="openai", finish_reason="stop")

    async def acomplete(self, messages, **kwargs) -> Completion:
        return self.complete(messages, **kwargs)


# ---- keys -----------------------------------------------------------------------------------------------------
def test_key_is_stable_and_covers_every_request_field():
    key = request_key(payload())
    assert key == request_key(payload()) and len(key) == 64
    assert request_key(payload(temperature=0)) == key  # 0 and 0.0 are the same temperature
    assert request_key(payload(messages=[{**USER[0], "cache": True}, USER[1]])) == key  # the cache flag is not part
    variants = [payload(provider="anthropic"), payload(model="gpt-4o-mini"), payload(host="localhost:11434"),
                payload(messages=USER[1:]), payload(max_tokens=11), payload(temperature=0.7),
                payload(stop=["\n"]), payload(seed=1), payload(choices=["yes", "no"])]
    keys = {request_key(p) for p in variants}
    assert key not in keys and len(keys) == len(variants)


def test_identity_from_attributes_or_spec(tmp_path):
    assert llm_identity(Counting()) == ("openai", "gpt-4o", None)
    script = tmp_path / "answers.json"
    script.write_text('["a"]', encoding="utf-8")
    assert llm_identity(ScriptedLLM(script)) == ("scripted", str(script), None)

    class Compatible:
        spec = "openai-compatible:http://localhost:11434/v1:llama3:8b"

    assert llm_identity(Compatible()) == ("openai-compatible", "llama3:8b", "localhost:11434")


def test_default_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("APB_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_path() == tmp_path / "c" / "llm.sqlite"
    monkeypatch.delenv("APB_CACHE_DIR")
    assert default_cache_path() == Path("~/.cache/apb/llm.sqlite").expanduser()


# ---- hits, misses, modes --------------------------------------------------------------------------------------
def test_miss_then_hit(tmp_path):
    inner = Counting()
    cache = ResponseCache(tmp_path / "llm.sqlite")
    llm = CachedLLM(inner, cache)
    first = llm.complete(USER, max_tokens=10)
    second = llm.complete(USER, max_tokens=10)
    assert inner.calls == 1
    assert first.text == second.text == "answer 1"
    assert not first.cached and first.cost == 0.001
    assert second.cached and second.cost == 0.0
    assert second.usage == first.usage and second.model == "gpt-4o" and second.finish_reason == "stop"
    third = llm.complete(USER, max_tokens=20)  # another request
    assert third.text == "answer 2" and not third.cached
    stats = cache.stats()
    assert (stats.entries, stats.hits, stats.misses) == (2, 1, 2)
    assert stats.models == {"openai:gpt-4o": 2} and stats.size_bytes > 0


def test_replay_returns_recorded_answers_and_refuses_misses(tmp_path):
    path = tmp_path / "llm.sqlite"
    CachedLLM(Counting(), ResponseCache(path)).complete(USER)
    inner = Counting()
    replay = CachedLLM(inner, ResponseCache(path, mode="replay"))
    assert replay.complete(USER).cached
    long_question = "Which action brings block b7 onto block b3 when the gripper holds b2? " * 3
    with pytest.raises(CacheMissError) as info:
        replay.complete([{"role": "user", "content": long_question}])
    message = str(info.value)
    key = request_key(request_payload("openai", "gpt-4o", None, [{"role": "user", "content": long_question}]))
    assert "openai:gpt-4o" in message and key in message and "replay" in message
    assert long_question[:70] in message and long_question not in message
    assert inner.calls == 0


def test_replay_never_creates_the_database(tmp_path):
    path = tmp_path / "none" / "llm.sqlite"
    with pytest.raises(CacheMissError):
        CachedLLM(Counting(), ResponseCache(path, mode="replay")).complete(USER)
    assert not path.exists() and not path.parent.exists()


def test_off_passes_through(tmp_path):
    inner = Counting()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "llm.sqlite", mode="off"))
    assert [llm.complete(USER).text for _ in range(2)] == ["answer 1", "answer 2"]
    assert not (tmp_path / "llm.sqlite").exists()


def test_unknown_mode():
    with pytest.raises(LLMConfigError, match="replay"):
        ResponseCache(mode="write-only")


def test_async_miss_then_hit(tmp_path):
    inner = Counting()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "llm.sqlite"))

    async def main():
        first = await llm.acomplete(USER)
        second = await llm.acomplete(USER)
        return first, second

    first, second = asyncio.run(main())
    assert inner.calls == 1 and not first.cached and second.cached and second.text == first.text


def test_async_replay_miss(tmp_path):
    llm = CachedLLM(Counting(), ResponseCache(tmp_path / "llm.sqlite", mode="replay"))
    with pytest.raises(CacheMissError):
        asyncio.run(llm.acomplete(USER))


def test_choices_and_seed_are_part_of_the_request(tmp_path):
    inner = Counting()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "llm.sqlite"))
    llm.complete(USER, choices=["(stack a b)", "(unstack a b)"])
    llm.complete(USER, choices=["(stack a b)"])
    llm.complete(USER, seed=3)
    llm.complete(USER, choices=["(stack a b)", "(unstack a b)"])
    assert inner.calls == 3


def test_wrapper_exposes_the_inner_backend(tmp_path):
    script = tmp_path / "answers.json"
    script.write_text('["x"]', encoding="utf-8")
    llm = CachedLLM(ScriptedLLM(script), ResponseCache(tmp_path / "llm.sqlite"))
    llm.complete(USER)
    assert llm.spec == f"scripted:{script}" and len(llm.calls) == 1


# ---- stats and clear ------------------------------------------------------------------------------------------
def test_stats_and_clear_by_model(tmp_path):
    cache = ResponseCache(tmp_path / "llm.sqlite")
    assert cache.stats().exists is False and cache.stats().entries == 0 and cache.clear() == 0
    for i in range(3):
        cache.put(request_key(payload(seed=i)), payload(seed=i), answer())
    for i in range(2):
        p = payload(provider="anthropic", model="claude-haiku-4-5", seed=i)
        cache.put(request_key(p), p, answer())
    assert cache.stats().models == {"anthropic:claude-haiku-4-5": 2, "openai:gpt-4o": 3}
    assert cache.count("gpt-4o") == 3 and cache.count("anthropic:claude-haiku-4-5") == 2
    assert cache.clear(model="openai:gpt-4o") == 3
    assert cache.stats().models == {"anthropic:claude-haiku-4-5": 2}
    assert cache.clear(model="claude-haiku-4-5") == 2
    assert cache.clear(model="nothing") == 0
    cache.put(request_key(payload()), payload(), answer())
    assert cache.clear() == 1 and cache.stats().entries == 0


def test_put_replaces_and_replay_refuses_writes(tmp_path):
    cache = ResponseCache(tmp_path / "llm.sqlite")
    key = request_key(payload())
    cache.put(key, payload(), answer("old"))
    cache.put(key, payload(), answer("new"))
    assert cache.get(key).text == "new" and cache.stats().entries == 1
    with pytest.raises(Exception, match="replay mode"):
        ResponseCache(tmp_path / "llm.sqlite", mode="replay").put(key, payload(), answer())


# ---- concurrency ----------------------------------------------------------------------------------------------
def test_concurrent_writes_from_threads(tmp_path):
    path = tmp_path / "llm.sqlite"
    shared = ResponseCache(path)
    errors: list[BaseException] = []

    def writer(worker: int) -> None:
        own = ResponseCache(path)  # a second connection to the same file, as another component would have
        try:
            for i in range(25):
                p = payload(seed=worker * 1000 + i)
                (shared if i % 2 else own).put(request_key(p), p, answer(f"{worker}-{i}"))
                assert (own if i % 2 else shared).get(request_key(p)).text == f"{worker}-{i}"
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert shared.stats().entries == 200


def test_concurrent_cached_calls_from_threads(tmp_path):
    inner = Counting()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "llm.sqlite"))
    results: list[str] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        for i in range(10):
            text = llm.complete([{"role": "user", "content": f"question {i}"}], seed=n % 2).text
            with lock:
                results.append(text)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 60
    assert llm.cache.stats().entries == 20  # 10 questions x 2 seeds
    assert inner.calls >= 20


WRITER = textwrap.dedent("""
    import sys
    from apb.llm.base import Completion, Usage
    from apb.llm.cache import ResponseCache, request_key, request_payload
    cache = ResponseCache(sys.argv[1])
    for i in range(30):
        p = request_payload("openai", "gpt-4o", None, [{"role": "user", "content": f"{sys.argv[2]} {i}"}])
        cache.put(request_key(p), p, Completion(text=str(i), usage=Usage(1, 1)))
""")


def test_concurrent_writes_from_processes(tmp_path):
    path = tmp_path / "llm.sqlite"
    procs = [subprocess.Popen([sys.executable, "-W", "error", "-c", WRITER, str(path), f"proc{n}"],
                              stderr=subprocess.PIPE, text=True) for n in range(3)]
    outcomes = [(proc.wait(), proc.stderr.read()) for proc in procs]
    for proc in procs:
        proc.stderr.close()
    assert outcomes == [(0, "")] * 3
    assert ResponseCache(path).stats().entries == 90


def test_replay_reads_without_writing(tmp_path):
    path = tmp_path / "llm.sqlite"
    recorder = ResponseCache(path)
    CachedLLM(Counting(), recorder).complete(USER)
    recorder.close()
    before = path.read_bytes()
    replay = ResponseCache(path, mode="replay")
    assert CachedLLM(Counting(), replay).complete(USER).cached
    assert replay.stats().entries == 1
    with pytest.raises(Exception, match="read-only"):
        replay.clear()
    replay.close()
    assert path.read_bytes() == before

"""make_llm: specs to backends, cache modes, totals, concurrency, prices, the local extra; `apb cache` pieces."""

from __future__ import annotations

import asyncio
import json
import sys
import types

import pytest
from test_llm_backends import FakeServer, anthropic_body, openai_body, sleeps, status  # noqa: F401 - sleeps: autouse

from apb.cli import build_parser
from apb.llm import (
    CacheMissError,
    Completion,
    LLMConfigError,
    LLMError,
    ProviderError,
    ResponseCache,
    SyncLLM,
    TrackedLLM,
    Usage,
    make_llm,
)
from apb.llm import cli as cache_cli
from apb.llm import retry as retry_module
from apb.llm.cache import request_key, request_payload

USER = [{"role": "user", "content": "Which block is clear?"}]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """Keys set, the cache in a tmp dir, the default prices, fresh process-wide concurrency limits."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-key")
    monkeypatch.setenv("APB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("APB_PRICES", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setattr(retry_module, "_limits", {})


def openai_llm(server: FakeServer, spec: str = "openai:gpt-4o-mini", **kwargs) -> TrackedLLM:
    return make_llm(spec, http_client=server.client(), async_http_client=server.async_client(), **kwargs)


def test_openai_through_the_cache_with_totals(tmp_path):
    server = FakeServer(openai_body("(pick-up a)", prompt=2000, completion=10))
    llm = openai_llm(server)
    assert llm.spec == "openai:gpt-4o-mini" and llm.cache.path == tmp_path / "cache" / "llm.sqlite"
    first = llm.complete(USER, max_tokens=20)
    second = llm.complete(USER, max_tokens=20)
    assert len(server.requests) == 1
    assert not first.cached and second.cached and second.text == first.text
    assert first.cost == pytest.approx((2000 * 0.15 + 10 * 0.60) / 1e6) and second.cost == 0.0
    totals = llm.totals
    assert (totals.calls, totals.cached_calls, totals.errors, totals.unpriced_calls) == (2, 1, 0, 0)
    assert totals.usage == Usage(2000, 10) and totals.cost == pytest.approx(first.cost)
    assert llm.cache.stats().models == {"openai:gpt-4o-mini": 1}
    llm.reset_totals()
    assert llm.totals.calls == 0


def test_totals_count_errors_and_unpriced_calls():
    server = FakeServer(openai_body("ok"), status(400, "no"))
    llm = openai_llm(server, "openai-compatible:http://localhost:11434/v1:llama3:8b", cache="off")
    llm.complete(USER)
    with pytest.raises(ProviderError):
        llm.complete([{"role": "user", "content": "other"}])
    totals = llm.totals
    assert (totals.calls, totals.errors, totals.unpriced_calls, totals.cost) == (1, 1, 1, 0.0)
    assert totals.to_dict()["usage"]["input_tokens"] == 1000


def test_async_through_the_cache():
    server = FakeServer(anthropic_body("async answer"))
    llm = make_llm("anthropic:claude-haiku-4-5", async_http_client=server.async_client())

    async def main():
        return [await llm.acomplete(USER) for _ in range(3)]

    answers = asyncio.run(main())
    assert [a.cached for a in answers] == [False, True, True] and len(server.requests) == 1
    assert llm.totals.calls == 3 and llm.totals.cached_calls == 2


def test_replay_needs_no_key_and_refuses_misses(monkeypatch, tmp_path):
    recorder = openai_llm(FakeServer(openai_body("recorded")))
    recorder.complete(USER)
    monkeypatch.delenv("OPENAI_API_KEY")
    replay = make_llm("openai:gpt-4o-mini", cache="replay")
    assert replay.complete(USER).text == "recorded"
    with pytest.raises(CacheMissError, match="gpt-4o-mini"):
        replay.complete([{"role": "user", "content": "never asked"}])


def test_missing_key_fails_at_construction(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    with pytest.raises(LLMConfigError, match="ANTHROPIC_API_KEY"):
        make_llm("anthropic:claude-haiku-4-5")


def test_bad_cache_mode_and_spec():
    with pytest.raises(LLMConfigError, match="cache mode"):
        make_llm("openai:gpt-4o", cache="sometimes")
    with pytest.raises(LLMConfigError, match="use one of"):
        make_llm("gemini:pro")


def test_explicit_cache_path(tmp_path):
    path = tmp_path / "elsewhere" / "answers.sqlite"
    llm = openai_llm(FakeServer(openai_body()), cache_path=path)
    llm.complete(USER)
    assert path.exists() and not (tmp_path / "cache").exists()


def test_prices_argument(tmp_path):
    prices = tmp_path / "prices.yaml"
    prices.write_text("models:\n  gpt-4o-mini: {input: 1.0, output: 2.0}\n", encoding="utf-8")
    llm = openai_llm(FakeServer(openai_body(prompt=1000, completion=500)), prices=prices, cache="off")
    assert llm.complete(USER).cost == pytest.approx((1000 * 1.0 + 500 * 2.0) / 1e6)


def test_concurrency_defaults_and_override():
    make_llm("openai:gpt-4o", cache="off")
    assert retry_module.provider_limit("openai").limit == 8
    assert retry_module.provider_limit("anthropic").limit == 8
    compat = make_llm("openai-compatible:http://localhost:11434/v1:llama3:8b", cache="off")
    assert compat.limit.key == "openai-compatible:localhost:11434" and compat.limit.limit == 4
    llm = make_llm("anthropic:claude-haiku-4-5", cache="off", concurrency=2)
    assert llm.limit.limit == 2 and retry_module.provider_limit("anthropic").limit == 2
    with pytest.raises(LLMConfigError, match="at least 1"):
        make_llm("openai:gpt-4o", concurrency=0)


def test_max_retries_argument():
    server = FakeServer(status(500))
    llm = make_llm("openai:gpt-4o", cache="off", max_retries=1, http_client=server.client())
    with pytest.raises(ProviderError, match="after 2 attempts"):
        llm.complete(USER)
    assert len(server.requests) == 2


def test_scripted_is_never_cached(tmp_path):
    script = tmp_path / "answers.txt"
    script.write_text("first\n---\nsecond\n", encoding="utf-8")
    llm = make_llm(f"scripted:{script}")
    assert [llm.complete(USER).text for _ in range(2)] == ["first", "second"]
    assert llm.cache is None and len(llm.calls) == 2 and llm.totals.calls == 2
    assert not (tmp_path / "cache").exists()


# ---- local ----------------------------------------------------------------------------------------------------
def test_local_without_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "apb.llm.local", None)  # as if apb/llm/local.py or its deps were missing
    with pytest.raises(LLMConfigError, match=r"apb\[local\]"):
        make_llm("local")


def test_local_with_a_model_path(monkeypatch, tmp_path):
    made = []

    class FakeLocal(SyncLLM):
        def __init__(self, model_path=None, **kwargs):
            made.append((model_path, kwargs))
            self.spec = f"local:{model_path}" if model_path else "local"

        def complete(self, messages, **kwargs):
            return Completion(text="local answer", usage=Usage(10, 2), cost=0.0, provider="local")

    module = types.ModuleType("apb.llm.local")
    module.LocalLLM = FakeLocal
    monkeypatch.setitem(sys.modules, "apb.llm.local", module)
    llm = make_llm("local:/models/tiny.gguf", n_ctx=2048)
    assert made == [("/models/tiny.gguf", {"n_ctx": 2048})]
    assert llm.complete(USER).text == "local answer" and llm.complete(USER).cached
    assert asyncio.run(llm.acomplete([{"role": "user", "content": "async"}])).text == "local answer"
    assert llm.totals.cost == 0.0 and llm.totals.unpriced_calls == 0
    assert llm.cache.stats().models == {"local:/models/tiny.gguf": 2}
    make_llm("local", cache="off")
    assert made[-1] == (None, {})
    assert retry_module.provider_limit("local").limit == 1


# ---- apb cache ------------------------------------------------------------------------------------------------
def run_cache(capsys, *argv: str) -> tuple[int, str]:
    args = build_parser().parse_args(["cache", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out


def fill(path, models: dict[str, int]) -> None:
    cache = ResponseCache(path)
    for model, n in models.items():
        provider, name = model.split(":", 1)
        for i in range(n):
            p = request_payload(provider, name, None, USER, seed=i)
            cache.put(request_key(p), p, Completion(text="x"))


def test_cache_stats_command(capsys, tmp_path):
    code, out = run_cache(capsys, "stats")
    assert code == 0 and "No LLM cache" in out
    fill(tmp_path / "cache" / "llm.sqlite", {"openai:gpt-4o": 2, "anthropic:claude-haiku-4-5": 1})
    code, out = run_cache(capsys, "stats")
    assert code == 0 and "3 entries" in out and "openai:gpt-4o" in out
    code, out = run_cache(capsys, "stats", "--json")
    data = json.loads(out)
    assert data["entries"] == 3 and data["models"] == {"anthropic:claude-haiku-4-5": 1, "openai:gpt-4o": 2}
    assert data["size_bytes"] > 0


def test_cache_clear_command(capsys, tmp_path, monkeypatch):
    other = tmp_path / "other.sqlite"
    fill(other, {"openai:gpt-4o": 2, "anthropic:claude-haiku-4-5": 1})
    code, out = run_cache(capsys, "clear", "--model", "gpt-4o", "--yes", "--path", str(other))
    assert code == 0 and "Deleted 2" in out
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    with pytest.raises(LLMError, match="--yes"):
        run_cache(capsys, "clear", "--path", str(other))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cache_cli.out, "input", lambda prompt: "n")
    code, out = run_cache(capsys, "clear", "--path", str(other))
    assert "Nothing deleted" in out and ResponseCache(other).stats().entries == 1
    monkeypatch.setattr(cache_cli.out, "input", lambda prompt: "y")
    code, out = run_cache(capsys, "clear", "--path", str(other))
    assert code == 0 and "Deleted 1" in out and ResponseCache(other).stats().entries == 0
    code, out = run_cache(capsys, "clear", "--yes", "--path", str(other))
    assert code == 0 and "Nothing to clear" in out

"""OpenAI, OpenAI-compatible and Anthropic backends against fake HTTP servers (the real SDKs parse and raise):
request mapping, usage and cost, retries (the SDKs' own, with their sleeps recorded instead of slept), malformed
answers, missing keys, async calls, the concurrency cap, and that an API key never reaches a file, an error message
or a log."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest

from apb.llm import LLMConfigError, LLMError, ProviderError, ProviderLimit, make_llm
from apb.llm.anthropic_backend import AnthropicMessages
from apb.llm.openai_backend import OpenAIChat
from apb.llm.pricing import load_prices

OPENAI_URL = "https://api.openai.com/v1/chat/completions"


# ---- fakes ----------------------------------------------------------------------------------------------------
def openai_body(text: str = "hello", *, prompt: int = 1000, completion: int = 100, cached: int = 0,
                model: str = "gpt-4o-2024-08-06", finish: str = "stop") -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
                      "prompt_tokens_details": {"cached_tokens": cached}}}


def anthropic_body(text: str = "hello", *, inp: int = 100, out: int = 50, read: int = 0, write: int = 0,
                   model: str = "claude-haiku-4-5-20251001", stop_reason: str = "end_turn") -> dict:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}], "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": read,
                      "cache_creation_input_tokens": write}}


def status(code: int, message: str = "boom", headers: dict | None = None) -> httpx2.Response:
    return httpx2.Response(code, json={"type": "error", "error": {"type": "error", "message": message}},
                           headers=headers or {})


def timeout(request: httpx2.Request) -> httpx2.Response:
    raise httpx2.ReadTimeout("read timed out", request=request)


def refused(request: httpx2.Request) -> httpx2.Response:
    raise httpx2.ConnectError("connection refused", request=request)


class FakeServer:
    """Answers each request with the next item (a Response, a JSON dict or a function of the request; the last
    one repeats) and records the requests."""

    def __init__(self, *items: Any) -> None:
        self.items = list(items)
        self.requests: list[httpx2.Request] = []
        self._lock = threading.Lock()

    def respond(self, request: httpx2.Request) -> httpx2.Response:
        with self._lock:
            self.requests.append(request)
            item = self.items.pop(0) if len(self.items) > 1 else self.items[0]
        if callable(item):
            item = item(request)
        return httpx2.Response(200, json=item) if isinstance(item, dict) else item

    __call__ = respond

    def bodies(self) -> list[dict]:
        return [json.loads(r.content) for r in self.requests]

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))

    def async_client(self) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self))


class Sleeps:
    """The SDKs' waits between retries (`time.sleep`, `anyio.sleep` in their clients), recorded, never slept."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture(autouse=True)
def sleeps(monkeypatch) -> Sleeps:
    import anyio
    import openai._base_client

    recorded = Sleeps()
    monkeypatch.setattr(openai._base_client.time, "sleep", recorded.sleep)
    monkeypatch.setattr(anyio, "sleep", recorded.async_sleep)
    return recorded


@pytest.fixture
def keys(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-anthropic-key")
    monkeypatch.delenv("OPENAI_COMPATIBLE_API_KEY", raising=False)
    monkeypatch.delenv("APB_PRICES", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)


def openai_chat(server: FakeServer, model: str = "gpt-4o", **kwargs: Any) -> OpenAIChat:
    return OpenAIChat(model, http_client=server.client(), async_http_client=server.async_client(),
                      limit=ProviderLimit("test", 8), **kwargs)


def claude(server: FakeServer, model: str = "claude-haiku-4-5", **kwargs: Any) -> AnthropicMessages:
    return AnthropicMessages(model, http_client=server.client(), async_http_client=server.async_client(),
                             limit=ProviderLimit("test", 8), **kwargs)


USER = [{"role": "user", "content": "Which block is on the table?"}]


# ---- OpenAI ---------------------------------------------------------------------------------------------------
def test_openai_request_usage_and_cost(keys):
    server = FakeServer(openai_body("b1 is on the table", prompt=1000, completion=100, cached=200))
    llm = openai_chat(server)
    messages = [{"role": "system", "content": "You plan.", "cache": True}, *USER]
    answer = llm.complete(messages, max_tokens=50, temperature=0.3, stop=["\n\n"], seed=7)

    (request,) = server.requests
    assert str(request.url) == OPENAI_URL
    assert request.headers["authorization"] == "Bearer sk-test-openai-key"
    assert server.bodies()[0] == {"model": "gpt-4o", "max_completion_tokens": 50, "temperature": 0.3,
                                  "stop": ["\n\n"], "seed": 7,
                                  "messages": [{"role": "system", "content": "You plan."}, *USER]}
    assert answer.text == "b1 is on the table"
    assert (answer.provider, answer.model, answer.finish_reason, answer.cached) == ("openai", "gpt-4o", "stop", False)
    assert answer.usage.to_dict() == {"input_tokens": 1000, "output_tokens": 100, "cached_tokens": 200,
                                      "cache_write_tokens": 0}
    # gpt-4o: 2.50 input, 1.25 cached input, 10.00 output (USD per million)
    assert answer.cost == pytest.approx((800 * 2.50 + 200 * 1.25 + 100 * 10.00) / 1e6)
    assert answer.cost == pytest.approx(load_prices().cost("gpt-4o", answer.usage))
    assert answer.latency >= 0
    assert llm.spec == "openai:gpt-4o"


def test_openai_reasoning_model_gets_no_temperature_or_stop_and_stop_applies_locally(keys):
    server = FakeServer(openai_body("(stack a b)\nDONE and more"))
    answer = openai_chat(server, model="o4-mini").complete(USER, temperature=0.0, stop=["DONE"], max_tokens=500)
    body = server.bodies()[0]
    assert "temperature" not in body and "stop" not in body
    assert body["max_completion_tokens"] == 500
    assert answer.text == "(stack a b)\n"


def test_openai_sends_at_most_four_stop_strings_but_applies_all(keys):
    server = FakeServer(openai_body("one two three four five six"))
    answer = openai_chat(server).complete(USER, stop=["x1", "x2", "x3", "x4", "five"])
    assert server.bodies()[0]["stop"] == ["x1", "x2", "x3", "x4"]
    assert answer.text == "one two three four "


def test_openai_compatible_base_url_dummy_key_and_unknown_price(keys, monkeypatch):
    server = FakeServer(openai_body("ok", model="llama3:8b"))
    llm = OpenAIChat("llama3:8b", base_url="http://localhost:11434/v1", http_client=server.client(),
                     limit=ProviderLimit("test", 4))
    answer = llm.complete(USER, max_tokens=20, temperature=0.0)
    (request,) = server.requests
    assert str(request.url) == "http://localhost:11434/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer not-needed"
    body = server.bodies()[0]
    assert body["max_tokens"] == 20 and "max_completion_tokens" not in body and body["temperature"] == 0.0
    assert answer.provider == "openai-compatible" and answer.cost is None
    assert llm.spec == "openai-compatible:http://localhost:11434/v1:llama3:8b"
    assert llm.limit_key == "openai-compatible:localhost:11434"

    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", "compat-key-123")
    server2 = FakeServer(openai_body("ok"))
    OpenAIChat("llama3:8b", base_url="http://localhost:11434/v1", http_client=server2.client()).complete(USER)
    assert server2.requests[0].headers["authorization"] == "Bearer compat-key-123"


def test_openai_missing_usage_gives_unknown_cost(keys):
    body = openai_body("hi")
    del body["usage"]
    answer = openai_chat(FakeServer(body)).complete(USER)
    assert answer.text == "hi" and answer.cost is None and answer.usage.input_tokens == 0


# ---- Anthropic ------------------------------------------------------------------------------------------------
def test_anthropic_request_caching_usage_and_cost(keys):
    server = FakeServer(anthropic_body("b1", inp=100, out=50, read=2000, write=500))
    llm = claude(server)
    messages = [{"role": "system", "content": "You are a planner."},
                {"role": "user", "content": "Domain: blocks.", "cache": True},
                {"role": "assistant", "content": "Understood."},
                {"role": "user", "content": "Next action?"}]
    answer = llm.complete(messages, temperature=0.5, stop=["\n\n", "END"], seed=3)

    (request,) = server.requests
    assert str(request.url) == "https://api.anthropic.com/v1/messages"
    body = server.bodies()[0]
    assert body == {
        "model": "claude-haiku-4-5", "max_tokens": 1024, "stop_sequences": ["END"],
        "system": [{"type": "text", "text": "You are a planner.", "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Domain: blocks.",
                                                   "cache_control": {"type": "ephemeral"}}]},
                     {"role": "assistant", "content": "Understood."},
                     {"role": "user", "content": "Next action?"}]}
    assert '"cache":' not in request.content.decode()
    assert answer.text == "b1" and answer.finish_reason == "end_turn" and answer.provider == "anthropic"
    assert answer.usage.to_dict() == {"input_tokens": 2600, "output_tokens": 50, "cached_tokens": 2000,
                                      "cache_write_tokens": 500}
    # claude-haiku-4-5: 1.00 input, 0.10 cache read, 1.25 cache write, 5.00 output
    assert answer.cost == pytest.approx((100 * 1.00 + 2000 * 0.10 + 500 * 1.25 + 50 * 5.00) / 1e6)


def test_anthropic_whitespace_stop_is_applied_locally(keys):
    server = FakeServer(anthropic_body("(stack a b)\n(unstack c d)"))
    answer = claude(server).complete(USER, stop=["\n"], max_tokens=64)
    body = server.bodies()[0]
    assert "stop_sequences" not in body and body["max_tokens"] == 64 and "system" not in body
    assert answer.text == "(stack a b)"


# ---- retries --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [openai_chat, claude], ids=["openai", "anthropic"])
def test_429_with_retry_after_is_retried_after_that_wait(keys, make, sleeps):
    body = openai_body("ok") if make is openai_chat else anthropic_body("ok")
    server = FakeServer(status(429, "slow down", {"retry-after": "7"}), body)
    answer = make(server).complete(USER)
    assert answer.text == "ok"
    assert len(server.requests) == 2
    assert sleeps.waits == [7.0]


def test_retry_after_ms_wins_over_retry_after(keys, sleeps):
    server = FakeServer(status(429, headers={"retry-after-ms": "1500", "retry-after": "9"}), openai_body("ok"))
    openai_chat(server).complete(USER)
    assert sleeps.waits == [1.5]


def test_x_should_retry_false_is_not_retried(keys, sleeps):
    server = FakeServer(status(503, "maintenance", {"x-should-retry": "false"}), openai_body("ok"))
    with pytest.raises(ProviderError, match="HTTP 503 server error \\(not retried\\)"):
        openai_chat(server).complete(USER)
    assert len(server.requests) == 1 and sleeps.waits == []


@pytest.mark.parametrize("make", [openai_chat, claude], ids=["openai", "anthropic"])
@pytest.mark.parametrize("failure", [status(500), status(503), status(529), timeout, refused],
                         ids=["500", "503", "529", "timeout", "connection"])
def test_transient_failure_then_success(keys, make, failure, sleeps):
    body = openai_body("ok") if make is openai_chat else anthropic_body("ok")
    server = FakeServer(failure, body)
    answer = make(server).complete(USER)
    assert answer.text == "ok" and len(server.requests) == 2
    assert len(sleeps.waits) == 1 and 0.3 <= sleeps.waits[0] <= 0.5  # the SDKs' first backoff: 0.5 s with jitter


def test_backoff_grows_exponentially(keys, sleeps):
    server = FakeServer(status(503), status(503), status(503), openai_body("ok"))
    assert openai_chat(server).complete(USER).text == "ok"
    assert len(sleeps.waits) == 3 and sleeps.waits[0] < sleeps.waits[1] < sleeps.waits[2] <= 2.0


@pytest.mark.parametrize("code", [400, 401, 403, 404])
@pytest.mark.parametrize("make", [openai_chat, claude], ids=["openai", "anthropic"])
def test_client_errors_are_not_retried(keys, make, code, sleeps):
    server = FakeServer(status(code, "Invalid value for max_tokens"))
    with pytest.raises(ProviderError) as info:
        make(server).complete(USER)
    assert len(server.requests) == 1 and sleeps.waits == []
    error = info.value
    assert isinstance(error, LLMError) and error.status == code and error.attempts == 1
    assert f"HTTP {code}" in str(error) and error.provider in str(error) and "not retried" in str(error)
    assert "Invalid value for max_tokens" in str(error)


def test_gives_up_after_max_retries(keys, sleeps):
    server = FakeServer(status(503, "overloaded"))
    llm = OpenAIChat("gpt-4o", http_client=server.client(), max_retries=2)
    with pytest.raises(ProviderError) as info:
        llm.complete(USER)
    assert len(server.requests) == 3 and len(sleeps.waits) == 2
    assert info.value.status == 503 and info.value.attempts == 3
    assert str(info.value) == "openai gpt-4o: HTTP 503 server error (gave up after 3 attempts): overloaded"


@pytest.mark.parametrize("response", [
    httpx2.Response(200, text="<html>bad gateway</html>", headers={"content-type": "text/html"}),
    httpx2.Response(200, json={"unexpected": True}),
    httpx2.Response(200, json={"id": "x", "object": "chat.completion", "created": 1, "model": "m", "choices": []}),
], ids=["html", "json-without-choices", "empty-choices"])
def test_openai_malformed_body_is_an_llm_error(keys, response):
    with pytest.raises(LLMError, match="malformed response"):
        openai_chat(FakeServer(response)).complete(USER)


@pytest.mark.parametrize("response", [
    httpx2.Response(200, text="not json", headers={"content-type": "text/plain"}),
    httpx2.Response(200, json={"type": "message", "content": None}),
], ids=["text", "no-content"])
def test_anthropic_malformed_body_is_an_llm_error(keys, response):
    with pytest.raises(LLMError, match="malformed response"):
        claude(FakeServer(response)).complete(USER)


# ---- keys -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cls", "variable"),
                         [(OpenAIChat, "OPENAI_API_KEY"), (AnthropicMessages, "ANTHROPIC_API_KEY")])
def test_missing_key_names_the_variable(monkeypatch, cls, variable):
    monkeypatch.delenv(variable, raising=False)
    llm = cls("some-model", http_client=FakeServer(openai_body()).client())
    with pytest.raises(LLMConfigError, match=variable):
        llm.check_key()
    with pytest.raises(LLMConfigError, match=variable):
        llm.complete(USER)


def test_custom_key_variable(monkeypatch):
    monkeypatch.setenv("MY_PROXY_KEY", "proxy-key-456")
    server = FakeServer(openai_body())
    OpenAIChat("gpt-4o", api_key_env="MY_PROXY_KEY", http_client=server.client()).complete(USER)
    assert server.requests[0].headers["authorization"] == "Bearer proxy-key-456"


# ---- async ----------------------------------------------------------------------------------------------------
def test_async_openai_and_anthropic_with_retries(keys, sleeps):
    openai_server = FakeServer(status(429, headers={"retry-after": "3"}), openai_body("async openai"))
    anthropic_server = FakeServer(timeout, anthropic_body("async claude"))

    async def main():
        return await asyncio.gather(openai_chat(openai_server).acomplete(USER, max_tokens=5),
                                    claude(anthropic_server).acomplete(USER))

    first, second = asyncio.run(main())
    assert (first.text, second.text) == ("async openai", "async claude")
    assert first.cost is not None and second.cost is not None
    assert len(openai_server.requests) == 2 and len(anthropic_server.requests) == 2
    assert 3.0 in sleeps.waits and len(sleeps.waits) == 2


def test_async_client_error_not_retried(keys):
    server = FakeServer(status(400, "bad request"))
    with pytest.raises(ProviderError, match="HTTP 400"):
        asyncio.run(claude(server).acomplete(USER))
    assert len(server.requests) == 1


def test_async_without_given_client_makes_one_per_event_loop(keys, monkeypatch):
    server = FakeServer(openai_body("fresh loop"))
    llm = OpenAIChat("gpt-4o")
    made = []
    original = llm._make_client

    def make_client(api_key, http_client, asynchronous):
        made.append(asynchronous)
        return original(api_key, server.async_client() if asynchronous else http_client, asynchronous)

    monkeypatch.setattr(llm, "_make_client", make_client)
    assert asyncio.run(llm.acomplete(USER)).text == "fresh loop"
    assert asyncio.run(llm.acomplete(USER)).text == "fresh loop"
    assert made == [True, True]


# ---- concurrency cap ------------------------------------------------------------------------------------------
def test_sync_calls_respect_the_concurrency_cap(keys):
    gate, entered = threading.Event(), threading.Semaphore(0)
    active, peak, lock = [0], [0], threading.Lock()

    def handler(request):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        entered.release()
        gate.wait(timeout=30)
        with lock:
            active[0] -= 1
        return httpx2.Response(200, json=openai_body("ok"))

    limit = ProviderLimit("capped", 2)
    llm = OpenAIChat("gpt-4o", http_client=httpx2.Client(transport=httpx2.MockTransport(handler)), limit=limit)
    results: list[str] = []
    threads = [threading.Thread(target=lambda: results.append(llm.complete(USER).text)) for _ in range(6)]
    for thread in threads:
        thread.start()
    assert entered.acquire(timeout=30) and entered.acquire(timeout=30)
    assert limit.in_flight == 2
    gate.set()
    for thread in threads:
        thread.join(timeout=30)
    assert results == ["ok"] * 6
    assert peak[0] <= 2 and limit.peak == 2 and limit.in_flight == 0


def test_async_calls_respect_the_concurrency_cap(keys):
    active, peak = [0], [0]

    async def handler(request):
        active[0] += 1
        peak[0] = max(peak[0], active[0])
        for _ in range(5):  # let the other tasks run while this request is in flight
            await asyncio.sleep(0)
        active[0] -= 1
        return httpx2.Response(200, json=anthropic_body("ok"))

    limit = ProviderLimit("capped-async", 3)
    llm = AnthropicMessages("claude-haiku-4-5", async_http_client=httpx2.AsyncClient(
        transport=httpx2.MockTransport(handler)), limit=limit)

    async def main():
        return await asyncio.gather(*(llm.acomplete(USER) for _ in range(10)))

    answers = asyncio.run(main())
    assert [a.text for a in answers] == ["ok"] * 10
    assert peak[0] == 3 and limit.peak == 3


def test_concurrency_limit_must_be_positive():
    with pytest.raises(LLMConfigError, match="at least 1"):
        ProviderLimit("x", 0)


# ---- the key never leaks ----------------------------------------------------------------------------------------
SENTINEL = "sk-SENTINEL-7f3a9c1e5b2d4068"


def echo_key(make_response: Callable[[str], httpx2.Response]) -> Callable[[httpx2.Request], httpx2.Response]:
    """A server that echoes the key it received into its error body (as real APIs partly do)."""
    def handler(request: httpx2.Request) -> httpx2.Response:
        key = request.headers.get("authorization", "").removeprefix("Bearer ") or request.headers.get("x-api-key")
        assert key == SENTINEL  # the key did reach the server, so the checks below mean something
        return make_response(key)
    return handler


def test_api_keys_never_reach_files_messages_or_logs(monkeypatch, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    cache_dir, prices_dir = tmp_path / "cache", tmp_path / "prices"
    prices_dir.mkdir()
    (prices_dir / "prices.yaml").write_text("models:\n  my-model: {input: 1, output: 2}\n", encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    monkeypatch.setenv("ANTHROPIC_API_KEY", SENTINEL)
    monkeypatch.setenv("APB_CACHE_DIR", str(cache_dir))
    monkeypatch.setenv("APB_PRICES", str(prices_dir / "prices.yaml"))

    responses = {
        "ok-openai": lambda key: httpx2.Response(200, json=openai_body(f"fine {len(key)}")),
        "ok-anthropic": lambda key: httpx2.Response(200, json=anthropic_body(f"fine {len(key)}")),
        "401": lambda key: status(401, f"Incorrect API key provided: {key}. Authorization: Bearer {key}"),
        "403": lambda key: status(403, f"key {key[:-4]}**** has no access; x-api-key: {key}"),
        "500": lambda key: status(500, f"upstream saw headers {{'authorization': 'Bearer {key}'}}"),
        "html": lambda key: httpx2.Response(200, text=f"<pre>{key}</pre>", headers={"content-type": "text/html"}),
    }
    messages: list[str] = []
    for provider in ("openai", "anthropic"):
        for name, make_response in responses.items():
            if name.startswith("ok-") and not name.endswith(provider):
                continue
            server = FakeServer(echo_key(make_response))
            llm = make_llm(f"{provider}:my-model", http_client=server.client(),
                           async_http_client=server.async_client(), max_retries=1)
            sync_messages = [{"role": "user", "content": f"{provider} {name} sync"}]
            async_messages = [{"role": "user", "content": f"{provider} {name} async"}]
            for call in (lambda: llm.complete(sync_messages),  # noqa: B023 - called right away
                         lambda: asyncio.run(llm.acomplete(async_messages))):  # noqa: B023
                try:
                    answer = call()
                    messages.append(repr(answer))
                except LLMError as error:
                    messages.extend([str(error), repr(error),
                                     "".join(traceback.format_exception(type(error), error, error.__traceback__))])
            messages.extend([repr(llm), repr(llm.totals), repr(llm.inner), str(vars(llm.inner.inner))])
    assert any("HTTP 401" in m for m in messages) and any("malformed" in m for m in messages)
    assert any("fine" in m for m in messages)
    for text in messages:
        assert SENTINEL not in text and SENTINEL[3:15] not in text
    assert SENTINEL not in caplog.text
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "llm.sqlite" for p in files)
    for path in files:
        data = Path(path).read_bytes()
        assert SENTINEL.encode() not in data and SENTINEL[3:15].encode() not in data, path

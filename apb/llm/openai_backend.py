"""OpenAI chat completions, and any OpenAI-compatible server (Ollama, vLLM, llama.cpp server, LM Studio, ...).

Request mapping: `max_tokens` -> `max_completion_tokens` on OpenAI (`max_tokens` on compatible servers),
`temperature`, `stop` (at most 4 sent; all applied to the text), `seed`. Reasoning models on OpenAI (o-series,
gpt-5 and later) accept neither temperature nor stop: they are left out and the stop strings are applied to the
text here. The `"cache"` message flag is not sent (OpenAI caches prompt prefixes by itself).
Usage: `prompt_tokens` (all input), `completion_tokens`, `prompt_tokens_details.cached_tokens`.
"""

from __future__ import annotations

import re
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from apb.llm.api_backend import APIBackend
from apb.llm.base import Usage

OPENAI_KEY_ENV = "OPENAI_API_KEY"
COMPATIBLE_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"
COMPATIBLE_DUMMY_KEY = "not-needed"  # local servers ignore the key, but the SDK wants one
MAX_STOP_SEQUENCES = 4
REASONING_MODELS = re.compile(r"^(?:o\d|gpt-[5-9])(?!.*-chat)", re.IGNORECASE)


class OpenAIChat(APIBackend):
    """`openai:<model>` (base_url None) or `openai-compatible:<base_url>:<model>`.

    The key comes from `api_key_env` (default OPENAI_API_KEY; for a base_url, OPENAI_COMPATIBLE_API_KEY, and
    when that is unset a dummy key). `sampling=None` decides from the model name whether temperature and stop
    are sent; True or False forces it. `http_client` / `async_http_client` are passed to the SDK clients.
    """

    sdk = openai
    sdk_error = openai.OpenAIError

    def __init__(self, model: str, base_url: str | None = None, api_key_env: str | None = None,
                 timeout: float = 120.0, *, sampling: bool | None = None, **kwargs: Any) -> None:
        self.provider = "openai-compatible" if base_url else "openai"
        if api_key_env is None:
            api_key_env = COMPATIBLE_KEY_ENV if base_url else OPENAI_KEY_ENV
        fallback = COMPATIBLE_DUMMY_KEY if base_url else None
        super().__init__(model, api_key_env=api_key_env, base_url=base_url or None, timeout=timeout,
                         fallback_key=fallback, **kwargs)
        if sampling is None:
            sampling = bool(base_url) or not REASONING_MODELS.match(model)
        self.sampling = sampling

    def _make_client(self, api_key: str, http_client: Any, asynchronous: bool) -> Any:
        options = self._client_options(api_key, http_client)
        return openai.AsyncOpenAI(**options) if asynchronous else openai.OpenAI(**options)

    def build_request(self, messages: list[dict], *, max_tokens: int | None, temperature: float | None,
                      stop: list[str] | None, seed: int | None) -> dict:
        request: dict[str, Any] = {"model": self.model,
                                   "messages": [{"role": m["role"], "content": m["content"]} for m in messages]}
        if max_tokens is not None:
            request["max_tokens" if self.provider == "openai-compatible" else "max_completion_tokens"] = max_tokens
        if self.sampling and temperature is not None:
            request["temperature"] = temperature
        if self.sampling and stop:
            request["stop"] = stop[:MAX_STOP_SEQUENCES]
        if seed is not None:
            request["seed"] = seed
        return request

    # `post` is the SDK's documented call for a raw endpoint: the same request, retries and response model as
    # `chat.completions.create`, without its walk of the typed parameters, which cost about 20 ms of CPU per call
    # on an episode's 50-message conversation (70% of apb's CPU per call; measured with apb bench llm-throughput)
    def _send(self, client: Any, request: dict) -> Any:
        return client.post("/chat/completions", body=request, cast_to=ChatCompletion)

    async def _asend(self, client: Any, request: dict) -> Any:
        return await client.post("/chat/completions", body=request, cast_to=ChatCompletion)

    def parse(self, response: Any) -> tuple[str, Usage | None, str | None, str | None]:
        if not isinstance(response, ChatCompletion):
            raise self.malformed(f"expected a chat completion, got {type(response).__name__}: {str(response)[:80]}")
        if not isinstance(response.choices, list) or not response.choices:
            raise self.malformed("the response has no choices")
        choice = response.choices[0]
        message = getattr(choice, "message", None)
        if message is None:
            raise self.malformed("the first choice has no message")
        content = message.content
        if content is not None and not isinstance(content, str):
            raise self.malformed(f"the message content is {type(content).__name__}, not text")
        finish_reason = getattr(choice, "finish_reason", None)
        if not content and getattr(message, "refusal", None):
            finish_reason = "refusal"
        usage = None
        if response.usage is not None and isinstance(response.usage.prompt_tokens, int):
            details = response.usage.prompt_tokens_details
            cached = (details.cached_tokens or 0) if details is not None else 0
            usage = Usage(input_tokens=response.usage.prompt_tokens,
                          output_tokens=response.usage.completion_tokens or 0, cached_tokens=cached)
        return content or "", usage, finish_reason, response.model if isinstance(response.model, str) else None

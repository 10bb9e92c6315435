"""Anthropic messages API.

Request mapping: leading system messages -> `system=` text blocks (later ones stay in place as system turns),
`max_tokens` (1024 when None), `stop` -> `stop_sequences` (whitespace-only strings are applied to the text here
only; the API refuses them). No `seed`, and no `temperature`: the SDK (2.x, API version 2026-10-21) has no
sampling parameters and the API rejects them, so temperature is accepted but not sent.
Prompt caching: `cache_control: {"type": "ephemeral"}` on the last system block and on the last message
flagged `"cache": True` (the flag itself is never sent).
Usage: `input_tokens` here counts all input (the API's input_tokens + cache_read_input_tokens +
cache_creation_input_tokens); `cached_tokens` = cache_read_input_tokens; `cache_write_tokens` =
cache_creation_input_tokens.
"""

from __future__ import annotations

from typing import Any

import anthropic
from anthropic.types import Message as AnthropicMessage

from apb.llm.api_backend import APIBackend
from apb.llm.base import Usage

ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MAX_TOKENS = 1024
EPHEMERAL = {"type": "ephemeral"}


class AnthropicMessages(APIBackend):
    """`anthropic:<model>`; the key from `api_key_env` (default ANTHROPIC_API_KEY)."""

    provider = "anthropic"
    sdk = anthropic
    sdk_error = anthropic.AnthropicError

    def __init__(self, model: str, api_key_env: str = ANTHROPIC_KEY_ENV, timeout: float = 120.0, *,
                 base_url: str | None = None, default_max_tokens: int = DEFAULT_MAX_TOKENS, **kwargs: Any) -> None:
        super().__init__(model, api_key_env=api_key_env, base_url=base_url, timeout=timeout, **kwargs)
        self.default_max_tokens = default_max_tokens

    def _make_client(self, api_key: str, http_client: Any, asynchronous: bool) -> Any:
        options = self._client_options(api_key, http_client)
        return anthropic.AsyncAnthropic(**options) if asynchronous else anthropic.Anthropic(**options)

    def build_request(self, messages: list[dict], *, max_tokens: int | None, temperature: float | None,
                      stop: list[str] | None, seed: int | None) -> dict:
        lead = 0
        while lead < len(messages) and messages[lead]["role"] == "system":
            lead += 1
        system = [{"type": "text", "text": m["content"]} for m in messages[:lead] if m["content"].strip()]
        if system:
            system[-1]["cache_control"] = dict(EPHEMERAL)
        turns: list[dict[str, Any]] = [{"role": m["role"], "content": m["content"]} for m in messages[lead:]]
        flagged = [i for i, m in enumerate(messages[lead:]) if m.get("cache") and m["content"].strip()]
        if flagged:
            turn = turns[flagged[-1]]
            turn["content"] = [{"type": "text", "text": turn["content"], "cache_control": dict(EPHEMERAL)}]
        request: dict[str, Any] = {"model": self.model, "messages": turns,
                                   "max_tokens": self.default_max_tokens if max_tokens is None else max_tokens}
        if system:
            request["system"] = system
        sendable = [s for s in stop or () if s.strip()]
        if sendable:
            request["stop_sequences"] = sendable
        return request

    def _send(self, client: Any, request: dict) -> Any:
        return client.messages.create(**request)

    async def _asend(self, client: Any, request: dict) -> Any:
        return await client.messages.create(**request)

    def parse(self, response: Any) -> tuple[str, Usage | None, str | None, str | None]:
        if not isinstance(response, AnthropicMessage):
            raise self.malformed(f"expected a message, got {type(response).__name__}: {str(response)[:80]}")
        if not isinstance(response.content, list):
            raise self.malformed("the message has no content list")
        text = "".join(block.text for block in response.content
                       if getattr(block, "type", None) == "text" and isinstance(getattr(block, "text", None), str))
        usage = None
        raw = response.usage
        if raw is not None and isinstance(raw.input_tokens, int):
            read = raw.cache_read_input_tokens or 0
            written = raw.cache_creation_input_tokens or 0
            usage = Usage(input_tokens=raw.input_tokens + read + written, output_tokens=raw.output_tokens or 0,
                          cached_tokens=read, cache_write_tokens=written)
        model = response.model if isinstance(response.model, str) else None
        return text, usage, response.stop_reason, model

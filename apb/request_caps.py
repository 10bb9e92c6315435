"""The providers' default caps of LLM requests in flight, defined once: apb.llm's process-wide limits start from them
(`apb.llm.retry.provider_limit`) and `--llm-concurrency`'s help prints them (`apb.flags`). Hosted providers get a
cap safe for their rate limits, an openai-compatible server one per host (a run raises it to its `--concurrency`:
`apb.llm.request_cap`), a local model one request at a time (one model in process)."""

from __future__ import annotations

DEFAULT_REQUEST_CAPS = {"openai": 8, "anthropic": 8, "openai-compatible": 4, "local": 1}
FALLBACK_REQUEST_CAP = 4  # a provider not in the table


def default_request_cap(provider: str) -> int:
    return DEFAULT_REQUEST_CAPS.get(provider, FALLBACK_REQUEST_CAP)


def caps_text(*, without: frozenset[str] = frozenset()) -> str:
    """The table as users read it: `openai 8, anthropic 8, ...` (less the providers in `without`)."""
    return ", ".join(f"{provider} {cap}" for provider, cap in DEFAULT_REQUEST_CAPS.items() if provider not in without)

"""Spec strings name a backend on the command line: `openai:gpt-4o`, `anthropic:claude-sonnet-4-5`,
`openai-compatible:http://localhost:11434/v1:llama3:8b`, `local`, `local:<path.gguf>`, `scripted:<file>`,
`replay:<file>` (a released PlanBench responses/results file answering its own queries)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from apb.llm.base import LLMConfigError

PROVIDERS = ("openai", "anthropic", "openai-compatible", "local", "scripted", "replay")

ACCEPTED_FORMS = ("openai:<model>", "anthropic:<model>", "openai-compatible:<base_url>:<model>", "local",
                  "local:<path.gguf>", "scripted:<file>", "replay:<file>")

# scheme://host[:port][/path] followed by ':' and the model. The host may be a bracketed IPv6 address; the path
# stops at the first ':' (model names such as `llama3:8b` keep their own colons).
_BASE_URL_AND_MODEL = re.compile(
    r"^(?P<base_url>https?://(?:\[[0-9A-Fa-f:.]+\]|[^/:\[\]\s]+)(?::\d+(?=[:/]))?(?:/[^:\s]*)?):(?P<model>\S+)$")


@dataclass(frozen=True)
class Spec:
    """A parsed spec. `model` is the model name (for `local`, the model file or "" for the bundled model);
    `base_url` only for openai-compatible; `path` the file of `local:<path>` and `scripted:<file>`."""

    provider: str
    model: str = ""
    base_url: str | None = None
    path: str | None = None

    def __str__(self) -> str:
        if self.provider == "openai-compatible":
            return f"openai-compatible:{self.base_url}:{self.model}"
        if self.provider in ("local", "scripted", "replay"):
            return f"{self.provider}:{self.path}" if self.path else self.provider
        return f"{self.provider}:{self.model}"


def _bad(spec: str, why: str) -> LLMConfigError:
    return LLMConfigError(f"bad LLM spec {spec!r}: {why}; use one of: {', '.join(ACCEPTED_FORMS)}")


def parse_spec(spec: str) -> Spec:
    """Parses a spec string; LLMConfigError listing the accepted forms when it is unknown or malformed."""
    if not isinstance(spec, str) or not spec.strip():
        raise _bad(str(spec), "empty spec")
    text = spec.strip()
    provider, sep, rest = text.partition(":")
    provider = provider.lower()
    if provider not in PROVIDERS:
        raise _bad(text, f"unknown provider {provider!r}")
    if provider == "local":
        return Spec("local", model=rest, path=rest or None)
    if not sep or not rest:
        what = "a file" if provider in ("scripted", "replay") else "a model name"
        raise _bad(text, f"{provider} needs {what} after ':'")
    if provider in ("scripted", "replay"):
        return Spec(provider, model=rest, path=rest)
    if provider in ("openai", "anthropic"):
        if any(c.isspace() for c in rest):
            raise _bad(text, "the model name contains whitespace")
        return Spec(provider, model=rest)
    match = _BASE_URL_AND_MODEL.match(rest)
    if not match:
        raise _bad(text, "openai-compatible needs a base URL (http://host[:port][/path]) then ':' and the model")
    model = match.group("model")
    if re.fullmatch(r"\d+(?:/[^:]*)?", model):  # `http://host:11434/v1` alone: port and path, no model
        raise _bad(text, "no model after the base URL")
    return Spec("openai-compatible", model=model, base_url=match.group("base_url").rstrip("/"))

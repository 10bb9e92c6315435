"""What every translator returns and shares: the result, the never-raise wrapper and the per-problem cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from apb.engine.limits import MAX_TURN_CHARS, over_limit
from apb.llm.base import Usage
from apb.translators.problem import ProblemView

METHODS = ("pddl", "template", "names", "tllm", "fuzzy", "none")


@dataclass
class TranslationResult:
    """A translation: `action` is a grounded PDDL action ("(stack a b)") or None, `method` the stage that
    answered, `raw` the input text, `error` why there is no action. `llm_calls` and `usage` count LLM work;
    `completions` records each LLM call that answered (messages, text, usage, cost, cached, latency, model), so the
    agent can account for it like its own calls (role "translator")."""

    action: str | None
    confidence: float = 0.0
    method: str = "none"
    raw: object = None
    llm_calls: int = 0
    usage: Usage | None = None
    error: str | None = None
    tried: list[str] = field(default_factory=list)  # stages that ran, in order (cascade)
    completions: list[dict] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.action is not None

    def to_dict(self) -> dict:
        return {"action": self.action, "confidence": round(self.confidence, 4), "method": self.method,
                "raw": self.raw if isinstance(self.raw, str) or self.raw is None else repr(self.raw),
                "llm_calls": self.llm_calls, "usage": self.usage.to_dict() if self.usage else None,
                "error": self.error, "tried": list(self.tried)}


def failed(raw: object, error: str, *, llm_calls: int = 0, usage: Usage | None = None,
           completions: list[dict] | None = None) -> TranslationResult:
    return TranslationResult(None, 0.0, "none", raw, llm_calls, usage, error, completions=list(completions or ()))


def completion_record(messages: list[dict], completion: object) -> dict:
    """One answered LLM call as the agent records it in an "llm" event."""
    usage = getattr(completion, "usage", None)
    return {"messages": [dict(m) for m in messages], "text": getattr(completion, "text", ""),
            "usage": usage.to_dict() if isinstance(usage, Usage) else {}, "cost": getattr(completion, "cost", None),
            "cached": bool(getattr(completion, "cached", False)), "latency": getattr(completion, "latency", None),
            "model": getattr(completion, "model", None)}


class ProblemCache:
    """Per-problem views (objects, schemas, parser), keyed by domain, problem id, objects and action templates,
    so a translator called every step builds them once per problem. Shared by the stages of a cascade."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._views: OrderedDict[tuple, ProblemView] = OrderedDict()
        self._lock = threading.Lock()  # agents may translate from several threads

    def get(self, info: dict) -> ProblemView:
        key = ProblemView.key(info)
        with self._lock:
            view = self._views.get(key)
            if view is not None:
                self._views.move_to_end(key)
                return view
        view = ProblemView(info)
        with self._lock:
            view = self._views.setdefault(key, view)
            while len(self._views) > self.size:
                self._views.popitem(last=False)
        return view


class Translator:
    """Base class: `translate(text, info)` (and calling the translator) never raises; text over
    `apb.engine.limits.MAX_TURN_CHARS` gets no action; subclasses implement `_translate(text, view, info)` on
    cleaned-up input."""

    kind = "base"

    def __init__(self, cache: ProblemCache | None = None) -> None:
        self.cache = cache if cache is not None else ProblemCache()

    def translate(self, text: object, info: dict) -> TranslationResult:
        if isinstance(text, bytes | bytearray):
            text = bytes(text).decode("utf-8", errors="replace")
        if not isinstance(text, str):
            return failed(text, f"the text to translate must be a string, not {type(text).__name__}")
        refused = over_limit(text, MAX_TURN_CHARS, "text to translate")
        if refused is not None:  # bounded time on any text: one turn's worth is read, no more
            return failed(text, refused)
        if not text.strip():
            return failed(text, "empty text")
        if not isinstance(info, dict) or not info.get("action_schemas"):
            return failed(text, "info has no action_schemas: pass the env's info dict")
        try:
            view = self.cache.get(info)
            result = self._translate(text, view, info)
        except Exception as err:  # never raise: a translator runs inside an episode loop
            return failed(text, f"internal error in the {self.kind} translator: {type(err).__name__}: {err}")
        result.raw = text
        if not result.tried:
            result.tried = [self.kind]
        return result

    __call__ = translate

    def _translate(self, text: str, view: ProblemView, info: dict) -> TranslationResult:  # pragma: no cover
        raise NotImplementedError

"""The cascade (the default translator): template (exact, free), then T-LLM (when an LLM is given), then the
fuzzy matcher. The result says which stage answered and how many LLM calls it took in all."""

from __future__ import annotations

from apb.translators.base import ProblemCache, TranslationResult, Translator, failed
from apb.translators.fuzzy import DEFAULT_THRESHOLD, MAX_CANDIDATES, FuzzyTranslator
from apb.translators.problem import ProblemView
from apb.translators.template import TemplateTranslator
from apb.translators.tllm import TLLMTranslator

OVERRIDE_CONFIDENCE = 0.8  # the fuzzy matcher overrules a doubtful template reading when this sure


class CascadeTranslator(Translator):
    """Stages share one per-problem cache. `fuzzy_threshold` and `max_candidates` go to the fuzzy stage; the
    other options (`examples`, `retries`, `max_tokens`, `temperature`, `seed`) to T-LLM."""

    kind = "cascade"

    def __init__(self, llm=None, *, fuzzy_threshold: float = DEFAULT_THRESHOLD, max_candidates: int = MAX_CANDIDATES,
                 cache: ProblemCache | None = None, **tllm_options) -> None:
        super().__init__(cache)
        self.template = TemplateTranslator(self.cache)
        self.tllm = TLLMTranslator(llm, cache=self.cache, **tllm_options) if llm is not None else None
        self.fuzzy = FuzzyTranslator(fuzzy_threshold, max_candidates, cache=self.cache)

    def _translate(self, text: str, view: ProblemView, info: dict) -> TranslationResult:
        run = _Run()
        first, earlier = self.template.analyse(text, view, info)
        run.add("template", first)
        exact = first if first.action is not None and first.error is None else None
        if exact is not None and not earlier:
            if exact.method != "names" and earlier is None:
                return run.done(exact)
            # A names-only reading ('board car_0 at loc_0'), or words before the match in its clause: trusted
            # unless the fuzzy matcher is sure of another action.
            check = run.add("fuzzy", self.fuzzy._translate(text, view, info))
            if check.action is None or check.action == exact.action or check.confidence < OVERRIDE_CONFIDENCE:
                return run.done(exact)
            if self.tllm is None:
                return run.done(check)
        if self.tllm is not None:
            result = run.add("tllm", self.tllm._translate(text, view, info))
            if result.action is not None and result.error is None:
                return run.done(result)
        if earlier:  # the first action was named before the one the templates read
            result = run.add("fuzzy", self.fuzzy._translate(earlier, view, info))
            if result.action is not None:
                return run.done(result)
        if exact is not None:
            return run.done(exact)
        result = run.add("fuzzy", self.fuzzy._translate(text, view, info))
        if result.action is not None:
            return run.done(result)
        if first.action is not None:  # a reading whose types could not be confirmed: better than nothing
            return run.done(first)
        return run.done(failed(text, "; ".join(run.errors) or "no stage found an action"))


class _Run:
    """The stages one cascade translation ran, their LLM calls, usage and errors."""

    def __init__(self) -> None:
        self.tried: list[str] = []
        self.calls = 0
        self.usage = None
        self.completions: list[dict] = []
        self.errors: list[str] = []

    def add(self, kind: str, result: TranslationResult) -> TranslationResult:
        self.tried.append(kind)
        self.calls += result.llm_calls
        self.completions.extend(result.completions)
        if result.usage is not None:
            self.usage = result.usage if self.usage is None else self.usage + result.usage
        if result.error and result.action is None:
            self.errors.append(f"{kind}: {result.error}")
        return result

    def done(self, result: TranslationResult) -> TranslationResult:
        result.llm_calls, result.usage, result.tried = self.calls, self.usage, list(self.tried)
        result.completions = list(self.completions)
        return result

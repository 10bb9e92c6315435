"""Translators from an LLM's free-text action to a grounded PDDL action: template, fuzzy, T-LLM, cascade.

```python
from apb.translators import make_translator
translate = make_translator("cascade", llm=None)   # template, then T-LLM if an llm is given, then fuzzy
result = translate("First, pick up block a.", info)  # info: the env's info dict
result.action, result.confidence, result.method, result.llm_calls
```
A translator never raises on any text; it plugs into `apb.envs.wrappers.TranslatedActions`.
"""

from __future__ import annotations

from apb.engine.errors import ApbError
from apb.translators.base import METHODS, ProblemCache, TranslationResult, Translator
from apb.translators.cascade import CascadeTranslator
from apb.translators.fuzzy import FuzzyTranslator
from apb.translators.template import TemplateTranslator
from apb.translators.tllm import TLLMTranslator

KINDS = ("template", "fuzzy", "tllm", "cascade")


def make_translator(kind: str | None = "cascade", llm=None, **options) -> Translator:
    """A translator by kind: `template`, `fuzzy` (options: threshold, max_candidates), `tllm` (needs `llm`;
    options: examples, retries, max_tokens, temperature, seed) or `cascade` (default; the LLM stage only with
    an `llm`; options: fuzzy_threshold, max_candidates and the tllm ones)."""
    kind = (kind or "cascade").lower()
    try:
        if kind == "template":
            if options:
                raise TypeError(f"unexpected options {sorted(options)}")
            return TemplateTranslator()
        if kind == "fuzzy":
            return FuzzyTranslator(**options)
        if kind == "tllm":
            if llm is None:
                raise ApbError("the tllm translator needs an llm: make_translator('tllm', llm=...)")
            return TLLMTranslator(llm, **options)
        if kind == "cascade":
            return CascadeTranslator(llm, **options)
    except TypeError as err:
        raise ApbError(f"bad option for the {kind} translator: {err}") from None
    raise ApbError(f"unknown translator kind {kind!r}: use one of {', '.join(KINDS)}")


__all__ = ["KINDS", "METHODS", "CascadeTranslator", "FuzzyTranslator", "ProblemCache", "TLLMTranslator",
           "TemplateTranslator", "TranslationResult", "Translator", "make_translator"]

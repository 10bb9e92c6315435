"""LLM-generated NL templates for any PDDL domain, the AutoPlanBench way: one call per predicate, then one call
per action (shown with its preconditions and effects worded by the predicate templates just written), then one
call for the intro line.

Every answer is checked like an nl.yaml entry (each parameter placeholder exactly once, indefinite letters A, B,
C, ...) and for its topic (a template must use a word of its predicate or action, an intro a word of its domain:
see apb.nl.generator.checks). A wrong answer gets one repair turn that names exactly what is wrong; if it is
still wrong, the entry falls back to the rule-based template and the fallback is recorded on the result. Prompt
texts and few-shot examples are data files in apb/prompts/nl_generate/, loaded through apb.prompts; the static
part of each prompt (system text and examples) comes first and its last message carries `"cache": True` for
provider prompt caching.

The LLM is any object with `spec` and `complete(messages, *, max_tokens, temperature) -> Completion`
(see apb.llm.base); this package does not import apb.llm.

Modules: results (what a run gives back), questions (prompts and their layout), answers (reading answers),
checks (placeholders and topic), notes (the domain file's comments), session (one run).
"""

from apb.nl.generator.answers import normalize_placeholders, parse_answer
from apb.nl.generator.notes import source_notes
from apb.nl.generator.questions import load_examples
from apb.nl.generator.results import (
    Fallback,
    GeneratedTemplates,
    GenerationEvent,
    GenerationReport,
    Issue,
    NLGenerateError,
)
from apb.nl.generator.session import generate_templates

__all__ = ["Fallback", "GeneratedTemplates", "GenerationEvent", "GenerationReport", "Issue", "NLGenerateError",
           "generate_templates", "load_examples", "normalize_placeholders", "parse_answer", "source_notes"]

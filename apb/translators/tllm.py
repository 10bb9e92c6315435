"""T-LLM, AutoPlanBench's translator: an LLM turns the text into one PDDL action, prompted with the domain's
action templates and a few examples built from them with made-up objects; the answer is validated (action,
arity, objects, types) and, if invalid, the model gets exactly one retry that says what was wrong.

The prompt is static first (instructions, the action list and the examples, the same for every problem of a
domain unless a made-up name collides with a real object), with `"cache": True` on the last static message so
providers with prompt caching reuse it; the problem's objects and the text come last.
"""

from __future__ import annotations

import re

from apb.llm.base import Usage
from apb.prompts import load_prompt
from apb.translators.base import TranslationResult, Translator, completion_record, failed
from apb.translators.problem import _PDDL_ACTION, ProblemView, Schema
from apb.translators.template import TemplateTranslator
from apb.translators.text import focus

DEFAULT_EXAMPLES = 5
MAX_SHOWN_TEXT = 2000
CONFIDENCE_FIRST = 0.9
CONFIDENCE_RETRY = 0.8
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)


def _prompt(name: str) -> str:
    return load_prompt(f"tllm/{name}.txt").rstrip("\n")


class TLLMTranslator(Translator):
    """`llm`: any apb LLM; `examples`: few-shot examples (at most 5 are useful); `retries`: after an invalid
    answer (1, as in the contract); `max_tokens`, `temperature`, `seed`: passed to the LLM."""

    kind = "tllm"

    def __init__(self, llm, *, examples: int = DEFAULT_EXAMPLES, retries: int = 1, max_tokens: int = 100,
                 temperature: float = 0.0, seed: int | None = None, cache=None) -> None:
        super().__init__(cache)
        if llm is None or not hasattr(llm, "complete"):
            from apb.engine.errors import ApbError

            raise ApbError("the tllm translator needs an LLM (an object with .complete(messages, ...))")
        self.llm = llm
        self.examples = max(0, int(examples))
        self.retries = max(0, int(retries))
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed

    # ---- prompt -----------------------------------------------------------------------------------------------
    def messages(self, text: str, view: ProblemView) -> list[dict]:
        """The whole prompt for one text: the static prefix (cache-marked) then the objects and the text."""
        shown = focus(text).strip() or text.strip()
        if len(shown) > MAX_SHOWN_TEXT:
            shown = shown[:MAX_SHOWN_TEXT] + " ..."
        task = _prompt("task").format(objects=view.objects_by_type(), text=shown)
        return [*self.static_prefix(view), {"role": "user", "content": task}]

    def static_prefix(self, view: ProblemView) -> list[dict]:
        key = ("tllm", self.examples)
        prefix = view.memo.get(key)
        if prefix is None:
            examples = few_shot_examples(view, self.examples)
            actions = "\n".join(_prompt("action_line").format(pddl=typed_signature(s), nl=placeholder_text(s))
                                for s in view.schemas.values())
            example = examples[0][1] if examples else next(
                (s.pddl for s in view.schemas.values()), "(action object)")
            system = _prompt("system").format(domain=f" ({view.domain})" if view.domain else "", actions=actions,
                                              example=example)
            prefix = [{"role": "system", "content": system}]
            for nl, pddl in examples:
                prefix.append({"role": "user", "content": _prompt("example").format(text=nl)})
                prefix.append({"role": "assistant", "content": pddl})
            prefix[-1] = {**prefix[-1], "cache": True}
            view.memo[key] = prefix
        return [dict(m) for m in prefix]

    # ---- translation ------------------------------------------------------------------------------------------
    def _translate(self, text: str, view: ProblemView, info: dict) -> TranslationResult:
        messages = self.messages(text, view)
        calls = 0
        usage: Usage | None = None
        records: list[dict] = []
        problem = "no answer"
        for attempt in range(1 + self.retries):
            calls += 1
            try:
                completion = self.llm.complete(messages, max_tokens=self.max_tokens, temperature=self.temperature,
                                               seed=self.seed)
            except Exception as err:  # an LLM that fails for good: no action, the episode goes on
                return failed(text, f"LLM call failed: {type(err).__name__}: {err}", llm_calls=calls, usage=usage,
                              completions=records)
            records.append(completion_record(messages, completion))
            usage = _add(usage, getattr(completion, "usage", None))
            answer = getattr(completion, "text", "")
            answer = answer if isinstance(answer, str) else ""
            action, problem = self.read(answer, view, info)
            if action is not None:
                confidence = CONFIDENCE_FIRST if attempt == 0 else CONFIDENCE_RETRY
                return TranslationResult(action, confidence, "tllm", llm_calls=calls, usage=usage,
                                         completions=records)
            if attempt < self.retries:
                shown = " ".join(answer.split())[:200]
                retry = _prompt("retry").format(answer=shown, problem=problem, objects=view.object_list())
                messages = [*messages, {"role": "assistant", "content": answer[:MAX_SHOWN_TEXT] or "(empty)"},
                            {"role": "user", "content": retry}]
        return failed(text, f"T-LLM answer invalid after {calls} call(s): {problem}", llm_calls=calls, usage=usage,
                      completions=records)

    def read(self, answer: str, view: ProblemView, info: dict | None = None) -> tuple[str | None, str]:
        """(action, '') for a valid answer, else (None, what is wrong) — said so the model can fix it."""
        answer = _THINK.sub(" ", answer or "")
        if not answer.strip():
            return None, "the answer is empty"
        first_problem = None
        for match in _PDDL_ACTION.finditer(answer):
            action, problem = view.check(match.group(0), info)
            if action is not None:
                return action, ""
            if first_problem is None or (match.group(1).lower() in view.schemas
                                         and first_problem.startswith("unknown action")):
                first_problem = problem
        if first_problem is not None:
            return None, first_problem
        # No parentheses: an action name with its objects, or English the template parser can read.
        result = TemplateTranslator(self.cache)._translate(answer, view, info or {})
        if result.action is not None and result.error is None:
            return result.action, ""
        return None, "no PDDL action of the form (action-name object ...) found in the answer"


def typed_signature(schema: Schema) -> str:
    """'(drive ?x - truck ?y - place ?z - place)'; untyped parameters stay bare."""
    parts = [schema.name]
    for param, type_name in zip(schema.params, schema.types):
        parts.append(f"?{param}" if type_name == "object" else f"?{param} - {type_name}")
    return "(" + " ".join(parts) + ")"


def placeholder_text(schema: Schema) -> str:
    """The English template with ?parameters in place of the {placeholders}."""
    return re.sub(r"\{([^{}\s]+)\}", r"?\1", schema.nl)


def invented_name(base: str, taken: set[str], counter: list[int]) -> str:
    """A made-up object name like 'truck_x1' that no problem object has (in any spelling)."""
    base = re.sub(r"[^a-z0-9]+", "_", base.lower()).strip("_") or "obj"
    while True:
        counter[0] += 1
        name = f"{base}_x{counter[0]}"
        if re.sub(r"[\s_-]+", "", name) not in taken:
            return name


def few_shot_examples(view: ProblemView, count: int) -> list[tuple[str, str]]:
    """Up to `count` (English, PDDL) pairs over schemas spread across the domain, with made-up objects."""
    schemas = list(view.schemas.values())
    if not schemas or count <= 0:
        return []
    count = min(count, len(schemas))
    chosen = [schemas[round(i * len(schemas) / count)] for i in range(count)]
    taken = {re.sub(r"[\s_-]+", "", n.lower()) for n in view.objects}
    counter = [0]
    examples = []
    for schema in chosen:
        args = [invented_name(_noun_for(schema, i, view), taken, counter) for i in range(len(schema.params))]
        examples.append((schema.fill(args), schema.pddl_form(args)))
    return examples


def _noun_for(schema: Schema, index: int, view: ProblemView) -> str:
    """The word to name a made-up object after: the noun the template writes before it, the noun of the
    indefinite template ('a car A'), else its type."""
    placeholder = "{" + schema.params[index] + "}"
    before = schema.nl.split(placeholder, 1)[0].lower() if placeholder in schema.nl else ""
    for noun in sorted(view.nouns, key=len, reverse=True):
        if before.endswith(noun + " "):
            return noun
    letter = chr(ord("A") + index)
    match = re.search(rf"\b(?:a|an)\s+(?:[a-z]+\s+){{0,3}}?([a-z]+)\s+{letter}\b", schema.indefinite or "")
    if match is not None:
        return match.group(1)
    type_name = schema.types[index]
    return type_name if type_name != "object" else "obj"


def _add(total: Usage | None, usage) -> Usage | None:
    if not isinstance(usage, Usage):
        return total
    return usage if total is None else total + usage

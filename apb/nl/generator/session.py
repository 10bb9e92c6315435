"""One run of `apb nl generate`: a question per predicate, then per action, then the intro; each answer checked
(apb.nl.generator.checks), one repair turn when it is wrong, the rule-based wording when it is still wrong."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

from apb.engine import load_domain
from apb.engine.model import ActionSchema, Domain
from apb.nl.generator.answers import lower_first, normalize_placeholders, parse_answer, read_intro
from apb.nl.generator.checks import Topic, indefinite_issues, placeholder_issues
from apb.nl.generator.notes import source_notes
from apb.nl.generator.questions import (
    action_question,
    example_turns,
    fragment,
    intro_question,
    load_examples,
    predicate_question,
    predicate_usage,
    prompt_text,
    repair_request,
    typed_parameters,
)
from apb.nl.generator.results import (
    Fallback,
    GeneratedTemplates,
    GenerationEvent,
    GenerationReport,
    Issue,
    NLGenerateError,
)
from apb.nl.grammar import letter
from apb.nl.nl_yaml import NLTemplateError, NLTemplates
from apb.nl.render import DomainText
from apb.nl.rules import rule_templates
from apb.nl.template_builder import build_templates, type_nouns

PREDICATE_MAX_TOKENS = 300
ACTION_MAX_TOKENS = 500
INTRO_MAX_TOKENS = 200
INTRO_MAX_CHARS = 400

Checker = Callable[[str], tuple[dict, list[Issue]]]  # an answer -> (the entry read from it, what is wrong)


class Session:
    """The state of one generation run: the LLM, the rule-based wording to fall back on, the report."""

    def __init__(self, domain: Domain, llm, examples: dict, on_progress, temperature: float) -> None:
        self.domain = domain
        self.llm = llm
        self.examples = examples
        self.on_progress = on_progress
        self.temperature = temperature
        self.spec = str(getattr(llm, "spec", "") or type(llm).__name__)
        self.report = GenerationReport(llm=self.spec)
        self.rules = rule_templates(domain)
        self.types = {name: {"singular": t.singular, "plural": t.plural} for name, t in self.rules.types.items()}
        self.notes = source_notes(domain)
        self.topic = Topic(domain, self.rules)
        self._prefix: dict[str, list[dict]] = {}

    # ---- calls ----------------------------------------------------------------------------------------------------
    def call(self, messages: list[dict], max_tokens: int) -> str:
        """The text of one completion; its usage goes into the report."""
        completion = self.llm.complete(messages, max_tokens=max_tokens, temperature=self.temperature)
        self.report.record(completion)
        return getattr(completion, "text", None) or ""

    def emit(self, stage: str, name: str, index: int, total: int, outcome: str, reason: str = "") -> None:
        """Sends a progress event to `on_progress`, if any."""
        if self.on_progress is not None:
            self.on_progress(GenerationEvent(stage, name, index, total, outcome, reason))

    def prefix(self, kind: str) -> list[dict]:
        """System text and few-shot turns for `kind` (predicate | action); the last carries the cache mark."""
        if kind not in self._prefix:
            messages = example_turns(kind, self.examples)
            messages[-1]["cache"] = True
            self._prefix[kind] = messages
        return [dict(m) for m in self._prefix[kind]]

    def ask(self, kind: str, name: str, messages: list[dict], max_tokens: int,
            check: Checker) -> tuple[dict, list[Issue], str]:
        """(entry, issues left, outcome ok|repaired|failed): one answer, and one repair turn if it is wrong."""
        answer = self.call(messages, max_tokens)
        entry, issues = check(answer)
        if not issues:
            return entry, [], "ok"
        label = f"{kind} {name}"
        self.report.repairs.append(label)
        self.note_off_topic(label, issues)
        messages = [*messages, {"role": "assistant", "content": answer.strip() or fragment("empty_answer")},
                    {"role": "user", "content": repair_request(kind, [i.message for i in issues])}]
        answer = self.call(messages, max_tokens)
        entry, issues = check(answer)
        self.note_off_topic(label, issues)
        return entry, issues, ("repaired" if not issues else "failed")

    def ask_template(self, kind: str, name: str, question: str, max_tokens: int,
                     check: Checker) -> tuple[dict, list[Issue], str]:
        """`ask` after the few-shot turns of `kind`; an entry the LLM got right is counted as generated."""
        messages = [*self.prefix(kind), {"role": "user", "content": question}]
        entry, issues, outcome = self.ask(kind, name, messages, max_tokens, check)
        if outcome != "failed":
            self.report.generated.append(f"{kind} {name}")
        return entry, issues, outcome

    def note_off_topic(self, label: str, issues: list[Issue]) -> None:
        """Records `label` as off-topic when one of `issues` is a topic issue."""
        if any(i.part == "topic" for i in issues) and label not in self.report.off_topic:
            self.report.off_topic.append(label)

    def built_issues(self, kind: str, name: str, entry: dict) -> list[Issue]:
        """The checks of build_templates, as issues (empty when the entry builds)."""
        try:
            build_templates(self.domain, {"types": self.types, kind + "s": {name: entry}}, source="check")
        except NLTemplateError as err:
            return [Issue("text", err.message)]
        return []

    def text_issues(self, kind: str, name: str, part: str, label: str, value: str,
                    params: tuple[str, ...]) -> list[Issue]:
        """Placeholder issues of a text, and for the main text (part 'text') whether it is about its entry."""
        issues = placeholder_issues(part, label, value, params)
        off_topic = self.topic.entry_issue(kind, name, value) if part == "text" else None
        return [*issues, off_topic] if off_topic else issues

    # ---- predicates -----------------------------------------------------------------------------------------------
    def check_predicate(self, name: str, params: tuple[str, ...]) -> Checker:
        """The checker of answers about predicate `name`."""
        def check(answer: str) -> tuple[dict, list[Issue]]:
            if not answer.strip():
                return {}, [Issue("answer", "the answer was empty")]
            found = parse_answer(answer, params)
            entry, issues = {}, []
            for part, label in (("text", "text"), ("negated", "negated text")):
                value = found.get(part)
                if not value:
                    issues.append(Issue(part, f"the answer has no line '{part}: ...'"))
                    continue
                value = lower_first(normalize_placeholders(value, params))
                entry[part] = value
                issues += self.text_issues("predicate", name, part, label, value, params)
            if not issues and entry["text"].lower() == entry["negated"].lower():
                issues.append(Issue("negated", "the negated text must say that the fact does not hold; it is "
                                               "the same as the text"))
            if not issues:
                issues = self.built_issues("predicate", name, entry)
            return entry, issues

        return check

    def predicate(self, name: str) -> tuple[dict, str, str]:
        """The entry of one predicate, its outcome and the reason of a fallback."""
        schema = self.domain.predicates[name]
        typed = typed_parameters(schema.parameters)
        params = tuple(p for p, _ in typed)
        question = predicate_question(self.domain.name, name, typed, notes=self.notes.header,
                                      comment=self.notes.predicates.get(name, ""),
                                      usage=predicate_usage(self.domain, name))
        entry, issues, outcome = self.ask_template("predicate", name, question, PREDICATE_MAX_TOKENS,
                                                   self.check_predicate(name, params))
        if outcome != "failed":
            return entry, outcome, ""
        reason = "; ".join(i.message for i in issues)
        self.report.fallbacks.append(Fallback("predicate", name, reason))
        rule = self.rules.predicates[name]
        return {"text": rule.text, "negated": rule.negated}, "fallback", reason

    # ---- actions --------------------------------------------------------------------------------------------------
    def action_effects(self, words: DomainText, schema: ActionSchema) -> tuple[list[str], list[str]]:
        """Preconditions and effects in English with the parameters as letters (as the domain text says them)."""
        letters = {p.name: letter(i) for i, p in enumerate(schema.parameters)}

        def say(lit, positive: bool) -> str:
            return words.fact(lit.predicate, tuple(letters.get(a, a) for a in lit.args), positive)

        requires = [say(lit, lit.positive) for lit in schema.precondition]
        added = {(lit.predicate, lit.args) for lit in schema.add_effects}
        effects = [say(lit, True) for lit in schema.add_effects]
        effects += [fragment("effect_deleted", fact=say(lit, False)) for lit in schema.delete_effects
                    if (lit.predicate, lit.args) not in added]
        return requires, effects

    def check_action(self, name: str, params: tuple[str, ...]) -> Checker:
        """The checker of answers about action `name`."""
        def check(answer: str) -> tuple[dict, list[Issue]]:
            if not answer.strip():
                return {}, [Issue("answer", "the answer was empty")]
            found = parse_answer(answer, params)
            entry: dict = {}
            issues: list[Issue] = []
            text = found.get("text")
            if not text:
                issues.append(Issue("text", "the answer has no line 'text: ...'"))
            else:
                entry["text"] = lower_first(normalize_placeholders(text, params))
                issues += self.text_issues("action", name, "text", "text", entry["text"], params)
            indefinite = found.get("indefinite")
            if indefinite:  # when it is left out, build_templates derives it from the text
                entry["indefinite"] = lower_first(normalize_placeholders(indefinite, params))
                issues += indefinite_issues(entry["indefinite"], params)
            variables = found.get("variables") or {}
            entry["variables"] = {p: variables[p] for p in params if variables.get(p)}
            missing = [p for p in params if p not in entry["variables"]]
            if missing:
                lines = " and ".join(f"'?{p}: ...'" for p in missing)
                issues.append(Issue("variables", f"give a description line for every parameter; {lines} "
                                                 f"{'is' if len(missing) == 1 else 'are'} missing"))
            if not issues:
                issues = self.built_issues("action", name, entry)
            return entry, issues

        return check

    def action(self, schema: ActionSchema, words: DomainText) -> tuple[dict, str, str]:
        """The entry of one action, its outcome and the reason of a (partial) fallback."""
        name = schema.name
        typed = typed_parameters(schema.parameters)
        params = tuple(p for p, _ in typed)
        requires, effects = self.action_effects(words, schema)
        question = action_question(self.domain.name, name, typed, requires=requires, effects=effects,
                                   notes=self.notes.header, comment=self.notes.actions.get(name, ""))
        entry, issues, outcome = self.ask_template("action", name, question, ACTION_MAX_TOKENS,
                                                   self.check_action(name, params))
        if outcome != "failed":
            return entry, outcome, ""
        rule = self.rules.actions[name]
        reason = "; ".join(i.message for i in issues)
        if all(i.part == "variables" for i in issues):  # the wording is fine; only descriptions are missing
            entry["variables"] = {p: entry["variables"].get(p) or rule.variables.get(p, f"the {p}") for p in params}
            self.report.generated.append(f"action {name}")
            self.report.fallbacks.append(Fallback("action", name, reason, ("variables",)))
            return entry, "filled", reason
        self.report.fallbacks.append(Fallback("action", name, reason))
        fallback = {"text": rule.text, "indefinite": rule.indefinite, "variables": dict(rule.variables)}
        if rule.first_person != "I " + rule.text:
            fallback["first_person"] = rule.first_person
        return fallback, "fallback", reason

    # ---- intro ----------------------------------------------------------------------------------------------------
    def check_intro(self, answer: str) -> tuple[dict, list[Issue]]:
        """The intro sentence of an answer, and what is wrong with it (missing, placeholders, too long, off-topic)."""
        text = read_intro(answer)
        if not text:
            reason = "the answer had no line 'intro: ...'" if answer.strip() else "the answer was empty"
            return {}, [Issue("answer", reason)]
        if "{" in text or "}" in text or len(text) > INTRO_MAX_CHARS:
            return {}, [Issue("intro", "the intro must be one plain sentence without placeholders")]
        off_topic = self.topic.intro_issue(text)
        return {"intro": text}, [off_topic] if off_topic else []

    def intro(self, partial: NLTemplates) -> tuple[str, str, str]:
        """The intro line, its outcome and the reason of a fallback."""
        question = intro_question(self.domain.name, notes=self.notes.header,
                                  types=sorted(type_nouns(self.domain, partial.types)),
                                  actions=[partial.actions[a.name].indefinite for a in self.domain.actions])
        messages = [{"role": "system", "content": prompt_text("system.txt")}, {"role": "user", "content": question}]
        entry, issues, outcome = self.ask("intro", self.domain.name, messages, INTRO_MAX_TOKENS, self.check_intro)
        if outcome == "failed":
            reason = "; ".join(i.message for i in issues)
            self.report.fallbacks.append(Fallback("intro", self.domain.name, reason))
            return self.rules.intro, "fallback", reason
        text = entry["intro"]
        text = text[0].upper() + text[1:]
        return (text if text.endswith((".", "!")) else text + "."), outcome, ""

    # ---- the whole run --------------------------------------------------------------------------------------------
    def run(self, with_intro: bool) -> GeneratedTemplates:
        """Every predicate, every action (worded with the new predicate texts), then the intro."""
        predicates: dict[str, dict] = {}
        names = list(self.domain.predicates)
        for i, name in enumerate(names, 1):
            predicates[name], outcome, reason = self.predicate(name)
            self.emit("predicate", name, i, len(names), outcome, reason)
        source = f"llm:{self.spec}"
        words = DomainText(self.domain, build_templates(self.domain, {"types": self.types, "predicates": predicates},
                                                        source=source))
        actions: dict[str, dict] = {}
        for i, schema in enumerate(self.domain.actions, 1):
            actions[schema.name], outcome, reason = self.action(schema, words)
            self.emit("action", schema.name, i, len(self.domain.actions), outcome, reason)
        data = {"format": 1, "domain": self.domain.name, "types": self.types, "predicates": predicates,
                "actions": actions}
        intro = self.rules.intro
        if with_intro:
            intro, outcome, reason = self.intro(build_templates(self.domain, data, source=source))
            self.emit("intro", self.domain.name, 1, 1, outcome, reason)
        data["intro"] = intro
        built = build_templates(self.domain, data, source=source)
        values = {f.name: getattr(built, f.name) for f in fields(NLTemplates)}
        return GeneratedTemplates(**values, fallbacks=self.report.fallbacks, report=self.report)


def generate_templates(domain: Domain | str | Path, llm, *, examples: str | Path | dict | None = None,
                       on_progress: Callable[[GenerationEvent], None] | None = None, intro: bool = True,
                       temperature: float = 0.0) -> GeneratedTemplates:
    """NL templates for `domain` written by `llm` (source 'llm:<spec>'): one call per predicate, one per action,
    one for the intro line (`intro=False` takes the rule-based one). `examples`: few-shot examples (a YAML file
    or mapping shaped like apb/prompts/nl_generate/examples.yaml; default the bundled ones). `on_progress` gets
    a GenerationEvent after each entry. Answers with wrong placeholders or off the entry's topic get one repair
    turn; entries still wrong fall back to the rule-based wording and are listed in `.fallbacks`; `.report`
    counts calls, repairs, off-topic answers, tokens and cost."""
    if not isinstance(domain, Domain):
        domain = load_domain(domain)
    if not domain.predicates and not domain.actions:
        raise NLGenerateError(f"domain {domain.name} has no predicates and no actions to describe")
    return Session(domain, llm, load_examples(examples), on_progress, temperature).run(intro)

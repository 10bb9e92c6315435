"""LLM-generated NL templates for any PDDL domain, the AutoPlanBench way: one call per predicate, then one call
per action (shown with its preconditions and effects worded by the predicate templates just written), then one
call for the intro line.

Every answer is checked like an nl.yaml entry (each parameter placeholder exactly once, indefinite letters A, B,
C, ...). A wrong answer gets one repair turn that names exactly what is wrong; if it is still wrong, the entry
falls back to the rule-based template and the fallback is recorded on the result. Prompt texts and few-shot
examples are data files in `apb/prompts/nl_generate/`; the static part of each prompt (system text and
examples) comes first and its last message carries `"cache": True` for provider prompt caching.

The LLM is any object with `spec` and `complete(messages, *, max_tokens, temperature) -> Completion`
(see apb.llm.base); this module does not import apb.llm.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.engine.model import ROOT_TYPE, ActionSchema, Domain, Parameter
from apb.nl.grammar import LETTERS, join_and, letter
from apb.nl.render import DomainText
from apb.nl.rules import rule_templates
from apb.nl.templates import NLTemplateError, NLTemplates, build_templates, type_nouns

PROMPT_DIR = Path(__file__).resolve().parents[1] / "prompts" / "nl_generate"
PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
PREDICATE_MAX_TOKENS = 300
ACTION_MAX_TOKENS = 500
INTRO_MAX_TOKENS = 200
EMPTY_ANSWER = "(empty answer)"  # what an empty answer is replayed as: providers reject empty assistant turns


class NLGenerateError(ApbError):
    """Template generation cannot start or go on: bad examples file, unusable domain, refused overwrite."""


# ---- results ------------------------------------------------------------------------------------------------------
@dataclass
class Fallback:
    """An entry the LLM did not get right after its repair turn, worded by the rules instead.

    `fields` says which parts came from the rules: ("all",) for the whole entry, ("variables",) when only
    parameter descriptions were missing."""

    kind: str  # "predicate" | "action" | "intro"
    name: str
    reason: str
    fields: tuple[str, ...] = ("all",)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name}"

    def __str__(self) -> str:
        part = "" if self.fields == ("all",) else f" ({', '.join(self.fields)})"
        return f"{self.label}{part}: {self.reason}"


@dataclass
class GenerationReport:
    """What a generation run did: entries generated, repair turns, fallbacks, LLM calls, tokens and cost.

    `cost` is in USD, None when some call had no known price."""

    llm: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cached_responses: int = 0  # answers served from apb's response cache (no provider call)
    cost: float | None = 0.0
    generated: list[str] = field(default_factory=list)  # labels of entries the LLM wrote (after repair or not)
    repairs: list[str] = field(default_factory=list)  # labels of entries that needed a repair turn
    fallbacks: list[Fallback] = field(default_factory=list)

    def record(self, completion) -> None:
        self.calls += 1
        usage = getattr(completion, "usage", None)
        if usage is not None:
            self.input_tokens += getattr(usage, "input_tokens", 0) or 0
            self.output_tokens += getattr(usage, "output_tokens", 0) or 0
            self.cached_tokens += getattr(usage, "cached_tokens", 0) or 0
        if getattr(completion, "cached", False):
            self.cached_responses += 1
        cost = getattr(completion, "cost", None)
        self.cost = None if cost is None or self.cost is None else self.cost + cost

    @property
    def entries(self) -> int:
        """Predicates and actions written (by the LLM or, for fallbacks, by the rules)."""
        return len(self.generated) + sum(1 for f in self.fallbacks if f.kind != "intro" and f.fields == ("all",))

    @property
    def repaired(self) -> list[str]:
        """Entries whose repair turn fixed them."""
        return [label for label in self.repairs if label in self.generated]


@dataclass
class GenerationEvent:
    """Progress of a run, sent to `on_progress` after each entry. `outcome`: ok | repaired | filled (parameter
    descriptions taken from the rules) | fallback."""

    stage: str  # "predicate" | "action" | "intro"
    name: str
    index: int
    total: int
    outcome: str
    reason: str = ""


@dataclass
class GeneratedTemplates(NLTemplates):
    """NLTemplates written by an LLM, with the fallbacks taken and the run's report."""

    fallbacks: list[Fallback] = field(default_factory=list)
    report: GenerationReport | None = None


@dataclass
class Problem:
    """One thing wrong with an answer; `part` is text | negated | indefinite | variables | answer."""

    part: str
    message: str


# ---- prompt files -------------------------------------------------------------------------------------------------
@cache
def prompt_text(name: str) -> str:
    """The text of a prompt file of apb/prompts/nl_generate/ (trailing newline removed)."""
    path = PROMPT_DIR / name
    try:
        return path.read_text(encoding="utf-8").rstrip("\n")
    except OSError as err:
        raise NLGenerateError(f"{path}: cannot read the prompt file: {err.strerror or err}") from None


def fill_prompt(name: str, **values: str) -> str:
    return string.Template(prompt_text(name)).substitute(values)


def load_examples(source: str | Path | dict | None = None) -> dict:
    """The few-shot examples: the bundled examples.yaml, another YAML file of that shape, or such a mapping."""
    where = "examples"
    if source is None or isinstance(source, str | Path):
        path = PROMPT_DIR / "examples.yaml" if source is None else Path(source)
        where = str(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise NLGenerateError(f"{path}: cannot read the examples file: {err.strerror or err}") from None
        except yaml.YAMLError as err:
            raise NLGenerateError(f"{path}: invalid YAML: {err}") from None
    else:
        data = source
    if not isinstance(data, dict):
        raise NLGenerateError(f"{where}: the examples must be a mapping with the lists predicates and actions")
    for kind, keys in (("predicates", ("name", "text", "negated")), ("actions", ("name", "text", "indefinite"))):
        items = data.get(kind) or []
        if not isinstance(items, list):
            raise NLGenerateError(f"{where}: {kind} must be a list of examples")
        for i, item in enumerate(items):
            if not isinstance(item, dict) or any(not isinstance(item.get(k), str) for k in keys):
                raise NLGenerateError(f"{where}: {kind} example {i + 1} needs the keys {', '.join(keys)} "
                                      "(and parameters)")
            params = item.get("parameters") or {}
            if not isinstance(params, dict):
                raise NLGenerateError(f"{where}: {kind} example {i + 1} ({item['name']}): parameters must map "
                                      "parameter names to types (null when untyped)")
    return {"domains": data.get("domains") or {}, "predicates": data.get("predicates") or [],
            "actions": data.get("actions") or []}


# ---- question and answer layout -----------------------------------------------------------------------------------
def _type_of(param: Parameter) -> str | None:
    if len(param.types) == 1:
        return None if param.types[0] == ROOT_TYPE else param.types[0]
    return param.type_str


def _signature(name: str, params: Sequence[tuple[str, str | None]]) -> str:
    parts = [name]
    for pname, ptype in params:
        parts.append(f"?{pname} - {ptype}" if ptype else f"?{pname}")
    return "(" + " ".join(parts) + ")"


def _parameter_line(params: Sequence[tuple[str, str | None]], *, letters: bool) -> str:
    if not params:
        return "none"
    out = []
    for i, (pname, ptype) in enumerate(params):
        mark = f" ({letter(i)})" if letters else ""
        out.append(f"?{pname}{mark}: {ptype or 'untyped'}")
    return "; ".join(out)


def _notes(text: str | None) -> str:
    return f"\nAbout the domain: {text}" if text else ""


def _comment(text: str | None) -> str:
    return f"\nComment in the domain file: {text}" if text else ""


def predicate_question(domain: str, name: str, params: Sequence[tuple[str, str | None]], *, notes: str = "",
                       comment: str = "", usage: str = "") -> str:
    return fill_prompt("predicate_question.txt", domain=domain, notes=_notes(notes), pddl=_signature(name, params),
                       parameters=_parameter_line(params, letters=False), comment=_comment(comment),
                       usage=usage or "none")


def action_question(domain: str, name: str, params: Sequence[tuple[str, str | None]], *, requires: Sequence[str],
                    effects: Sequence[str], notes: str = "", comment: str = "") -> str:
    def lines(items: Sequence[str]) -> str:
        return "\n".join(f"- {item}" for item in items) if items else "- nothing"

    return fill_prompt("action_question.txt", domain=domain, notes=_notes(notes), pddl=_signature(name, params),
                       parameters=_parameter_line(params, letters=True), comment=_comment(comment),
                       requires=lines(requires), effects=lines(effects))


def predicate_answer(text: str, negated: str) -> str:
    return f"text: {text}\nnegated: {negated}"


def action_answer(text: str, indefinite: str, variables: dict[str, str], params: Sequence[str]) -> str:
    lines = [f"text: {text}", f"indefinite: {indefinite}"]
    lines += [f"?{p}: {variables[p]}" for p in params if variables.get(p)]
    return "\n".join(lines)


# ---- reading answers ----------------------------------------------------------------------------------------------
KEY_ALIASES = {
    "text": "text", "positive": "text", "statement": "text", "imperative": "text", "template": "text",
    "negated": "negated", "negation": "negated", "negative": "negated", "negated text": "negated",
    "indefinite": "indefinite", "indefinite form": "indefinite", "indefinite text": "indefinite",
    "intro": "intro", "introduction": "intro",
}
_KEY_LINE = re.compile(r"^(\?[\w-]+|[A-Za-z][A-Za-z _-]{0,24}?)\s*(?:\([A-Z]\d*\))?\s*:\s*(.*)$")
_THINKING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_BULLET = re.compile(r"^(?:[-*•>]+|\d+[.)])\s*")


def _clean_value(value: str) -> str:
    value = value.replace("**", "").strip()
    while len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        value = value[1:-1].strip()
    value = value.strip("`").strip()
    value = re.sub(r"\s+", " ", value)
    return value.rstrip(".").rstrip()


def _json_answer(text: str) -> dict | None:
    """The first JSON object in the text with a 'text' or 'intro' key, if any."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{\s*\"", text):
        try:
            obj, _ = decoder.raw_decode(text[match.start():])
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict) and ({"text", "intro"} & {str(k).lower() for k in obj}):
            return obj
    return None


def parse_answer(text: str | None, params: Sequence[str] = ()) -> dict[str, Any]:
    """The fields of a model answer: 'text', 'negated', 'indefinite', 'intro' and 'variables' (parameter ->
    description). Lenient: prose around the lines, bullets, bold keys, code fences, quotes, a final full stop,
    a value on the line after its key, '?p (A):' for '?p:', or a small JSON object are all read; a model's
    <think>...</think> block is skipped. The last occurrence of a key wins."""
    out: dict[str, Any] = {}
    text = _THINKING.sub("", text or "")
    if not text.strip():
        return out
    variables: dict[str, str] = {}
    by_lower = {p.lower(): p for p in params}
    obj = _json_answer(text)
    if obj is not None:
        for key, value in obj.items():
            key = str(key).lower().strip()
            if key in ("variables", "parameters") and isinstance(value, dict):
                for pname, desc in value.items():
                    pname = by_lower.get(str(pname).lstrip("?").lower())
                    if pname and isinstance(desc, str):
                        variables[pname] = _clean_value(desc)
            elif KEY_ALIASES.get(key) and isinstance(value, str):
                out[KEY_ALIASES[key]] = _clean_value(value)
            elif by_lower.get(key.lstrip("?")) and isinstance(value, str):
                variables[by_lower[key.lstrip("?")]] = _clean_value(value)
        if variables:
            out["variables"] = variables
        return out
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if not line.startswith("```")]

    def key_of(line: str) -> tuple[str | None, str]:
        line = _BULLET.sub("", line).replace("**", "").replace("__", "").strip()
        match = _KEY_LINE.match(line)
        if not match:
            return None, ""
        raw = match.group(1).strip().lower()
        if raw.startswith("?"):
            pname = by_lower.get(raw[1:])
            return ("?" + pname if pname else None), match.group(2)
        if raw in KEY_ALIASES:
            return KEY_ALIASES[raw], match.group(2)
        if raw in by_lower:
            return "?" + by_lower[raw], match.group(2)
        return None, ""

    keyed = [key_of(line) for line in lines]
    for i, (key, value) in enumerate(keyed):
        if key is None:
            continue
        if not value.strip():  # "text:" with the value on the next line
            following = next((lines[j] for j in range(i + 1, len(lines)) if lines[j]), "")
            j = lines.index(following, i + 1) if following else -1
            if following and keyed[j][0] is None:
                value = _BULLET.sub("", following)
        value = _clean_value(value)
        if not value:
            continue
        if key.startswith("?"):
            variables[key[1:]] = value
        else:
            out[key] = value
    if variables:
        out["variables"] = variables
    return out


def normalize_placeholders(value: str, params: Sequence[str]) -> str:
    """Fixes harmless placeholder spellings: {{x}}, {?x}, { x }, {X}, and a bare ?x, all become {x}."""
    by_lower: dict[str, list[str]] = {}
    for p in params:
        by_lower.setdefault(p.lower(), []).append(p)
    value = re.sub(r"\{\{\s*([^{}]+?)\s*\}\}", r"{\1}", value)

    def braced(match: re.Match) -> str:
        name = match.group(1).strip().lstrip("?")
        if name in params:
            return "{" + name + "}"
        same = by_lower.get(name.lower(), [])
        return "{" + same[0] + "}" if len(same) == 1 else match.group(0)

    value = re.sub(r"\{\s*(\??[^{}\s]+)\s*\}", braced, value)

    def bare(match: re.Match) -> str:
        name = match.group(1)
        return "{" + name + "}" if name in params else match.group(0)

    return re.sub(r"(?<![\w{])\?([A-Za-z][\w-]*)", bare, value)


def _lower_first(value: str) -> str:
    """Templates are used inside sentences: 'The ferry is at {l}' -> 'the ferry is at {l}' ('I ...' kept)."""
    first = value.split(" ", 1)[0]
    if not first or first == "I" or first.startswith(("I'", "{")) or (len(first) > 1 and first[:2].isupper()):
        return value
    return value[0].lower() + value[1:]


def _marks(names: Sequence[str]) -> str:
    return join_and(["{" + n + "}" for n in names])


def placeholder_problems(part: str, label: str, value: str, params: Sequence[str]) -> list[Problem]:
    """What is wrong with the placeholders of `value`: missing, unknown or repeated parameters."""
    found = PLACEHOLDER.findall(value)
    distinct = list(dict.fromkeys(found))
    unknown = [f for f in distinct if f not in params]
    problems: list[Problem] = []
    if not params:
        if found:
            problems.append(Problem(part, f"the {label} must not contain placeholders, there are no parameters; "
                                          f"it uses {_marks(distinct)}"))
        return problems
    mentioned = [p for p in params if p in found]
    if len(mentioned) < len(params):
        if len(params) == 1:
            said = "it does not"
        elif mentioned:
            said = f"it mentions only {_marks(mentioned)}"
        else:
            said = "it mentions none of them"
        problems.append(Problem(part, f"the {label} must mention {_marks(params)}; {said}"))
    if unknown:
        verb = "is not a parameter" if len(unknown) == 1 else "are not parameters"
        problems.append(Problem(part, f"the {label} uses {_marks(unknown)}, which {verb}; the parameters are "
                                      f"{_marks(params)}"))
    for p in params:
        if found.count(p) > 1:
            problems.append(Problem(part, f"the {label} mentions {{{p}}} {found.count(p)} times; mention each "
                                          "parameter exactly once"))
    return problems


def indefinite_problems(value: str, params: Sequence[str]) -> list[Problem]:
    letters = [letter(i) for i in range(len(params))]
    problems = []
    used = PLACEHOLDER.findall(value)
    if used:
        instead = f"the letters {join_and(letters)}" if letters else "no placeholders"
        problems.append(Problem("indefinite", f"the indefinite form must use {instead} instead of placeholders; "
                                              f"it uses {_marks(list(dict.fromkeys(used)))}"))
    missing = [m for m in letters if not re.search(r"\b" + re.escape(m) + r"\b", value)]
    if missing:
        problems.append(Problem("indefinite", f"the indefinite form must mention {join_and(letters)} (the "
                                              f"parameters in order); it does not mention {join_and(missing)}"))
    extra = [m for m in LETTERS[len(params):] if m not in ("A", "I") and re.search(r"\b" + m + r"\b", value)]
    if extra:
        have = f"only {len(params)} parameter{'s' if len(params) != 1 else ''}"
        problems.append(Problem("indefinite", f"the indefinite form mentions {join_and(extra)}, but the action has "
                                              f"{have}" + (f" ({join_and(letters)})" if letters else "")))
    return problems


# ---- comments in the domain file ----------------------------------------------------------------------------------
@dataclass
class SourceNotes:
    """Comments of a domain file: the header, and the comments on or right above a predicate or an action."""

    header: str = ""
    predicates: dict[str, str] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)


def _comment_of(line: str) -> str:
    return line.split(";", 1)[1].lstrip(";").strip() if ";" in line else ""


def _clip(text: str, limit: int) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def source_notes(domain: Domain) -> SourceNotes:
    """The comments of `domain.source` when it is a readable file; empty notes otherwise."""
    notes = SourceNotes()
    if not domain.source:
        return notes
    try:
        text = Path(domain.source).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return notes
    lines = text.splitlines()
    header = []
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith(";"):
            break
        if stripped:
            header.append(_comment_of(stripped))
    notes.header = _clip(" ".join(h for h in header if h), 600)

    def above(index: int) -> list[str]:
        out = []
        j = index - 1
        while j >= 0 and lines[j].strip().startswith(";"):
            out.insert(0, _comment_of(lines[j].strip()))
            j -= 1
        return out if j >= 0 else []  # comments that reach the top of the file are the header

    def note(index: int) -> str:
        return _clip(" ".join(c for c in [*above(index), _comment_of(lines[index])] if c), 300)

    code = [line.split(";", 1)[0] for line in lines]
    start = next((i for i, c in enumerate(code) if re.search(r"\(\s*:predicates\b", c, re.I)), None)
    if start is not None:
        for name in domain.predicates:
            pattern = re.compile(r"\(\s*" + re.escape(name) + r"(?=[\s)])", re.I)
            for i in range(start, len(code)):
                if re.search(r"\(\s*:(?:action|functions|constants)\b", code[i], re.I):
                    break
                if pattern.search(code[i]):
                    if note(i):
                        notes.predicates[name] = note(i)
                    break
    for action in domain.actions:
        pattern = re.compile(r"\(\s*:action\s+" + re.escape(action.name) + r"(?=[\s)]|$)", re.I)
        for i, c in enumerate(code):
            if pattern.search(c):
                if note(i):
                    notes.actions[action.name] = note(i)
                break
    return notes


# ---- the generator ------------------------------------------------------------------------------------------------
def _usage(domain: Domain, name: str) -> str:
    """How the actions use a predicate: 'board (requires it, makes it false), debark (makes it true)'."""
    out = []
    for action in domain.actions:
        roles = []
        if any(lit.predicate == name and lit.positive for lit in action.precondition):
            roles.append("requires it")
        if any(lit.predicate == name and not lit.positive for lit in action.precondition):
            roles.append("requires it to be false")
        if any(lit.predicate == name for lit in action.add_effects):
            roles.append("makes it true")
        if any(lit.predicate == name for lit in action.delete_effects):
            roles.append("makes it false")
        if roles:
            out.append(f"{action.name} ({', '.join(roles)})")
    return ", ".join(out)


def _example_params(item: dict) -> list[tuple[str, str | None]]:
    return [(str(k), None if v is None else str(v)) for k, v in (item.get("parameters") or {}).items()]


Checker = Callable[[str], tuple[dict, list[Problem]]]  # an answer -> (the entry read from it, what is wrong)


class _Generator:
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
        self._prefix: dict[str, list[dict]] = {}

    # ---- calls ----------------------------------------------------------------------------------------------------
    def call(self, messages: list[dict], max_tokens: int) -> str:
        completion = self.llm.complete(messages, max_tokens=max_tokens, temperature=self.temperature)
        self.report.record(completion)
        return getattr(completion, "text", None) or ""

    def emit(self, stage: str, name: str, index: int, total: int, outcome: str, reason: str = "") -> None:
        if self.on_progress is not None:
            self.on_progress(GenerationEvent(stage, name, index, total, outcome, reason))

    def prefix(self, kind: str) -> list[dict]:
        """System text and few-shot turns for `kind` (predicate | action); the last carries the cache mark."""
        if kind not in self._prefix:
            fmt = prompt_text(f"{kind}_format.txt")
            system = prompt_text("system.txt") + "\n\n" + fill_prompt(f"{kind}.txt", format=fmt)
            messages: list[dict] = [{"role": "system", "content": system}]
            notes = self.examples.get("domains") or {}
            for item in self.examples[kind + "s"]:
                params = _example_params(item)
                dom = str(item.get("domain") or "example")
                if kind == "predicate":
                    question = predicate_question(dom, item["name"], params, notes=notes.get(dom, ""),
                                                  comment=item.get("comment") or "", usage=item.get("used_by") or "")
                    answer = predicate_answer(item["text"], item["negated"])
                else:
                    question = action_question(dom, item["name"], params, requires=item.get("requires") or [],
                                               effects=item.get("effects") or [], notes=notes.get(dom, ""),
                                               comment=item.get("comment") or "")
                    variables = {str(k): str(v) for k, v in (item.get("variables") or {}).items()}
                    answer = action_answer(item["text"], item["indefinite"], variables, [p for p, _ in params])
                messages.append({"role": "user", "content": question})
                messages.append({"role": "assistant", "content": answer})
            messages[-1]["cache"] = True
            self._prefix[kind] = messages
        return [dict(m) for m in self._prefix[kind]]

    def ask(self, kind: str, name: str, question: str, max_tokens: int,
            check: Checker) -> tuple[dict, list[Problem], str]:
        """(entry, problems left, outcome ok|repaired|failed): one answer, and one repair turn if it is wrong."""
        messages = [*self.prefix(kind), {"role": "user", "content": question}]
        answer = self.call(messages, max_tokens)
        entry, problems = check(answer)
        if not problems:
            return entry, [], "ok"
        self.report.repairs.append(f"{kind} {name}")
        repair = fill_prompt("repair.txt", problems="; ".join(p.message for p in problems),
                             format=prompt_text(f"{kind}_format.txt"))
        messages += [{"role": "assistant", "content": answer.strip() or EMPTY_ANSWER},
                     {"role": "user", "content": repair}]
        answer = self.call(messages, max_tokens)
        entry, problems = check(answer)
        return entry, problems, ("repaired" if not problems else "failed")

    def built_problems(self, kind: str, name: str, entry: dict) -> list[Problem]:
        """The checks of build_templates, as problems (empty when the entry builds)."""
        try:
            build_templates(self.domain, {"types": self.types, kind + "s": {name: entry}}, source="check")
        except NLTemplateError as err:
            return [Problem("text", err.message)]
        return []

    # ---- predicates -----------------------------------------------------------------------------------------------
    def check_predicate(self, name: str, params: tuple[str, ...]):
        def check(answer: str) -> tuple[dict, list[Problem]]:
            if not answer.strip():
                return {}, [Problem("answer", "the answer was empty")]
            fields_ = parse_answer(answer, params)
            entry, problems = {}, []
            for part, label in (("text", "text"), ("negated", "negated text")):
                value = fields_.get(part)
                if not value:
                    problems.append(Problem(part, f"the answer has no line '{part}: ...'"))
                    continue
                value = _lower_first(normalize_placeholders(value, params))
                entry[part] = value
                problems += placeholder_problems(part, label, value, params)
            if not problems and entry["text"].lower() == entry["negated"].lower():
                problems.append(Problem("negated", "the negated text must say that the fact does not hold; it is "
                                                   "the same as the text"))
            if not problems:
                problems = self.built_problems("predicate", name, entry)
            return entry, problems

        return check

    def predicate(self, name: str) -> tuple[dict, str, str]:
        schema = self.domain.predicates[name]
        params = tuple(p.name.lstrip("?") for p in schema.parameters)
        typed = [(p.name.lstrip("?"), _type_of(p)) for p in schema.parameters]
        question = predicate_question(self.domain.name, name, typed, notes=self.notes.header,
                                      comment=self.notes.predicates.get(name, ""), usage=_usage(self.domain, name))
        entry, problems, outcome = self.ask("predicate", name, question, PREDICATE_MAX_TOKENS,
                                            self.check_predicate(name, params))
        if outcome != "failed":
            self.report.generated.append(f"predicate {name}")
            return entry, outcome, ""
        reason = "; ".join(p.message for p in problems)
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
        effects += [say(lit, False) + " anymore" for lit in schema.delete_effects
                    if (lit.predicate, lit.args) not in added]
        return requires, effects

    def check_action(self, name: str, params: tuple[str, ...]):
        def check(answer: str) -> tuple[dict, list[Problem]]:
            if not answer.strip():
                return {}, [Problem("answer", "the answer was empty")]
            fields_ = parse_answer(answer, params)
            entry: dict = {}
            problems: list[Problem] = []
            text = fields_.get("text")
            if not text:
                problems.append(Problem("text", "the answer has no line 'text: ...'"))
            else:
                entry["text"] = _lower_first(normalize_placeholders(text, params))
                problems += placeholder_problems("text", "text", entry["text"], params)
            indefinite = fields_.get("indefinite")
            if indefinite:  # when it is left out, build_templates derives it from the text
                entry["indefinite"] = _lower_first(normalize_placeholders(indefinite, params))
                problems += indefinite_problems(entry["indefinite"], params)
            variables = fields_.get("variables") or {}
            entry["variables"] = {p: variables[p] for p in params if variables.get(p)}
            missing = [p for p in params if p not in entry["variables"]]
            if missing:
                lines = " and ".join(f"'?{p}: ...'" for p in missing)
                problems.append(Problem("variables", f"give a description line for every parameter; {lines} "
                                                      f"{'is' if len(missing) == 1 else 'are'} missing"))
            if not problems:
                problems = self.built_problems("action", name, entry)
            return entry, problems

        return check

    def action(self, schema: ActionSchema, words: DomainText) -> tuple[dict, str, str]:
        name = schema.name
        params = tuple(p.name.lstrip("?") for p in schema.parameters)
        typed = [(p.name.lstrip("?"), _type_of(p)) for p in schema.parameters]
        requires, effects = self.action_effects(words, schema)
        question = action_question(self.domain.name, name, typed, requires=requires, effects=effects,
                                   notes=self.notes.header, comment=self.notes.actions.get(name, ""))
        entry, problems, outcome = self.ask("action", name, question, ACTION_MAX_TOKENS,
                                            self.check_action(name, params))
        if outcome != "failed":
            self.report.generated.append(f"action {name}")
            return entry, outcome, ""
        rule = self.rules.actions[name]
        reason = "; ".join(p.message for p in problems)
        if all(p.part == "variables" for p in problems):  # the wording is fine; only descriptions are missing
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
    def intro(self, actions: dict[str, dict], partial: NLTemplates) -> tuple[str, str, str]:
        nouns = sorted(type_nouns(self.domain, partial.types))
        lines = "\n".join(f"- {partial.actions[a.name].indefinite}" for a in self.domain.actions) or "- none"
        question = fill_prompt("intro.txt", domain=self.domain.name, notes=_notes(self.notes.header),
                               types=", ".join(nouns) or "not stated", actions=lines)
        messages = [{"role": "system", "content": prompt_text("system.txt")}, {"role": "user", "content": question}]
        answer = self.call(messages, INTRO_MAX_TOKENS)
        fields_ = parse_answer(answer)
        text = fields_.get("intro")
        if not text:  # a bare sentence: the first line in the first person, or the only line
            prose = [line.strip() for line in answer.splitlines()
                     if line.strip() and not line.strip().startswith("```") and not line.strip().endswith(":")]
            first_person = [line for line in prose if re.match(r"[\"'*]*(I|My|We|Our)\b", line)]
            chosen = first_person[:1] or (prose if len(prose) == 1 else [])
            text = _clean_value(chosen[0]) if chosen else ""
        reason = ""
        if not text:
            reason = "the answer had no line 'intro: ...'" if answer.strip() else "the answer was empty"
        elif "{" in text or "}" in text or len(text) > 400:
            reason = "the intro must be one plain sentence without placeholders"
        if reason:
            self.report.fallbacks.append(Fallback("intro", self.domain.name, reason))
            return self.rules.intro, "fallback", reason
        text = text[0].upper() + text[1:]
        return (text if text.endswith((".", "!")) else text + "."), "ok", ""

    # ---- the whole run --------------------------------------------------------------------------------------------
    def run(self, with_intro: bool) -> GeneratedTemplates:
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
            partial = build_templates(self.domain, data, source=source)
            intro, outcome, reason = self.intro(actions, partial)
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
    a GenerationEvent after each entry. Entries still wrong after one repair turn fall back to the rule-based
    wording and are listed in `.fallbacks`; `.report` counts calls, repairs, tokens and cost."""
    if not isinstance(domain, Domain):
        domain = load_domain(domain)
    if not domain.predicates and not domain.actions:
        raise NLGenerateError(f"domain {domain.name} has no predicates and no actions to describe")
    generator = _Generator(domain, llm, load_examples(examples), on_progress, temperature)
    return generator.run(intro)


__all__ = ["Fallback", "GeneratedTemplates", "GenerationEvent", "GenerationReport", "NLGenerateError",
           "generate_templates", "load_examples", "normalize_placeholders", "parse_answer", "source_notes"]

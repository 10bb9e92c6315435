"""Reading an LLM's answer: the keyed lines (or a small JSON object) of a template answer, placeholder spellings,
and the intro sentence. Lenient about layout; what the answer says is checked in apb.nl.generator.checks."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

KEY_ALIASES = {
    "text": "text", "positive": "text", "statement": "text", "imperative": "text", "template": "text",
    "negated": "negated", "negation": "negated", "negative": "negated", "negated text": "negated",
    "indefinite": "indefinite", "indefinite form": "indefinite", "indefinite text": "indefinite",
    "intro": "intro", "introduction": "intro",
}
_KEY_LINE = re.compile(r"^(\?[\w-]+|[A-Za-z][A-Za-z _-]{0,24}?)\s*(?:\([A-Z]\d*\))?\s*:\s*(.*)$")
_THINKING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_BULLET = re.compile(r"^(?:[-*•>]+|\d+[.)])\s*")


def clean_value(value: str) -> str:
    """A value without markdown, quotes, extra spaces and a final full stop."""
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
                        variables[pname] = clean_value(desc)
            elif KEY_ALIASES.get(key) and isinstance(value, str):
                out[KEY_ALIASES[key]] = clean_value(value)
            elif by_lower.get(key.lstrip("?")) and isinstance(value, str):
                variables[by_lower[key.lstrip("?")]] = clean_value(value)
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
        value = clean_value(value)
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


def lower_first(value: str) -> str:
    """Templates are used inside sentences: 'The ferry is at {l}' -> 'the ferry is at {l}' ('I ...' kept)."""
    first = value.split(" ", 1)[0]
    if not first or first == "I" or first.startswith(("I'", "{")) or (len(first) > 1 and first[:2].isupper()):
        return value
    return value[0].lower() + value[1:]


def read_intro(answer: str) -> str:
    """The intro sentence of an answer: its 'intro:' line, else the first line in the first person, else its only
    line of prose; '' when there is none."""
    text = parse_answer(answer).get("intro")
    if text:
        return text
    prose = [line.strip() for line in answer.splitlines()
             if line.strip() and not line.strip().startswith("```") and not line.strip().endswith(":")]
    first_person = [line for line in prose if re.match(r"[\"'*]*(I|My|We|Our)\b", line)]
    chosen = first_person[:1] or (prose if len(prose) == 1 else [])
    return clean_value(chosen[0]) if chosen else ""

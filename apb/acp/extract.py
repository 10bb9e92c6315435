"""Answer extraction from free LLM text: tolerant of chatter, chain-of-thought, markdown and case; never raises.

The part after the last "Answer:" marker is preferred when there is one (chain-of-thought prompts ask for it).
`extract(text, task, fmt)` returns the answer in ACPBench's format (see `apb.acp.records`), or `MISSING` when
nothing usable is found; a missing answer is scored wrong, never an error.
"""

from __future__ import annotations

import json
import re

MISSING = object()  # no answer could be read (distinct from None, which is the answer "None")

_MARKER = re.compile(r"(?:final\s+)?answer\s*(?:is)?\s*[:=\-]", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*`#>]+|(?<![\w])_+|_+(?![\w])")  # underscores inside names are kept
_ATOM = re.compile(r"\(\s*([A-Za-z][\w\-]*(?:\s+[\w\-@.]+)*)\s*\)")
_NONE = re.compile(r"\b(none|null|no such|nothing|empty list|there is no|there are no)\b", re.IGNORECASE)
_YES_NO = re.compile(r"\b(yes|no|true|false)\b", re.IGNORECASE)
_LETTER = re.compile(r"(?:^|[\s(\[\"'])([ABCD])(?:$|[\s).\]:,\"'])")
_INT = re.compile(r"-?\d+")


def _tail(text: str) -> str:
    """The text after the last answer marker, else the whole text; markdown stripped."""
    markers = list(_MARKER.finditer(text))
    if markers:
        text = text[markers[-1].end():]
    return _MARKDOWN.sub(" ", text).strip()


def _atoms(text: str) -> list[str]:
    return ["(" + " ".join(m.group(1).lower().split()) + ")" for m in _ATOM.finditer(text)]


def extract_bool(text: str):
    tail = _tail(text)
    found = _YES_NO.findall(tail) or _YES_NO.findall(_MARKDOWN.sub(" ", text))
    if not found:
        return MISSING
    word = (found[0] if _MARKER.search(text) else found[-1]).lower()
    return "yes" if word in ("yes", "true") else "no"


def extract_letter(text: str, choices: list[str] | None = None):
    tail = _tail(text)
    first = re.match(r"^\W*([A-Da-d])(?:\W|$)", tail)
    if first and (_MARKER.search(text) or len(tail) <= 4):
        return first.group(1).upper()  # 'Answer: (c)', 'b.'
    found = _LETTER.findall(tail)
    if found:
        return found[0] if _MARKER.search(text) else found[-1]
    low = tail.lower()
    if choices:
        hits = [label for label, choice in zip("ABCD", choices) if choice and choice.lower() in low]
        if len(hits) == 1:
            return hits[0]
    return MISSING


def extract_one(text: str):
    """One atom or action, or None for an explicit "None" answer."""
    tail = _tail(text)
    atoms = _atoms(tail)
    if atoms:
        return atoms[0]
    if _NONE.search(tail):
        return None
    atoms = _atoms(text)
    return atoms[-1] if atoms else MISSING


def extract_list(text: str):
    tail = _tail(text)
    atoms = _atoms(tail)
    if atoms or re.search(r"\[\s*\]", tail) or _NONE.search(tail):
        return atoms
    atoms = _atoms(text)
    return atoms if atoms else MISSING


def extract_int(text: str):
    tail = _tail(text)
    found = _INT.findall(tail) or _INT.findall(text)
    if not found:
        return MISSING
    return int(found[0] if _MARKER.search(text) else found[-1])


def extract_progression(text: str):
    """{"pos": [...], "neg": [...]} from JSON, ACPBench's two bracketed lists, "Positive effects: ... Negative
    effects: ...", or lines that start with pos / neg."""
    tail = _tail(text)
    for candidate in (tail, text):
        for match in re.finditer(r"\{.*?\}(?=[^{}]*$)|\{.*\}", candidate, re.S):
            try:
                data = json.loads(match.group(0))
            except ValueError:
                continue
            if isinstance(data, dict) and ("pos" in data or "neg" in data):
                return {"pos": _atoms(" ".join(map(str, data.get("pos") or []))),
                        "neg": _atoms(" ".join(map(str, data.get("neg") or [])))}
    lists = re.findall(r"\[([^\[\]]*)\]", tail) or re.findall(r"\[([^\[\]]*)\]", text)
    if len(lists) >= 2:  # ACPBench's answer format: [(p), ...] [(n), ...]
        return {"pos": _atoms(lists[0]), "neg": _atoms(lists[1])}
    effects = re.search(r"positive effects\W*(.*?)negative effects\W*(.*)", text, re.I | re.S)
    if effects:
        return {"pos": _atoms(effects.group(1)), "neg": _atoms(effects.group(2))}
    parts = re.split(r"\b(pos|neg)\w*\s*[:=]", tail, flags=re.I)
    if len(parts) >= 3:
        out = {"pos": [], "neg": []}
        for key, body in zip(parts[1::2], parts[2::2]):
            out[key.lower()[:3]] = _atoms(body)
        return out
    return MISSING


def extract(text, task: str, fmt: str, choices: list[str] | None = None):
    """The answer in ACPBench's format for the task and format, or MISSING. Never raises."""
    try:
        if not isinstance(text, str) or not text.strip():
            return MISSING
        if fmt == "bool":
            return extract_bool(text)
        if fmt == "mcq":
            return extract_letter(text, choices)
        if task in ("app", "just"):
            return extract_list(text)
        if task == "prog":
            return extract_progression(text)
        if task == "val":
            return extract_int(text)
        return extract_one(text)
    except Exception:
        return MISSING

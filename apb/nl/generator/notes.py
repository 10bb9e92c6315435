"""The comments of a domain file, which the questions of `apb nl generate` pass on to the LLM."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from apb.engine.model import Domain


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


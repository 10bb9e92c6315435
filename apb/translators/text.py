"""Cleaning up an LLM's action text before parsing: the part after an 'Action:' marker, markdown and quotes
removed, punctuation the templates do not use turned into spaces, object names in other spellings
('Block A', 'truck-0', 'tile 0 1') written as the problem writes them, and a length cap."""

from __future__ import annotations

import re
import unicodedata

from apb.translators.problem import ProblemView

MAX_TEXT = 4000  # characters parsed; an action is named near its marker or the start

# Markers after which the action is stated, strongest first: the first kind found decides.
_MARKERS = [re.compile(p, re.IGNORECASE) for p in (
    r"\bfinal\s+(?:answer|action)\s*[:=]",
    r"\b(?:next\s+|chosen\s+|my\s+)?action\s*(?:\d+\s*)?[:=]",
    r"\b(?:answer|instruction|command)\s*[:=]",
)]
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2212"), "-")
_QUOTES = dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a"), " ")
_LINE_PREFIX = re.compile(r"(?m)^[ \t]*(?:[#>]+|[-*+\u2022]|\d{1,3}[.)]|step\s+\d{1,3}\s*[:.)-])[ \t]+", re.IGNORECASE)
_NOISE = re.compile(r"\*+|`+|[\"':\[\]{}<>|~^=]|(?<![\w-])_+|_+(?![\w-])")
_SENTENCE_END = re.compile(r"[!?]+")  # kept as a full stop: clause breaks matter to the fuzzy matcher
_SPACES = re.compile(r"[ \t\r\f\v]+")
_NEWLINES = re.compile(r"\s*\n\s*")


def focus(text: str) -> str:
    """The text after the strongest 'Action:'-style marker, or the text itself."""
    for marker in _MARKERS:
        match = marker.search(text)
        if match is not None and text[match.end():].strip():
            return text[match.end():]
    return text


def clean(text: str, view: ProblemView | None = None) -> str:
    """Markdown, quotes and stray punctuation removed, whitespace collapsed (line breaks kept), object
    spellings canonical."""
    text = text[: MAX_TEXT * 4] if len(text) > MAX_TEXT * 4 else text
    text = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    text = _LINE_PREFIX.sub(" ", text)
    text = _NOISE.sub(" ", text)
    text = _SENTENCE_END.sub(". ", text)
    text = _NEWLINES.sub("\n", _SPACES.sub(" ", text)).strip()
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT]
    if view is not None:
        text = canonical_names(text, view)
    return text


def canonical_names(text: str, view: ProblemView) -> str:
    pattern = view.alias_pattern()
    if pattern is None:
        return text

    def replace(match: re.Match) -> str:
        return view.canonical_alias(match.group(0)) or match.group(0)

    return pattern.sub(replace, text)

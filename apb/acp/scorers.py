"""Two scorers for ACP answers: ACPBench-Hard's official semantics (reproduced, quirks kept: `apb.acp.official`)
and apb's sound scorer, which accepts every correct answer and checks it with the engine.

Boolean and MCQ answers are compared with the gold by both (apb's generated gold is proved; imported gold is
taken as given). For generative answers the official scorer compares with the gold lists, as the released
scorers do; the sound scorer decides the claim itself (each task's `sound`, `apb.acp.tasks`). `score(q, answer)`
returns both verdicts, `score_response(q, text)` reads a model's response both ways first.

The sound scorer reads a response with `extract`: tolerant of chatter, chain-of-thought, markdown and case; never
raises. The part after the last "Answer:" marker is preferred when there is one (chain-of-thought prompts ask for it).
`extract(text, task, fmt)` returns the answer in ACPBench's format (see `apb.acp.records`), or `MISSING` when
nothing usable is found; a missing answer is scored wrong, never an error.

Model text is data: a hedge is no answer (`yes no`, `Answer: yes ... Answer: no`, `Answer: A or B`: two different
answers where one is asked for; more than `MAX_MARKERS` answer markers), an index is a number standing alone (not a
digit of a path, a word or `1e999`), a list of more than `MAX_ITEMS` atoms is no answer, text over
`apb.engine.limits.MAX_ANSWER_CHARS` is not read, and every pattern here runs in time linear in the text.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass

from apb.acp.official import official_verdict
from apb.acp.records import Question
from apb.acp.tasks import TASKS
from apb.acp.truth import Check, QuestionPDDLError, paren
from apb.engine import ApbError
from apb.engine.limits import MAX_ANSWER_CHARS

MAX_MARKERS = 32  # "Answer:" markers in one response; more is a list of answers, not one
MAX_ITEMS = 10_000  # atoms in a list answer (ACP's states have a few hundred actions at most)
MISSING = object()  # no answer could be read (distinct from None, which is the answer "None")

_MARKER = re.compile(r"(?:final\s+)?answer\s*(?:is\s*)?[:=\-]", re.IGNORECASE)
_MARKDOWN = re.compile(r"[*`#>]+|(?<![\w])_+|(?<!_)_+(?![\w])")  # underscores inside names are kept
_ATOM = re.compile(r"\(\s*([A-Za-z][\w\-]*(?:\s+[\w\-@.]+)*)\s*\)")
_NONE = re.compile(r"\b(none|null|no such|nothing|empty list|there is no|there are no)\b", re.IGNORECASE)
_YES_NO = re.compile(r"\b(yes|no|true|false)\b", re.IGNORECASE)
_LETTER = re.compile(r"(?:^|[\s(\[\"'])([ABCD])(?:$|[\s).\]:,\"'])")
_INT = re.compile(r"(?<![\w/.\-])-?\d+(?![\w/]|\.\d)")  # standing alone: not in a path, a word or 1e999
_SENTENCE_END = re.compile(r"\n|[.;!?](?:\s|$)")
_YES = ("yes", "true")


def _last(matches):
    """The last of an iterator of matches, or None (kept one at a time: no list of a million matches)."""
    last = None
    for last in matches:  # noqa: B007
        pass
    return last


def _tail(text: str) -> str:
    """The text after the last answer marker, else the whole text; markdown stripped."""
    marker = _last(_MARKER.finditer(text))
    if marker is not None:
        text = text[marker.end():]
    return _MARKDOWN.sub(" ", text).strip()


def _atom(match: re.Match) -> str:
    return "(" + " ".join(match.group(1).lower().split()) + ")"


def _atoms(text: str, limit: int | None = None) -> list[str]:
    """The atoms of the text, the first `limit` of them."""
    return [_atom(m) for m in itertools.islice(_ATOM.finditer(text), limit)]


def _first_sentence(text: str) -> str:
    end = _SENTENCE_END.search(text)
    return text if end is None else text[:end.start()]


def _segments(text: str) -> list[str] | None:
    """The text after each answer marker (up to the next marker), markdown stripped; None past MAX_MARKERS."""
    markers = list(itertools.islice(_MARKER.finditer(text), MAX_MARKERS + 1))
    if len(markers) > MAX_MARKERS:
        return None
    return [_MARKDOWN.sub(" ", text[m.end():markers[i + 1].start() if i + 1 < len(markers) else len(text)]).strip()
            for i, m in enumerate(markers)]


def _bool_of(word: str) -> str:
    return "yes" if word.lower() in _YES else "no"


_HEDGE = object()


def _agreed(segments: list[str], read) -> object:
    """The one answer the first sentences after the markers give (`read(sentence)` -> the answers in it), _HEDGE
    when a sentence gives two or two sentences differ, None when none gives one."""
    answers: set = set()
    for segment in segments:
        found = read(_first_sentence(segment))
        if len(found) > 1:
            return _HEDGE
        answers |= found
    if len(answers) > 1:
        return _HEDGE
    return answers.pop() if answers else None


def extract_bool(text: str):
    """yes or no; MISSING for a hedge (both in the answer's first sentence, different answers after two markers,
    or both in a text without a marker)."""
    segments = _segments(text)
    if segments is None:
        return MISSING
    if segments:
        agreed = _agreed(segments, lambda sentence: {_bool_of(w) for w in _YES_NO.findall(sentence)})
        if agreed is not None:
            return MISSING if agreed is _HEDGE else agreed
        found = _YES_NO.findall(segments[-1])
        return _bool_of(found[0]) if found else MISSING
    found = {_bool_of(w) for w in _YES_NO.findall(_MARKDOWN.sub(" ", text))}
    return found.pop() if len(found) == 1 else MISSING


def _letter_of(tail: str, marked: bool) -> str | None:
    first = re.match(r"^\W*([A-Da-d])(?:\W|$)", tail)
    if first and (marked or len(tail) <= 4):
        return first.group(1).upper()  # 'Answer: (c)', 'b.'
    found = _LETTER.findall(tail)
    if found:
        return found[0] if marked else found[-1]
    return None


def _letters(sentence: str) -> set[str]:
    leading = _letter_of(sentence, True)
    return set(_LETTER.findall(sentence)) | ({leading} if leading is not None else set())


def extract_letter(text: str, choices: list[str] | None = None):
    """A, B, C or D; MISSING for a hedge (two letters in the answer's first sentence, different letters after two
    markers, or different letters in a text without a marker)."""
    segments = _segments(text)
    if segments is None:
        return MISSING
    if segments:
        agreed = _agreed(segments, _letters)
        if agreed is not None:
            return MISSING if agreed is _HEDGE else agreed
        tail = segments[-1]
        letter = _letter_of(tail, True)
        if letter is not None:
            return letter
    else:
        tail = _MARKDOWN.sub(" ", text).strip()
        if len(set(_LETTER.findall(tail))) > 1:
            return MISSING
        letter = _letter_of(tail, False)
        if letter is not None:
            return letter
    low = tail.lower()
    if choices:
        hits = [label for label, choice in zip("ABCD", choices) if choice and choice.lower() in low]
        if len(hits) == 1:
            return hits[0]
    return MISSING


def extract_one(text: str):
    """One atom or action, or None for an explicit "None" answer."""
    tail = _tail(text)
    first = _ATOM.search(tail)
    if first is not None:
        return _atom(first)
    if _NONE.search(tail):
        return None
    last = _last(_ATOM.finditer(text))
    return _atom(last) if last is not None else MISSING


def extract_list(text: str):
    tail = _tail(text)
    atoms = _atoms(tail, MAX_ITEMS + 1)
    if atoms or re.search(r"\[\s*\]", tail) or _NONE.search(tail):
        return atoms if len(atoms) <= MAX_ITEMS else MISSING
    atoms = _atoms(text, MAX_ITEMS + 1)
    return atoms if atoms and len(atoms) <= MAX_ITEMS else MISSING


def extract_int(text: str):
    """An index standing alone; MISSING for a hedge (two different numbers in the answer's first sentence)."""
    tail = _tail(text)
    if _MARKER.search(text) and len(set(_INT.findall(_first_sentence(tail)))) > 1:
        return MISSING
    marked = _MARKER.search(text) is not None
    for source in (tail, text):
        found = _INT.search(source) if marked else _last(_INT.finditer(source))
        if found is not None:
            return int(found.group(0))
    return MISSING


_POSITIVE = re.compile(r"positive effects", re.I)
_NEGATIVE = re.compile(r"negative effects", re.I)
JSON_TRIES = 8  # object candidates tried per text (each parse is linear, so the whole read stays linear)


def _json_object(text: str) -> dict | None:
    """A JSON object with "pos" or "neg" spanning from one of the first or last few "{" to the last "}"."""
    end = text.rfind("}")
    if end < 0:
        return None
    starts = [m.start() for m in re.finditer(r"\{", text[:end])]
    for start in dict.fromkeys(starts[:JSON_TRIES // 2] + starts[-JSON_TRIES // 2:]):
        try:
            data = json.loads(text[start:end + 1])
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict) and ("pos" in data or "neg" in data):
            return data
    return None


def extract_progression(text: str):
    """{"pos": [...], "neg": [...]} from JSON, ACPBench's two bracketed lists, "Positive effects: ... Negative
    effects: ...", or lines that start with pos / neg."""
    tail = _tail(text)
    for candidate in (tail, text):
        data = _json_object(candidate)
        if data is not None:
            return {"pos": _atoms(" ".join(map(str, data.get("pos") or []))),
                    "neg": _atoms(" ".join(map(str, data.get("neg") or [])))}
    lists = re.findall(r"\[([^\[\]]*)\]", tail) or re.findall(r"\[([^\[\]]*)\]", text)
    if len(lists) >= 2:  # ACPBench's answer format: [(p), ...] [(n), ...]
        return {"pos": _atoms(lists[0]), "neg": _atoms(lists[1])}
    positive = _POSITIVE.search(text)
    negative = _NEGATIVE.search(text, positive.end()) if positive else None
    if negative:
        return {"pos": _atoms(text[positive.end():negative.start()]), "neg": _atoms(text[negative.end():])}
    parts = re.split(r"\b(pos|neg)\w*\s*[:=]", tail, flags=re.I)
    if len(parts) >= 3:
        out = {"pos": [], "neg": []}
        for key, body in zip(parts[1::2], parts[2::2]):
            out[key.lower()[:3]] = _atoms(body)
        return out
    return MISSING


_BY_SHAPE = {"list": extract_list, "effects": extract_progression, "index": extract_int, "one": extract_one}


def extract(text, task: str, fmt: str, choices: list[str] | None = None):
    """The answer in ACPBench's format for the task and format (a generative answer by the task's shape,
    `apb.acp.tasks`), or MISSING. Never raises."""
    try:
        if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS or not text.strip():
            return MISSING
        if fmt == "bool":
            return extract_bool(text)
        if fmt == "mcq":
            return extract_letter(text, choices)
        spec = TASKS.get(task)
        return _BY_SHAPE[spec.shape if spec is not None else "one"](text)
    except Exception:
        return MISSING


# ---- both verdicts ------------------------------------------------------------------------------------------------
OFFICIAL_MAX_CHARS = 65_536  # responses the official reading reads (its Lark parser is slow on long text)


@dataclass
class Score:
    """The verdicts of both scorers on one answer."""

    official: bool
    sound: bool
    reason: str = ""


def release_text(q: Question, answer) -> str:
    """An answer in apb's answer shapes written as the release's answer text, which the official readers read:
    yes/no, a letter, `[(a), (b)]` (a list), `[(p), ...] [(n), ...]` (effects), `(atom)` / `(action)` or `None`,
    an index."""
    if answer is MISSING:
        return ""
    shape = TASKS[q.task].shape
    if q.format in ("bool", "mcq") or shape == "index":
        return str(answer)
    if shape == "list":
        return "[" + ", ".join(paren(a) for a in answer or []) + "]" if isinstance(answer, list) else str(answer)
    if shape == "effects":
        if not isinstance(answer, dict):
            return str(answer)
        return (f"[{', '.join(paren(a) for a in answer.get('pos') or [])}] "
                f"[{', '.join(paren(a) for a in answer.get('neg') or [])}]")
    return "None" if answer is None else paren(answer)


def official(q: Question, answer) -> bool:
    """ACPBench's official verdict (`apb.acp.official`) on an answer in apb's shapes, written as its text."""
    if answer is MISSING:
        return False
    return official_verdict(q, release_text(q, answer)).correct


def sound(q: Question, answer) -> Check:
    """Whether the answer is correct, decided with the engine (every correct answer is accepted)."""
    if answer is MISSING:
        return Check(False, "no answer could be read")
    if q.format in ("bool", "mcq"):
        ok = str(answer).strip().lower() == str(q.answer).strip().lower()
        return Check(ok, "matches the gold" if ok else f"the gold is {q.answer}")
    try:
        return TASKS[q.task].sound(q, answer)
    except QuestionPDDLError as error:
        return Check(False, str(error))
    except ApbError as error:
        return Check(False, f"the answer cannot be checked: {error}")


def score(q: Question, answer) -> Score:
    """Both verdicts on an extracted answer (MISSING scores wrong under both)."""
    check = sound(q, answer)
    return Score(official(q, answer), check.correct, check.reason)


def score_response(q: Question, text: str) -> tuple[object, Score]:
    """A model's response scored by both: the official verdict reads the raw text as the official code does (lm-eval
    filters, the Lark grammar), the sound scorer reads it with apb's tolerant `extract`. Returns (the extracted
    answer or MISSING, the Score). Never raises: a response that is not a string or is over
    `apb.engine.limits.MAX_ANSWER_CHARS` is no answer; the official reading, whose parser takes seconds on long
    text, reads responses up to `OFFICIAL_MAX_CHARS` (longer ones are wrong under it)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return MISSING, Score(False, False, "the response is not read: not text, or over the length limit")
    answer = extract(text, q.task, q.format, (q.choices or {}).get("text"))
    official_ok = len(text) <= OFFICIAL_MAX_CHARS and official_verdict(q, text).correct
    check = sound(q, answer)
    return answer, Score(official_ok, check.correct, check.reason)

"""ACPBench's official evaluation of an answer text, reproduced exactly (quirks included): how it reads the text,
and its verdict (`official_verdict(q, text)`, a `Check` whose reason is written from the same decision).

- bool / MCQ: the lm-evaluation-harness filters ACPBench's released configs declare (`official_filters.yaml`):
  `regex` (bool) or `multi_choice_regex` (MCQ) with `take_first`, then `exact_match` with the configs' options.
  `choice_answer(text, fmt, choices)` is the filtered string, `choice_correct(text, fmt, gold, choices)` the verdict.
  Semantics follow lm-eval 0.4.x: "YES" alone, "True" or a lower-case letter are invalid; "No doubt ... Answer: yes"
  reads as "No" (the first match wins for bool); MCQ takes the last match of its pattern.
- generative: the released scorer (`evaluate_gen.py` with its evaluators) parses the answer with a Lark LALR grammar
  whose error handler skips every character and token the parser does not expect and, at the end of the input,
  feeds the missing terminals. `read_generative(text, task)` reproduces that parser (its states are spelled out
  below) from the task's start symbol, after the task's rewrite of the text (`ACPTask.official_text`). It returns
  what the official parser returns: a list of action strings (app, just), a string (an action or atom in
  parentheses, or "None"), digits (val), a list of lists (prog), or None when the official code reports a parser
  error (wrong). Each task's module (`apb.acp.tasks.<task>`) then judges the parsed answer as the released
  evaluator does, its planner calls decided with apb's engine; where the official code crashes the verdict is
  wrong.
"""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

from apb.acp.records import Question
from apb.acp.tasks import TASKS
from apb.acp.truth import Check, QuestionPDDLError

FALLBACK = "[invalid]"

# ---- bool / MCQ: lm-eval's filters and exact_match -----------------------------------------------------------------


@lru_cache(maxsize=1)
def filters() -> dict:
    """The bool and MCQ filter settings (patterns and metric options) of ACPBench's lm-eval configs."""
    return yaml.safe_load((Path(__file__).with_name("official_filters.yaml")).read_text(encoding="utf-8"))


def _without_punctuation(text: str) -> str:
    """`text` without Unicode punctuation (category P*), as lm-eval's table over every code point removes it; checked
    per character, since building that table cost about a second of CPU at the first MCQ scored."""
    return "".join(c for c in text if not unicodedata.category(c).startswith("P"))


def _find(regex: re.Pattern, text: str, select: int, convert: dict | None = None):
    """lm-eval's extraction step: findall, the selected match, its first non-empty group, stripped."""
    found = regex.findall(text)
    if not found:
        return None
    match = found[select]
    if isinstance(match, tuple):
        groups = [m for m in match if m]
        if not groups:
            return ""
        match = groups[0]
    match = match.strip()
    if match and convert and match in convert:
        match = convert[match]
    return match


def choice_answer(text: str, fmt: str, choices=None) -> str:
    """The string lm-eval's declared filter extracts from a bool or MCQ response ("[invalid]" when none).
    `choices` is the record's `choices` field (the MCQ fallback iterates it as lm-eval does: over a dict's keys)."""
    spec = filters()[fmt]
    text = text if isinstance(text, str) else ""
    regex = re.compile(spec["pattern"])
    if fmt == "bool":
        match = _find(regex, text, spec["group_select"])
        return FALLBACK if match is None or match == "" else match
    match = _find(regex, text, spec["group_select"])
    if not match:
        def ignore(s: str) -> str:
            if spec.get("ignore_case"):
                s = s.lower()
            if spec.get("ignore_punctuation"):
                s = _without_punctuation(s)
            return s
        keys = [ignore(str(c).strip()) for c in (choices or [])]
        letters = [chr(ord("A") + i) for i in range(len(keys))]
        if keys:
            by_text = {k: f"({letter})" for k, letter in zip(keys, letters)}
            pattern = re.compile("|".join(sorted((re.escape(k) for k in keys), key=len, reverse=True)))
            match = _find(pattern, ignore(text), spec["group_select"], by_text)
            if not match:
                colon = re.compile(r":[\s]*(" + "|".join(letters) + ")")
                match = _find(colon, text, spec["group_select"], {letter: f"({letter})" for letter in letters})
    return match if match else FALLBACK


def exact_match(prediction: str, reference: str, *, ignore_case=False, ignore_punctuation=False,
                regexes_to_ignore=()) -> bool:
    """lm-eval's `exact_match` on one prediction."""
    for pattern in regexes_to_ignore or ():
        prediction, reference = re.sub(pattern, "", prediction), re.sub(pattern, "", reference)
    if ignore_case:
        prediction, reference = prediction.lower(), reference.lower()
    if ignore_punctuation:
        table = str.maketrans("", "", string.punctuation)
        prediction, reference = prediction.translate(table), reference.translate(table)
    return prediction == reference


def choice_correct(text: str, fmt: str, gold: str, choices=None) -> bool:
    """lm-eval's verdict on a bool or MCQ response under ACPBench's declared filter and metric."""
    return exact_match(choice_answer(text, fmt, choices), str(gold), **filters()[fmt]["metric"])


# ---- generative: the official grammar's parser with its error recovery ------------------------------------------

NAME = "NAME"
LPAR, RPAR, LSPAR, RSPAR, COMMA, WS, NONE, INDEX, END = "(", ")", "[", "]", ",", " ", "None", "INDEX", "$END"
_NAME_PATTERN = "[a-zA-Z][a-zA-Z0-9-_]*"  # the grammar's NAME terminal; fed as a token's text at a cut-off end
_INDEX_PATTERN = "[0-9]+[0-9]*"
_TERMINAL_RE = {NAME: re.compile(r"[a-zA-Z][a-zA-Z0-9_-]*"), INDEX: re.compile(r"[0-9]+"),
                LPAR: re.compile(r"\("), RPAR: re.compile(r"\)"), LSPAR: re.compile(r"\["), RSPAR: re.compile(r"\]"),
                COMMA: re.compile(","), WS: re.compile(r"[ \n]"), NONE: re.compile("None")}
# The terminals each start symbol's lexer knows (the grammar's unused terminals are dropped by Lark).
_KNOWN = {"list": (NAME, LPAR, RPAR, WS), "name": (NAME, LPAR, RPAR, WS), "act": (NAME, NONE, LPAR, RPAR, WS),
          "lists": (NAME, LPAR, RPAR, LSPAR, RSPAR, COMMA, WS), "index": (INDEX,)}


class _ParseError(Exception):
    """The official parser gives up (its error handler fed a terminal the parser rejects)."""


class _Reader:
    """A deterministic pushdown reader equivalent to the LALR automaton of the official grammar for one start
    symbol. `expects()` is the set of terminals the automaton accepts next; `feed(kind, text)` advances it."""

    def __init__(self, start: str) -> None:
        self.start = start
        self.mode = "begin"  # position in the start rule
        self.action: list[str] | None = None  # the action being read, as its tokens' texts
        self.actions: list[str] = []  # completed actions of the current list
        self.lists: list[list[str]] = []  # lists: the completed lists
        self.after_comma = False  # lists: inside the (COMMA action_name)* part of a list
        self.value: str | None = None  # act / name / index result
        self.action_state = ""  # "", "open", "name", "space"

    # -- the automaton's acceptable terminals --
    def expects(self) -> set[str]:
        if self.action is not None:
            return {NAME} if self.action_state in ("open", "space") else {WS, RPAR}
        start, mode = self.start, self.mode
        if start == "act":
            return {LPAR, NONE} if mode == "begin" else {END}
        if start == "name":
            return {LPAR} if mode == "begin" else {END}
        if start == "index":
            return {INDEX} if mode == "begin" else {END}
        if start == "list":
            return {LPAR, END} if mode in ("begin", "space") else {WS, LPAR, END}
        # lists (two bracketed lists)
        if mode in ("begin", "between"):
            return {LSPAR}
        if mode == "done":
            return {END}
        if self.after_comma:
            return {LPAR} if mode == "comma" else {COMMA, RSPAR}
        return {LPAR, COMMA, RSPAR}

    def feed(self, kind: str, text: str) -> None:
        if kind not in self.expects():
            raise _ParseError(kind)
        if self.action is not None:
            if kind == NAME:
                self.action.append(text)
                self.action_state = "name"
            elif kind == WS:
                self.action.append(" ")
                self.action_state = "space"
            else:  # RPAR closes the action
                self._close("(" + "".join(self.action) + ")")
            return
        if kind == LPAR:
            self.action, self.action_state = [], "open"
        elif kind == NONE:
            self.value, self.mode = "None", "end"
        elif kind == INDEX:
            self.value, self.mode = text, "end"
        elif kind == WS:
            self.mode = "space"
        elif kind == LSPAR:
            self.mode, self.actions, self.after_comma = "list", [], False
        elif kind == COMMA:
            self.mode, self.after_comma = "comma", True
        elif kind == RSPAR:
            self.lists.append(self.actions)
            self.mode = "between" if len(self.lists) == 1 else "done"

    def _close(self, action: str) -> None:
        self.action, self.action_state = None, ""
        if self.start in ("act", "name"):
            self.value, self.mode = action, "end"
        elif self.start == "list":
            self.actions.append(action)
            self.mode = "item"
        else:
            self.actions.append(action)
            self.mode = "item"

    def result(self):
        if self.start == "list":
            return self.actions
        if self.start == "lists":
            first, second = self.lists
            return [first] if second == first else [first, second]
        if self.start == "index":
            return self.value if self.value is not None and self.value.isnumeric() else None
        return self.value


def _next_token(text: str, pos: int, kinds) -> tuple[str, str] | None:
    for kind in kinds:
        match = _TERMINAL_RE[kind].match(text, pos)
        if match:
            return kind, match.group(0)
    return None


def _lex_in_state(text: str, pos: int, expected: set[str]) -> tuple[str, str] | None:
    """The token the state's own lexer reads at pos (only the terminals the state accepts)."""
    kinds = [k for k in (NAME, INDEX, NONE, LPAR, RPAR, LSPAR, RSPAR, COMMA, WS) if k in expected]
    return _next_token(text, pos, kinds)


def _parse(text: str, start: str):
    text = text.replace("\n", "").strip()
    reader = _Reader(start)
    known = _KNOWN[start]
    pos = 0
    while pos < len(text):
        expected = reader.expects()
        token = _lex_in_state(text, pos, expected)
        if token is not None:
            reader.feed(*token)
            pos += len(token[1])
            continue
        other = _next_token(text, pos, [k for k in (NAME, INDEX, NONE, LPAR, RPAR, LSPAR, RSPAR, COMMA, WS)
                                        if k in known])
        pos += len(other[1]) if other is not None else 1  # an unexpected token or character is skipped
    # end of input: the error handler feeds the terminals the state expects (other than whitespace) once; Lark
    # gives up when the end still does not fit, and so does a second expected terminal the first one excludes
    if END not in reader.expects():
        missing = [k for k in reader.expects() if k != WS]
        if len(missing) != 1:
            raise _ParseError("several terminals missing at the end")
        kind = missing[0]
        reader.feed(kind, {NAME: _NAME_PATTERN, INDEX: _INDEX_PATTERN}.get(kind, kind))
        if END not in reader.expects():
            raise _ParseError("the end still does not fit")
    return reader.result()


def parse_answer(text: str, start: str):
    """What the official grammar parser returns for `text` from the start symbol `start` (list, lists, index, name
    or act; None: a parser error)."""
    try:
        return _parse(text, start)
    except _ParseError:
        return None


def read_generative(text: str, task: str):
    """The official reading of a generative answer to `task`, with `evaluate_gen.py`'s task-specific rewrite; None
    when the official code counts a parser error."""
    if not isinstance(text, str):
        return None
    spec = TASKS[task]
    return parse_answer(spec.official_text(text), spec.grammar)


# ---- the verdict ----------------------------------------------------------------------------------------------------
def official_verdict(q: Question, text) -> Check:
    """The official verdict on one response text to question `q` (never raises on a bad answer); the reason is
    written from the same decision as the verdict."""
    text = text if isinstance(text, str) else ""
    if q.format in ("bool", "mcq"):
        read = choice_answer(text, q.format, q.choices)
        ok = choice_correct(text, q.format, str(q.answer), q.choices)
        return Check(ok, f"read {read!r}, the gold is {q.answer!r}")
    parsed = read_generative(text, q.task)
    if parsed is None:
        return Check(False, "the official parser cannot read the answer (a parser error)")
    try:
        return TASKS[q.task].official(q, parsed)
    except QuestionPDDLError as error:
        return Check(False, str(error))

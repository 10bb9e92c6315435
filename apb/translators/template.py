"""The template translator: exact, no LLM. The action templates inverted (apb.nl.parse.TemplateParser) on
cleaned-up text: PDDL written in the text, an English action, or an action name with its objects in order."""

from __future__ import annotations

import re

from apb.translators.base import TranslationResult, Translator, failed
from apb.translators.problem import ProblemView
from apb.translators.text import clean, focus

CONFIDENCE = {"pddl": 1.0, "template": 1.0, "names": 0.9}
TYPE_MISMATCH_CONFIDENCE = 0.5
_PAREN_GROUP = re.compile(r"\([^()]*\)")
# Where one action ends and the next may begin: ', then', '; ', '. ', a new line.
CLAUSE_BREAK = re.compile(r",?\s+(?:and\s+)?then\b|;\s|\.\s|\n|,\s+(?:and\s+)?(?:after\s+that|afterwards)\b",
                          re.IGNORECASE)
_WORD = re.compile(r"[\w-]+")


class TemplateTranslator(Translator):
    """Template inversion on the text after an 'Action:' marker (if any), then on the whole text."""

    kind = "template"

    def _translate(self, text: str, view: ProblemView, info: dict) -> TranslationResult:
        return self.analyse(text, view, info)[0]

    def analyse(self, text: str, view: ProblemView, info: dict) -> tuple[TranslationResult, str | None]:
        """(result, earlier): `earlier` is the text of earlier clauses that look like an action the templates
        could not read (a misspelt first action, say: the first action named is the one meant), '' when the
        match's own clause names something before it (it may be part of a larger action), else None."""
        segment = focus(text)
        attempts = [segment] if segment is text else [segment, text]
        problem = None
        fallback = None
        for attempt in attempts:
            cleaned = clean(attempt, view)
            action, method, problem_here, start = self._parse(cleaned, view, info)
            if action is not None:
                earlier = _earlier_action(cleaned[:start], view) if start else None
                if problem_here is None:
                    return TranslationResult(action, CONFIDENCE[method], method), earlier
                if fallback is None:
                    fallback = (TranslationResult(action, TYPE_MISMATCH_CONFIDENCE, method, error=problem_here),
                                earlier)
            problem = problem or problem_here
        if fallback is not None:
            return fallback
        return failed(text, problem or "no action of this domain recognised in the text"), None

    def _parse(self, cleaned: str, view: ProblemView, info: dict) -> tuple[str | None, str, str | None, int]:
        """(action, method, problem, start): a type-mismatched reading comes back with its problem."""
        parser = view.parser
        parsed = parser.parse(cleaned)
        problem = None
        if parsed is not None and parsed.method == "pddl":
            action, problem = view.check(parsed.action, info)
            if action is not None:
                return action, "pddl", None, parsed.start
            # Invalid PDDL in the text: perhaps English in parentheses, or English around it names an action.
            parsed = parser.parse(_PAREN_GROUP.sub(lambda m: " " + m.group(0)[1:-1] + " ", cleaned))
            if parsed is not None and parsed.method == "pddl":
                parsed = None
        if parsed is None:
            if problem is None:  # say why PDDL in the text was not usable (unknown object, wrong arity)
                for group in _PAREN_GROUP.finditer(cleaned):
                    name = group.group(0)[1:-1].split()
                    if name and name[0].lower() in view.schemas:
                        problem = view.check(group.group(0), info)[1]
                        if problem:
                            break
            return None, "none", problem, 0
        action, type_problem = view.check(parsed.action, info)
        start = parsed.start if parsed.method != "names" else 0
        if action is not None:
            return action, parsed.method, None, start
        return parsed.action, parsed.method, type_problem, start


def _earlier_action(before: str, view: ProblemView) -> str | None:
    """What comes before a match, if it names an object or an action verb: the clauses before the match's own
    (when they do), else the empty string for domain words in the match's own clause ('put dwon key_0 and' before
    'pick up key_0 at ...': the match may be part of a larger, misspelt action). None if nothing is there."""
    breaks = list(CLAUSE_BREAK.finditer(before))
    if breaks:
        earlier = before[:breaks[-1].start()]
        if _names_something(earlier, view):
            return earlier
        before = before[breaks[-1].end():]
    return "" if _names_something(before, view) else None


def _names_something(text: str, view: ProblemView) -> bool:
    verbs = view.memo.get("verbs")
    if verbs is None:
        verbs = view.memo["verbs"] = {w for s in view.schemas.values()
                                      for w in [*_WORD.findall(s.nl.lower())[:1], *re.split(r"[-_]", s.name)]
                                      if len(w) > 2}
    return any(word in verbs or word in view.names for word in _WORD.findall(text.lower()))

"""Checks of an LLM's template answers. Placeholders: each parameter exactly once, no others; indefinite forms use
the letters A, B, C, ... Topic: a template must be about its entry and an intro about its domain.

What "mentions" means (the topic check). Words are compared by a crude stem (apb.nl.rules.morphology.stem:
'boards', 'boarding' -> 'board'), and two stems match when they are equal or one of at least four letters begins
the other ('calibrat' and 'calibration', 'block' and 'blocksworld'); a word also matches its synonyms in the
lexicon's short list (apb.nl.rules.lexicon.SYNONYMS: ferry ~ boat, location ~ place, equal ~ different).
- The words of a predicate or action are: the content words of its name as the rules read it ('at-ferry' ->
  ferry, 'not-eq' -> equal; a name of prepositions only gives them: 'on' is what `on` is about), the content
  words of its rule-based text (no prepositions, articles, pronouns, auxiliaries or generic words like
  'object'), and the nouns of its parameters as the rules know them (declared types and supertypes, type
  predicates of untyped domains like `(location ?l)`, nouns in parameter names like `?truck`). Its `text` must
  use at least one of them. The negated text and the indefinite form are other forms of the text and are
  checked for placeholders only (a good negation may use other words: 'my hand is empty' / 'I am holding
  something'). A text with no content word at all ('{r} is at {x}') cannot be off-topic and passes.
- The words of a domain are the content words of its name, its type names, and its predicates' and actions' names.
  The intro must use at least one of them ('I run a small coffee bar' is not about Ferry: none of ferry, car,
  location, board, sail, debark, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from apb.engine.model import Domain
from apb.nl.generator.results import Issue
from apb.nl.grammar import LETTERS, join_and, letter
from apb.nl.nl_yaml import NLTemplates
from apb.nl.rules.lexicon import FUNCTION_WORDS, GENERIC_WORDS, PREPOSITIONS, SYNONYMS
from apb.nl.rules.morphology import stem
from apb.nl.rules.reader import Reader

PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
WORD = re.compile(r"[A-Za-z]+")
SHOWN_WORDS = 8  # how many of the expected words a topic issue names


def _marks(names: Sequence[str]) -> str:
    return join_and(["{" + n + "}" for n in names])


def placeholder_issues(part: str, label: str, value: str, params: Sequence[str]) -> list[Issue]:
    """What is wrong with the placeholders of `value`: missing, unknown or repeated parameters."""
    found = PLACEHOLDER.findall(value)
    distinct = list(dict.fromkeys(found))
    unknown = [f for f in distinct if f not in params]
    issues: list[Issue] = []
    if not params:
        if found:
            issues.append(Issue(part, f"the {label} must not contain placeholders, there are no parameters; "
                                          f"it uses {_marks(distinct)}"))
        return issues
    mentioned = [p for p in params if p in found]
    if len(mentioned) < len(params):
        if len(params) == 1:
            said = "it does not"
        elif mentioned:
            said = f"it mentions only {_marks(mentioned)}"
        else:
            said = "it mentions none of them"
        issues.append(Issue(part, f"the {label} must mention {_marks(params)}; {said}"))
    if unknown:
        verb = "is not a parameter" if len(unknown) == 1 else "are not parameters"
        issues.append(Issue(part, f"the {label} uses {_marks(unknown)}, which {verb}; the parameters are "
                                      f"{_marks(params)}"))
    for p in params:
        if found.count(p) > 1:
            issues.append(Issue(part, f"the {label} mentions {{{p}}} {found.count(p)} times; mention each "
                                          "parameter exactly once"))
    return issues


def indefinite_issues(value: str, params: Sequence[str]) -> list[Issue]:
    """What is wrong with an indefinite form: placeholders instead of letters, missing or extra letters."""
    letters = [letter(i) for i in range(len(params))]
    issues = []
    used = PLACEHOLDER.findall(value)
    if used:
        instead = f"the letters {join_and(letters)}" if letters else "no placeholders"
        issues.append(Issue("indefinite", f"the indefinite form must use {instead} instead of placeholders; "
                                              f"it uses {_marks(list(dict.fromkeys(used)))}"))
    missing = [m for m in letters if not re.search(r"\b" + re.escape(m) + r"\b", value)]
    if missing:
        issues.append(Issue("indefinite", f"the indefinite form must mention {join_and(letters)} (the "
                                              f"parameters in order); it does not mention {join_and(missing)}"))
    extra = [m for m in LETTERS[len(params):] if m not in ("A", "I") and re.search(r"\b" + m + r"\b", value)]
    if extra:
        have = f"only {len(params)} parameter{'s' if len(params) != 1 else ''}"
        issues.append(Issue("indefinite", f"the indefinite form mentions {join_and(extra)}, but the action has "
                                              f"{have}" + (f" ({join_and(letters)})" if letters else "")))
    return issues


# ---- topic ----------------------------------------------------------------------------------------------------------
def content_words(text: str, *, keep: Iterable[str] = ()) -> dict[str, str]:
    """stem -> word for the words of `text` that say what it is about: placeholders, articles, pronouns,
    auxiliaries, prepositions and generic nouns left out (words in `keep` are kept whatever they are)."""
    keep = set(keep)
    out: dict[str, str] = {}
    for word in WORD.findall(PLACEHOLDER.sub(" ", text)):
        word = word.lower()
        if word in keep or (len(word) >= 3 and word not in FUNCTION_WORDS and word not in PREPOSITIONS
                            and word not in GENERIC_WORDS):
            out.setdefault(stem(word), word)
    return out


def with_synonyms(words: dict[str, str]) -> dict[str, str]:
    """`words` (stem -> word) and the synonyms the lexicon lists for them (ferry: boat, ship, vessel)."""
    out = dict(words)
    for group in SYNONYMS:
        if any(stem(w) in words for w in group):
            for w in sorted(group):
                out.setdefault(stem(w), w)
    return out


def _matches(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= 4 and long.startswith(short))


def mentions(text: str, words: dict[str, str]) -> bool:
    """Whether `text` uses one of `words` (stem -> word) or a synonym, by stem or by a stem of 4+ letters that
    begins the other."""
    words = with_synonyms(words)
    found = content_words(text, keep=words.values())
    return any(_matches(a, b) for a in found for b in words)


class Topic:
    """The words each entry of a domain and the domain itself are about, and the checks that answers use them."""

    def __init__(self, domain: Domain, rules: NLTemplates) -> None:
        self.domain = domain
        self.reader = Reader(domain)
        self.vocab = self.reader.vocab
        self.type_words = {name: content_words(f"{t.singular} {t.plural}") for name, t in rules.types.items()}
        self.rule_texts = {("predicate", n): p.text for n, p in rules.predicates.items()}
        self.rule_texts.update({("action", n): a.text for n, a in rules.actions.items()})

    def name_words(self, name: str, *, prepositions: bool) -> dict[str, str]:
        """The content words of a PDDL name as the rules read it (abbreviations expanded, compounds split); with
        `prepositions`, a name of prepositions only ('on', 'at') gives them."""
        split = " ".join(self.vocab.split(name))
        found = content_words(split)
        if not found and prepositions:
            found = content_words(split, keep=[w for w in split.split() if w in PREPOSITIONS])
        return found

    def entry_words(self, kind: str, name: str) -> dict[str, str]:
        """What a predicate or action (kind) is about: its name, its rule wording, its parameters' types."""
        words = self.name_words(name, prepositions=True)
        words.update(content_words(self.rule_texts.get((kind, name), "")))
        if kind == "predicate":
            params = self.reader.predicate_params(name)
        else:
            params = self.reader.action_params(self.domain.action(name))
        for param in params:  # declared types and supertypes, type predicates ((location ?l)), nouns in the name
            words.update(content_words(" ".join(param.nouns)))
        return words

    def domain_words(self) -> dict[str, str]:
        """What the domain is about: its name, type names (and type predicates), action and predicate names,
        nouns first (the order an issue lists them in)."""
        words = self.name_words(self.domain.name, prepositions=False)
        for found in self.type_words.values():
            words.update(found)
        for noun in self.reader.type_predicates.values():
            words.update(content_words(noun))
        for name in [*(a.name for a in self.domain.actions), *self.domain.predicates]:
            words.update(self.name_words(name, prepositions=False))
        return words

    def entry_issue(self, kind: str, name: str, text: str) -> Issue | None:
        """An issue when the text of a predicate or action uses none of the words it is about."""
        words = self.entry_words(kind, name)
        if not words or not content_words(text) or mentions(text, words):
            return None  # a text of placeholders and prepositions only ('{x} is on {y}') says nothing else
        return Issue("topic", f"the text is not about the {kind} {name}: it uses none of the words "
                             f"{_listed(words)} (from its name, its types or a rule-based wording)")

    def intro_issue(self, text: str) -> Issue | None:
        """An issue when the intro uses none of the words the domain is about."""
        words = self.domain_words()
        if not words or mentions(text, words):
            return None
        return Issue("topic", f"the intro is not about the {self.domain.name} domain: it uses none of the words "
                              f"{_listed(words)} (from the domain's name, types, predicates and actions)")


def _listed(words: dict[str, str]) -> str:
    shown = list(dict.fromkeys(words.values()))
    more = len(shown) - SHOWN_WORDS
    return ", ".join(shown[:SHOWN_WORDS]) + (f" and {more} more" if more > 0 else "")

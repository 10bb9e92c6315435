"""English word forms for the rules: participles, gerunds, third person, plurals, articles, head nouns."""

from __future__ import annotations

from apb.nl.grammar import article
from apb.nl.rules.lexicon import (
    ABBREVIATIONS,
    ADJECTIVE_SUFFIXES,
    ADJECTIVES,
    IRREGULAR_PARTICIPLES,
    MASS_NOUNS,
    NO_ARTICLE,
    NOT_GERUNDS,
    NOT_PARTICIPLES,
    NOUNS,
    PREPOSITIONS,
    SINGULAR_S,
    SUBJECT_VERBS,
    VERBS,
    word_set,
)


def is_known_word(word: str) -> bool:
    """Whether the rules know `word` (lexicon, abbreviation or inflected verb): unknown words may be compounds."""
    return (word in NOUNS or word in ADJECTIVES or word in PREPOSITIONS or word in VERBS or word in ABBREVIATIONS
            or word in SUBJECT_VERBS or word in word_set("is are not and the a") or word in IRREGULAR_PARTICIPLES
            or third_person_base(word) is not None)


def is_participle(word: str) -> bool:
    """Whether `word` reads as a past participle ('rewound', 'painted'; not 'bed')."""
    if word in IRREGULAR_PARTICIPLES:
        return True
    return len(word) >= 4 and word.endswith("ed") and word not in NOT_PARTICIPLES


def is_adjective(word: str) -> bool:
    """Whether `word` reads as an adjective: listed, a participle, or an adjective suffix ('movable')."""
    if word in ADJECTIVES or is_participle(word):
        return True
    return word not in NOUNS and len(word) > 5 and word.endswith(ADJECTIVE_SUFFIXES)


def is_gerund(word: str) -> bool:
    """Whether `word` reads as a gerund ('holding'; not 'string')."""
    return len(word) >= 5 and word.endswith("ing") and word not in NOT_GERUNDS


def third_person(base: str) -> str:
    """The third person singular of a verb: 'carry' -> 'carries', 'have' -> 'has'."""
    if base == "have":
        return "has"
    if base.endswith(("s", "x", "z", "ch", "sh", "o")):
        return base + "es"
    if base.endswith("y") and len(base) > 1 and base[-2] not in "aeiou":
        return base[:-1] + "ies"
    return base + "s"


def third_person_base(word: str) -> str | None:
    """The base form of a known verb in the third person ('supports' -> 'support'), else None."""
    if word == "has":
        return "have"
    for base in (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else ""):
        if base in VERBS and third_person(base) == word:
            return base
    return None


def looks_third_person(word: str) -> bool:
    """Whether an unknown word looks like a verb in the third person ('dispenses')."""
    return (len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ous"))
            and word not in NOUNS and word not in SINGULAR_S)


def base_of_third_person(third: str) -> str:
    """'dispenses' -> 'dispense', 'matches' -> 'match', 'carries' -> 'carry'."""
    if third.endswith("ies"):
        return third[:-3] + "y"
    if third.endswith(("ches", "shes", "xes", "zes", "sses", "oes")):
        return third[:-2]
    return third[:-1]


def gerund_of(base: str) -> str:
    """The gerund of a verb: 'hold' -> 'holding', 'wave' -> 'waving'."""
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return base[:-1] + "ing"
    return base + "ing"


def is_plural(noun: str) -> bool:
    """Whether a noun phrase is plural ('chips'; not 'gas')."""
    last = noun.split()[-1] if noun.split() else noun
    return (len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))
            and last not in SINGULAR_S)


def head_word(noun: str) -> str:
    """The last word of a noun phrase: 'calibration target' -> 'target'."""
    parts = noun.split()
    return parts[-1] if parts else ""


def with_article(noun: str) -> str:
    """'a car', 'an image', 'gold', 'chips'."""
    first = noun.split()[0] if noun.split() else noun
    if head_word(noun) in MASS_NOUNS or is_plural(noun) or first in NO_ARTICLE:
        return noun
    return f"{article(noun)} {noun}"


def with_the(noun: str) -> str:
    """'the <noun>', or the noun alone for numbers and article-less words ('the oven', 'home')."""
    first = noun.split()[0] if noun.split() else noun
    if first in NO_ARTICLE or first.isdigit():
        return noun
    return "the " + noun



def is_real_word(word: str) -> bool:
    """Whether a name piece is a word rather than a code ('truck', not 'x1')."""
    return word in NOUNS or word in ADJECTIVES or (len(word) >= 4 and any(c in "aeiouy" for c in word)
                                                    and word.isalpha())


def spaced(text: str) -> str:
    """' text', or '' for no text: a tail appended to a phrase."""
    return f" {text}" if text else ""


def stem(word: str) -> str:
    """A crude common stem, so that inflections of a word match: 'boards', 'boarded', 'boarding' -> 'board';
    'ferries' -> 'ferry'; 'move', 'moves', 'moving' -> 'mov'; 'stopped' -> 'stop'."""
    w = word.lower()
    if len(w) <= 3:
        return w
    if w.endswith(("ies", "ied")) and len(w) > 4:
        return w[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if not w.endswith(suffix) or len(w) - len(suffix) < 3 or (suffix == "s" and w.endswith(("ss", "us", "is"))):
            continue
        w = w[:-len(suffix)]
        if suffix in ("ing", "ed") and len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
            w = w[:-1]
        break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w

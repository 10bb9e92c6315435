"""Small English helpers shared by the renderers and template generators: articles, plurals, lists."""

from __future__ import annotations

import re

_VOWEL_SOUND_EXCEPTIONS_AN = ("hour", "honest", "honour", "honor", "heir")
_CONSONANT_SOUND_EXCEPTIONS_A = ("uni", "use", "usu", "uti", "eu", "one", "once", "ewe", "ufo", "ura")


def article(word: str) -> str:
    """'a' or 'an' for the sound the word starts with ('an airplane', 'a unit', 'an hour', 'an r2')."""
    w = word.strip().lower()
    if not w:
        return "a"
    if w.startswith(_VOWEL_SOUND_EXCEPTIONS_AN):
        return "an"
    if w.startswith(_CONSONANT_SOUND_EXCEPTIONS_A):
        return "a"
    if w[0].isdigit():
        return "an" if w.startswith(("8", "11", "18")) else "a"
    if len(w) == 1 or (len(w) > 1 and not any(c in "aeiou" for c in w) and w.isalpha() and len(w) <= 3):
        # a letter or an initialism read letter by letter: 'an A', 'an f', 'an r2', 'a b', 'an LZ'
        return "an" if w[0] in "aefhilmnorsx" else "a"
    return "an" if w[0] in "aeiou" else "a"


def plural(noun: str) -> str:
    """Regular English plural of a noun or of the last word of a noun phrase ('gold mine' -> 'gold mines')."""
    if not noun:
        return noun
    head, _, last = noun.rpartition(" ")
    prefix = head + " " if head else ""
    low = last.lower()
    irregular = {"person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice",
                 "foot": "feet", "tooth": "teeth", "goose": "geese", "datum": "data"}
    if low in irregular:
        return prefix + irregular[low]
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return prefix + last + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return prefix + last[:-1] + "ies"
    return prefix + last + "s"


def join_and(items: list[str] | tuple[str, ...], conjunction: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def capitalize(sentence: str) -> str:
    """Upper-cases the first letter only (object names inside stay as they are)."""
    return sentence[:1].upper() + sentence[1:] if sentence else sentence


def words(name: str) -> list[str]:
    """Splits a PDDL or camelCase name into lower-case words: 'at-ferry' -> ['at', 'ferry']."""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[-_\s]+", name.lower()) if w]


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def letter(i: int) -> str:
    """The placeholder letter of the i-th parameter in indefinite descriptions: A, B, ..., Z, A2, B2, ..."""
    return LETTERS[i % 26] + (str(i // 26 + 1) if i >= 26 else "")

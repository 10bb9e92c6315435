"""Predicate rules: the text and negated text of a predicate, from English patterns over its name's words."""

from __future__ import annotations

from apb.nl.grammar import join_and
from apb.nl.rules.lexicon import (
    ADJECTIVE_PREPOSITIONS,
    CONTAINER_NOUNS,
    DIRECTIONS,
    EVENT_PARTICIPLES,
    GERUND_PREPOSITIONS,
    LOCATIVE,
    NOUNS,
    OBJECT_ADJECTIVES,
    PLACE_NOUNS,
    PREPOSITIONS,
    RELATION_NOUNS,
    UNIQUE_NOUNS,
    VEHICLE_NOUNS,
    VERBS,
)
from apb.nl.rules.morphology import (
    base_of_third_person,
    gerund_of,
    head_word,
    is_adjective,
    is_gerund,
    is_participle,
    is_plural,
    looks_third_person,
    spaced,
    third_person,
    third_person_base,
    with_article,
    with_the,
)
from apb.nl.rules.reader import Param, Reader


def _be(subject: str, complement: str, plural_subject: bool = False) -> tuple[str, str]:
    verb = "am" if subject == "I" else ("are" if plural_subject else "is")
    return f"{subject} {verb} {complement}", f"{subject} {verb} not {complement}"


def _has(subject: str, obj: str) -> tuple[str, str]:
    if subject == "I":
        return f"I have {obj}", f"I do not have {obj}"
    return f"{subject} has {obj}", f"{subject} does not have {obj}"


def _verb(subject: str, base: str, rest: str) -> tuple[str, str]:
    rest = f" {rest}" if rest else ""
    if subject == "I":
        return f"I {base}{rest}", f"I do not {base}{rest}"
    return f"{subject} {third_person(base)}{rest}", f"{subject} does not {base}{rest}"


def _has_been(subject: str, participle: str, plural_subject: bool = False) -> tuple[str, str]:
    have = "have" if subject == "I" or plural_subject else "has"
    return f"{subject} {have} been {participle}", f"{subject} {have} not been {participle}"


def _there(noun: str, rest: str) -> tuple[str, str]:
    verb = "are" if is_plural(noun) else "is"
    return f"there {verb} {with_article(noun)} {rest}", f"there {verb} no {noun} {rest}"



class PredicateRules:
    """The English of one predicate, from its words and parameters."""

    def __init__(self, reader: Reader, name: str) -> None:
        self.reader = reader
        self.name = name
        self.params = reader.predicate_params(name)
        self.words = reader.vocab.split(name) or [name]

    def extras(self, params: list[Param]) -> str:
        """Leftover arguments: ' in {m}', ' at {p}', ' with {x}'."""
        out = []
        preps: list[str] = []
        for p in params:
            if p.region:
                prep = "in"
            elif p.place:
                prep = "at"
            else:
                prep = "with" if "with" not in preps else "and"
            preps.append(prep)
            out.append(f"{prep} {p.ph}")
        return "".join(" " + x for x in out)

    def render(self) -> tuple[str, str]:
        """(text, negated) of the predicate; a negated name ('not-eq') swaps them."""
        w = list(self.words)
        negate = False
        if w and w[0] in ("not", "no", "non") and len(w) > 1:
            negate, w = True, w[1:]
        if len(w) > 1 and w[0] in ("is", "are"):
            w = w[1:]
        pos, neg = self.read(w)
        return (neg, pos) if negate else (pos, neg)

    def fallback(self, w: list[str]) -> tuple[str, str]:
        phrase = " ".join(w)
        ps = self.params
        if not ps:
            return f"{phrase} holds", f"{phrase} does not hold"
        if len(ps) == 1:
            return _be(ps[0].ph, phrase)
        if len(ps) == 2:
            return _be(ps[0].ph, f"{phrase} {ps[1].ph}")
        args = join_and([p.ph for p in ps])
        return f"{phrase} holds for {args}", f"{phrase} does not hold for {args}"

    def read(self, w: list[str]) -> tuple[str, str]:
        """(text, negated) for the name's words, by the first pattern that fits."""
        ps = self.params
        first = w[0]
        if first == "can" and len(w) > 1:
            return self.can(w[1:])
        if first in ("have", "has"):
            return self.have(w[1:])
        for k in range(1, len(w)):
            if w[k] in ("is", "are") and k < len(w) - 1:
                return self.noun_is(w[:k], w[k + 1:])
            if w[k] in ("has", "have"):
                return self.noun_has(w[:k], w[k + 1:])
        if len(w) <= 2 and first in DIRECTIONS and len(ps) == 2 and (len(w) == 1 or w[1] == "of"):
            return _be(ps[0].ph, f"{DIRECTIONS[first]} {ps[1].ph}")
        if is_gerund(first):
            return self.gerund(first, w[1:])
        base = third_person_base(first)
        if base is not None and (len(ps) >= 2 or (not ps and len(w) > 1)):
            return self.verb(base, w[1:])
        if first in VERBS and first not in NOUNS and (len(ps) >= 2 or len(w) > 1):
            return self.verb(first, w[1:])
        if first in VERBS and first not in NOUNS and len(ps) == 1 and not is_adjective(first):
            return _verb(ps[0].ph, first, "")  # (exist ?x): "{x} exists"
        if len(w) == 1 and len(ps) == 2 and looks_third_person(first):
            return self.verb(base_of_third_person(first), [])  # (dispenses ?d ?i): "{d} dispenses {i}"
        preps = [k for k, x in enumerate(w) if x in PREPOSITIONS]
        if preps:
            k = preps[0]
            return self.prepositional(w[:k], w[k], w[k + 1:])
        return self.descriptive(w)

    # -- patterns
    def subject_of(self, noun: list[str]) -> tuple[str, list[Param], bool]:
        """(subject text, remaining parameters, whether the subject is a parameter) for a noun phrase."""
        ps = self.params
        if ps and (not noun or ps[0].matches(noun)):
            return ps[0].ph, ps[1:], True
        return with_the(" ".join(noun)), ps, False

    def can(self, rest: list[str]) -> tuple[str, str]:
        ps = self.params
        verb = rest[0]
        obj = rest[1:]
        subject, others = (ps[0].ph, ps[1:]) if ps else ("I", [])
        parts = []
        if obj:
            parts.append(" ".join(obj))
        if len(others) >= 2 and others[0].nouns & others[1].nouns and not obj:
            parts.append(f"from {others[0].ph} to {others[1].ph}" + self.extras(others[2:]))
        elif others:
            parts.append(others[0].ph + self.extras(others[1:]))
        rest_text = " ".join(parts)
        return f"{subject} can {verb}{spaced(rest_text)}", f"{subject} cannot {verb}{spaced(rest_text)}"

    def object_phrase(self, noun: list[str], others: list[Param]) -> str:
        """'an image of {o} in {m}', 'key {k}', 'chips', '{c}'."""
        phrase = " ".join(x for x in noun if x not in ("a", "an", "the"))
        if not phrase:
            if not others:
                return "something"
            first = others[0]
            lead = f"{first.type_noun} " if first.type_noun else ""
            return lead + first.ph + self.extras(others[1:])
        if others and others[0].matches(noun):
            return f"{phrase} {others[0].ph}" + self.extras(others[1:])
        if others:
            return f"{with_article(phrase)} of {others[0].ph}" + self.extras(others[1:])
        return with_article(phrase)

    def have(self, noun: list[str]) -> tuple[str, str]:
        ps = self.params
        if not ps:
            return _has("I", self.object_phrase(noun, []))
        p0 = ps[0]
        if noun and p0.nouns and not (p0.agent or p0.vehicle) and not p0.matches(noun):
            return _has("I", self.object_phrase(noun, ps))
        return _has(p0.ph, self.object_phrase(noun, ps[1:]))

    def noun_has(self, noun: list[str], obj: list[str]) -> tuple[str, str]:
        subject, others, _ = self.subject_of(noun)
        return _has(subject, self.object_phrase(obj, others))

    def noun_is(self, noun: list[str], rest: list[str]) -> tuple[str, str]:
        subject, others, _ = self.subject_of(noun)
        if not others and rest and rest[-1] in EVENT_PARTICIPLES and len(rest) == 1:
            return _has_been(subject, rest[0])
        complement = " ".join(rest)
        if len(rest) == 1 and not is_adjective(rest[0]) and rest[0] not in PREPOSITIONS:
            complement = with_article(complement)
        if others:
            complement += " " + others[0].ph + self.extras(others[1:])
        return _be(subject, complement)

    def gerund(self, verb: str, rest: list[str]) -> tuple[str, str]:
        ps = self.params
        if not ps and not rest:
            return _be("it", verb)  # (raining): "it is raining"
        if len(ps) >= 2:
            subject, others = ps[0].ph, ps[1:]
        else:
            subject, others = "I", ps
        prep = GERUND_PREPOSITIONS.get(verb, "")
        parts = [verb]
        if rest:
            noun = [x for x in rest if x not in PREPOSITIONS]
            if others and others[0].matches(noun):
                parts += [*rest, others[0].ph]
                parts.append(self.extras(others[1:]).strip())
            elif others:
                parts += [*rest, others[0].ph + self.extras(others[1:])]
            else:
                parts.append(with_article(" ".join(rest)) if all(x not in PREPOSITIONS for x in rest)
                             else " ".join(rest))
        elif others:
            if prep:
                parts.append(prep)
            parts.append(others[0].ph + self.extras(others[1:]))
        return _be(subject, " ".join(x for x in parts if x))

    def verb(self, base: str, rest: list[str]) -> tuple[str, str]:
        ps = self.params
        subject, others = (ps[0].ph, ps[1:]) if ps else ("I", [])
        if rest:
            obj = self.object_phrase(rest, others) if others else with_article(" ".join(rest))
        elif others:
            obj = others[0].ph + self.extras(others[1:])
        else:
            obj = ""
        if subject == "I" and base in ("hold", "carry", "wear"):
            return _be("I", f"{gerund_of(base)} {obj}".strip())  # (holds-bomb): "I am holding a bomb"
        return _verb(subject, base, obj)

    def prepositional(self, before: list[str], prep: str, after: list[str]) -> tuple[str, str]:
        ps = self.params
        after_noun = [x for x in after if x not in PREPOSITIONS]
        if before and all(is_adjective(x) for x in before):
            # visible_from ?o ?w, equipped_for_imaging ?r, connected-to ?x ?y
            subject, others = (ps[0].ph, ps[1:]) if ps else ("it", [])
            complement = " ".join([*before, prep, *after])
            if (others and after_noun and others[0].matches(after_noun)) or others:
                complement += " " + others[0].ph + self.extras(others[1:])
            return _be(subject, complement)
        if prep == "between" and not before and not after and len(ps) == 3:
            return _be(ps[0].ph, f"between {ps[1].ph} and {ps[2].ph}")
        if prep in DIRECTIONS and not before and not after and len(ps) >= 2:
            return _be(ps[0].ph, f"{DIRECTIONS[prep]} {ps[1].ph}" + self.extras(ps[2:]))
        if not before:
            return self.preposition_first(prep, after)
        noun = " ".join(before)
        # noun + preposition: robot-at, bomb-at, store-of, counter-at-zero, pan-in-oven
        object_text = " ".join(after)
        if ps and ps[0].matches(before):
            subject, others = ps[0].ph, ps[1:]
            if prep == "of" and others:
                return _be(subject, f"the {noun} of {others[0].ph}" + self.extras(others[1:]))
            return _be(subject, self.complement(prep, after, others))
        if not ps:
            target = with_the(object_text) if after and all(x not in PREPOSITIONS for x in after) \
                and head_word(object_text) in NOUNS else object_text
            return _be(with_the(noun), f"{prep} {target}".strip(), is_plural(noun))
        if prep == "of":
            # color-of ?x ?c: "the color of {x} is {c}"
            subject = f"the {noun} of {ps[0].ph}"
            if len(ps) >= 2:
                return _be(subject, ps[1].ph + self.extras(ps[2:]))
            return _be(f"{ps[0].ph}", f"the {noun} of something")
        if prep in ("on", "off") and not after and len(ps) == 1 and head_word(noun) not in UNIQUE_NOUNS:
            return _be(f"the {noun} of {ps[0].ph}", prep)
        complement = self.complement(prep, after, ps)
        if head_word(noun) in UNIQUE_NOUNS:
            return _be(with_the(noun), complement, is_plural(noun))
        return _there(noun, complement)

    def complement(self, prep: str, after: list[str], others: list[Param]) -> str:
        """'at {x}', 'in city {c}', 'in the oven', 'on board {r}' (+ leftover arguments)."""
        after_noun = [x for x in after if x not in PREPOSITIONS]
        if not others:
            if not after:
                return prep
            phrase = " ".join(after)
            if all(x not in PREPOSITIONS for x in after):
                phrase = with_the(phrase)
            return f"{prep} {phrase}"
        if after:
            for k, p in enumerate(others):
                if p.matches(after_noun):
                    rest = others[:k] + others[k + 1:]
                    return f"{prep} {' '.join(after)} {p.ph}" + self.extras(rest)
            return f"{prep} {' '.join(after)} {others[0].ph}" + self.extras(others[1:])
        return f"{prep} {others[0].ph}" + self.extras(others[1:])

    def preposition_first(self, prep: str, after: list[str]) -> tuple[str, str]:
        ps = self.params
        phrase = " ".join(after)
        if not ps:
            return _be("I", f"{prep} {with_the(phrase)}" if phrase else prep)
        if not after:
            if len(ps) >= 2:  # on ?x ?y: "{x} is on {y}" (directions are read before)
                return _be(ps[0].ph, f"{prep} {ps[1].ph}" + self.extras(ps[2:]))
            return _be(ps[0].ph, self.lone_preposition(prep))
        after_noun = [x for x in after if x not in PREPOSITIONS]
        if len(ps) >= 2:
            if ps[0].matches(after_noun):
                # at_lander ?x ?y: the lander is the first argument
                return _be(ps[0].ph, f"{prep} {ps[1].ph}" + self.extras(ps[2:]))
            return _be(ps[0].ph, self.complement(prep, after, ps[1:]))
        p0 = ps[0]
        head = head_word(phrase)
        # at-ferry ?l (a location): the ferry is there; at-curb ?car: the car is at the curb
        located = p0.place or p0.region or (not p0.nouns and head in UNIQUE_NOUNS)
        if (prep in LOCATIVE and head not in PLACE_NOUNS and not p0.matches(after_noun) and located
                and all(x not in PREPOSITIONS for x in after)):
            # at-ferry ?l: the ferry is at {l}
            if head in UNIQUE_NOUNS:
                return _be(with_the(phrase), f"{prep} {p0.ph}", is_plural(phrase))
            return _there(phrase, f"{prep} {p0.ph}")
        # ontable ?x, in-oven ?p: the argument is in/on the thing
        target = with_the(phrase) if all(x not in PREPOSITIONS for x in after) else phrase
        return _be(p0.ph, f"{prep} {target}")

    def lone_preposition(self, prep: str) -> str:
        """'on ?c' in Ferry: "{c} is on the ferry" when the domain is named after a vehicle, else 'on board'."""
        domain_words = self.reader.vocab.split(self.reader.domain.name)
        vehicle = next((x for x in domain_words if x in VEHICLE_NOUNS | CONTAINER_NOUNS), None)
        if vehicle and prep in ("on", "in", "inside", "aboard"):
            return f"{prep} the {vehicle}"
        return {"on": "on board", "in": "inside", "aboard": "aboard", "off": "off", "up": "up",
                "down": "down"}.get(prep, f"{prep} something")

    def descriptive(self, w: list[str]) -> tuple[str, str]:
        """Nouns and adjectives without a preposition or verb: car, clear, empty-ferry, hand-empty, ..."""
        adjective_last = is_adjective(w[-1])
        adjective_first = is_adjective(w[0])
        if all(is_adjective(x) for x in w):
            return self.adjective(" ".join(w), w[-1])
        if adjective_last and not adjective_first:
            return self.noun_adjective(w[:-1], w[-1])
        if adjective_first:
            return self.adjective_noun(w[0], w[1:])
        return self.nouns(w)

    def adjective(self, phrase: str, last: str) -> tuple[str, str]:
        ps = self.params
        if not ps:
            return _be("it", phrase)
        event = last in EVENT_PARTICIPLES
        if len(ps) == 1:
            return _has_been(ps[0].ph, phrase) if event else _be(ps[0].ph, phrase)
        prep = ADJECTIVE_PREPOSITIONS.get(last)
        if prep is None and not is_participle(last):
            # free ?r ?g: "{g} of {r} is free"
            return _be(f"{ps[1].ph} of {ps[0].ph}", phrase + self.extras(ps[2:]))
        if prep is None:
            prep = "by" if event else "for"
        lead = f"{phrase} {prep}".strip()
        if event:
            return _has_been(ps[0].ph, f"{lead} {ps[1].ph}" + self.extras(ps[2:]))
        return _be(ps[0].ph, f"{lead} {ps[1].ph}" + self.extras(ps[2:]))

    def noun_adjective(self, noun: list[str], adjective: str) -> tuple[str, str]:
        """hand-empty, movie-rewound, channel_free ?l, power_avail ?s, soap_consumed ?soap."""
        ps = self.params
        phrase = " ".join(noun)
        event = adjective in EVENT_PARTICIPLES
        if not ps:
            subject, others, plural_subject = with_the(phrase), [], is_plural(phrase)
        elif ps[0].matches(noun):
            subject, others, plural_subject = ps[0].ph, ps[1:], False
        else:
            subject, others, plural_subject = f"the {phrase} of {ps[0].ph}", ps[1:], is_plural(phrase)
        if event:
            pos, neg = _has_been(subject, adjective, plural_subject)
            return pos + self.extras(others), neg + self.extras(others)
        complement = adjective
        if others:
            prep = ADJECTIVE_PREPOSITIONS.get(adjective) or "for"
            complement += f" {prep} {others[0].ph}" + self.extras(others[1:])
        return _be(subject, complement, plural_subject)

    def adjective_noun(self, adjective: str, noun: list[str]) -> tuple[str, str]:
        """empty-ferry, available-color ?c, free-color ?r, communicated_soil_data ?w."""
        ps = self.params
        phrase = " ".join(noun)
        event = adjective in EVENT_PARTICIPLES
        if not ps:
            if event:
                return _has_been(with_the(phrase), adjective, is_plural(phrase))
            return _be(with_the(phrase), adjective, is_plural(phrase))
        if ps[0].matches(noun):
            complement = with_article(f"{adjective} {phrase}")
            return _be(ps[0].ph, complement + self.extras(ps[1:]))
        if adjective in OBJECT_ADJECTIVES:
            prep = ADJECTIVE_PREPOSITIONS[adjective]
            return _be(ps[0].ph, f"{adjective} {prep} {phrase}" + self.extras(ps[1:]))
        subject = f"the {phrase} of {ps[0].ph}" + self.extras(ps[1:])
        if event:
            return _has_been(subject, adjective, is_plural(phrase))
        return _be(subject, adjective, is_plural(phrase))

    def nouns(self, w: list[str]) -> tuple[str, str]:
        """car ?c, calibration_target ?i ?o, key-shape ?k ?s."""
        ps = self.params
        phrase = " ".join(w)
        if not ps:
            pos, neg = _there(phrase, "")
            return pos.strip(), neg.strip()
        if len(ps) == 1:
            return _be(ps[0].ph, with_article(phrase))
        if len(ps) == 2:
            if w[-1] in RELATION_NOUNS:
                return _be(ps[0].ph, f"{with_article(phrase)} of {ps[1].ph}")
            if ps[0].place and ps[1].place and ps[0].nouns & ps[1].nouns:
                # road ?a ?b: "there is a road from {a} to {b}"
                pos, neg = _there(phrase, f"from {ps[0].ph} to {ps[1].ph}")
                return pos, neg
            rest = list(w)
            while len(rest) > 1 and ps[0].matches(rest[:1]):
                rest = rest[1:]
            return _has(ps[0].ph, f"{' '.join(rest)} {ps[1].ph}")
        return self.fallback(w)



"""Action rules: the imperative text, indefinite form and parameter descriptions of an action."""

from __future__ import annotations

from dataclasses import dataclass, field

from apb.engine.model import ActionSchema
from apb.nl.grammar import article, join_and, letter, words
from apb.nl.rules.lexicon import (
    CONTAINER_NOUNS,
    CONTAINER_VERBS,
    DIRECTION_ADVERBS,
    FROM_WORDS,
    MASS_NOUNS,
    MOTION_VERBS,
    NO_ARTICLE,
    OF_NOUNS,
    ORIENTATION_NOUNS,
    PHRASAL,
    PLACE_NOUNS,
    PLACE_VERBS,
    PREPOSITIONS,
    RECEIVER_NOUNS,
    TO_WORDS,
    VERB_PREPOSITIONS,
)
from apb.nl.rules.morphology import (
    head_word,
    is_plural,
    spaced,
    with_article,
    with_the,
)
from apb.nl.rules.reader import Param, Reader


@dataclass
class Phrase:
    """A piece of an action text: a preposition and the parameters it introduces."""

    prep: str
    params: list[Param]
    rank: int = 3
    nouns: list[str | None] = field(default_factory=list)


class ActionRules:
    """The imperative text, indefinite form and parameter descriptions of one action."""

    def __init__(self, reader: Reader, schema: ActionSchema) -> None:
        self.reader = reader
        self.schema = schema
        self.params = reader.action_params(schema)
        self.words = reader.vocab.split(schema.name) or [schema.name]

    def verb_phrase(self) -> tuple[list[str], list[str], str | None, str | None, list[str]]:
        """(verb words, object noun words, direction adverb, preposition in the name, the noun after it):
        'remove_pan_from_oven' -> [remove], [pan], None, 'from', [oven]."""
        w = list(self.words)
        if w[0] in DIRECTION_ADVERBS and all(x in DIRECTION_ADVERBS or x in PREPOSITIONS for x in w):
            return ["move"], [], w[0], None, []
        if (len(w[0]) <= 2 and w[0] not in ("go", "do")) or w[0] == "the":
            # 'a1', 'op2': no verb to speak of
            return ["do", " ".join(words(self.schema.name))], [], None, None, []
        verb = [w[0]]
        i = 1
        if i < len(w) and (w[0], w[i]) in PHRASAL:
            verb.append(w[i])
            i += 1
        if "and" in w[i:]:
            k = w.index("and", i)
            end = k + 2
            if end < len(w) and (w[k + 1], w[end]) in PHRASAL:
                end += 1
            verb = w[:end]
            i = end
        direction = None
        name_prep = None
        noun: list[str] = []
        prep_noun: list[str] = []
        for x in w[i:]:
            if x in DIRECTION_ADVERBS and direction is None:
                direction = x
            elif x in PREPOSITIONS and name_prep is None:
                name_prep = x
            elif name_prep is None:
                noun.append(x)
            else:
                prep_noun.append(x)
        return verb, noun, direction, name_prep, prep_noun

    def roles(self, motion: bool) -> dict[str, str]:
        """Prepositions that parameter names ask for: ?from, ?loc-to, ?curpos (from), ?d_new (to)."""
        roles: dict[str, str] = {}
        for p in self.params:
            w = p.name_words
            if not w:
                continue
            if (w[-1] in PREPOSITIONS and w[-1] not in DIRECTION_ADVERBS) or all(x in PREPOSITIONS for x in w):
                roles[p.name] = w[-1]
                continue
            spatial = p.place or p.region or p.has_class(ORIENTATION_NOUNS) or not p.nouns
            if not spatial or (p.own_noun is not None and head_word(p.own_noun) not in PLACE_NOUNS):
                continue
            if any(x in FROM_WORDS for x in w):
                roles[p.name] = "at" if not motion and "current" in w else "from"
            elif any(x in TO_WORDS for x in w):
                roles[p.name] = "to"
        return roles

    def direct_object(self, free: list[Param], noun: list[str], motion: bool,
                      verb: str = "") -> tuple[Param | None, list[str]]:
        """The parameter right after the verb, and what is left of the noun in the action name."""
        if motion:
            candidates = [p for p in free if p.agent or p.vehicle] or [p for p in free if not p.place]
        else:
            candidates = [p for p in free if not (p.agent or p.vehicle)] or free[:1]
            if verb not in PLACE_VERBS:  # 'board ?f - floor ?p - passenger': board passenger {p} at floor {f}
                candidates = [p for p in candidates if not p.place] + [p for p in candidates if p.place]
        first = candidates[0] if candidates else None
        if noun:
            match = next((p for p in free if p.matches(noun)), None)
            tail: list[str] = []
            if match is None:
                for k, word in enumerate(noun[:-1]):
                    match = next((p for p in free if p.matches([word])), None)
                    if match is not None:
                        noun, tail = noun[:k + 1], noun[k + 1:]
                        break
            if match is None:
                return None, noun  # 'pick up the laser', 'take an image of ...'
            match.display = " ".join(noun)  # 'put_egg_in_pan ?egg - ingredient': "put egg {egg}"
            match.after = " ".join(tail)
            if match is first or (motion and match.vehicle):
                return match, []
            return first, []
        return first, noun

    def build(self) -> dict:
        """The nl.yaml entry of the action: text, indefinite form and parameter descriptions."""
        verb, noun, direction, name_prep, prep_noun = self.verb_phrase()
        motion = verb[0] in MOTION_VERBS
        ps = self.params
        roles = self.roles(motion)
        free = [p for p in ps if p.name not in roles]
        direct, noun = self.direct_object(free, noun, motion, verb[0])
        noun_text = " ".join(noun)
        rest = [p for p in ps if p is not direct]
        phrases: list[Phrase] = []
        used: set[str] = set()

        def add(prep: str, p: Param, rank: int, shown: str | None = None, explicit: bool = False) -> None:
            phrases.append(Phrase(prep, [p], rank, [shown if explicit else p.display]))
            used.add(p.name)

        if noun and head_word(noun_text) in OF_NOUNS:
            target = next((p for p in rest if p.name not in roles and not (
                p.agent or p.vehicle or p.place or p.region or p.has_class(RECEIVER_NOUNS))), None)
            if target is not None:
                add("of", target, 0)
        literal = ""
        if name_prep and prep_noun:
            # 'put_egg_in_pan': the parameter the noun names gets the preposition, else "from the oven"
            match = next((p for p in rest if p.name not in roles and p.matches(prep_noun)), None)
            if match is not None:
                match.display = " ".join(prep_noun)
                add(name_prep, match, 3)
            else:
                literal = f"{name_prep} {with_the(' '.join(prep_noun))}"
            name_prep = None
        for p in rest:
            if p.name not in roles:
                continue
            role = roles[p.name]
            if name_prep == role:
                name_prep = None
            rank = 1 if role == "from" else 2 if role in ("to", "towards") else 3
            if role == "from" and direction:
                role, direction = f"{direction} from", None
            named = p.name_words[-1] in PREPOSITIONS or all(x in PREPOSITIONS for x in p.name_words)
            add(role, p, rank, p.type_noun if named else p.display, explicit=True)
        # two places of the same kind: a movement goes from the first to the second
        groups: dict[str, list[Param]] = {}
        for p in rest:
            if p.name not in used and p.place:
                groups.setdefault(p.display or "", []).append(p)
        for p in rest:
            if p.name not in used and (p.vehicle or p.has_class(CONTAINER_NOUNS)) and not p.place:
                groups.setdefault("~" + (p.display or ""), []).append(p)
        for group in groups.values():
            if len(group) == 2:
                add(f"{direction} from" if direction else "from", group[0], 1)
                add("to" if motion or not group[0].place else "towards", group[1], 2)
                direction = None
        verb_prep = None if noun or "and" in verb else VERB_PREPOSITIONS.get(verb[0])
        generic = ["with", "using", "with"]
        for p in rest:
            if p.name in used:
                continue
            rank = 3
            if name_prep and not (p.agent or p.place):
                prep, name_prep = name_prep, None
            elif direction and p.place:
                prep, direction, rank = f"{direction} from", None, 1
            elif p.place:
                prep = "at"
            elif p.region:
                prep = "in"
            elif p.has_class(ORIENTATION_NOUNS):
                prep = "in" if motion else "towards"
            elif verb_prep and not p.agent and (not p.vehicle or verb[0] in CONTAINER_VERBS):
                prep, verb_prep = verb_prep, None
            elif p.has_class(RECEIVER_NOUNS):
                prep = "to"
            elif p.has_class(CONTAINER_NOUNS) and not p.vehicle:
                prep = "in"
            elif (direct is not None and p.display and direct.display and not p.agent
                  and head_word(p.display) == head_word(direct.display)):
                prep, rank = "and", 0
            elif not p.nouns:
                prep = "with"
            else:
                prep = generic.pop(0) if generic else "and"
            add(prep, p, rank)
        phrases.sort(key=lambda ph: ph.rank)
        # neighbours with the same preposition are merged: "at waypoint {p}, waypoint {x} and waypoint {y}"
        merged: list[Phrase] = []
        for ph in phrases:
            if merged and merged[-1].prep == ph.prep and ph.rank == 3 and merged[-1].rank == 3:
                merged[-1].params.extend(ph.params)
                merged[-1].nouns.extend(ph.nouns)
            else:
                merged.append(ph)
        letters = {p.name: letter(i) for i, p in enumerate(ps)}
        lead = " ".join(verb)
        definite_parts = [lead]
        indefinite_parts = [lead]
        of_phrase = bool(merged and merged[0].prep == "of")
        obj = ""
        if noun:
            obj = with_article(noun_text) if of_phrase else _definite_object(noun_text)
            definite_parts.append(obj)
            indefinite_parts.append(obj)
        if direct is not None:
            definite_parts.append(_slot(direct.display, direct.ph) + spaced(direct.after))
            indefinite_parts.append(_slot_indefinite(direct.display, letters[direct.name]) + spaced(direct.after))
        if direction:  # a direction word no parameter took: 'paint-up' with a single tile
            definite_parts.append(direction)
            indefinite_parts.append(direction)
        for ph in merged:
            defs = [_slot(n, p.ph) for n, p in zip(ph.nouns, ph.params)]
            indefs = [_slot_indefinite(n, letters[p.name]) for n, p in zip(ph.nouns, ph.params)]
            definite_parts.append(f"{ph.prep} {join_and(defs)}")
            indefinite_parts.append(f"{ph.prep} {join_and(indefs)}")
        definite_parts.append(literal)
        indefinite_parts.append(literal)
        # parameter descriptions: "the car to board", "the location to sail from"
        doing = f"{lead} {obj}".strip()
        variables = {}
        for p in ps:
            what = p.display or ("place" if p.name in roles or p.place else "object")
            prep = next((ph.prep for ph in merged if p in ph.params), "")
            if p is direct or prep == "and":
                variables[p.name] = f"the {what} to {doing}"
            else:
                variables[p.name] = f"the {what} to {doing} {prep}"
        return {"text": " ".join(x for x in definite_parts if x),
                "indefinite": " ".join(x for x in indefinite_parts if x), "variables": variables}


def _definite_object(noun: str) -> str:
    """The object in an action name: 'rewind the movie', 'sample soil', 'get chips'."""
    first = noun.split()[0]
    if head_word(noun) in MASS_NOUNS or is_plural(noun) or first in NO_ARTICLE:
        return noun
    return "the " + noun


def _slot(noun: str | None, placeholder: str) -> str:
    return f"{noun} {placeholder}" if noun else placeholder


def _slot_indefinite(noun: str | None, mark: str) -> str:
    if not noun:
        return mark
    if head_word(noun) in MASS_NOUNS or is_plural(noun):
        return f"{noun} {mark}"
    return f"{article(noun)} {noun} {mark}"


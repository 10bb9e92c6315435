"""Reading PDDL names: splitting names into words, the nouns a parameter stands for, and a domain's `Reader`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apb.engine.model import ROOT_TYPE, ActionSchema, Domain, Parameter
from apb.nl.grammar import words
from apb.nl.rules.lexicon import (
    ABBREVIATIONS,
    ACTION_VERBS,
    ADJECTIVES,
    AGENT_NOUNS,
    DIRECTION_ADVERBS,
    FROM_WORDS,
    NOUNS,
    PLACE_NOUNS,
    PREPOSITIONS,
    REGION_NOUNS,
    SPLIT_ABBREVIATIONS,
    SPLIT_PIECES_SHORT,
    SUBJECT_VERBS,
    TO_WORDS,
    VEHICLE_NOUNS,
    VERBS,
    word_set,
)
from apb.nl.rules.morphology import (
    head_word,
    is_adjective,
    is_gerund,
    is_known_word,
    is_participle,
    is_real_word,
)


def segment(token: str, lexicon: frozenset[str]) -> list[str] | None:
    """Splits a compound without separators into known words ('handempty' -> hand, empty), or None."""
    n = len(token)
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(1, n + 1):
        for start in range(end):
            prev = best[start]
            if prev is None or end - start == n:
                continue
            piece = token[start:end]
            ok = piece in SPLIT_PIECES_SHORT if len(piece) <= 2 else (
                (piece in lexicon and (piece not in ABBREVIATIONS or piece in SPLIT_ABBREVIATIONS))
                or (len(piece) >= 5 and is_participle(piece)))
            if ok and (best[end] is None or len(prev) + 1 < len(best[end])):
                best[end] = [*prev, piece]
    result = best[n]
    return result if result is not None and len(result) >= 2 else None


class Vocabulary:
    """Splits and expands names into words, with the domain's own type names as extra known words."""

    def __init__(self, domain: Domain) -> None:
        extra = set()
        for name in domain.types:
            extra.update(words(name))
        self.lexicon = frozenset(
            w for w in (NOUNS | ADJECTIVES | PREPOSITIONS | VERBS | ACTION_VERBS | SUBJECT_VERBS | set(ABBREVIATIONS)
                        | DIRECTION_ADVERBS | extra
                        | word_set("is are not and has"))
            if len(w) >= 3) | SPLIT_PIECES_SHORT
        self._cache: dict[str, list[str]] = {}

    def split(self, name: str) -> list[str]:
        """'at-ferry' -> [at, ferry]; 'handempty' -> [hand, empty]; 'curpos' -> [current, position]."""
        cached = self._cache.get(name)
        if cached is not None:
            return list(cached)
        out: list[str] = []
        for token in words(name):
            token = token.strip("?")
            stem = re.sub(r"\d+$", "", token)
            if not stem:
                continue
            if stem in ABBREVIATIONS:
                out.extend(ABBREVIATIONS[stem])
                continue
            if not is_known_word(stem) and stem not in self.lexicon and len(stem) >= 4:
                pieces = segment(stem, self.lexicon)
                if pieces:
                    for piece in pieces:
                        out.extend(ABBREVIATIONS.get(piece, (piece,)))
                    continue
            out.append(stem)
        self._cache[name] = out
        return list(out)



# ---- parameters ---------------------------------------------------------------------------------------------------
@dataclass
class Param:
    """A parameter of a predicate or action with what is known about the kind of object it stands for."""

    name: str                          # placeholder name: 'loc-from'
    type_noun: str | None = None       # noun of the declared type, None for 'object'
    nouns: set[str] = field(default_factory=set)
    display: str | None = None         # the noun written before its placeholder in actions
    name_words: list[str] = field(default_factory=list)
    own_noun: str | None = None        # the noun the parameter's name stands for
    after: str = ""                    # words of the action name written after the placeholder

    @property
    def ph(self) -> str:
        return "{" + self.name + "}"

    def heads(self) -> set[str]:
        return {head_word(n) for n in self.nouns} | self.nouns

    def has_class(self, nouns: frozenset[str]) -> bool:
        return any(head_word(n) in nouns for n in self.nouns)

    @property
    def agent(self) -> bool:
        return self.has_class(AGENT_NOUNS)

    @property
    def vehicle(self) -> bool:
        return self.has_class(VEHICLE_NOUNS)

    @property
    def place(self) -> bool:
        return self.has_class(PLACE_NOUNS) and not self.agent and not self.vehicle

    @property
    def region(self) -> bool:
        return self.has_class(REGION_NOUNS)

    def matches(self, noun_words: list[str]) -> bool:
        """Whether a noun phrase from a name denotes this parameter ('robot' for ?r - robot)."""
        if not noun_words:
            return False
        phrase = " ".join(noun_words)
        return phrase in self.nouns or noun_words[-1] in self.heads()


class Reader:
    """Everything the rules need to know about a domain, computed once."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        self.vocab = Vocabulary(domain)
        self.type_names = {t: self.type_noun(t) for t in domain.types if t != ROOT_TYPE}
        fluents = {e.predicate for a in domain.actions for e in a.effects}
        # static unary predicates named by a noun act as types in untyped domains: (car ?c)
        self.type_predicates: dict[str, str] = {}
        for name, schema in domain.predicates.items():
            if len(schema.parameters) != 1 or name in fluents:
                continue
            w = self.vocab.split(name)
            if w and w[0] in ("is", "a", "an"):
                w = w[1:]
            if w and all(not is_adjective(x) and x not in PREPOSITIONS and not is_gerund(x) for x in w):
                self.type_predicates[name] = " ".join(w)
        self.action_nouns: dict[str, list[set[str]]] = {}
        for schema in domain.actions:
            nouns = []
            for p in schema.parameters:
                found = {self.type_predicates[lit.predicate] for lit in schema.precondition
                         if lit.positive and lit.predicate in self.type_predicates and lit.args == (p.name,)}
                nouns.append(found)
            self.action_nouns[schema.name] = nouns

    # -- types
    def type_noun(self, type_name: str) -> str:
        """The noun of a type name ('truck'; an adjective gets 'object': 'movable object')."""
        w = self.vocab.split(type_name) or [type_name]
        if len(w) == 1 and is_adjective(w[0]) and w[0] not in NOUNS:
            w = [*w, "object"]
        return " ".join(w)

    def declared_nouns(self, param: Parameter) -> set[str]:
        """The nouns of a parameter's declared types and their supertypes."""
        out = set()
        for t in param.types:
            for ancestor in self.domain.ancestors(t):
                if ancestor != ROOT_TYPE and ancestor in self.type_names:
                    out.add(self.type_names[ancestor])
        return out

    def name_noun(self, param_name: str) -> tuple[str | None, list[str]]:
        """The noun a parameter name stands for ('?truck' -> truck, '?loc-from' -> location, '?x' -> None)."""
        w = self.vocab.split(param_name.lstrip("?"))
        kept = [x for x in w if x not in PREPOSITIONS and len(x) > 1]
        nouns = [x for x in kept if x not in FROM_WORDS and x not in TO_WORDS]
        if nouns and head_word(" ".join(nouns)) in PLACE_NOUNS:
            kept = nouns
        if not kept or not all(is_real_word(x) for x in kept) or all(is_adjective(x) for x in kept):
            return None, w
        return " ".join(kept), w

    def param(self, parameter: Parameter, inferred: set[str] | None = None) -> Param:
        """What the rules know about one parameter: its nouns, the noun to show, its name's words."""
        name = parameter.name.lstrip("?")
        declared = self.declared_nouns(parameter)
        type_noun = None
        if len(parameter.types) == 1 and parameter.types[0] != ROOT_TYPE:
            type_noun = self.type_names.get(parameter.types[0])
        noun, name_words = self.name_noun(name)
        nouns = set(declared) | set(inferred or ())
        if noun:
            nouns.add(noun)
        if type_noun:
            display = type_noun
        elif noun and inferred and head_word(noun) in inferred and len(noun.split()) > 1:
            display = noun  # ?newkey with (key ?newkey): "new key"
        else:
            display = (sorted(inferred)[0] if inferred else None) or noun
        return Param(name, type_noun, nouns, display, name_words, noun)

    def predicate_params(self, name: str) -> list[Param]:
        """The parameters of a predicate, with nouns inferred from how actions use it."""
        schema = self.domain.predicates[name]
        inferred: list[set[str]] = [set() for _ in schema.parameters]
        for action in self.domain.actions:
            nouns = self.action_nouns[action.name]
            index = {p.name: i for i, p in enumerate(action.parameters)}
            for lit in (*action.precondition, *action.effects):
                if lit.predicate != name:
                    continue
                for k, arg in enumerate(lit.args[:len(inferred)]):
                    if arg in index:
                        inferred[k] |= nouns[index[arg]]
                        own, _ = self.name_noun(arg)
                        if own:
                            inferred[k].add(own)
        return [self.param(p, inferred[k]) for k, p in enumerate(schema.parameters)]

    def action_params(self, schema: ActionSchema) -> list[Param]:
        """The parameters of an action, with nouns from its type predicates."""
        nouns = self.action_nouns[schema.name]
        return [self.param(p, nouns[k]) for k, p in enumerate(schema.parameters)]


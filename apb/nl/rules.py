"""Rule-based NL templates for any PDDL domain, read off predicate, action, parameter and type names.

`rule_templates(domain)` writes an nl.yaml-shaped mapping and checks it with `build_templates`, so every predicate
and action of the domain gets a text, a negated text (predicates), an indefinite form and parameter descriptions
(actions). It is the fallback for imported domains that come without descriptions and fills the gaps of imported
descriptions.

How names are read:

- Names are split into words (`at-ferry`, `atFerry`; compounds from a small lexicon: `handempty` -> hand empty,
  `curpos` -> current position), common abbreviations are expanded (`conn` -> connected, `loc` -> location,
  `robby` -> robot, ...).
- Every parameter gets nouns: its declared type (and supertypes), the static unary "type predicates" that actions
  require of it in untyped domains (`(car ?car)`), and its own name if that is a word (`?truck`, `?loc`).
- Predicates are matched against a handful of English patterns: a type noun (`car ?c` -> "{c} is a car"),
  preposition + noun (`at-ferry ?l` -> "the ferry is at {l}", `in-city ?o ?c` -> "{o} is in city {c}"),
  noun + preposition (`robot-at ?x` -> "the robot is at {x}", `bomb-at ?x` -> "there is a bomb at {x}"),
  bare relations and directions (`on ?x ?y` -> "{x} is on {y}", `up ?x ?y` -> "{x} is above {y}"), adjectives and
  participles (`clear`, `empty-ferry`, `movie-rewound`), verbs (`supports`, `holding`, `have_image`, `can_traverse`).
  The PDDL argument order is read literally, never swapped (`(up ?x ?y)`: ?x is above ?y), every argument is
  mentioned exactly once, and the negated form is built with the sentence ("is not", "does not support",
  "I do not have", "there is no", "cannot"). Whatever matches no pattern becomes "{x} is <words> {y}" or
  "<words> holds for {a}, {b} and {c}".
- Actions read as imperatives: the verb from the action name, a direct object with its noun ("board car {car}"),
  then prepositional phrases: parameters named after a preposition (`?from`, `?loc-to`) keep it, places get "at",
  cities and rooms "in", two places of a movement "from ... to ...", agents and tools "with"/"using".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apb.engine.model import ROOT_TYPE, ActionSchema, Domain, Parameter
from apb.nl.grammar import article, join_and, letter, words
from apb.nl.templates import NLTemplates, build_templates


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


# ---- lexicon ------------------------------------------------------------------------------------------------------
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "conn": ("connected",), "loc": ("location",), "locs": ("locations",), "obj": ("object",), "ob": ("object",),
    "avail": ("available",), "pos": ("position",), "cur": ("current",), "curr": ("current",),
    "prev": ("previous",), "dest": ("destination",), "src": ("source",), "num": ("number",), "eq": ("equal",),
    "neq": ("not", "equal"),
    "destin": ("destination",), "robby": ("robot",), "veh": ("vehicle",), "pkg": ("package",), "tgt": ("target",),
    "img": ("image",), "dir": ("direction",), "qty": ("quantity",), "adj": ("adjacent",),
    "calib": ("calibration",), "inst": ("instrument",), "wp": ("waypoint",), "rm": ("room",), "pt": ("point",),
    "lvl": ("level",), "init": ("initial",), "pwr": ("power",), "cnt": ("count",), "res": ("resource",),
}
PREPOSITIONS = _set("at on in into onto inside outside under over above below near beside behind from to with "
                    "without of for by between across through towards toward within via off upon beneath along "
                    "against around aboard up down")
# the noun after these is where the argument is: 'at-ferry ?l' reads "the ferry is at {l}"
LOCATIVE = _set("at near beside by")
DIRECTIONS = {"up": "above", "down": "below", "above": "above", "below": "below", "left": "to the left of",
              "right": "to the right of", "north": "north of", "south": "south of", "east": "east of",
              "west": "west of", "northeast": "northeast of", "northwest": "northwest of",
              "southeast": "southeast of", "southwest": "southwest of", "under": "under", "over": "over",
              "behind": "behind", "beneath": "beneath"}
DIRECTION_ADVERBS = _set("up down left right north south east west forward forwards backward backwards")
ADJECTIVES = _set(
    "clear free empty full open closed shut available busy idle ready visible dirty clean hot cold warm wet dry lit "
    "bright dark safe unsafe alive dead active inactive done new old current next previous same different equal "
    "adjacent valid invalid true false good bad big small large soft hard heavy high low blocked reachable "
    "accessible solid liquid ripe raw fresh sick healthy happy hungry thirsty tired asleep awake awake sober "
    "upright flat smooth rough empty whole broken random initial final first last other near far close "
    "compatible identical similar opposite fit unfit able unable present absent occupied vacant ok online allergic "
    "immune afraid aware capable responsible suitable "
    "offline vertical horizontal inverted straight diagonal movable static mobile usable")
IRREGULAR_PARTICIPLES = _set(
    "rewound done taken broken held built shown known seen written sold bought found lost made hidden given driven "
    "frozen stolen chosen worn torn drawn grown thrown fallen eaten beaten sent spent won hung caught taught "
    "brought thought fed led paid laid wound bound ground stuck struck spun split shut set put cut")
NOT_PARTICIPLES = _set("bed red shed sled seed need feed speed weed reed hundred bred sacred naked wicked bleed "
                       "breed greed creed steed tweed embed")
# participles that describe something that happened: "{x} has been visited"
EVENT_PARTICIPLES = _set(
    "visited communicated delivered served reached achieved collected consumed used processed seen sent done "
    "completed finished scanned sampled photographed checked inspected explored analysed analyzed taken eaten "
    "detonated fired recorded reported transmitted uploaded downloaded printed signed approved graded tested "
    "measured counted sorted treated cured vaccinated harvested watered fed cleaned washed emptied")
# binary participles/adjectives and the preposition before their second argument
ADJECTIVE_PREPOSITIONS = {
    "connected": "to", "adjacent": "to", "next": "to", "equal": "to", "identical": "to", "similar": "to",
    "close": "to", "attached": "to", "linked": "to", "joined": "to", "assigned": "to", "allocated": "to",
    "married": "to", "related": "to", "parallel": "to", "opposite": "to", "visible": "from", "reachable": "from",
    "accessible": "from", "different": "from", "far": "from", "compatible": "with", "equipped": "with",
    "paired": "with", "filled": "with", "covered": "with", "located": "at", "stored": "in", "contained": "in",
    "loaded": "in", "parked": "at", "placed": "on", "mounted": "on", "installed": "on", "painted": "",
    "colored": "", "coloured": "", "owned": "by", "held": "by", "carried": "by", "occupied": "by",
    "near": "", "calibrated": "for", "ready": "for", "available": "for", "used": "with", "allergic": "to",
    "immune": "to", "afraid": "of", "aware": "of", "capable": "of", "responsible": "for", "suitable": "for",
}
# adjectives that take their noun as an object: (allergic-gluten ?c) "{c} is allergic to gluten"
OBJECT_ADJECTIVES = _set("allergic immune afraid aware capable responsible suitable")
# verbs known only to split action names without separators ('pickup' -> pick up)
ACTION_VERBS = _set("pick put take drop get set turn switch lift load unload push pull throw move go clean walk "
                    "drive fly sail board debark stack unstack paint fire detonate sample calibrate communicate "
                    "navigate open close lock unlock start stop reset rewind undo fill pour mix bake wash cook cut "
                    "serve grab release hold carry climb jump enter leave exit visit charge")
# verbs whose second object may be a vehicle: "load crate {c} into truck {t}"
CONTAINER_VERBS = _set("load unload insert remove board")
ADJECTIVE_SUFFIXES = ("able", "ible", "ful", "less", "ous", "ical")
VERBS = _set(
    "support contain carry hold have need require connect match fit see reach cover touch face link serve use own "
    "know want like love hate include overlap precede follow block occupy point lead belong drive go wear "
    "fill feed guard protect watch control operate exceed share visit hide accept allow contact hear exist "
    "produce consume store transport deliver pull push unlock lock open close enter leave")
NOT_GERUNDS = _set("thing ring king wing string spring ceiling building morning evening nothing something anything "
                   "everything sibling ping bing sing sting swing sling bring during ding")
GERUND_PREPOSITIONS = {"pointing": "at", "looking": "at", "aiming": "at", "waiting": "for", "heading": "to",
                       "going": "to", "moving": "to", "travelling": "to", "traveling": "to", "listening": "to",
                       "talking": "to", "working": "on", "standing": "on", "sitting": "on", "lying": "on"}
SUBJECT_VERBS = _set("have has can")
NOUNS = _set(
    "robot agent hand arm gripper hoist crane player person man woman worker operator driver pilot passenger "
    "truck airplane plane aeroplane ferry ship boat car rover satellite drone vehicle train bus taxi elevator lift "
    "tram helicopter van cart table floor ground shelf box bin bag container basket pan oven pot bowl cup plate "
    "location place position waypoint tile cell square spot point node site depot distributor airport station "
    "stop field junction corner door room city area region zone country town building house hall sector world "
    "mode direction key lock shape block crate pallet surface package parcel object item thing ball egg flour "
    "soap cake souffle ingredient counter movie chips dip pop cheese crackers gold bomb laser rock soil sample "
    "image data camera instrument lander channel store power target calibration analysis objective color colour "
    "paint goal home base start end number level fuel water food energy board side top bottom left right front "
    "back way road street path bridge gate wall window light switch button lamp lever door sensor battery "
    "charger dock port cargo load package letter mail message order customer patient doctor nurse child bed "
    "tray glass bottle cocktail shot shaker ingredient dispenser machine tool part piece card deck pile stack "
    "peg disc disk tower hole grid map cup sock shoe shirt tree plant seed fruit apple bread meal dish sandwich "
    "content contents vertex edge graph line segment ramp stair stairs step exit entrance shelf drawer cabinet "
    "fridge stove sink faucet tap mug knife fork spoon spatula whisk bowl jar can lid")
MASS_NOUNS = _set("gold water soil rock sand power fuel food data information cheese dip pop flour soap paint oil gas "
                  "air money energy bread milk coffee tea rice salt sugar imaging wood metal iron steel stone "
                  "coal ice snow fire smoke light electricity dough batter meat wine beer juice")
SINGULAR_S = _set("gas bus lens series species news physics canvas atlas boss glass analysis axis status campus "
                  "class mass grass chess dress press process address access success bonus virus cactus status "
                  "bus chaos kiss loss boss")
NO_ARTICLE = _set("zero one two three four five six seven eight nine ten home board rest work top bottom "
                  "other nothing something everything anything")
AGENT_NOUNS = _set("robot agent hand arm gripper hoist crane player person man woman worker operator driver pilot "
                   "me i")
VEHICLE_NOUNS = _set("truck airplane plane aeroplane ferry ship boat rover satellite drone vehicle train bus taxi "
                     "elevator lift tram helicopter van cart")
PLACE_NOUNS = _set("location place position waypoint tile cell square spot point node site depot distributor "
                   "airport station stop field junction corner door floor table ground shelf goal home base start "
                   "end vertex")
REGION_NOUNS = _set("city room area region zone country town building house hall sector world mode language format")
CONTAINER_NOUNS = _set("store box bin bag container basket pan oven pot bowl cup truck airplane plane ferry cart "
                       "drawer cabinet fridge jar glass bottle shaker")
RECEIVER_NOUNS = _set("lander base station receiver antenna hub server customer")
ORIENTATION_NOUNS = _set("direction heading orientation")
# nouns whose implicit mention is unique: "the robot is at {x}", "the hand is empty"
UNIQUE_NOUNS = AGENT_NOUNS | VEHICLE_NOUNS | _set("table floor ground counter movie sun sky world")
# nouns after an action verb that take an "of" complement: "take an image of objective {o}"
OF_NOUNS = _set("image picture photo photograph analysis data color colour content contents copy measurement "
                "reading scan map view video recording sample")
RELATION_NOUNS = _set("parent child father mother son daughter owner friend neighbor neighbour successor "
                      "predecessor part member sibling ancestor descendant partner leader copy subset instance "
                      "capital boss")
# verbs whose object is a place: "paint tile {y}", "unlock place {p}"
PLACE_VERBS = _set("paint clean visit unlock lock open close explore inspect scan survey dig mine water occupy clear "
                   "sweep mop build mark photograph reach enter leave")
MOTION_VERBS = _set("move drive navigate fly sail go walk travel turn ride run climb jump swim steer roll slide "
                    "teleport hop step crawl descend ascend cross approach rotate")
PHRASAL = {("pick", "up"), ("put", "down"), ("switch", "on"), ("switch", "off"), ("turn", "on"), ("turn", "off"),
           ("take", "off"), ("set", "up"), ("put", "on"), ("put", "away"), ("take", "out"), ("pick", "out"),
           ("clean", "up"), ("plug", "in"), ("log", "in"), ("log", "out"), ("shut", "down"), ("lay", "down"),
           ("set", "down"), ("hand", "over"), ("give", "up"), ("wake", "up"), ("back", "up"), ("fill", "up"),
           ("pour", "out"), ("get", "off"), ("get", "on"), ("get", "out"), ("get", "in"), ("take", "down"),
           ("put", "in"), ("put", "out"), ("tidy", "up"), ("warm", "up"), ("heat", "up"), ("cool", "down")}
# the preposition of an action's second object, by verb
VERB_PREPOSITIONS = {
    "load": "into", "unload": "from", "stack": "on", "unstack": "from", "drop": "onto", "put": "on", "take": "from",
    "remove": "from", "insert": "into", "attach": "to", "detach": "from", "connect": "to", "disconnect": "from",
    "give": "to", "pass": "to", "hand": "to", "throw": "at", "pour": "into", "fill": "with", "place": "on",
    "mount": "on", "unmount": "from", "plug": "into", "unplug": "from", "lift": "from", "lower": "onto",
    "pick": "from", "push": "to", "pull": "from", "transfer": "to", "deliver": "to", "send": "to", "show": "to",
    "change": "to", "convert": "to", "swap": "with", "exchange": "for", "replace": "with", "feed": "to",
    "serve": "to", "carry": "to", "bring": "to", "fetch": "from", "get": "from", "grab": "from", "store": "in",
}
# parameter name words that stand for the start or the end of a movement
FROM_WORDS = _set("from current previous source origin start initial old departure")
TO_WORDS = _set("to next destination target goal end final new arrival")
NOISE_DOMAIN_WORDS = _set("strips typed untyped adl domain complex simple propositional grounded")
SPLIT_PIECES_SHORT = _set("on in at to is up of by ob")
# abbreviations that may be part of a compound: 'curpos', 'underob'; not 'destin' (dest + in)
SPLIT_ABBREVIATIONS = _set("pos loc obj cur curr avail prev conn")


def _known(word: str) -> bool:
    return (word in NOUNS or word in ADJECTIVES or word in PREPOSITIONS or word in VERBS or word in ABBREVIATIONS
            or word in SUBJECT_VERBS or word in _set("is are not and the a") or word in IRREGULAR_PARTICIPLES
            or _third_person_base(word) is not None)


def _is_participle(word: str) -> bool:
    if word in IRREGULAR_PARTICIPLES:
        return True
    return len(word) >= 4 and word.endswith("ed") and word not in NOT_PARTICIPLES


def _is_adjective(word: str) -> bool:
    if word in ADJECTIVES or _is_participle(word):
        return True
    return word not in NOUNS and len(word) > 5 and word.endswith(ADJECTIVE_SUFFIXES)


def _is_gerund(word: str) -> bool:
    return len(word) >= 5 and word.endswith("ing") and word not in NOT_GERUNDS


def _third_person(base: str) -> str:
    if base == "have":
        return "has"
    if base.endswith(("s", "x", "z", "ch", "sh", "o")):
        return base + "es"
    if base.endswith("y") and len(base) > 1 and base[-2] not in "aeiou":
        return base[:-1] + "ies"
    return base + "s"


def _third_person_base(word: str) -> str | None:
    """The base form of a known verb in the third person ('supports' -> 'support'), else None."""
    if word == "has":
        return "have"
    for base in (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else ""):
        if base in VERBS and _third_person(base) == word:
            return base
    return None


def _looks_third_person(word: str) -> bool:
    return (len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ous"))
            and word not in NOUNS and word not in SINGULAR_S)


def _base_of(third: str) -> str:
    """'dispenses' -> 'dispense', 'matches' -> 'match', 'carries' -> 'carry'."""
    if third.endswith("ies"):
        return third[:-3] + "y"
    if third.endswith(("ches", "shes", "xes", "zes", "sses", "oes")):
        return third[:-2]
    return third[:-1]


def _gerund_of(base: str) -> str:
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return base[:-1] + "ing"
    return base + "ing"


def _is_plural(noun: str) -> bool:
    last = noun.split()[-1] if noun.split() else noun
    return (len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))
            and last not in SINGULAR_S)


def _head(noun: str) -> str:
    parts = noun.split()
    return parts[-1] if parts else ""


def _indefinite(noun: str) -> str:
    """'a car', 'an image', 'gold', 'chips'."""
    first = noun.split()[0] if noun.split() else noun
    if _head(noun) in MASS_NOUNS or _is_plural(noun) or first in NO_ARTICLE:
        return noun
    return f"{article(noun)} {noun}"


def _definite(noun: str) -> str:
    first = noun.split()[0] if noun.split() else noun
    if first in NO_ARTICLE or first.isdigit():
        return noun
    return "the " + noun


# ---- splitting names ----------------------------------------------------------------------------------------------
def _segment(token: str, lexicon: frozenset[str]) -> list[str] | None:
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
                or (len(piece) >= 5 and _is_participle(piece)))
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
                        | _set("is are not and has"))
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
            if not _known(stem) and stem not in self.lexicon and len(stem) >= 4:
                pieces = _segment(stem, self.lexicon)
                if pieces:
                    for piece in pieces:
                        out.extend(ABBREVIATIONS.get(piece, (piece,)))
                    continue
            out.append(stem)
        self._cache[name] = out
        return list(out)


def _real_word(word: str) -> bool:
    return word in NOUNS or word in ADJECTIVES or (len(word) >= 4 and any(c in "aeiouy" for c in word)
                                                    and word.isalpha())


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
        return {_head(n) for n in self.nouns} | self.nouns

    def has_class(self, nouns: frozenset[str]) -> bool:
        return any(_head(n) in nouns for n in self.nouns)

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
            if w and all(not _is_adjective(x) and x not in PREPOSITIONS and not _is_gerund(x) for x in w):
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
        w = self.vocab.split(type_name) or [type_name]
        if len(w) == 1 and _is_adjective(w[0]) and w[0] not in NOUNS:
            w = [*w, "object"]
        return " ".join(w)

    def declared_nouns(self, param: Parameter) -> set[str]:
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
        if nouns and _head(" ".join(nouns)) in PLACE_NOUNS:
            kept = nouns
        if not kept or not all(_real_word(x) for x in kept) or all(_is_adjective(x) for x in kept):
            return None, w
        return " ".join(kept), w

    def param(self, parameter: Parameter, inferred: set[str] | None = None) -> Param:
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
        elif noun and inferred and _head(noun) in inferred and len(noun.split()) > 1:
            display = noun  # ?newkey with (key ?newkey): "new key"
        else:
            display = (sorted(inferred)[0] if inferred else None) or noun
        return Param(name, type_noun, nouns, display, name_words, noun)

    def predicate_params(self, name: str) -> list[Param]:
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
        nouns = self.action_nouns[schema.name]
        return [self.param(p, nouns[k]) for k, p in enumerate(schema.parameters)]


# ---- predicates ---------------------------------------------------------------------------------------------------
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
    return f"{subject} {_third_person(base)}{rest}", f"{subject} does not {base}{rest}"


def _has_been(subject: str, participle: str, plural_subject: bool = False) -> tuple[str, str]:
    have = "have" if subject == "I" or plural_subject else "has"
    return f"{subject} {have} been {participle}", f"{subject} {have} not been {participle}"


def _there(noun: str, rest: str) -> tuple[str, str]:
    verb = "are" if _is_plural(noun) else "is"
    return f"there {verb} {_indefinite(noun)} {rest}", f"there {verb} no {noun} {rest}"


def _tail(text: str) -> str:
    return f" {text}" if text else ""


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
        if _is_gerund(first):
            return self.gerund(first, w[1:])
        base = _third_person_base(first)
        if base is not None and (len(ps) >= 2 or (not ps and len(w) > 1)):
            return self.verb(base, w[1:])
        if first in VERBS and first not in NOUNS and (len(ps) >= 2 or len(w) > 1):
            return self.verb(first, w[1:])
        if first in VERBS and first not in NOUNS and len(ps) == 1 and not _is_adjective(first):
            return _verb(ps[0].ph, first, "")  # (exist ?x): "{x} exists"
        if len(w) == 1 and len(ps) == 2 and _looks_third_person(first):
            return self.verb(_base_of(first), [])  # (dispenses ?d ?i): "{d} dispenses {i}"
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
        return _definite(" ".join(noun)), ps, False

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
        return f"{subject} can {verb}{_tail(rest_text)}", f"{subject} cannot {verb}{_tail(rest_text)}"

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
            return f"{_indefinite(phrase)} of {others[0].ph}" + self.extras(others[1:])
        return _indefinite(phrase)

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
        if len(rest) == 1 and not _is_adjective(rest[0]) and rest[0] not in PREPOSITIONS:
            complement = _indefinite(complement)
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
                parts.append(_indefinite(" ".join(rest)) if all(x not in PREPOSITIONS for x in rest)
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
            obj = self.object_phrase(rest, others) if others else _indefinite(" ".join(rest))
        elif others:
            obj = others[0].ph + self.extras(others[1:])
        else:
            obj = ""
        if subject == "I" and base in ("hold", "carry", "wear"):
            return _be("I", f"{_gerund_of(base)} {obj}".strip())  # (holds-bomb): "I am holding a bomb"
        return _verb(subject, base, obj)

    def prepositional(self, before: list[str], prep: str, after: list[str]) -> tuple[str, str]:
        ps = self.params
        after_noun = [x for x in after if x not in PREPOSITIONS]
        if before and all(_is_adjective(x) for x in before):
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
            target = _definite(object_text) if after and all(x not in PREPOSITIONS for x in after) \
                and _head(object_text) in NOUNS else object_text
            return _be(_definite(noun), f"{prep} {target}".strip(), _is_plural(noun))
        if prep == "of":
            # color-of ?x ?c: "the color of {x} is {c}"
            subject = f"the {noun} of {ps[0].ph}"
            if len(ps) >= 2:
                return _be(subject, ps[1].ph + self.extras(ps[2:]))
            return _be(f"{ps[0].ph}", f"the {noun} of something")
        if prep in ("on", "off") and not after and len(ps) == 1 and _head(noun) not in UNIQUE_NOUNS:
            return _be(f"the {noun} of {ps[0].ph}", prep)
        complement = self.complement(prep, after, ps)
        if _head(noun) in UNIQUE_NOUNS:
            return _be(_definite(noun), complement, _is_plural(noun))
        return _there(noun, complement)

    def complement(self, prep: str, after: list[str], others: list[Param]) -> str:
        """'at {x}', 'in city {c}', 'in the oven', 'on board {r}' (+ leftover arguments)."""
        after_noun = [x for x in after if x not in PREPOSITIONS]
        if not others:
            if not after:
                return prep
            phrase = " ".join(after)
            if all(x not in PREPOSITIONS for x in after):
                phrase = _definite(phrase)
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
            return _be("I", f"{prep} {_definite(phrase)}" if phrase else prep)
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
        head = _head(phrase)
        # at-ferry ?l (a location): the ferry is there; at-curb ?car: the car is at the curb
        located = p0.place or p0.region or (not p0.nouns and head in UNIQUE_NOUNS)
        if (prep in LOCATIVE and head not in PLACE_NOUNS and not p0.matches(after_noun) and located
                and all(x not in PREPOSITIONS for x in after)):
            # at-ferry ?l: the ferry is at {l}
            if head in UNIQUE_NOUNS:
                return _be(_definite(phrase), f"{prep} {p0.ph}", _is_plural(phrase))
            return _there(phrase, f"{prep} {p0.ph}")
        # ontable ?x, in-oven ?p: the argument is in/on the thing
        target = _definite(phrase) if all(x not in PREPOSITIONS for x in after) else phrase
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
        adjective_last = _is_adjective(w[-1])
        adjective_first = _is_adjective(w[0])
        if all(_is_adjective(x) for x in w):
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
        if prep is None and not _is_participle(last):
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
            subject, others, plural_subject = _definite(phrase), [], _is_plural(phrase)
        elif ps[0].matches(noun):
            subject, others, plural_subject = ps[0].ph, ps[1:], False
        else:
            subject, others, plural_subject = f"the {phrase} of {ps[0].ph}", ps[1:], _is_plural(phrase)
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
                return _has_been(_definite(phrase), adjective, _is_plural(phrase))
            return _be(_definite(phrase), adjective, _is_plural(phrase))
        if ps[0].matches(noun):
            complement = _indefinite(f"{adjective} {phrase}")
            return _be(ps[0].ph, complement + self.extras(ps[1:]))
        if adjective in OBJECT_ADJECTIVES:
            prep = ADJECTIVE_PREPOSITIONS[adjective]
            return _be(ps[0].ph, f"{adjective} {prep} {phrase}" + self.extras(ps[1:]))
        subject = f"the {phrase} of {ps[0].ph}" + self.extras(ps[1:])
        if event:
            return _has_been(subject, adjective, _is_plural(phrase))
        return _be(subject, adjective, _is_plural(phrase))

    def nouns(self, w: list[str]) -> tuple[str, str]:
        """car ?c, calibration_target ?i ?o, key-shape ?k ?s."""
        ps = self.params
        phrase = " ".join(w)
        if not ps:
            pos, neg = _there(phrase, "")
            return pos.strip(), neg.strip()
        if len(ps) == 1:
            return _be(ps[0].ph, _indefinite(phrase))
        if len(ps) == 2:
            if w[-1] in RELATION_NOUNS:
                return _be(ps[0].ph, f"{_indefinite(phrase)} of {ps[1].ph}")
            if ps[0].place and ps[1].place and ps[0].nouns & ps[1].nouns:
                # road ?a ?b: "there is a road from {a} to {b}"
                pos, neg = _there(phrase, f"from {ps[0].ph} to {ps[1].ph}")
                return pos, neg
            rest = list(w)
            while len(rest) > 1 and ps[0].matches(rest[:1]):
                rest = rest[1:]
            return _has(ps[0].ph, f"{' '.join(rest)} {ps[1].ph}")
        return self.fallback(w)


# ---- actions ------------------------------------------------------------------------------------------------------
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
            if not spatial or (p.own_noun is not None and _head(p.own_noun) not in PLACE_NOUNS):
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

        if noun and _head(noun_text) in OF_NOUNS:
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
                literal = f"{name_prep} {_definite(' '.join(prep_noun))}"
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
                  and _head(p.display) == _head(direct.display)):
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
            obj = _indefinite(noun_text) if of_phrase else _definite_object(noun_text)
            definite_parts.append(obj)
            indefinite_parts.append(obj)
        if direct is not None:
            definite_parts.append(_slot(direct.display, direct.ph) + _tail(direct.after))
            indefinite_parts.append(_slot_indefinite(direct.display, letters[direct.name]) + _tail(direct.after))
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
    if _head(noun) in MASS_NOUNS or _is_plural(noun) or first in NO_ARTICLE:
        return noun
    return "the " + noun


def _slot(noun: str | None, placeholder: str) -> str:
    return f"{noun} {placeholder}" if noun else placeholder


def _slot_indefinite(noun: str | None, mark: str) -> str:
    if not noun:
        return mark
    if _head(noun) in MASS_NOUNS or _is_plural(noun):
        return f"{noun} {mark}"
    return f"{article(noun)} {noun} {mark}"


# ---- the whole domain ---------------------------------------------------------------------------------------------
def domain_words(name: str) -> str:
    """'gold-miner-typed' -> 'gold miner', 'blocksworld-4ops' -> 'blocksworld'."""
    split = words(name)
    kept = [w for w in split if w not in NOISE_DOMAIN_WORDS and not re.fullmatch(r"\d+\w*", w)]
    return " ".join(kept or split or ["planning"])


def rule_data(domain: Domain) -> dict:
    """The nl.yaml-shaped mapping the rules produce for `domain` (not yet checked)."""
    reader = Reader(domain)
    types = {name: noun for name, noun in reader.type_names.items()}
    predicates = {}
    for name in domain.predicates:
        text, negated = PredicateRules(reader, name).render()
        predicates[name] = {"text": _tidy(text), "negated": _tidy(negated)}
    actions = {}
    for schema in domain.actions:
        entry = ActionRules(reader, schema).build()
        entry["text"] = _tidy(entry["text"])
        entry["indefinite"] = _tidy(entry["indefinite"])
        actions[schema.name] = entry
    intro = f"I am acting in the {domain_words(domain.name)} domain."
    return {"format": 1, "domain": domain.name, "intro": intro, "types": types, "predicates": predicates,
            "actions": actions}


def _tidy(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def rule_templates(domain: Domain) -> NLTemplates:
    """Complete, checked templates for any domain, read off its names (source 'rule')."""
    return build_templates(domain, rule_data(domain), source="rule")


__all__ = ["rule_data", "rule_templates"]

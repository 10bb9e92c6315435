"""The fuzzy matcher: the ground action whose English (or PDDL) form is closest to the text, with a confidence.

The text is split into clauses (', then', '; ', '. ', new lines) and tokens; misspelt object names and template
words are corrected ('blcok_a', 'hiost 0', 'stakc') when one candidate is clearly closest. Candidates are
type-consistent groundings of the action schemas over the objects the text mentions, plus the currently
admissible actions (so a text that leaves an object out can still match). A candidate's score in a clause is
the weighted share of its English tokens found there in order (objects weigh most, then the action's verb),
minus the share of the clause's domain words it leaves unexplained (a sub-action of what the clause says), minus
a little per earlier clause that already names something (the first action named is the one meant). Close
runners-up lower the confidence; below the threshold the answer is None.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from dataclasses import dataclass, field

from apb.translators.base import TranslationResult, Translator, failed
from apb.translators.problem import ProblemView, Schema, split
from apb.translators.template import CLAUSE_BREAK
from apb.translators.text import clean, focus

DEFAULT_THRESHOLD = 0.6
MAX_CANDIDATES = 4000  # groundings scored per translation, at most
_TOKEN = re.compile(r"[a-z0-9]+(?:[_-][a-z0-9]+)*")
_NAME_LIKE = re.compile(r"[\d_-]")
_ARTICLES = frozenset({"the", "a", "an"})
_CHATTER = frozenset({"i", "will", "to", "should", "now", "please", "then", "next", "it", "let", "s", "me", "we",
                      "first", "ok", "action", "so"})
_OBJECT_WEIGHT = 3.0
_VERB_WEIGHT = 2.0
_UNEXPLAINED_PENALTY = 0.3
_LATER_CLAUSE_PENALTY = 0.1
_ADMISSIBLE_BONUS = 0.02
_AMBIGUITY_MARGIN = 0.1
_CORRECTION_CUTOFF = 0.8
_CORRECTION_MARGIN = 0.05
_JOIN_CUTOFF = 0.85  # 'hiost 0' read as hoist_0 when this close
_SMALL_POOL = 4  # a parameter no mentioned object fits is tried with every object if there are this few
_FULL_PRODUCT = 64  # groundings of one schema tried exhaustively up to this many
_MAX_SEQUENCE = 10  # object mentions considered, in text order
_MAX_CLAUSES = 4  # clauses with domain words considered


@dataclass
class _Scored:
    score: float
    action: str


@dataclass
class _Clause:
    tokens: list[str] = field(default_factory=list)
    trust: list[float] = field(default_factory=list)  # 1.0 as written, else the similarity of the correction
    domain: list[bool] = field(default_factory=list)  # an object or a word of the domain's templates
    pddl_names: set[str] = field(default_factory=set)  # action names written PDDL-style ('stack a b')
    present: set[str] = field(default_factory=set)


class FuzzyTranslator(Translator):
    """`threshold`: the confidence below which no action is returned; `max_candidates`: the search budget."""

    kind = "fuzzy"

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, max_candidates: int = MAX_CANDIDATES,
                 cache=None) -> None:
        super().__init__(cache)
        self.threshold = float(threshold)
        self.max_candidates = int(max_candidates)

    def _translate(self, text: str, view: ProblemView, info: dict) -> TranslationResult:
        segment = focus(text)
        best = self.rank(clean(segment, view), view, info)
        if segment is not text and (not best or best[0].score < self.threshold):
            whole = self.rank(clean(text, view), view, info)
            if whole and (not best or whole[0].score > best[0].score):
                best = whole
        if not best:
            return failed(text, "no candidate action: no object or action of the problem recognised")
        top = best[0]
        runner_up = next((c.score for c in best[1:] if c.action != top.action), 0.0)
        confidence = top.score
        margin = top.score - runner_up
        if margin < _AMBIGUITY_MARGIN:  # a near tie is closer to a coin flip
            confidence *= 0.5 + 0.5 * margin / _AMBIGUITY_MARGIN
        confidence = max(0.0, min(1.0, confidence))
        if confidence < self.threshold:
            return TranslationResult(None, confidence, "none",
                                     error=f"closest action {top.action} has confidence {confidence:.2f} "
                                           f"< threshold {self.threshold:g}")
        return TranslationResult(top.action, confidence, "fuzzy")

    # ---- scoring --------------------------------------------------------------------------------------------
    def rank(self, cleaned: str, view: ProblemView, info: dict) -> list[_Scored]:
        """The best candidates, best first."""
        lexicon = _lexicon(view)
        clauses = _clauses(cleaned, lexicon)
        if not clauses:
            return []
        sequence = [t for c in clauses for t in c.tokens if t in lexicon.objects]
        words = {t for c in clauses for t in c.tokens}
        admissible = set()
        for action in info.get("admissible_actions") or ():
            checked, _ = view.check(action) if isinstance(action, str) else (None, None)
            if checked is not None:
                admissible.add(checked)
        candidates = self._candidates(view, lexicon, words, sequence, admissible)
        best: dict[str, float] = {}
        top2 = [-1.0, -1.0]  # the two best scores of different actions so far
        for order, clause in enumerate(clauses):
            domain_count = sum(clause.domain) or 1
            present = clause.present
            later = _LATER_CLAUSE_PENALTY * order
            forms = []
            for schema, args in candidates:
                low = tuple(a.lower() for a in args)
                action = schema.pddl_form(args)
                form = lexicon.nl_tokens(schema, args)
                forms.append((_bound(form, present, lexicon, low) - later, form, low, action))
                if schema.name in clause.pddl_names:
                    form = [schema.name, *low]
                    forms.append((_bound(form, present, lexicon, low) - later, form, low, action))
            forms.sort(key=lambda f: -f[0])
            for bound, form, low, action in forms:
                if bound + _ADMISSIBLE_BONUS <= top2[1]:  # the order-free overlap bounds the score: nothing below
                    # can change the top two
                    break
                score = _score(clause, form, lexicon, low, domain_count) - later
                if score > best.get(action, -1.0):
                    best[action] = score
                    ranked = sorted(best.values(), reverse=True)
                    top2 = [*ranked, -1.0, -1.0][:2]
        scored = [_Scored(min(1.0, s + (_ADMISSIBLE_BONUS if a in admissible else 0.0)), a) for a, s in best.items()]
        scored.sort(key=lambda c: -c.score)
        return scored[:5]

    def _candidates(self, view: ProblemView, lexicon: _Lexicon, words: set[str], sequence: list[str],
                    admissible: set[str]) -> list[tuple[Schema, tuple[str, ...]]]:
        """Groundings over the mentioned objects: every type-fitting combination when there are few, else the
        mentions taken in text order for the template's (or the PDDL form's) parameter order."""
        mentioned = list(dict.fromkeys(sequence))
        relevant = [s for s in view.schemas.values() if lexicon.schema_words[s.name] & words] or list(
            view.schemas.values())
        out: dict[str, tuple[Schema, tuple[str, ...]]] = {}
        budget = self.max_candidates
        for schema in relevant:
            if budget <= 0:
                break
            pools = []
            for param_type in schema.types:
                pool = [o for o in mentioned if view.accepts(param_type, o)]
                if not pool:
                    everything = view.pool(param_type)
                    pool = everything if len(everything) <= _SMALL_POOL else []
                pools.append(pool)
            if any(not p for p in pools):
                continue
            size = math.prod(len(p) for p in pools)
            if size <= min(_FULL_PRODUCT, budget):
                groundings = itertools.product(*pools)
            else:
                size = 0
                groundings = _in_text_order(schema, sequence[:_MAX_SEQUENCE], pools)
            for args in groundings:
                out.setdefault(schema.pddl_form(args), (schema, args))
                size += 1
                if size >= budget:
                    break
            budget -= size
        for action in sorted(admissible):
            if action not in out:
                name, args = split(action)
                schema = view.schemas.get(name)
                if schema is not None and (lexicon.schema_words[name] & words or set(args) & set(mentioned)):
                    out[action] = (schema, tuple(view.names.get(a, a) for a in args))
        return list(out.values())


def _in_text_order(schema: Schema, sequence: list[str], pools: list[list[str]]):
    """Groundings that take the mentioned objects in text order for the template's parameter order (and for
    the PDDL order); parameters no mention fits take each object of their small pool."""
    arity = len(schema.params)
    slots = list(dict.fromkeys(schema.template.slots))
    orders = list(dict.fromkeys([tuple(slots + [i for i in range(arity) if i not in slots]), tuple(range(arity))]))
    allowed = [set(p) for p in pools]
    mentioned = set(sequence)
    for order in orders:
        named = [i for i in order if allowed[i] & mentioned]
        rest = [i for i in order if i not in named]
        for positions in itertools.combinations(range(len(sequence)), len(named)):
            args: list[str] = [""] * arity
            if not all(sequence[pos] in allowed[slot] for slot, pos in zip(named, positions)):
                continue
            for slot, pos in zip(named, positions):
                args[slot] = sequence[pos]
            for filler in itertools.product(*(pools[i] for i in rest)):
                for slot, obj in zip(rest, filler):
                    args[slot] = obj
                yield tuple(args)


def _bound(candidate: list[str], present: set[str], lexicon: _Lexicon, args: tuple[str, ...]) -> float:
    """An upper bound of `_score`: the weighted share of the candidate's tokens that occur in the clause."""
    total = found = 0.0
    for t in candidate:
        weight = _OBJECT_WEIGHT if t in args else _VERB_WEIGHT if t in lexicon.verbs else 1.0
        total += weight
        if t in present:
            found += weight
    return found / total if total else 0.0


def _score(clause: _Clause, candidate: list[str], lexicon: _Lexicon, args: tuple[str, ...],
           domain_count: int) -> float:
    """The best in-order alignment of the candidate's tokens with the clause's (a weighted longest common
    subsequence): weighted share of the candidate found (objects weigh most, then the verb; corrected spellings
    count by their similarity), minus the share of the clause's domain words left unexplained."""
    weights = [_OBJECT_WEIGHT if t in args else _VERB_WEIGHT if t in lexicon.verbs else 1.0 for t in candidate]
    total = sum(weights) or 1.0
    tokens = clause.tokens
    trust = clause.trust
    domain = clause.domain
    explain = _UNEXPLAINED_PENALTY / domain_count
    width = len(tokens)
    row = [0.0] * (width + 1)  # row[j]: the best alignment of the candidate so far with the clause's first j tokens
    any_match = False
    for token, weight in zip(candidate, weights):
        if token not in clause.present:
            continue
        any_match = True
        new = [0.0] * (width + 1)
        for j in range(1, width + 1):
            best = new[j - 1] if new[j - 1] > row[j] else row[j]
            if tokens[j - 1] == token:
                gain = row[j - 1] + weight * trust[j - 1] / total + explain * domain[j - 1]
                if gain > best:
                    best = gain
            new[j] = best
        row = new
    if not any_match:
        return 0.0
    return row[width] - _UNEXPLAINED_PENALTY


def _clauses(cleaned: str, lexicon: _Lexicon) -> list[_Clause]:
    """The text's clauses that hold domain words (at most _MAX_CLAUSES), as corrected tokens."""
    out = []
    pieces = CLAUSE_BREAK.split(cleaned.lower())
    for piece in pieces:
        raw = _TOKEN.findall(piece)
        raw = lexicon.join_split_names(raw)
        clause = _Clause()
        name = None  # an action name followed by exactly its number of objects reads PDDL-style ('stack a b')
        run = 0
        for token in raw:
            corrected, trust = lexicon.correct(token)
            is_object = corrected in lexicon.objects
            if is_object and name is not None:
                run += 1
            else:
                if name is not None and run == lexicon.arity[name]:
                    clause.pddl_names.add(name)
                name, run = (corrected, 0) if corrected in lexicon.arity else (None, 0)
            if not is_object and (corrected in _ARTICLES or (corrected in _CHATTER and corrected not in lexicon.words)):
                continue
            clause.tokens.append(corrected)
            clause.trust.append(trust)
            clause.domain.append(is_object or corrected in lexicon.words)
        if name is not None and run == lexicon.arity[name]:
            clause.pddl_names.add(name)
        clause.present = set(clause.tokens)
        if any(clause.domain):
            out.append(clause)
            if len(out) >= _MAX_CLAUSES:
                break
    return out


class _Lexicon:
    """Per-problem token data: the words of every template and action name, object names, typo correction."""

    def __init__(self, view: ProblemView) -> None:
        self.view = view
        self.objects = {n.lower(): n for n in view.objects}
        self.schema_words: dict[str, set[str]] = {}
        self.arity = {s.name: len(s.params) for s in view.schemas.values()}
        self.verbs: set[str] = set()
        vocabulary = set(self.objects)
        for schema in view.schemas.values():
            name_words = [w for w in re.split(r"[-_\s]+", schema.name) if w]
            literal_words = [w for w in _TOKEN.findall(re.sub(r"\{[^{}]*\}", " ", schema.nl.lower()))
                             if w not in _ARTICLES]
            self.schema_words[schema.name] = set(name_words) | set(literal_words) | {schema.name}
            self.verbs |= {w for w in name_words if w in literal_words} | {schema.name}
            vocabulary |= self.schema_words[schema.name]
        self.words = vocabulary - set(self.objects)
        self.named: dict[str, str] = {}  # compact spelling ('truck0') -> name, for names unique that way
        clashes = set()
        for word in vocabulary:
            if _NAME_LIKE.search(word):
                key = _compact(word)
                if key in self.named and self.named[key] != word:
                    clashes.add(key)
                self.named[key] = word
        for key in clashes:
            del self.named[key]
        self.named_vocabulary = sorted(self.named)
        self.named_objects = sorted(k for k, w in self.named.items() if w in self.objects)
        self.plain_vocabulary = sorted(w for w in vocabulary if not _NAME_LIKE.search(w))
        self._corrections: dict[str, tuple[str, float]] = {}
        self._joins: dict[str, tuple[str, float] | None] = {}
        self._nl: dict[tuple, list[str]] = {}

    def correct(self, token: str) -> tuple[str, float]:
        """(token, 1.0), or (the object name or template word it most likely misspells, similarity). Only
        name-like tokens (with a digit, '_' or '-') are read as names, so 'robot' stays a word; a spelling
        as close to two names as to one ('block_z': block_a? block_b?) is left alone."""
        if token in self.objects or token in self.words or len(token) < 4:
            return token, 1.0
        known = self._corrections.get(token)
        if known is None:
            if _NAME_LIKE.search(token):
                known = self._closest(_compact(token), self.named_vocabulary, _CORRECTION_CUTOFF)
            else:
                known = self._closest(token, self.plain_vocabulary, _CORRECTION_CUTOFF)
            known = known or (token, 1.0)
            if len(self._corrections) < 10_000:
                self._corrections[token] = known
        return known

    def _closest(self, key: str, vocabulary: list[str], cutoff: float) -> tuple[str, float] | None:
        close = difflib.get_close_matches(key, vocabulary, n=4, cutoff=0.6)
        ranked = sorted(((similarity(key, c), c) for c in close), reverse=True)
        clear = len(ranked) == 1 or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] >= _CORRECTION_MARGIN)
        if ranked and ranked[0][0] >= cutoff and clear:
            return self.named.get(ranked[0][1], ranked[0][1]), ranked[0][0]
        return None

    def join_split_names(self, raw: list[str]) -> list[str]:
        """'hiost 0' -> 'hoist_0', 'tlie 1 3' -> 'tile_1-3', 'color whtie' -> 'color_white': two or three tokens
        that together are close to one object name (and are not objects, or all known words, themselves)."""
        if len(raw) < 2 or not self.named_objects:
            return raw
        out = []
        i = 0
        while i < len(raw):
            for size in (3, 2):
                part = raw[i:i + size]
                if len(part) < size or any(t in self.objects for t in part) or all(t in self.words for t in part):
                    continue
                key = _compact("".join(part))
                if key not in self._joins and len(self._joins) < 10_000:
                    self._joins[key] = self._closest(key, self.named_objects, _JOIN_CUTOFF)
                joined = self._joins.get(key)
                if joined is not None:
                    out.append(joined[0])
                    i += size
                    break
            else:
                out.append(raw[i])
                i += 1
        return out

    def nl_tokens(self, schema: Schema, args: tuple[str, ...]) -> list[str]:
        key = (schema.name, args)
        found = self._nl.get(key)
        if found is None:
            found = [t for t in _TOKEN.findall(schema.fill(args).lower())
                     if t not in _ARTICLES or t in self.objects]
            if len(self._nl) < 50_000:
                self._nl[key] = found
        return found


def _compact(word: str) -> str:
    return re.sub(r"[_-]+", "", word)


def similarity(a: str, b: str) -> float:
    """1 - edit distance / length, where swapping two neighbouring letters costs half an edit (the commonest
    typo), or difflib's ratio if that is higher."""
    ratio = difflib.SequenceMatcher(None, a, b).ratio()
    if abs(len(a) - len(b)) > 2:
        return ratio
    previous2: list[float] = []
    previous = [float(j) for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [float(i)] + [0.0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0.0 if a[i - 1] == b[j - 1] else 1.0
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 0.5)
        previous2, previous = previous, current
    return max(ratio, 1.0 - previous[len(b)] / max(len(a), len(b)))


def _lexicon(view: ProblemView) -> _Lexicon:
    lexicon = view.memo.get("fuzzy")
    if lexicon is None:
        lexicon = view.memo["fuzzy"] = _Lexicon(view)
    return lexicon

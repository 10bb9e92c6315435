"""English for PDDL formulas and for the engine's structured failure explanations (`apb.engine.Unmet`).

`FormulaText.claim` says what a (lifted or ground) formula requires: `A is clear or I hold A`,
`for every block C, C is clear`, `there is a block C such that C is on A`. `FormulaText.reason` says why an
unmet condition fails as a true sentence: `b is not clear`, `neither a is clear nor I hold a`,
`there is no block A such that A is on b`, `a is not safe because b is on a`. Plain facts read exactly as in
STRIPS feedback (`DomainText.unmet`), so STRIPS feedback does not change. Rule-based wording only.
"""

from __future__ import annotations

import re

from apb.engine.explain import Unmet
from apb.nl.grammar import article, join_and, letter

_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_CONNECTIVES = frozenset({"and", "or", "not", "imply", "forall", "exists", "when"})
_OPEN = frozenset({"imply", "forall", "exists", "when"})  # their English has no closing word


def parse_formula(text: str) -> list | str:
    """'(or (clear ?a) (on ?a b))' -> ['or', ['clear', '?a'], ['on', '?a', 'b']] (a tiny reader for rendering)."""
    stack: list[list] = [[]]
    for token in _TOKEN.findall(text):
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            stack[-1].append(token)
    while len(stack) > 1:  # tolerate a missing ')' at the end
        done = stack.pop()
        stack[-1].append(done)
    top = stack[0]
    return top[0] if len(top) == 1 else top


def _variables(spec: list) -> list[tuple[str, str]]:
    """'(?x ?y - block ?z)' -> [('?x', 'block'), ('?y', 'block'), ('?z', 'object')]."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    i = 0
    while i < len(spec):
        item = spec[i]
        if item == "-" and i + 1 < len(spec):
            kind = spec[i + 1]
            kind = "object" if isinstance(kind, list) else kind  # (either a b): said as 'object'
            out.extend((v, kind) for v in pending)
            pending = []
            i += 2
            continue
        if isinstance(item, str):
            pending.append(item)
        i += 1
    out.extend((v, "object") for v in pending)
    return out


def _open(node) -> bool:
    """True when the English of `node` reads to the end of the sentence (a quantifier, an 'if', 'it is not the
    case that ...', or a list whose last part does)."""
    if not isinstance(node, list) or not node:
        return False
    head = str(node[0]).lower()
    if head in _OPEN:
        return True
    if head == "not":
        inner = node[1] if len(node) > 1 else None
        return isinstance(inner, list) and bool(inner) and str(inner[0]).lower() in _CONNECTIVES
    return head in ("and", "or") and _open(node[-1])


class FormulaText:
    """Renders formulas and `Unmet` trees with a `DomainText` (the domain's predicate templates)."""

    def __init__(self, words) -> None:
        self.words = words

    # ---- what a formula requires ---------------------------------------------------------------------------
    def claim(self, formula, names: dict[str, str] | None = None) -> str:
        """The English of a formula (PDDL text or parsed list); `names` renames variables (?x -> A)."""
        node = parse_formula(formula) if isinstance(formula, str) else formula
        return self._say(node, dict(names or {}))

    def _noun(self, type_name: str) -> str:
        return self.words.templates.type_noun(type_name) or type_name

    def bind(self, spec: list | str, names: dict[str, str]) -> tuple[list[str], dict[str, str]]:
        """Letters for quantified variables (after the ones in use) and 'block C' phrases for them; `spec` is a
        parameter list such as '?x - block ?y' or its parsed form."""
        if isinstance(spec, str):
            parsed = parse_formula(f"({spec})")
            spec = parsed if isinstance(parsed, list) else [parsed]
        inner = dict(names)
        phrases = []
        for var, kind in _variables(spec):
            used = set(inner.values())
            index = len(used)
            while letter(index) in used:
                index += 1
            inner[var.lower()] = name = letter(index)  # a fresh letter, also when a nested quantifier shadows
            noun = self._noun(kind)
            phrases.append(f"{noun} {name}")
        return phrases, inner

    def _atom(self, node: list, names: dict[str, str], positive: bool) -> str:
        args = tuple(names.get(a.lower(), a) if isinstance(a, str) else str(a) for a in node[1:])
        try:
            return self.words.fact(str(node[0]).lower(), args, positive)
        except KeyError:  # a predicate without a template: its PDDL
            atom = "(" + " ".join((str(node[0]), *args)) + ")"
            return atom if positive else f"(not {atom})"

    def _grouped(self, node, names: dict[str, str], inner: str) -> str:
        """A conjunct that is a disjunction reads 'either X or Y', a disjunct that is a conjunction 'both X and Y'
        (or 'all of ...'), so 'X and Y or Z' is never ambiguous."""
        if isinstance(node, list) and len(node) > 2 and str(node[0]).lower() == inner:
            said = self._say(node, names)
            if inner == "or":
                return f"either {said}"
            return f"both {said}" if len(node) == 3 else f"all of {said}"
        return self._say(node, names)

    def _say(self, node, names: dict[str, str]) -> str:
        if not isinstance(node, list) or not node:
            return str(node)
        head = node[0].lower() if isinstance(node[0], str) else ""
        parts = node[1:]
        if head not in _CONNECTIVES:
            return self._atom(node, names, True)
        if head in ("and", "or"):
            if not parts:
                return "nothing is required" if head == "and" else "something impossible holds"
            other = "or" if head == "and" else "and"
            said = [self._grouped(p, names, other) for p in parts]
            if len(said) > 1 and any(_open(p) for p in parts[:-1]):
                # a quantifier or an 'if' reads to the end of the sentence: ';' ends its scope
                return ("either " if head == "or" else "") + "; ".join(said[:-1]) + f"; {head} {said[-1]}"
            return join_and(said, head)
        if head == "not" and parts:
            inner = parts[0]
            if isinstance(inner, list) and inner and str(inner[0]).lower() not in _CONNECTIVES:
                return self._atom(inner, names, False)
            return f"it is not the case that {self._say(inner, names)}"
        if head in ("imply", "when") and len(parts) == 2:
            return f"if {self._say(parts[0], names)}, then {self._say(parts[1], names)}"
        if head in ("forall", "exists") and len(parts) == 2 and isinstance(parts[0], list):
            phrases, inner = self.bind(parts[0], names)
            body = self._say(parts[1], inner)
            if head == "forall":
                return f"for every {join_and(phrases)}, {body}"
            return f"there is {join_and([f'{article(p)} {p}' for p in phrases])} such that {body}"
        return " ".join(str(p) for p in node)  # pragma: no cover - malformed formula text

    # ---- why a condition fails -----------------------------------------------------------------------------
    def rule(self, formula: str, names: dict[str, str], head: str) -> str:
        """'I can only <head> if <formula>.', or 'If X, I can only <head> if Y.' for an implication."""
        node = parse_formula(formula)
        if isinstance(node, list) and len(node) == 3 and str(node[0]).lower() == "imply":
            return f"If {self._say(node[1], names)}, I can only {head} if {self._say(node[2], names)}."
        return f"I can only {head} if {self._say(node, names)}."

    def required(self, unmet: Unmet) -> str:
        """What the failing condition asked for (a false statement): the option text in 'neither X nor Y'."""
        if unmet.kind in ("fact", "not_fact", "derived"):
            return self._literal(unmet.pddl)
        if unmet.kind == "none_of" and unmet.children:
            return join_and([self.required(c) for c in unmet.children], "or")
        if unmet.kind == "forall_fails" and unmet.children:
            return join_and([self.required(c) for c in unmet.children])
        if unmet.kind == "holds":
            return f"it is not the case that {self.claim(unmet.pddl)}"
        return self.claim(unmet.pddl)

    def _negated(self, node) -> str:
        """'a is not heavy' for an atom, 'a is heavy' for a negated atom, else 'it is not the case that ...'."""
        if isinstance(node, list) and node and str(node[0]).lower() not in _CONNECTIVES:
            return self._atom(node, {}, False)
        if isinstance(node, list) and len(node) == 2 and str(node[0]).lower() == "not":
            inner = node[1]
            if isinstance(inner, list) and inner and str(inner[0]).lower() not in _CONNECTIVES:
                return self._atom(inner, {}, True)
        return f"it is not the case that {self._say(node, {})}"

    def _literal(self, text: str) -> str:
        node = parse_formula(text)
        return self._say(node, {})

    def _unmet_literal(self, text: str) -> str:
        try:
            return self.words.unmet(text)
        except KeyError:
            return f"{text} is false"

    def reason(self, unmet: Unmet) -> str:
        """Why `unmet` fails, as a true sentence (plain facts read like STRIPS feedback)."""
        kind = unmet.kind
        if kind in ("fact", "not_fact"):
            return self._unmet_literal(unmet.pddl)
        if kind == "none_of":
            node = parse_formula(unmet.pddl)
            if isinstance(node, list) and len(node) == 3 and str(node[0]).lower() == "imply":
                return f"{self._say(node[1], {})} but {self._negated(node[2])}"  # the only way an 'if' fails
            options = [self.required(c) for c in unmet.children]
            if not options:
                return f"it is not the case that {self.claim(unmet.pddl)}"
            if len(options) == 1:
                return self.reason(unmet.children[0])
            if len(options) == 2:
                return f"neither {options[0]} nor {options[1]}"
            return f"none of these is the case: {join_and(options, 'or')}"
        if kind == "forall_fails":
            if not unmet.children:
                return f"it is not the case that {self.claim(unmet.pddl)}"
            return join_and(self._reason_list(unmet.children))
        if kind == "no_witness":
            node = parse_formula(unmet.pddl)
            if isinstance(node, list) and len(node) == 3 and str(node[0]).lower() == "exists":
                phrases, inner = self.bind(node[1], {})
                return f"there is no {join_and(phrases)} such that {self._say(node[2], inner)}"
            return f"it is not the case that {self.claim(unmet.pddl)}"
        if kind == "derived":
            head = self._unmet_literal(unmet.pddl)
            if not unmet.children:
                return head
            return f"{head} because {join_and(self._reason_list(unmet.children))}"
        if kind == "holds":
            return self.claim(unmet.pddl)
        return self.claim(unmet.pddl)  # pragma: no cover - every engine kind is handled above

    def _reason_list(self, detail) -> list[str]:
        """One clause per failure, a universal condition's failing instances spliced in (no 'x and y and z')."""
        out: list[str] = []
        for u in detail:
            if u.kind == "forall_fails" and u.children:
                out.extend(self._reason_list(u.children))
            else:
                out.append(self.reason(u))
        return out

    def reasons(self, detail: list[Unmet], *, unique: bool = False) -> str:
        """All failures joined: 'b is not clear and neither ...'; `unique` says a repeated clause once (a goal
        literal that is also an instance of a universal goal)."""
        said = self._reason_list(detail)
        return join_and(list(dict.fromkeys(said)) if unique else said)

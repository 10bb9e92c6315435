"""The template parser: English action text back to a grounded PDDL action by inverting the action templates.

Exact and fast, no LLM: each action template becomes a regular expression over the problem's object names that
tolerates capitalisation, articles, an omitted or repeated type word, punctuation and chatter around the action
("First, I pick up block a."). When several actions are mentioned, the first one in the text wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apb.nl.nl_yaml import _PLACEHOLDER, NLTemplates

_ARTICLE = r"(?:(?:the|a|an)\s+)?"
_PDDL = re.compile(r"\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)")


@dataclass
class ParsedAction:
    action: str  # "(stack a b)"
    start: int  # where the match starts in the text
    method: str  # "pddl" or "template"


class TemplateParser:
    """`parse(text)` -> the grounded PDDL action the text names, or None. Built per problem (object names)."""

    def __init__(self, templates: NLTemplates, objects: dict[str, str], action_names: list[str] | None = None,
                 ground_actions=None) -> None:
        self.templates = templates
        # When type words are left out, two templates can match the same words ('load p into t' for trucks and
        # airplanes); the ground actions of the task (if given) decide.
        self.ground_actions = ground_actions  # any container supporting `in` (a set, or a type checker)
        self.objects = objects
        self.action_names = {a.lower() for a in (action_names or templates.actions)}
        names = sorted(objects, key=len, reverse=True)
        self._object = "|".join(re.escape(n) for n in names) or r"(?!x)x"
        self._nouns = sorted(templates.nouns | _all_nouns(templates), key=len, reverse=True)
        self._patterns = [(name, a.params, self._compile(a.text, a.params), self._expected_nouns(a.text, a.params))
                          for name, a in templates.actions.items()]
        # the order in which each action's English names its parameters ('unlock {lockpos} from {curpos}')
        self._mention_order = {name: [a.params.index(p) for p in _PLACEHOLDER.findall(a.text)]
                               for name, a in templates.actions.items()}

    def _compile(self, text: str, params: tuple[str, ...]) -> re.Pattern:
        pieces = []
        pos = 0
        seen: set[str] = set()
        noun_alt = "|".join(re.escape(n) for n in self._nouns)
        optional_noun = rf"(?:(?:{noun_alt})\s+)?" if noun_alt else ""
        for match in _PLACEHOLDER.finditer(text):
            literal = text[pos:match.start()]
            pieces.append(self._literal(literal, drop_trailing_noun=True))
            name = match.group(1)
            group = "p" + str(params.index(name))
            if group in seen:
                pieces.append(rf"(?P={group})")
            else:
                seen.add(group)
                pieces.append(rf"{_ARTICLE}{optional_noun}(?<![\w-])(?P<{group}>{self._object})(?![\w-])")
            pos = match.end()
        pieces.append(self._literal(text[pos:], drop_trailing_noun=False))
        # a template starts at the start of a word: 'stack' must not match inside 'unstack'
        return re.compile(r"(?<![\w-])" + "".join(pieces), re.IGNORECASE)

    def _expected_nouns(self, text: str, params: tuple[str, ...]) -> dict[int, str]:
        """Parameter index -> the type noun the template writes before it ('truck {t}' -> truck)."""
        out = {}
        pos = 0
        for match in _PLACEHOLDER.finditer(text):
            low = text[pos:match.start()].lower().split()
            for noun in self._nouns:
                size = len(noun.split())
                if low[-size:] == noun.split():
                    out[params.index(match.group(1))] = noun
                    break
            pos = match.end()
        return out

    def _noun_conflicts(self, args: list[str], expected: dict[int, str]) -> int:
        """How many arguments are named after another kind than the template expects ('airplane_0' where the
        text says 'truck {t}'): such a reading is kept only when nothing better matches."""
        conflicts = 0
        for i, noun in expected.items():
            name = args[i].lower()
            own = [n for n in self._nouns if _named_after(name, n)]
            if own and noun not in own:
                conflicts += 1
        return conflicts

    def _literal(self, literal: str, *, drop_trailing_noun: bool) -> str:
        """A literal template part as a loose pattern: words separated by any spaces/punctuation, articles
        optional, a type word right before a placeholder optional (it may be elided or repeated)."""
        words = literal.split()
        if drop_trailing_noun:
            low = [w.lower() for w in words]
            for noun in self._nouns:  # longest first
                size = len(noun.split())
                if low[-size:] == noun.split():
                    words = words[:-size]
                    break
        if not words:
            return r"\s*" if literal.strip() == "" and literal else ""
        out = []
        for w in words:
            if w.lower() in ("the", "a", "an"):
                out.append(r"(?:(?:the|a|an)[\s,:;*_`'\"]+)?")
            else:
                out.append(re.escape(w) + r"[\s,:;*_`'\"]*")
        return r"\s*" + "".join(out)

    def parse(self, text: str) -> ParsedAction | None:
        if not isinstance(text, str) or not text.strip():
            return None
        best: ParsedAction | None = None
        for m in _PDDL.finditer(text):
            name, args = m.group(1).lower(), m.group(2).lower().split()
            schema = self.templates.actions.get(name)
            # PDDL in the text counts only when it is well formed for this problem; else the English is read
            if schema is not None and len(args) == len(schema.params) and all(a in self.objects for a in args):
                best = ParsedAction("(" + " ".join([name, *args]) + ")", m.start(), "pddl")
                break
        candidates = []
        for name, params, pattern, expected in self._patterns:
            m = pattern.search(text)
            if m is None or (best is not None and m.start() >= best.start):
                continue
            args = [self._canonical(m.group("p" + str(i))) for i in range(len(params))]
            action = "(" + " ".join([name, *args]) + ")"
            exists = self.ground_actions is None or action in self.ground_actions
            candidates.append((m.start(), not exists, self._noun_conflicts(args, expected), -(m.end() - m.start()),
                               action))
        if candidates:
            start, *_, action = min(candidates)
            return ParsedAction(action, start, "template")
        return best or self._by_names(text)

    def _by_names(self, text: str) -> ParsedAction | None:
        """Last resort: exactly one action name mentioned ('board', 'pick up'/'pick-up') and object names in
        the right number, in order: 'board car_0 at loc_0' -> (board car_0 loc_0)."""
        low = text.lower()
        mentioned = []
        for name in self.action_names:
            spelled = {name, name.replace("-", " "), name.replace("_", " ")}
            if any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", low) for s in spelled):
                mentioned.append(name)
        if len(mentioned) != 1:
            return None
        name = mentioned[0]
        mentioned_args = [m.group(0).lower()
                          for m in re.finditer(rf"(?<![\w-])(?:{self._object})(?![\w-])", text, re.I)]
        schema = self.templates.actions.get(name)
        arity = len(schema.params) if schema is not None else None
        if arity is None or len(mentioned_args) != arity:
            return None
        order = self._mention_order.get(name, list(range(arity)))
        args = list(mentioned_args)
        if sorted(order) == list(range(arity)):  # objects come in the English order of the parameters
            for position, param_index in enumerate(order):
                args[param_index] = mentioned_args[position]
        action = "(" + " ".join([name, *args]) + ")"
        if self.ground_actions is not None and action not in self.ground_actions:
            return None
        return ParsedAction(action, 0, "names")

    def _canonical(self, name: str) -> str:
        low = name.lower()
        return low if low in self.objects else name


def _named_after(name: str, noun: str) -> bool:
    """Whether an object name starts with a noun as a word: 'truck_0' and 'truck' are named after 'truck'."""
    for spelling in {noun.replace(" ", sep) for sep in ("_", "-", "")}:
        if name.startswith(spelling) and (len(name) == len(spelling) or not name[len(spelling)].isalpha()):
            return True
    return False


def parser_from_info(info: dict, ground_actions=None) -> TemplateParser:
    """A TemplateParser from an environment's `info` alone (action_schemas, objects, type_nouns): what
    translators use, since agents see only the Gymnasium API. `ground_actions`, if given, is any container that
    says which actions exist (see TemplateParser)."""
    from apb.nl.nl_yaml import ActionTemplate

    nouns = frozenset(info.get("type_nouns") or ())
    actions = {}
    for schema in info["action_schemas"]:
        params = tuple(p for p, _ in schema["parameters"])
        text = schema.get("nl") or " ".join([schema["name"], *("{" + p + "}" for p in params)])
        actions[schema["name"]] = ActionTemplate(schema["name"], params, text, "I " + text,
                                                 schema.get("indefinite") or text, {}, nouns)
    templates = NLTemplates(domain=str(info.get("domain", "")), intro="", types={}, predicates={},
                            actions=actions, source="info", nouns=nouns)
    return TemplateParser(templates, info["objects"], list(actions), ground_actions)


def _all_nouns(templates: NLTemplates) -> set[str]:
    return {t.singular.lower() for t in templates.types.values()} | {
        name.replace("-", " ").replace("_", " ") for name in templates.types}

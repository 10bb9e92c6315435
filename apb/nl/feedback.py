"""First-person feedback for an environment step: what happened, or exactly why it could not happen.

Two styles with one interface: `NLFeedback` (English from the domain's templates) and `PDDLFeedback` (the terse
PDDL variant of the paper: actions and facts in PDDL).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from apb.engine.explain import Unmet
from apb.engine.task import GroundAction, State, Task
from apb.nl.grammar import article, join_and
from apb.nl.render import TaskText

_ACTION = re.compile(r"^\s*\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)\s*$|^\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*$")
# Feedback quotes at most this many characters of an action text (and of any name in it), so an over-long action
# cannot push an observation past the observation space's length.
MAX_QUOTED = 200
_SUGGEST_UP_TO = 100  # names longer than this get no "Did I mean" (difflib's cost grows with their length)


def quoted(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` as feedback may show it: whitespace runs as one space, other non-printable characters escaped
    (\\x00), cut to `limit` characters with '...' when longer. Every result is printable."""
    text = text.strip()
    flat = " ".join(text[:4 * limit].split())
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                    for c in flat[:limit + 1])
    return shown if len(shown) <= limit and len(text) <= 4 * limit else shown[:limit] + "..."


@dataclass
class Diagnosis:
    """Why an action text cannot be executed: `kind` (an ActionError kind), the parsed name and arguments,
    the unmet conditions (PDDL) and the specifics the explanation needs."""

    kind: str
    text: str
    name: str | None = None
    args: tuple[str, ...] = ()
    unmet: list[str] = field(default_factory=list)
    expected_arity: int | None = None
    signature: str | None = None
    unknown_objects: list[str] = field(default_factory=list)
    mismatches: list[tuple[str, str, str]] = field(default_factory=list)  # (object, its type, required type)
    suggestion: str | None = None


def split_action(text: str) -> tuple[str, tuple[str, ...]] | None:
    """'(Stack a  b)' -> ('stack', ('a', 'b')); None when the text is not shaped like an action."""
    match = _ACTION.match(text)
    if not match:
        return None
    if match.group(1) is not None:
        return match.group(1).lower(), tuple(match.group(2).lower().split())
    return match.group(3).lower(), tuple(match.group(4).lower().split())


def diagnose(task: Task, text: object) -> Diagnosis:
    """Everything wrong with an action text that `task.parse_action` refused (never raises)."""
    import difflib

    if not isinstance(text, str):
        return Diagnosis("syntax", f"{quoted(repr(text))} (a {type(text).__name__}, not a string)")
    parsed = split_action(text) if text.strip() else None
    if parsed is None:
        return Diagnosis("syntax", text)
    name, args = parsed
    schema = task.domain.action(name)
    if schema is None and args and not text.lstrip().startswith("("):
        # Words without parentheses that do not start with an action name are a sentence, not an action
        # ("I pick up the red block"): not understood, rather than "no action called i".
        return Diagnosis("syntax", text)
    if schema is None:
        names = [a.name for a in task.domain.actions]
        close = difflib.get_close_matches(name, names, n=1) if len(name) <= _SUGGEST_UP_TO else []
        return Diagnosis("unknown_action", text, name, args, suggestion=close[0] if close else None)
    if len(args) != len(schema.parameters):
        return Diagnosis("wrong_arity", text, name, args, expected_arity=len(schema.parameters),
                         signature=schema.pddl_signature())
    unknown = [a for a in args if a not in task.objects]
    if unknown:
        close = difflib.get_close_matches(unknown[0], list(task.objects), n=1) if len(unknown[0]) <= _SUGGEST_UP_TO \
            else []
        return Diagnosis("unknown_object", text, name, args, unknown_objects=list(dict.fromkeys(unknown)),
                         suggestion=close[0] if close else None)
    mismatches = []
    for arg, param in zip(args, schema.parameters):
        if not task.domain.is_subtype(task.objects[arg], param.types):
            mismatches.append((arg, task.objects[arg], param.type_str))
    return Diagnosis("type_mismatch", text, name, args, mismatches=mismatches, signature=schema.pddl_signature())


class NLFeedback:
    """English feedback: `I stack a on b.` / `I cannot stack a on b because b is not clear.`"""

    style = "nl"

    def __init__(self, text: TaskText) -> None:
        self.text = text
        self._executed: dict[int, str] = {}
        actions = text.task.domain.actions
        self._forms = join_and([a.pddl_signature() for a in actions])
        ground = text.task.actions
        self._example = str(ground[0]) if ground else "(action object ...)"

    def executed(self, action: GroundAction) -> str:
        cached = self._executed.get(action.index)
        if cached is None:
            cached = self.text.first_person(action) + "."
            self._executed[action.index] = cached
        return cached

    def goal_reached(self) -> str:
        return "I have reached my goal."

    def finished(self) -> str:
        return "I am finished: the goal is reached."

    def not_finished(self, unsatisfied: list[str], detail: list[Unmet] | None = None) -> str:
        """Why the goal is not reached: from the engine's `detail` trees when given (complex goals in words)."""
        if detail:
            return f"I am not finished yet because {self.text.words.formulas.reasons(detail, unique=True)}."
        return f"I am not finished yet because {self.text.unsatisfied(unsatisfied)}."

    def look_around(self, state: State) -> str:
        return f"I look around. Currently, {self.text.state(state)}."

    def unmet(self, action: GroundAction, unmet: list[str], detail: list[Unmet] | None = None) -> str:
        """Why `action` cannot be done: from the engine's `detail` trees when given (disjunctions, quantifiers,
        derived predicates in words), else from the unmet literal strings."""
        if detail:
            reasons = self.text.words.formulas.reasons(detail)
        else:
            reasons = join_and([self.text.words.unmet(u) for u in unmet])
        return f"I cannot {self.text.action(action)} because {reasons}."

    def episode_over(self) -> str:
        return "I have already reached my goal, so the episode is over: reset the environment to start again."

    def failure(self, d: Diagnosis) -> str:
        shown = quoted(d.text)
        if d.kind == "syntax":
            text = repr(shown) if not d.text.endswith("not a string)") else shown
            return (f"I cannot understand {text} as an action. I write actions as (name object ...), for "
                    f"example {self._example}.")
        if d.kind == "unknown_action":
            hint = f" Did I mean {d.suggestion}?" if d.suggestion else ""
            return (f"I cannot do {shown} because there is no action called {quoted(d.name)}.{hint} "
                    f"The actions are {self._forms}.")
        if d.kind == "wrong_arity":
            return (f"I cannot do {shown} because {d.name} needs {d.expected_arity} object"
                    f"{'s' if d.expected_arity != 1 else ''}, as in {d.signature}, but {len(d.args)} "
                    f"{'were' if len(d.args) != 1 else 'was'} given.")
        if d.kind == "unknown_object":
            names = quoted(join_and(d.unknown_objects))
            hint = f" Did I mean {d.suggestion}?" if d.suggestion else ""
            noun = "are no objects called" if len(d.unknown_objects) > 1 else "is no object called"
            return f"I cannot do {shown} because there {noun} {names}.{hint}"
        if d.kind == "type_mismatch":
            what = self.text.words.action(d.name, d.args) if d.name in self.text.templates.actions else shown
            reasons = []
            for obj, have, want in d.mismatches:
                have_noun = self.text.templates.type_noun(have) or have
                want_noun = self.text.templates.type_noun(want) or want
                reasons.append(f"{obj} is {article(have_noun)} {have_noun}, not {article(want_noun)} {want_noun}")
            return f"I cannot {what} because {join_and(reasons)}."
        return f"I cannot do {shown}."  # pragma: no cover - every kind is handled above


class PDDLFeedback:
    """Terse PDDL feedback for the PDDL-input variant: `(stack a b) executed.` / `(stack a b) failed: ...`."""

    style = "pddl"

    def __init__(self, text: TaskText) -> None:
        self.text = text

    def executed(self, action: GroundAction) -> str:
        return f"{action} executed."

    def goal_reached(self) -> str:
        return "Goal reached."

    def finished(self) -> str:
        return "(finish) executed: goal reached."

    def not_finished(self, unsatisfied: list[str], detail: list[Unmet] | None = None) -> str:
        return "(finish) failed: unsatisfied goals " + " ".join(unsatisfied) + "."

    def look_around(self, state: State) -> str:
        return "State: " + " ".join(self.text.state_pddl(state)) + "."

    def unmet(self, action: GroundAction, unmet: list[str], detail: list[Unmet] | None = None) -> str:
        return f"{action} failed: unmet preconditions " + " ".join(unmet) + "."

    def episode_over(self) -> str:
        return "Episode over: the goal is already reached; reset the environment to start again."

    def failure(self, d: Diagnosis) -> str:
        shown = quoted(d.text)
        if d.kind == "syntax":
            return f"{shown!r} failed: syntax error, expected (name object ...)."
        if d.kind == "unknown_action":
            return f"{shown} failed: unknown action {quoted(d.name)}."
        if d.kind == "wrong_arity":
            return f"{shown} failed: wrong number of arguments, expected {d.signature}."
        if d.kind == "unknown_object":
            return f"{shown} failed: unknown object " + quoted(" ".join(d.unknown_objects)) + "."
        return f"{shown} failed: type mismatch " + ", ".join(f"{o} - {h} is not {w}" for o, h, w in d.mismatches) + "."

"""apb's own sound reading of a PlanBench response: what the response states, read exactly in the config's wording
(apb.planbench.wording) or as PDDL (the engine's `parse_action`), never guessed. A plan is the response's action
lines before `[PLAN END]`, each line one action (list numbering and markdown aside; a qualifier naming no object,
no action and no hedge may follow it: 'put down the blue block on the table'); one heading line ending in ':' may
come first. Anything else — a hedge, a list of alternatives, a line that reads as no action, a second plan after
the end marker — means the response states no plan. A state (t7) is a list of facts in the config's wording (a
negated fact is a claim that it is false); a verification (t3) states exactly one of valid and invalid. What is
stated is then judged by the engine (apb.planbench.verdicts)."""

from __future__ import annotations

import re

from apb.engine import Task
from apb.engine.errors import ApbError
from apb.engine.limits import MAX_ANSWER_CHARS
from apb.planbench.wording import Wording

HEDGE = re.compile(r"\b(?:or|maybe|perhaps|might|possibly|probably|alternative(?:ly)?|options?|either|unsure|not sure|"
                   r"guess|cannot|can't|impossible|no plan|unclear|if|unless|instead|attempt|try)\b", re.IGNORECASE)
_END = re.compile(r"\[\s*plan\s+end\s*\]", re.IGNORECASE)
_MARKUP = re.compile(r"^\s*(?:[#>]+|[-*+\u2022]|\d{1,3}\s*[.):]|step\s+\d{1,3}\s*[:.)-])\s*", re.IGNORECASE)
_NOISE = re.compile(r"[*`_\"]+")
_MARKERS = re.compile(r"^\[\s*(?:plan|pddl plan|answer)\s*\]$|^(?:pddl|plain|text)$", re.IGNORECASE)
_COST = re.compile(r"^the total time to execute the plan is \d+ minutes?\.?$", re.IGNORECASE)
_PAREN = re.compile(r"^\(\s*[^()\s]+(?:\s+[^()\s]+)*\s*\)$")
_REMARK = re.compile(r"\([^()]{0,300}\)")
_NOTHING = re.compile(r"\bno (?:further |more |other )?(?:actions?|steps?) (?:are |is )?"
                      r"(?:needed|required|necessary)\b", re.IGNORECASE)


def _line_body(line: str) -> str:
    body = _NOISE.sub(" ", _MARKUP.sub("", line.strip(), count=1))
    return " ".join(body.split()).strip(" .;,")


def _benign(rest: str, wording: Wording) -> bool:
    """A qualifier after an action: names no object, no action and hedges nothing (a remark in parentheses that
    states no action and hedges nothing, '(now holding the red block)', aside)."""
    rest = rest.lower()
    for remark in _REMARK.findall(rest):
        inner = remark[1:-1]
        if HEDGE.search(inner) or wording.loose_actions(inner) or any(p.search(inner) for _, p in
                                                                        wording.action_patterns):
            return False
    rest = _REMARK.sub(" ", rest)
    if not rest.strip(" .;,"):
        return True
    if HEDGE.search(rest) or "(" in rest:
        return False
    if any(obj in rest for obj in wording.by_text):
        return False
    return wording.action(rest.strip(" .;,"), prefix=True) is None and not any(
        p.search(rest) for _, p in wording.action_patterns)


MAX_LINE = 1000  # characters: a longer line is no one action's statement


def _read_action(body: str, wording: Wording, task: Task) -> str | None:
    if len(body) > MAX_LINE:
        return None
    if _PAREN.match(body):
        inner = body[1:-1].split()
        names = [wording.by_text.get(w.lower(), w) for w in inner[1:]]
        try:
            return str(task.parse_action("(" + " ".join([inner[0], *names]) + ")"))
        except ApbError:
            return None
    found = wording.action(body, prefix=True)
    if found is not None:
        action, rest = found
        return action if _benign(rest, wording) else None
    plain = _REMARK.sub(" ", body) if _benign(" ".join(_REMARK.findall(body)), wording) else body
    readings = []
    for candidate in wording.loose_actions(plain):
        try:
            readings.append(str(task.parse_action(candidate)))
        except ApbError:
            continue
    return readings[0] if len(readings) == 1 else None


def stated_plan(text: str, wording: Wording, task: Task, *, cost_line: bool = False) -> tuple[list[str] | None, str]:
    """(the plan the response states as PDDL actions, why not), `None` when it states no single plan."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None, "the response is not text or is over apb.engine.limits.MAX_ANSWER_CHARS"
    if "\x00" in text:
        return None, "the response holds a NUL character"
    parts = _END.split(text, maxsplit=1)
    body, after = parts[0], parts[1] if len(parts) > 1 else ""
    plan: list[str] = []
    heading = nothing = False
    for line in body.split("\n"):
        stripped = line.strip()
        if not stripped or _MARKERS.match(stripped.strip("`").strip() or "pddl"):
            continue
        content = _line_body(stripped)
        if not content:
            continue
        action = _read_action(content, wording, task)
        if action is not None:
            if nothing:
                return None, "the response says no action is needed and states actions"
            plan.append(action)
            continue
        if cost_line and plan and _COST.match(content + "."):
            continue
        if not plan and not heading and stripped.endswith(":") and not HEDGE.search(stripped):
            heading = True
            continue
        if not plan and _NOTHING.search(content) and not HEDGE.search(content):
            nothing = True  # 'no further actions are needed': the empty plan, stated
            continue
        return None, f"a line states no action of the domain: {stripped[:100]!r}"
    if not plan and not nothing and not (len(parts) > 1 and not heading):
        return None, "the response states no action"
    for line in after.split("\n"):
        content = _line_body(line)
        if not content or (cost_line and _COST.match(content + ".")):
            continue
        if HEDGE.search(content) or _read_action(content, wording, task) is not None:
            return None, f"after [PLAN END] the response hedges or states more actions: {line.strip()[:100]!r}"
    return plan, ""


_NEGATED = re.compile(r"\bis (?:not|no longer)\b", re.IGNORECASE)


def stated_state(text: str, wording: Wording) -> tuple[tuple[set[str], set[str]] | None, str]:
    """((facts stated true, facts stated false), why not): every clause of the answer's first paragraph reads as a
    fact ('the red block is not clear' states a fact false)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS or "\x00" in text:
        return None, "the response is not plain text within apb.engine.limits.MAX_ANSWER_CHARS"
    body = text.strip().split("[", 1)[0].strip()
    hedged = HEDGE.search(body)
    body = _REMARK.sub(" ", _NOISE.sub(" ", body)).strip().rstrip(".")
    if not body or hedged:
        return None, "the response states no state, or hedges"
    true, false = set(), set()
    body = " ".join(re.sub(r"\n+", ", ", body).split())  # one space between words: the split below is linear
    for clause in re.split(r", ?(?:and )?| and ", body):
        clause = _line_body(clause)
        if not clause:
            continue
        negated = bool(_NEGATED.search(clause))
        fact = wording.fact(_NEGATED.sub("is", clause) if negated else clause)
        if fact is None:
            return None, f"a clause states no fact of the domain: {clause[:100]!r}"
        (false if negated else true).add(fact)
    if true & false:
        return None, "the response states a fact both true and false"
    return (true, false), ""


_VALID = re.compile(r"\bplan is (in)?valid\b", re.IGNORECASE)
_NO_PLAN = re.compile(r"\b(?:no (?:valid )?plan (?:is possible|possible|exists)|(?:is|it's|it is) (?:impossible|"
                      r"not possible)|cannot be (?:achieved|reached|solved|done)|unsolvable|unreachable)\b",
                      re.IGNORECASE)


_OTHERWISE = re.compile(r"\b(?:or|alternative(?:ly)?|options?|instead)\b", re.IGNORECASE)


def states_no_plan(text: str, wording: Wording, task: Task) -> bool:
    """The response says no plan exists, without doubt and without stating a plan (or any action)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS or "\x00" in text:
        return False
    if not _NO_PLAN.search(text) or _DOUBT.search(text) or _OTHERWISE.search(text):
        return False
    return not any(_read_action(_line_body(line), wording, task) for line in text.split("\n")[:10_000]
                   if _line_body(line))


# a verification answer explains with 'unless' and 'or' ("you cannot stack a block unless ..."): only doubt counts
_DOUBT = re.compile(r"\b(?:maybe|perhaps|might|possibly|probably|not sure|unsure|guess|unclear|either)\b",
                    re.IGNORECASE)


def stated_validity(text: str) -> bool | None:
    """True/False when the answer (before any [STATEMENT]) says the plan is valid / invalid, only that, and without
    doubt."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    answer = text.split("[STATEMENT]", 1)[0]
    said = {m.group(1) is None for m in _VALID.finditer(answer)}
    return said.pop() if len(said) == 1 and not _DOUBT.search(answer) else None

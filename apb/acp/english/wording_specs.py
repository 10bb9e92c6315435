"""apb's own question wording (`apb/prompts/acp/questions.yaml`, rendered by `apb.acp.wording`) as the reader's
question specs: the same shape as `questions.yaml` here (per task: `bool` and `mcq` forms with a regular expression
each, what an MCQ option names), built from the templates themselves, so the reader follows the wording file.

Placeholders become named groups: `{action}`, `{atom}`/`{atoms}` (atoms), `{plan}` (a plan, its brackets read
away), and `{steps}` one form per size from the `steps_one` / `steps_two` templates, whose step numbers (`{step}`,
`{next}`) say exactly which steps are meant; other placeholders match any text. A claim option (val) is read from
the task's `option` claims, a step claim by its template's step number.
"""

from __future__ import annotations

import re

OPTION_KIND = {"app": "action", "prog": "atoms", "reach": "atoms", "areach": "action", "val": "claim",
               "just": "steps", "land": "atom"}
PREMISE = {"prog": "action", "just": "plan"}
_HOLE = re.compile(r"\{(\w+)\}")
_GROUPS = {"action": "action", "atom": "atoms", "atoms": "atoms", "plan": "plan", "step": "step", "next": "next"}


def _regex(template: str, inner: dict[str, str] | None = None, named: bool = True) -> str:
    """A wording template as a regular expression: literal text (any spacing), placeholders as groups."""
    out, pos, seen = [], 0, set()
    for m in _HOLE.finditer(template):
        out.append(re.escape(normal(template[pos:m.start()])).replace(r"\ ", r"\s+"))
        name = m.group(1)
        if inner and name in inner:
            out.append(inner[name])
        elif named and name in _GROUPS and _GROUPS[name] not in seen:
            group = _GROUPS[name]
            seen.add(group)
            out.append(rf"(?P<{group}>\d+)" if name in ("step", "next") else f"(?P<{group}>.+?)")
        else:
            out.append(r"\d+" if name in ("step", "next") else ".+?")
        pos = m.end()
    out.append(re.escape(normal(template[pos:])).replace(r"\ ", r"\s+"))
    return "".join(out)


def normal(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _steps(p: dict) -> list[tuple[int, str]]:
    """(size, regex) of the task's step phrasings, step numbers as groups and the actions as any text."""
    out = []
    for size, key in ((1, "steps_one"), (2, "steps_two")):
        if key in p:
            text = p[key].replace("{action}", "{_a}").replace("{next_action}", "{_b}")
            out.append((size, _regex(text)))
    return out


def question_specs(phrases: dict) -> dict:
    """{task: spec} for the tasks with bool/MCQ questions in `phrases` (the parsed wording file)."""
    specs = {}
    for task, kind in OPTION_KIND.items():
        p = phrases.get(task)
        if not isinstance(p, dict):
            continue
        spec: dict = {"option": kind, "bool": [], "mcq": [], "plans_any": False}
        if task in PREMISE:
            spec["premise"] = PREMISE[task]
        steps = _steps(p)
        for fmt, key, end in (("bool", "bool", "$"), ("mcq", "query", "")):
            if key not in p:
                continue
            template = p[key]
            if "{steps}" in template and steps:
                spec[fmt] += [{"pattern": _regex(template, {"steps": regex}) + end, "size": size}
                              for size, regex in steps]
            else:
                spec[fmt].append({"pattern": _regex(template) + end, "size": 1})
        if kind == "claim" and isinstance(p.get("option"), dict):
            spec["claims"] = {normal(text).rstrip("."): claim for claim, text in p["option"].items()
                              if "{" not in text}
            spec["claim_patterns"] = [(_regex(text), claim) for claim, text in p["option"].items() if "{" in text]
        if kind == "steps":
            spec["step_patterns"] = steps
        specs[task] = spec
    return specs

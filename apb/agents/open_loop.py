"""Open-loop grounding (the relational-domains study): (1) one LLM call writes the plan as action names only;
(2) each step's objects are chosen with one question per parameter ("Which object is <the parameter's
description>? Objects: ..."), offering the objects of a fitting type as `choices=` so a local model can be
grammar-constrained; (3) the grounded actions are executed in order, stopping at the first failure.

No feedback reaches the LLM: every prompt shows the task as it was at the start.
"""

from __future__ import annotations

import re

from apb.agents.base import FINISH, BaseAgent, StopEpisode
from apb.agents.examples import Example
from apb.agents.plan_generation import parse_plan
from apb.prompts import prompt_family

PROMPTS = "agents/open_loop/"
PLAN_END = "[PLAN END]"


prompt = prompt_family(PROMPTS)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def match_action_name(line: str, names: list[str]) -> str | None:
    """The action name a plan line means: the whole line or its first word written like a name (case, hyphens,
    underscores and spaces ignored), else the longest name the line starts with; None if none."""
    words = line.strip().strip("()").split()
    if not words:
        return None
    by_squash = {_squash(n): n for n in names}
    for candidate in (" ".join(words), words[0]):
        if _squash(candidate) in by_squash:
            return by_squash[_squash(candidate)]
    squashed = _squash(line)
    starts = [n for s, n in by_squash.items() if s and squashed.startswith(s)]
    return max(starts, key=len) if starts else None


def fitting_objects(info: dict, param_type) -> list[str]:
    """The objects whose type is `param_type` (or one of them, for `either`) or a subtype of it, sorted;
    all objects when none fits."""
    objects = info.get("objects") or {}
    types = info.get("types") or {}
    wanted = {param_type} if isinstance(param_type, str) else set(param_type or ())

    def fits(obj_type) -> bool:
        if not wanted or "object" in wanted:
            return True
        current, seen = obj_type, set()
        while isinstance(current, str) and current not in seen:
            if current in wanted:
                return True
            seen.add(current)
            current = types.get(current)
        return False

    names = sorted(name for name, obj_type in objects.items() if fits(obj_type))
    return names or sorted(objects)


def match_object(answer: str, choices: list[str], objects: list[str]) -> str | None:
    """The object an answer names: the whole answer (quotes, punctuation and case ignored), else the first
    object named as a word in it, preferring the offered choices; None if it names none."""
    cleaned = answer.strip().strip("\"'`.,:;!*").strip().lower()
    for pool in (choices, objects):
        for name in pool:
            if cleaned == name.lower():
                return name
    for pool in (choices, objects):
        found = []
        for name in pool:
            hit = re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", answer.lower())
            if hit:
                found.append((hit.start(), -len(name), name))
        if found:
            return min(found)[2]
    return None


class OpenLoopGroundingAgent(BaseAgent):
    """Plan with action names, ground each parameter with one question, execute in order; stop at a failure."""

    name = "open-loop"
    needs_llm = True
    options = ("shots",)

    def __init__(self, *, llm, example: Example | None = None, **base) -> None:
        base.pop("translator", None)  # accepted for a uniform constructor; grounded actions are PDDL already
        super().__init__(llm=llm, **base)
        self.example = example
        self.reset("", {})

    # ---- prompts --------------------------------------------------------------------------------------------
    def planning_messages(self, info: dict) -> list[dict]:
        names = [s["name"] for s in info.get("action_schemas") or ()]
        system = prompt("system", actions=", ".join(names), domain=str(info.get("domain_description", "")).strip())
        messages = [{"role": "system", "content": system}]
        example = self.example_for(info)
        if example is not None:
            messages.append({"role": "user", "content": prompt("example_task", task=example.task)})
            plan = [s.action.strip("()").split()[0] for s in example.steps]
            messages.append({"role": "assistant", "content": "\n".join([*plan, prompt("plan_end")])})
        messages[-1]["cache"] = True
        messages.append({"role": "user", "content": prompt("task", task=self.task)})
        return messages

    def grounding_messages(self, info: dict, number: int, schema: dict, chosen: list[tuple[str, str]],
                           variable: str, objects: list[str]) -> list[dict]:
        system = prompt("ground_system", domain=str(info.get("domain_description", "")).strip())
        chosen_text = " " + prompt("chosen", chosen="; ".join(f"{d}: {o}" for d, o in chosen)) if chosen else ""
        question = prompt("ground", task=self.task, plan="\n".join(f"{i}. {n}" for i, n in enumerate(self.names, 1)),
                          number=str(number), action=schema["name"],
                          pattern=str(schema.get("indefinite") or schema.get("pddl") or schema["name"]),
                          chosen=chosen_text, variable=variable.strip().rstrip("?."), objects=", ".join(objects))
        return [{"role": "system", "content": system, "cache": True}, {"role": "user", "content": question}]

    # ---- protocol -------------------------------------------------------------------------------------------
    def reset(self, observation: str, info: dict) -> None:
        self.task = observation.strip()
        self.info0 = info  # the situation at the start: open loop, no feedback
        self.names: list[str] | None = None  # the plan, as action names
        self.sent = 0

    def act(self, observation: str, info: dict) -> str:
        if self.sent and info.get("action_valid") is False:
            feedback = ((info.get("failure") or {}).get("text") or observation or "").strip()
            raise StopEpisode(f"the plan failed at step {self.sent} ({self.names[self.sent - 1]}): {feedback}")
        if self.names is None:
            self.names = self.make_plan(self.info0 or info)
            if not self.names:
                raise StopEpisode("empty_plan: the LLM named no known action")
        if self.sent >= len(self.names):
            if info.get("goal_reached"):
                return FINISH
            raise StopEpisode("plan exhausted")
        action = self.ground(self.info0 or info, self.sent + 1, self.names[self.sent])
        self.sent += 1
        return action

    def make_plan(self, info: dict) -> list[str]:
        schema_names = [s["name"] for s in info.get("action_schemas") or ()]
        text = self.call_llm(self.planning_messages(info), role="planner", stop=[PLAN_END])
        names = [match_action_name(line, schema_names) for line in parse_plan(text)]
        return [n for n in names if n]

    def ground(self, info: dict, number: int, name: str) -> str:
        """The step's PDDL action: one question per parameter, answers checked against the objects."""
        schema = next(s for s in info["action_schemas"] if s["name"] == name)
        descriptions = schema.get("variables") or {}
        all_objects = sorted(info.get("objects") or {})
        chosen: list[tuple[str, str]] = []
        args = []
        for param, param_type in schema.get("parameters", ()):
            variable = descriptions.get(param) or f"the {param_type} {param} of {name}"
            choices = fitting_objects(info, param_type)
            answer = self.call_llm(self.grounding_messages(info, number, schema, chosen, variable, choices),
                                   role="grounder", choices=choices)
            obj = match_object(answer, choices, all_objects)
            if obj is None:
                raise StopEpisode(f"grounding failed at step {number} ({name}): {answer.strip()[:80]!r} names no "
                                  f"object for {variable}")
            chosen.append((variable.strip().rstrip("?."), obj))
            args.append(obj)
        return "(" + " ".join([name, *args]) + ")"

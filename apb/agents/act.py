"""Act, ReAct and Act-PDDL: agents that choose one action at a time, seeing the whole interaction so far.

The AutoPlanBench "Act" agent writes one English action per turn and gets the environment's feedback back;
"ReAct" writes a thought ("Think: ...") before each action ("Action: ..."). "Act-PDDL" is Act on the PDDL
view of a problem (an env made with `description="pddl"`): PDDL domain and problem in, PDDL actions out.

Messages are static first (instructions with the domain description, then the one-shot example as a
transcript; the last of these carries `"cache": True`), then the task, then alternating model outputs and
feedback. Two options go beyond the papers and are off by default: `hints` lists the admissible actions after
each feedback, and `constrained` asks the LLM to choose among them (`choices=`).
"""

from __future__ import annotations

import re

from apb.agents.base import FINISH, LOOK_AROUND, AgentError, BaseAgent, StopEpisode
from apb.agents.examples import Example
from apb.nl.nl_yaml import Template
from apb.prompts import prompt_family

PROMPTS = "agents/act/"
MAX_THOUGHTS_IN_ROW = 2  # ReAct: thought-only answers answered with "OK." before the text counts as an action
FINISH_WORDS = {"finish", "finished", "i am finished", "im finished", "i have finished", "done", "i am done",
                "im done", "i finish"}
LOOK_WORDS = {"look around", "lookaround", "look", "i look around"}
PDDL_ACTION = re.compile(r"\([^()]*\)")
# an "Action:" label at a line start; blanks that are not newlines only, so a run of newlines is not rescanned from
# each of its lines (`^\s*` took quadratic time on a million newlines)
_ACTION_LABEL = re.compile(r"^[^\S\n]*action[^\S\n]*:", re.IGNORECASE | re.MULTILINE)


prompt = prompt_family(PROMPTS)


def english_action(action: str, info: dict) -> str:
    """A grounded PDDL action in English through the NL template of its schema in `info["action_schemas"]`,
    rendered as the env renders it (a type noun from `info["type_nouns"]` is dropped before an object named
    after it); the PDDL text itself when there is no usable template."""
    name, *args = action.strip()[1:-1].split()
    for schema in info.get("action_schemas") or ():
        if schema.get("name", "").lower() == name.lower() and schema.get("nl"):
            params = tuple((p[0] if isinstance(p, list | tuple) else str(p)).lstrip("?")
                           for p in schema.get("parameters", ()))
            if len(params) != len(args):
                break
            nouns = frozenset(str(n).lower() for n in info.get("type_nouns") or ())
            try:
                return Template(schema["nl"], params, nouns).fill(args)
            except KeyError:  # the template names a parameter the schema does not have
                break
    return action


def command_of(text: str) -> str | None:
    """FINISH or LOOK_AROUND when the text is one of those commands, else None."""
    words = re.sub(r"[^a-z ]+", " ", text.lower().replace("'", "")).split()
    normal = " ".join(words)
    if normal in FINISH_WORDS or text.strip().lower() == FINISH:
        return FINISH
    if normal in LOOK_WORDS or text.strip().lower() == LOOK_AROUND:
        return LOOK_AROUND
    return None


class ActAgent(BaseAgent):
    """AutoPlanBench's Act: one English action per turn, the whole interaction in the prompt."""

    name = "act"
    needs_llm = True
    options = ("hints", "constrained", "max_failures", "shots")
    system_prompt = "system"
    example_steps: int | None = None  # keep only the last N steps of the example (ReAct: 3)
    uses_translator = True  # English actions go through a translator (Act-PDDL reads PDDL directly)

    def __init__(self, *, llm, translator=None, example: Example | None = None, max_failures: int | None = 10,
                 hints: bool = False, constrained: bool = False, **kwargs) -> None:
        if max_failures is not None and max_failures < 1:
            raise AgentError(f"max_failures must be at least 1 (or none), got {max_failures}")
        if translator is None and self.uses_translator:
            from apb.translators import make_translator

            translator = make_translator("cascade")
        super().__init__(llm=llm, translator=translator, **kwargs)
        self.example = example
        self.max_failures = max_failures
        self.hints = hints
        self.constrained = constrained
        self.messages: list[dict] = []
        self.failures_in_row = 0
        self._started = False

    # ---- prompt -------------------------------------------------------------------------------------------
    def reset(self, observation: str, info: dict) -> None:
        example = self.example_for(info)
        if example is not None and self.example_steps:
            example = example.shortened(self.example_steps)
        static = [{"role": "system", "content": self.system_text(info)}]
        if example is not None:
            static.extend(self.example_messages(example))
        static[-1]["cache"] = True
        self.messages = [*static, {"role": "user", "content": self.task_text(observation, info, example)}]
        self.failures_in_row = 0
        self._started = False

    def system_text(self, info: dict) -> str:
        return prompt(self.system_prompt, domain_description=str(info.get("domain_description", "")).strip())

    def task_text(self, observation: str, info: dict, example: Example | None) -> str:
        text = prompt("task", task=observation.strip()) if example is not None else observation.strip()
        return self.with_hints(text, info)

    def example_messages(self, example: Example) -> list[dict]:
        messages = [{"role": "user", "content": prompt("example", task=example.task)}]
        for step in example.steps:
            messages.append({"role": "assistant", "content": self.example_turn(step.text, step.thought)})
            messages.append({"role": "user", "content": step.observation})
        messages.append({"role": "assistant", "content": self.example_turn(prompt("finish"),
                                                                           prompt("finish_thought"))})
        return messages

    def example_turn(self, action: str, thought: str) -> str:
        return action

    def with_hints(self, text: str, info: dict) -> str:
        if not self.hints or not info.get("admissible_actions"):
            return text
        actions = "\n".join(f"- {a}" for a in self.choice_texts(info, with_finish=False))
        return f"{text}\n\n{prompt('hints', actions=actions)}"

    def choice_texts(self, info: dict, *, with_finish: bool = True) -> list[str]:
        texts = list(self.choice_map(info))
        return texts if with_finish else [t for t in texts if command_of(t) != FINISH]

    def choice_map(self, info: dict) -> dict[str, str]:
        """Admissible action text (as the LLM writes it) -> PDDL, plus the finish command."""
        mapping: dict[str, str] = {}
        for action in info.get("admissible_actions") or ():
            mapping.setdefault(english_action(action, info), action)
        mapping.setdefault(prompt("finish"), FINISH)
        return mapping

    # ---- acting -------------------------------------------------------------------------------------------
    def act(self, observation: str, info: dict) -> str:
        if not self.messages:
            self.reset(observation, info)
        if self._started:
            self.messages.append({"role": "user", "content": self.feedback_text(observation, info)})
            self.failures_in_row = 0 if info.get("action_valid", True) else self.failures_in_row + 1
            if self.max_failures is not None and self.failures_in_row >= self.max_failures:
                raise StopEpisode(f"{self.failures_in_row} invalid actions in a row")
        self._started = True
        choices = self.choice_texts(info) if self.constrained and info.get("admissible_actions") else None
        text = self.ask(choices)
        return self.to_action(text, info, choices)

    def feedback_text(self, observation: str, info: dict) -> str:
        return self.with_hints(observation.strip() or "(no feedback)", info)

    def ask(self, choices: list[str] | None) -> str:
        """One LLM call; the answer joins the history. Returns the action part of the answer."""
        output = self.call_llm(self.messages, role="planner", choices=choices).strip()
        self.messages.append({"role": "assistant", "content": output or "(no answer)"})
        return first_line(output)

    def to_action(self, text: str, info: dict, choices: list[str] | None) -> str:
        """The action to send for the model's action text; one translation event either way."""
        command = command_of(text)
        if command is not None:
            return self.record(text, command, "command")
        if choices:
            chosen = match_choice(text, self.choice_map(info))
            if chosen is not None:
                return self.record(text, chosen, "choice")
        action = self.translate(text, info)
        return action if action else text

    def record(self, text: str, action: str | None, method: str) -> str:
        self.emit({"type": "translation", "input": text, "action": action, "confidence": 1.0, "method": method,
                   "raw": text, "llm_calls": 0, "usage": None, "error": None, "tried": [method]})
        return action or text


class ReActAgent(ActAgent):
    """AutoPlanBench's ReAct: "Think: ..." then "Action: ..." each turn; a thought alone is answered "OK."."""

    name = "react"
    system_prompt = "system_react"
    example_steps = 3

    def example_turn(self, action: str, thought: str) -> str:
        return prompt("react_step", thought=thought, action=action)

    def ask(self, choices: list[str] | None) -> str:
        thoughts = 0
        while True:
            output = self.call_llm(self.messages, role="planner", choices=choices).strip()
            self.messages.append({"role": "assistant", "content": output or "(no answer)"})
            thought, action = split_react(output)
            if action is not None or thoughts >= MAX_THOUGHTS_IN_ROW:
                return action if action is not None else first_line(thought)
            thoughts += 1
            self.messages.append({"role": "user", "content": prompt("react_continue")})


class ActPDDLAgent(ActAgent):
    """Act on the PDDL view: PDDL domain and problem in the prompt, PDDL actions out, terse feedback."""

    name = "act-pddl"
    view = "pddl"
    system_prompt = "system_pddl"
    uses_translator = False

    def system_text(self, info: dict) -> str:
        return prompt(self.system_prompt, domain_pddl=str(info.get("domain_pddl", "")).strip())

    def task_text(self, observation: str, info: dict, example: Example | None) -> str:
        problem = str(info.get("problem_pddl") or observation).strip()
        text = prompt("task_pddl", problem_pddl=problem) if example is not None else problem
        return self.with_hints(text, info)

    def example_messages(self, example: Example) -> list[dict]:
        messages = [{"role": "user", "content": prompt("example_pddl", problem_pddl=example.problem_pddl.strip())}]
        for step in example.steps:
            messages.append({"role": "assistant", "content": step.action})
            messages.append({"role": "user", "content": prompt("pddl_feedback", action=step.action)})
        messages.append({"role": "assistant", "content": FINISH})
        return messages

    def choice_map(self, info: dict) -> dict[str, str]:
        mapping = {a: a for a in info.get("admissible_actions") or ()}
        mapping.setdefault(FINISH, FINISH)
        return mapping

    def ask(self, choices: list[str] | None) -> str:
        output = self.call_llm(self.messages, role="planner", choices=choices).strip()
        self.messages.append({"role": "assistant", "content": output or "(no answer)"})
        return output

    def to_action(self, text: str, info: dict, choices: list[str] | None) -> str:
        found = PDDL_ACTION.search(text)
        if found is not None:
            action = " ".join(found.group(0).split()).replace("( ", "(").replace(" )", ")").lower()
            return self.record(text, action, "pddl")
        command = command_of(first_line(text))
        if command is not None:
            return self.record(text, command, "command")
        self.record(text, None, "none")
        return first_line(text)


def first_line(text: str) -> str:
    """The first non-empty line, without an "Action:" label, list markers or quotes."""
    for line in text.splitlines():
        if not line or line.isspace():
            continue
        line = re.sub(r"^\s*(?:action\s*:|[>*\-]|\d+[.)])\s*", "", line.strip(), flags=re.IGNORECASE).strip()
        line = line.strip("\"'`").strip()
        if line:
            return line
    return ""


def split_react(text: str) -> tuple[str, str | None]:
    """(thought, action) of a ReAct answer; action None when there is no "Action:" line. A text with neither
    label counts as an action."""
    match = _ACTION_LABEL.search(text)
    if match is not None:
        thought = re.sub(r"^\s*think\s*:", "", text[:match.start()], flags=re.IGNORECASE).strip()
        return thought, first_line(text[match.end():])
    thought_label = re.match(r"\s*think\s*:", text, flags=re.IGNORECASE)
    if thought_label is not None:
        return text[thought_label.end():].strip(), None
    return "", first_line(text)


def match_choice(text: str, mapping: dict[str, str]) -> str | None:
    """The PDDL action of the choice the text is (case and spacing aside), or of the longest choice it
    contains; None when it names none."""
    def norm(s: str) -> str:
        return " ".join(re.sub(r"[.!\"'`]+$", "", s.strip()).lower().split())

    normal = {norm(k): v for k, v in mapping.items()}
    wanted = norm(text)
    if wanted in normal:
        return normal[wanted]
    contained = [k for k in normal if k and k in wanted]
    return normal[max(contained, key=len)] if contained else None

"""Plan generation (AutoPlanBench "Basic" and "CoT", and the PDDL-input variant): one LLM call at reset writes
the whole plan, then `act` executes it step by step.

By default the episode stops at the first step the environment rejects (the paper's metric: the plan is
wrong), or once the plan is exhausted. The one-shot example is the domain's bundled example (`build_example`)
unless one is given; the static part of the prompt (instructions, domain, example) comes first and its last
message carries `"cache": True`.
"""

from __future__ import annotations

import re

from apb.agents.base import FINISH, BaseAgent, StopEpisode
from apb.agents.examples import Example
from apb.prompts import prompt_family

PROMPTS = "agents/plan/"
_NUMBERING = re.compile(r"^\s*(?:[-*•>]+\s*|(?:step\s*)?\d+\s*[.):\-]\s*|\(\d+\)\s*|\[\d+\]\s*)+", re.IGNORECASE)
_THOUGHT = re.compile(r"^\s*(?:think|thought|reasoning)\s*:", re.IGNORECASE)
_HEADER = re.compile(r"^\s*(?:my |the |final )?plan\s*:?\s*$", re.IGNORECASE)
_END = re.compile(r"\[\s*plan[\s_-]*end\s*\]|^\s*(?:plan[\s_-]*end|end of plan)\s*\.?\s*$", re.IGNORECASE)
_PDDL_ACTION = re.compile(r"\([^()]*\)")


prompt = prompt_family(PROMPTS)


def _strip_marks(line: str) -> str:
    line = line.strip().strip("`").strip()
    line = _NUMBERING.sub("", line)
    return line.strip().strip("*").strip()


def parse_plan(text: str, *, thoughts: bool = False) -> list[str]:
    """The action lines of an English plan: numbering and bullets stripped, empty lines, headers and (when
    `thoughts`) 'Think: ...' lines skipped; reading stops at a [PLAN END] marker."""
    steps = []
    for raw in (text or "").splitlines():
        end = _END.search(raw)
        line = _strip_marks(raw[:end.start()] if end else raw)
        if line and not _HEADER.match(line) and not (thoughts and _THOUGHT.match(line)):
            steps.append(line)
        if end:
            break
    return steps


def parse_pddl_plan(text: str) -> list[str]:
    """The PDDL actions of a plan: the first `( ... )` group of each line, `;` comments ignored; reading stops
    at a [PLAN END] marker."""
    steps = []
    for raw in (text or "").splitlines():
        end = _END.search(raw)
        line = (raw[:end.start()] if end else raw).split(";", 1)[0]
        found = _PDDL_ACTION.search(line)
        if found:
            steps.append(" ".join(found.group(0).split()))
        if end:
            break
    return steps


class BasicAgent(BaseAgent):
    """Basic plan generation: instructions, the domain and a one-shot example (the whole example plan, one
    action per line), then the task; the plan's English steps are translated to PDDL one by one."""

    name = "basic"
    needs_llm = True
    options = ("hints", "stop_on_failure", "shots")
    system_prompt = "basic_system"
    uses_thoughts = False
    pddl = False

    def __init__(self, *, llm, translator=None, example: Example | None = None, stop_on_failure: bool = True,
                 hints: bool = False, **base) -> None:
        if translator is None:
            translator = self.default_translator()
        super().__init__(llm=llm, translator=translator, **base)
        self.example = example
        self.stop_on_failure = stop_on_failure
        self.hints = hints
        self.messages: list[dict] = []
        self.plan: list[str] = []
        self.plan_text = ""
        self._sent = 0
        self._finished = False

    @staticmethod
    def default_translator():
        from apb.translators import make_translator

        return make_translator("cascade")  # no LLM stage: no hidden calls

    # ---- prompt ---------------------------------------------------------------------------------------------
    def static_messages(self, info: dict) -> list[dict]:
        system = prompt("domain", instructions=prompt(self.system_prompt),
                        domain=str(info.get("domain_description", "")).strip())
        messages = [{"role": "system", "content": system}]
        example = self.example_for(info)
        if example is not None:
            messages.append({"role": "user", "content": prompt("example_task", task=self.example_task(example))})
            messages.append({"role": "assistant", "content": self.example_plan(example)})
        return messages

    def example_task(self, example: Example) -> str:
        return example.task

    def example_plan(self, example: Example) -> str:
        return "\n".join([s.text for s in example.steps] + [prompt("plan_end")])

    def task_text(self, observation: str, info: dict) -> str:
        return observation.strip()

    def build_messages(self, observation: str, info: dict) -> list[dict]:
        """The prompt: the static prefix (its last message flagged for caching), then the task."""
        messages = self.static_messages(info)
        messages[-1]["cache"] = True
        task = prompt("task" if not self.pddl else "pddl_task", task=self.task_text(observation, info))
        if self.hints and info.get("admissible_actions"):
            task += "\n\n" + prompt("hints", actions=", ".join(info["admissible_actions"]))
        messages.append({"role": "user", "content": task})
        return messages

    def parse(self, text: str) -> list[str]:
        return parse_plan(text, thoughts=self.uses_thoughts)

    # ---- protocol -------------------------------------------------------------------------------------------
    def reset(self, observation: str, info: dict) -> None:
        self.messages = self.build_messages(observation, info)
        self.plan_text = self.call_llm(self.messages, role="planner")
        self.plan = self.parse(self.plan_text)
        self._sent = 0
        self._finished = False

    def act(self, observation: str, info: dict) -> str:
        if self._finished:
            raise StopEpisode("plan exhausted")
        if self._sent > 0 and info.get("action_valid") is False and self.stop_on_failure:
            feedback = ((info.get("failure") or {}).get("text") or observation or "").strip()
            raise StopEpisode(f"the plan failed at step {self._sent} ({self.plan[self._sent - 1]}): {feedback}")
        if self._sent >= len(self.plan):
            self._finished = True
            return FINISH
        step = self.plan[self._sent]
        self._sent += 1
        action = self.translate(step, info)
        return action if action else step  # untranslatable: the env explains what is wrong with the raw text


class CoTAgent(BasicAgent):
    """Chain-of-thought plan generation: the example is shortened to its last three steps, each action preceded
    by a 'Think: ...' line; the plan's thought lines are skipped when executing."""

    name = "cot"
    system_prompt = "cot_system"
    uses_thoughts = True

    def example_for(self, info: dict) -> Example | None:
        example = super().example_for(info)
        return example.shortened(3) if example is not None else None

    def example_plan(self, example: Example) -> str:
        lines = []
        for step in example.steps:
            lines += [prompt("thought_line", thought=step.thought), step.text]
        return "\n".join([*lines, prompt("plan_end")])


class BasicPDDLAgent(BasicAgent):
    """Basic plan generation from PDDL input (envs made with description="pddl"): the domain and problem in
    PDDL, the example as a PDDL problem and plan; the answer's PDDL actions are sent as they are."""

    name = "basic-pddl"
    view = "pddl"
    system_prompt = "pddl_system"
    pddl = True

    @staticmethod
    def default_translator():
        return None

    def static_messages(self, info: dict) -> list[dict]:
        domain = str(info.get("domain_pddl") or info.get("domain_description", "")).strip()
        messages = [{"role": "system",
                     "content": prompt("pddl_domain", instructions=prompt(self.system_prompt), domain=domain)}]
        example = self.example_for(info)
        if example is not None:
            messages.append({"role": "user",
                             "content": prompt("pddl_example_task", task=example.problem_pddl.strip())})
            messages.append({"role": "assistant",
                             "content": "\n".join([s.action for s in example.steps] + [prompt("plan_end")])})
        return messages

    def task_text(self, observation: str, info: dict) -> str:
        return str(info.get("problem_pddl") or observation).strip()

    def parse(self, text: str) -> list[str]:
        return parse_pddl_plan(text)

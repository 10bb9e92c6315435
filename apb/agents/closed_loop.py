"""Closed-loop planning with horizon H (the relational-domains study): the LLM writes a numbered plan, the agent
executes H steps of it, then asks for a new plan from the situation it is in. A failed action is first explained
by the LLM (from the state before it), then the agent replans; every later planning prompt lists all mistakes so
far with their explanations. `horizon=None` executes whole plans (replanning only after a failure, or when a plan
runs out before the goal).

The study's workflow, step by step: the system prompt has the domain description, how many actions of each plan
are carried out (H), and every action in words with a description of each of its objects; the task gives the
objects, the situation and the goal in words; after a failure the LLM is asked why the action failed; the replanning
prompt gives the actions taken, the situation now, every mistake with its explanation, and asks for a new plan
"avoiding all past mistakes". Messages are static first (the system prompt, then the one-shot example as a numbered
plan; the last of these carries `"cache": True`), then the task or the replanning request.
"""

from __future__ import annotations

from apb.agents.act import english_action
from apb.agents.base import FINISH, AgentError, BaseAgent, StopEpisode
from apb.agents.examples import Example
from apb.agents.plan_generation import parse_plan
from apb.nl.grammar import letter
from apb.prompts import prompt_family

MAX_ACTIONS = 50  # actions per episode in the closed-loop study

PROMPTS = "agents/closed_loop/"
PLAN_END = "[PLAN END]"
MAX_EMPTY_PLANS = 2


prompt = prompt_family(PROMPTS)


def numbered(lines: list[str]) -> str:
    return "\n".join(prompt("plan_line", number=str(i), action=line) for i, line in enumerate(lines, 1))


def action_descriptions(info: dict) -> str:
    """Each action in words (`put a pan A into an oven B`) with one line per object it takes, from the domain's
    per-variable descriptions (`A: the filled pan that will be put into the oven`), as the study's prompts had."""
    lines = []
    for schema in info.get("action_schemas") or ():
        lines.append(prompt("action_line", action=str(schema.get("indefinite") or schema.get("pddl") or
                                                          schema["name"])))
        variables = schema.get("variables") or {}
        for index, (name, type_name) in enumerate(schema.get("parameters") or ()):
            description = variables.get(name) or f"the {type_name} {name}"
            lines.append("    " + prompt("variable_line", letter=letter(index), description=description))
    return "\n".join(lines)


def horizon_text(horizon: int | None) -> str:
    """What the agent does with a plan: carry out its first H actions, or all of them."""
    if horizon is None:
        return prompt("horizon_all")
    return prompt("horizon_one") if horizon == 1 else prompt("horizon_many", horizon=str(horizon))


class ClosedLoopAgent(BaseAgent):
    """Plan, execute `horizon` steps, replan from the current state; explain each failure and replan around it."""

    name = "closed-loop"
    needs_llm = True
    options = ("horizon", "max_actions", "max_replans", "shots")

    @classmethod
    def default_step_limit(cls, dataset_limit: int) -> int:
        return max(MAX_ACTIONS, dataset_limit)  # the study's 50 actions, more where the dataset needs them

    def __init__(self, *, llm, translator=None, example: Example | None = None, horizon: int | None = 1,
                 max_actions: int = MAX_ACTIONS, max_replans: int | None = None, **base) -> None:
        if horizon is not None and horizon < 1:
            raise AgentError(f"horizon must be at least 1 (or None for whole plans), got {horizon}")
        if max_actions < 1:
            raise AgentError(f"max_actions must be at least 1, got {max_actions}")
        if max_replans is not None and max_replans < 0:
            raise AgentError(f"max_replans must be 0 or more (or None for no limit), got {max_replans}")
        if translator is None:
            from apb.translators import make_translator

            translator = make_translator("cascade")  # no LLM stage: no hidden calls
        super().__init__(llm=llm, translator=translator, **base)
        self.example = example
        self.horizon = horizon
        self.max_actions = max_actions
        self.max_replans = max_replans
        self.reset("", {})

    # ---- prompts --------------------------------------------------------------------------------------------
    def static_messages(self, info: dict) -> list[dict]:
        messages = [{"role": "system",
                     "content": prompt("system", domain=str(info.get("domain_description", "")).strip(),
                                       horizon=horizon_text(self.horizon), actions=action_descriptions(info))}]
        example = self.example_for(info)
        if example is not None:
            messages.append({"role": "user", "content": prompt("example_task", task=example.task)})
            plan = numbered([s.text for s in example.steps]) + "\n" + prompt("plan_end")
            messages.append({"role": "assistant", "content": plan})
        messages[-1]["cache"] = True
        return messages

    def planning_messages(self, info: dict) -> list[dict]:
        """The first planning prompt, or (once anything was tried) the replanning prompt from the current state."""
        if not self.done and not self.mistakes:
            request = prompt("task", task=self.task)
        else:
            mistakes = "\n".join(prompt("mistake", **m) for m in self.mistakes)
            request = prompt("replan", task=self.task, done=numbered(self.done) or prompt("nothing_done"),
                             state=str(info.get("state", "")).strip().rstrip("."),
                             goal=str(info.get("goal", "")).strip().rstrip("."),
                             mistakes=prompt("mistakes", mistakes=mistakes) + "\n\n" if mistakes else "")
        return [*self.static_messages(info), {"role": "user", "content": request}]

    def explanation_messages(self, state: str, action: str, feedback: str, info: dict) -> list[dict]:
        system = prompt("explain_system", domain=str(info.get("domain_description", "")).strip())
        return [{"role": "system", "content": system, "cache": True},
                {"role": "user", "content": prompt("explain", state=state.strip().rstrip("."), action=action,
                                                   feedback=feedback)}]

    # ---- protocol -------------------------------------------------------------------------------------------
    def reset(self, observation: str, info: dict) -> None:
        self.task = observation.strip()
        self.plan: list[str] = []  # the steps of the current plan not yet executed
        self.done: list[str] = []  # the actions executed successfully, in English
        self.mistakes: list[dict] = []  # failed actions: action, feedback, explanation
        self.plans_made = 0
        self.from_plan = 0  # steps of the current plan executed successfully
        self.sent = 0
        self.empty_plans = 0
        self.pending: tuple[str, str] | None = None  # (action in English, state before it)

    def act(self, observation: str, info: dict) -> str:
        if self.pending is not None:
            self.review(observation, info)
        if info.get("goal_reached"):
            return FINISH
        if self.sent >= self.max_actions:
            raise StopEpisode(f"max_actions: {self.sent} actions executed")
        while not self.plan:
            self.make_plan(info)
        step = self.plan.pop(0)
        action = self.translate(step, info)
        self.pending = (english_action(action, info) if action else step, str(info.get("state", "")))
        self.sent += 1
        return action if action else step  # untranslatable: the env explains what is wrong with the raw text

    def review(self, observation: str, info: dict) -> None:
        """Takes in the outcome of the last action: count it, or explain the failure and drop the plan."""
        action, before = self.pending
        self.pending = None
        if info.get("action_valid", True):
            self.done.append(action)
            self.from_plan += 1
            if self.horizon is not None and self.from_plan >= self.horizon:
                self.plan = []
            return
        self.plan = []
        self.check_replans()
        feedback = str((info.get("failure") or {}).get("text") or observation).strip()
        explanation = self.call_llm(self.explanation_messages(before, action, feedback, info), role="explainer")
        self.mistakes.append({"action": action, "feedback": feedback,
                              "explanation": " ".join(explanation.split()) or prompt("no_explanation")})

    def check_replans(self) -> None:
        replans = self.plans_made - 1
        if self.max_replans is not None and replans >= self.max_replans:
            raise StopEpisode(f"max_replans: {replans} replans made")

    def make_plan(self, info: dict) -> None:
        if self.plans_made:
            self.check_replans()
        text = self.call_llm(self.planning_messages(info), role="planner", stop=[PLAN_END])
        self.plans_made += 1
        self.from_plan = 0
        self.plan = parse_plan(text)
        if not self.plan:
            self.empty_plans += 1
            if self.empty_plans >= MAX_EMPTY_PLANS:
                raise StopEpisode(f"empty_plan: the LLM returned no plan {self.empty_plans} times")

"""One-shot examples, built automatically: a domain's example problem (p00) and its gold plan, replayed through
the environment for the real observations, with a template-written thought before each action.

`shortened(3)` keeps the last three steps, as the paper does for CoT and ReAct: the example's initial situation
is replaced by the state after the dropped prefix, so the example stays true.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from apb.engine.errors import ApbError
from apb.nl.grammar import join_and


@dataclass
class ExampleStep:
    action: str  # PDDL, "(stack a b)"
    text: str  # the action in English, as an agent would write it
    observation: str  # the env's feedback
    state: str  # the situation after the step, in English
    thought: str  # why this action, in English (template-written)


@dataclass
class Example:
    domain: str
    problem_id: str
    objects: str  # "I have the following objects: ..." line
    initial_state: str  # English, the situation before the first step
    goal: str  # English
    problem_pddl: str
    steps: list[ExampleStep] = field(default_factory=list)

    @property
    def task(self) -> str:
        """The example's task text, shaped like an environment observation."""
        return f"{self.objects}\n\nCurrently, {self.initial_state}.\n\nMy goal is that {self.goal}."

    def shortened(self, keep: int = 3) -> Example:
        """The last `keep` steps; the initial situation becomes the state before the first kept step."""
        if len(self.steps) <= keep:
            return self
        dropped = len(self.steps) - keep
        return replace(self, initial_state=self.steps[dropped - 1].state, steps=self.steps[dropped:])


def build_example(domain: str, *, description: str = "curated") -> Example:
    """The example of a bundled domain (problem p00 and its gold plan) replayed through PDDLTextEnv."""
    from apb.envs.text_env import PDDLTextEnv

    env = PDDLTextEnv(domain, split="example", description=description)
    observation, info = env.reset()
    entry = env.dataset.problems[0]
    plan = env.dataset.gold_plan(entry.id)
    if plan is None:
        raise ApbError(f"{domain}: the example problem {entry.id} has no gold plan to build an example from")
    task, text = env.task, env.text
    objects = observation.partition("\n\n")[0]
    initial = text.state(task.initial_state)
    state = task.initial_state
    steps = []
    for step in plan.steps:
        action = task.parse_action(step.text)
        thought = write_thought(task, text, state, action)
        observation, *_ , info = env.step(str(action))
        if not info["action_valid"]:
            raise ApbError(f"{domain}: the gold plan of {entry.id} fails at {action}: {observation}")
        state = env.state
        steps.append(ExampleStep(str(action), text.action(action), observation, info["state"], thought))
    return Example(domain, entry.id, objects, initial, text.goal(), env.dataset.problem_text(entry.id), steps)


def write_thought(task, text, state, action) -> str:
    """A short reason for an action from the facts that matter: the preconditions it relies on, and the goal
    facts it achieves (or that it works towards)."""
    holds = [text.words.literal(c) for fid, wanted, c in action.conditions if fid >= 0 and wanted]
    achieved = [g for g in task.unsatisfied_goals(state)
                if not g.startswith("(not ") and task.holds(task.successor(state, action), g)]
    parts = [f"Since {join_and(holds)}, I can {text.action(action)}." if holds
             else f"I can {text.action(action)}."]
    if achieved:
        parts.append(f"This achieves part of my goal: {join_and([text.words.literal(g) for g in achieved])}.")
    else:
        remaining = [text.words.literal(g) for g in task.unsatisfied_goals(state)]
        if remaining:
            parts.append(f"This brings me closer to my goal that {join_and(remaining)}.")
    return " ".join(parts)

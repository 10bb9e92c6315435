"""Words a question in English (apb's NL templates: curated, rule-based or imported) or in PDDL.

Only the text depends on the view: the items, options, their order and the gold are fixed before wording, so a
question's gold never depends on how it is worded. The sentences come from `apb/prompts/acp/questions.yaml`.
"""

from __future__ import annotations

from functools import cache

import yaml

from apb.acp.records import LABELS, Question
from apb.engine import State, Task
from apb.nl import TaskText, load_templates
from apb.nl.grammar import join_and
from apb.nl.render import objects_text
from apb.prompts import load_prompt

VIEWS = ("nl", "pddl")


@cache
def phrases() -> dict:
    """The question wording file, parsed once."""
    return yaml.safe_load(load_prompt("acp/questions.yaml"))


class Wording:
    """Renders the context, question and choices of questions about one task, in the `nl` or `pddl` view."""

    def __init__(self, task: Task, view: str = "nl", *, description: str = "curated", domain_file=None,
                 domain_pddl: str = "") -> None:
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}: use nl or pddl")
        self.task = task
        self.view = view
        self.domain_pddl = domain_pddl
        self.templates = load_templates(task.domain, description, domain_file=domain_file)
        self.text = TaskText(task, self.templates)
        self.p = phrases()

    # ---- pieces --------------------------------------------------------------------------------------------------
    def action(self, action: str) -> str:
        if self.view == "pddl":
            return action
        name, *args = action.strip("() ").split()
        return self.text.words.action(name, args)

    def atom(self, atom: str) -> str:
        return atom if self.view == "pddl" else self.text.words.literal(atom)

    def atoms(self, atoms: list[str]) -> str:
        return join_and([self.atom(a) for a in atoms])

    def plan(self, plan: list[str]) -> str:
        return "[" + ", ".join(self.action(a) for a in plan) + "]"

    def inner(self, action: str) -> str:
        """An action for a template that puts it in parentheses: PDDL loses its own outer pair."""
        text = self.action(action)
        return text[1:-1] if self.view == "pddl" else text

    def steps(self, p: dict, plan: list[str], steps: list[int]) -> str:
        """'the action at step 3 (X)' or 'the actions at steps 3 and 4 (X and Y)' (steps 0-based in data), with the
        question's templates `p`."""
        if len(steps) == 1:
            return p["steps_one"].format(step=steps[0] + 1, action=self.inner(plan[steps[0]]))
        return p["steps_two"].format(step=steps[0] + 1, next=steps[1] + 1, action=self.action(plan[steps[0]]),
                                     next_action=self.action(plan[steps[1]]))

    def context(self, state: State, legend: bool) -> str:
        """The situation: domain, objects, current state and goal (plus, for generative NL questions, how to
        write actions and facts in PDDL)."""
        task, c = self.task, self.p["context"]
        goal = [str(lit) for lit in task.goal]
        if self.view == "pddl":
            objects = ", ".join(f"{name} - {kind}" for name, kind in task.problem.objects.items())
            facts = sorted(task.static_facts) + sorted(task.facts(state))
            return c["pddl"].format(domain=self.domain_pddl.strip(), objects=objects, state=" ".join(facts),
                                    goal="(and " + " ".join(goal) + ")")
        intro = self.templates.intro.strip()
        intro = intro + " " if intro else c["default_intro"].format(domain=task.domain.name)
        text = c["nl"].format(intro=intro, objects=objects_text(task.problem, task.domain, self.templates),
                              state=self.text.state(state), goal=self.text.goal())
        return text + ("\n" + self.legend() if legend else "")

    def legend(self) -> str:
        """How English actions and facts are written in PDDL, for answers to generative questions."""
        c = self.p["context"]
        actions = []
        for schema in self.task.domain.actions:
            params = [p.name for p in schema.parameters]
            actions.append(c["legend_line"].format(pddl="(" + " ".join([schema.name, *params]) + ")",
                                                   text=self.text.words.action(schema.name, params)))
        facts = []
        for name, schema in self.task.domain.predicates.items():
            params = [p.name for p in schema.parameters]
            facts.append(c["legend_line"].format(pddl="(" + " ".join([name, *params]) + ")",
                                                 text=self.text.words.fact(name, params)))
        return c["legend"].format(actions="\n".join(actions), facts="\n".join(facts))

    # ---- whole questions ---------------------------------------------------------------------------------------------
    def fields(self, item: dict) -> dict:
        """Placeholder values of an item or option."""
        values = {}
        if "action" in item:
            values["action"] = self.action(item["action"])
        if "atom" in item:
            values["atom"] = self.atom(item["atom"])
        if "atoms" in item:
            values["atoms"] = self.atoms(item["atoms"])
        if "plan" in item:
            values["plan"] = self.plan(item["plan"])
            values["plan_pddl"] = '"' + " ".join(item["plan"]) + '"'  # ACPBench quotes plans in PDDL in any view
        return values

    def option(self, q: Question, option: dict) -> str:
        p = self.p[q.task]
        if "claim" in option:  # a claim about a sequence: a step fails, valid, no goal, ...
            kind = option["claim"]
            if kind == "step":
                return p["option"]["step"].format(step=option["step"] + 1,
                                                  action=self.inner(q.item["plan"][option["step"]]))
            return p["option"][kind]
        if "steps" in option:  # plan steps to remove
            return self.steps(p, q.item["plan"], option["steps"])
        return p["option"].format(**self.fields(option))

    def render(self, q: Question, state: State) -> Question:
        """Fills `context`, `question` and (MCQ) `choices` and `query` of `q` for this view; returns `q`."""
        q.view = self.view
        q.context = self.context(state, legend=q.format == "gen" and self.view == "nl")
        p = self.p[q.task]
        values = self.fields(q.item)
        if "steps" in q.item:
            values["steps"] = self.steps(p, q.item["plan"], q.item["steps"])
        if q.format == "mcq":
            texts = [self.option(q, option) for option in q.options]
            q.query = p["query"].format(**values)
            q.choices = {"text": texts, "label": list(LABELS[: len(texts)])}
            q.question = q.query + "\n" + "\n".join(f"{label}. {text}" for label, text in zip(LABELS, texts))
        else:
            q.question = p[q.format].format(**values)
        return q

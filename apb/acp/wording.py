"""Words a question in English (apb's NL templates: curated, rule-based or imported) or in PDDL.

The sentences are ACPBench's, from `apb/prompts/acp/questions.yaml`: the context opens with a description of the
domain, states the goal where the release does and, for generative questions, lists the actions or propositions in
the release's legend; questions, queries and options (inline) are the release's templates; instructions on how to
answer belong to the prompt (`apb.acp.evaluate`), not to the record. Only the text depends on the view: the items,
options, their order and the gold are fixed before wording, so a question's gold never depends on how it is worded.
"""

from __future__ import annotations

from functools import cache

import yaml

from apb.acp.records import LABELS, Question
from apb.engine import State, Task
from apb.nl import TaskText, load_templates
from apb.nl.grammar import join_and
from apb.nl.render import objects_text
from apb.nl.rules import domain_words
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
        """The plan's actions joined by ", " (the release quotes it in bool/MCQ questions)."""
        return ", ".join(self.action(a) for a in plan)

    def steps(self, p: dict, plan: list[str], steps: list[int]) -> str:
        """The action at one step, or the two at consecutive steps ("A and B"), as the release names them."""
        if len(steps) == 1:
            return p["steps_one"].format(action=self.action(plan[steps[0]]))
        return p["steps_two"].format(action=self.action(plan[steps[0]]), next_action=self.action(plan[steps[1]]))

    def description(self) -> str:
        """The domain's description: the intro of its description file (curated or the user's), else one built
        from its NL templates (the domain's name and what each action does)."""
        intro = " ".join(self.templates.intro.split())
        if intro and self.templates.source != "rule":
            return intro
        c = self.p["context"]
        actions = join_and([self.templates.actions[a.name].indefinite for a in self.task.domain.actions])
        text = c["description_sentence"].format(domain=domain_words(self.task.domain.name))
        return text + (" " + c["described_actions"].format(actions=actions) if actions else "")

    def context(self, state: State, task: str, fmt: str) -> str:
        """The situation as ACPBench words it: the domain's description, the objects and the current state, then
        the goal for the tasks that ask about plans, and for a generative question the legend of the actions or
        propositions an answer is written with (in the pddl view: the domain, objects, state and goal in PDDL)."""
        t, c, p = self.task, self.p["context"], self.p[task]
        goal = [str(lit) for lit in t.goal]
        if self.view == "pddl":
            objects = ", ".join(f"{name} - {kind}" for name, kind in t.problem.objects.items())
            facts = sorted(t.static_facts) + sorted(t.facts(state))
            return c["pddl"].format(domain=self.domain_pddl.strip(), objects=objects, state=" ".join(facts),
                                    goal="(and " + " ".join(goal) + ")")
        cut = " \n" if fmt == "gen" else " "
        objects = c["objects"].format(objects=objects_text(t.problem, t.domain, self.templates))
        text = self.description() + cut + objects + cut + c["state"].format(state=self.text.state(state))
        tail = [c["goal"].format(goal=self.text.goal())] if p.get("goal") else []
        if fmt == "gen":
            tail.insert(0 if p.get("legend_first") else len(tail), self.legend(p["legend"]))
        return " ".join([text, *tail])

    def legend(self, kind: str) -> str:
        """"The available actions are: (name ?x ?y) - text, ..." (or the propositions), as the release writes it."""
        c = self.p["context"]
        if kind == "actions":
            entries = [(schema.name, schema.parameters, self.text.words.action) for schema in self.task.domain.actions]
        else:
            entries = [(name, schema.parameters, self.text.words.fact)
                       for name, schema in self.task.domain.predicates.items()]
        items = []
        for name, parameters, words in entries:
            params = ["?" + p.name.lstrip("?") for p in parameters]
            items.append(c["legend_item"].format(pddl="(" + " ".join([name, *params]) + ")",
                                                 text=words(name, params)))
        if len(items) > 2:  # the release's lists end ", and ..."
            items = [", ".join(items[:-1]) + ",", items[-1]]
        return c[kind].format(items=" and ".join(items))

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
            values["plan_words"] = " ".join(self.action(a) for a in item["plan"])
            values["plan_pddl"] = '"' + " ".join(item["plan"]) + '"'  # ACPBench quotes plans in PDDL in any view
        return values

    def option(self, q: Question, option: dict) -> str:
        p = self.p[q.task]
        if "claim" in option:  # a claim about a sequence: a plan, not applicable, ...
            return p["option"][option["claim"]]
        if "steps" in option:  # plan steps to remove
            return self.steps(p, q.item["plan"], option["steps"])
        return p["option"].format(**self.fields(option))

    def render(self, q: Question, state: State) -> Question:
        """Fills `context`, `question` and (MCQ) `choices` and `query` of `q` for this view; returns `q`. MCQ
        options follow the question inline (" A. text. B. text."), as in the release."""
        q.view = self.view
        q.context = self.context(state, q.task, q.format)
        p = self.p[q.task]
        values = self.fields(q.item)
        if "steps" in q.item:
            values["steps"] = self.steps(p, q.item["plan"], q.item["steps"])
        if q.format == "mcq":
            texts = [self.option(q, option) for option in q.options]
            size = q.item.get("size", 1) - 1  # just: one action or a pair of consecutive actions
            q.query = _form(p["query"], size).format(**values)
            q.choices = {"text": texts, "label": list(LABELS[: len(texts)])}
            q.question = (_form(p["mcq"], size).format(**values) + " "
                          + " ".join(f"{label}. {text}." for label, text in zip(LABELS, texts)))
        elif q.format == "bool":
            form = q.item.get("wording", len(q.item.get("steps") or [1]) - 1)
            q.question = _form(p["bool"], form).format(**values)
        else:
            q.question = p["gen"].format(**values)
        return q


def _form(template, index: int) -> str:
    """A task's template, or the `index`-th of its list of templates (the release's variants of one form)."""
    return template[index] if isinstance(template, list) else template

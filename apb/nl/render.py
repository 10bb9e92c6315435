"""Rendering of a domain, a problem, states, actions and failures as English (or terse PDDL) text.

The structure follows AutoPlanBench: the domain text lists the actions, then each action's preconditions
(positive and negative in separate sentences), then its effects (added, then deleted), then the type hierarchy.
Fact and action texts are cached, so rendering feedback in an environment step costs a few dictionary lookups.
"""

from __future__ import annotations

from apb.engine.model import ROOT_TYPE, Domain, Literal, Problem
from apb.engine.task import GroundAction, State, Task
from apb.nl.explain import FormulaText
from apb.nl.grammar import article, capitalize, join_and, letter, words
from apb.nl.nl_yaml import ActionTemplate, NLTemplates, PredicateTemplate

EQUALITY = PredicateTemplate("=", ("x", "y"), "{x} is the same as {y}", "{x} is different from {y}")


def _split_atom(text: str) -> tuple[bool, str, tuple[str, ...]]:
    """'(not (on a b))' -> (False, 'on', ('a', 'b'))."""
    t = text.strip()
    positive = True
    if t.startswith(("(not ", "(not(")):
        positive = False
        t = t[4:].strip()[:-1].strip()
    parts = t.strip("()").split()
    return positive, parts[0].lower(), tuple(parts[1:])


class DomainText:
    """Task-independent wording of a domain: predicate and action texts with any arguments."""

    def __init__(self, domain: Domain, templates: NLTemplates) -> None:
        self.domain = domain
        self.templates = templates
        self.formulas = FormulaText(self)

    def predicate(self, name: str) -> PredicateTemplate:
        if name == "=":
            return EQUALITY
        return self.templates.predicates[name]

    def fact(self, name: str, args, positive: bool = True) -> str:
        """`a is on top of b` (positive) or `a is not on top of b`."""
        template = self.predicate(name)
        return (template.compiled if positive else template.compiled_negated).fill(args)

    def _complex(self, text: str) -> bool:
        """True for a condition string that is not a literal: '(or ...)', '(forall ...)', '<atom> because ...'."""
        _, name, _ = _split_atom(text)
        return " because " in text or (name != "=" and name not in self.templates.predicates and
                                        name in ("and", "or", "not", "imply", "forall", "exists"))

    def literal(self, text: str) -> str:
        """The English of a PDDL literal string such as '(not (clear b))' (or of any condition `Task.explain`
        lists, in words)."""
        if self._complex(text):
            return self.formulas.claim(text.split(" because ", 1)[0])
        positive, name, args = _split_atom(text)
        return self.fact(name, args, positive)

    def unmet(self, text: str) -> str:
        """The English of an unmet condition: '(clear b)' unmet reads 'b is not clear', '(not (clear b))'
        unmet reads 'b is clear'; a complex condition 'it is not the case that ...'."""
        if self._complex(text):
            return f"it is not the case that {self.literal(text)}"
        positive, name, args = _split_atom(text)
        return self.fact(name, args, not positive)

    def action(self, name: str, args) -> str:
        """Imperative: `stack a on top of b`."""
        return self.templates.actions[name].compiled.fill(args)

    def action_first_person(self, name: str, args) -> str:
        """`I stack a on top of b`."""
        return self.templates.actions[name].compiled_first_person.fill(args)

    def indefinite(self, name: str) -> str:
        return self.templates.actions[name].indefinite

    # ---- the domain description ------------------------------------------------------------------------------
    def _lifted_literal(self, lit: Literal, letters: dict[str, str]) -> str:
        args = tuple(letters.get(a, a) for a in lit.args)
        return self.fact(lit.predicate, args, lit.positive)

    def _lifted_effect(self, lit: Literal, letters: dict[str, str]) -> str:
        args = tuple(letters.get(a, a) for a in lit.args)
        if lit.positive:
            return self.fact(lit.predicate, args, True)
        return self.fact(lit.predicate, args, False) + " anymore"

    def action_rules(self, template: ActionTemplate) -> list[str]:
        """The precondition and effect sentences of one action, AutoPlanBench style."""
        schema = self.domain.action(template.name)
        letters = {p.name: letter(i) for i, p in enumerate(schema.parameters)}
        head = template.indefinite
        sentences = []
        positives = [self._lifted_literal(lit, letters) for lit in schema.precondition if lit.positive]
        negatives = [self._lifted_literal(lit, letters) for lit in schema.precondition if not lit.positive]
        if positives:
            sentences.append(f"I can only {head} if {join_and(positives)}.")
        if negatives:
            sentences.append(f"I can only {head} if {join_and(negatives)}.")
        for part in schema.complex_precondition:  # or / imply / forall / exists / negated and, in words
            sentences.append(self.formulas.rule(str(part), letters, head))
        if not positives and not negatives and not schema.complex_precondition:
            sentences.append(f"I can always {head}.")
        adds = [self._lifted_effect(lit, letters) for lit in schema.effects if lit.positive]
        added = {(lit.predicate, lit.args) for lit in schema.effects if lit.positive}
        # Delete-then-add: an atom both deleted and added stays true, so it is not said to end.
        dels = [self._lifted_effect(lit, letters) for lit in schema.effects
                if not lit.positive and (lit.predicate, lit.args) not in added]
        if adds:
            sentences.append(f"Once I {head}, {join_and(adds)}.")
        if dels:
            sentences.append(f"Once I {head}, {join_and(dels)}.")
        sentences.extend(self._conditional_rules(schema, letters, head))
        return sentences

    def _conditional_rules(self, schema, letters: dict[str, str], head: str) -> list[str]:
        """'Once I <act>, for every block C, if C is on A, then C is clear.': conditional effects grouped by their
        quantified variables and condition, adds before deletes."""
        groups: dict[tuple, list] = {}
        for effect in schema.conditional_effects:
            key = (tuple((p.name, p.type_str) for p in effect.parameters), str(effect.condition or ""))
            groups.setdefault(key, []).append(effect)
        out = []
        for (params, condition), effects in groups.items():
            spec = " ".join(f"{name} - {kind}" for name, kind in params)
            phrases, names = self.formulas.bind(spec, letters) if params else ([], letters)
            ordered = sorted(effects, key=lambda e: not e.literal.positive)
            said = join_and([self._lifted_effect(e.literal, names) for e in ordered])
            if condition:
                said = f"if {self.formulas.claim(condition, names)}, then {said}"
            if phrases:
                said = f"for every {join_and(phrases)}, {said}"
            out.append(f"Once I {head}, {said}.")
        return out

    def cost_rules(self) -> list[str]:
        """'Each action has a cost; ...' and one sentence per action, for domains with action costs."""
        if not self.domain.has_costs:
            return []
        out = ["Each action has a cost; the cost of a plan is the sum of the costs of its actions."]
        for schema in self.domain.actions:
            template = self.templates.actions.get(schema.name)
            if template is None:
                continue
            letters = {p.name: letter(i) for i, p in enumerate(schema.parameters)}
            amounts = []
            for term in schema.cost:
                if term.function is None:
                    amounts.append(f"{term.value:g}")
                else:
                    args = [letters.get(a, a) for a in term.args]
                    of = f" of {join_and(args)}" if args else ""
                    amounts.append(f"the {' '.join(words(term.function))}{of}")
            cost = " plus ".join(amounts) if amounts else "0"
            out.append(f"The cost to {template.indefinite} is {cost}.")
        return out

    def type_hierarchy(self) -> list[str]:
        """'Every depot and every distributor is a place.' for each type with declared subtypes."""
        children: dict[str, list[str]] = {}
        for name, parent in self.domain.types.items():
            if parent is not None and parent != ROOT_TYPE:
                children.setdefault(parent, []).append(name)
        out = []
        for parent, kids in children.items():
            nouns = [f"every {self.templates.type_noun(k)}" for k in kids]
            noun = self.templates.type_noun(parent)
            out.append(f"{capitalize(join_and(nouns))} is {article(noun)} {noun}.")
        return out

    def description(self) -> str:
        """The whole domain text: intro, actions, restrictions and effects, type hierarchy."""
        blocks = []
        if self.templates.intro:
            blocks.append(self.templates.intro)
        actions = [self.templates.actions[a.name] for a in self.domain.actions]
        blocks.append("I can do the following actions:\n" + "\n".join(f"- {a.indefinite}" for a in actions))
        rules = []
        for a in actions:
            rules.extend(self.action_rules(a))
        blocks.append("I have the following restrictions on my actions and know their effects:\n" + "\n".join(rules))
        costs = self.cost_rules()
        if costs:
            blocks.append("\n".join(costs))
        hierarchy = self.type_hierarchy()
        if hierarchy:
            blocks.append("The kinds of objects are related as follows:\n" + "\n".join(hierarchy))
        return "\n\n".join(blocks)


class TaskText:
    """Wording of one grounded task: objects, goal, states, ground actions, feedback. Caches what it renders."""

    def __init__(self, task: Task, templates: NLTemplates) -> None:
        self.task = task
        self.words = DomainText(task.domain, templates)
        self.templates = templates
        domain = task.domain
        order = {name: i for i, name in enumerate(domain.predicates)}
        # Facts are listed grouped by predicate in declaration order, then in sorted argument order.
        fact_rank = []
        self._fact_text = []
        for i, name in enumerate(task.fact_names):
            _, pred, args = _split_atom(name)
            fact_rank.append((order.get(pred, len(order)), i))
            self._fact_text.append(self.words.fact(pred, args, True))
        self._rank = {i: r for r, (_, i) in enumerate(sorted(fact_rank))}
        statics = []
        for text in task.static_facts:
            _, pred, args = _split_atom(text)
            statics.append(((order.get(pred, len(order)), pred, args), self.words.fact(pred, args, True)))
        statics.sort()
        self._static_text = [t for _, t in statics]
        self._static_pddl = sorted(task.static_facts)
        self._action_text: dict[int, str] = {}

    # ---- facts and states ------------------------------------------------------------------------------------
    def fact_texts(self, state: State) -> list[str]:
        """English of every true fluent fact of `state`, in display order (static facts not included)."""
        ids = self.task.fact_ids(State(state.bits & ~self.task._static_bits))
        rank = self._rank
        texts = self._fact_text
        return [texts[i] for i in sorted(ids, key=rank.__getitem__)]

    def state_both(self, state: State) -> tuple[str, list[str]]:
        """(English, sorted PDDL facts) of a state with its static facts, from one pass over its facts."""
        ids = self.task.fact_ids(State(state.bits & ~self.task._static_bits))
        rank, texts, names = self._rank, self._fact_text, self.task.fact_names
        facts = self._static_text + [texts[i] for i in sorted(ids, key=rank.__getitem__)]
        return (join_and(facts) if facts else "nothing is the case",
                self._static_pddl + sorted(names[i] for i in ids))

    def state(self, state: State, *, include_static: bool = True) -> str:
        """`a is clear, a is on the table and the hand is empty` (static facts first when included)."""
        facts = self.fact_texts(state)
        if include_static:
            facts = self._static_text + facts
        return join_and(facts) if facts else "nothing is the case"

    def state_pddl(self, state: State, *, include_static: bool = True) -> list[str]:
        facts = sorted(self.task.facts(state))
        return (self._static_pddl + facts) if include_static else facts

    # ---- actions ------------------------------------------------------------------------------------------------
    def action(self, action: GroundAction) -> str:
        text = self._action_text.get(action.index)
        if text is None:
            text = self.words.action(action.schema.name, action.args)
            if action.index is not None and action.index >= 0:  # -1: built on demand, outside the grounding
                self._action_text[action.index] = text
        return text

    def first_person(self, action: GroundAction) -> str:
        return self.words.action_first_person(action.schema.name, action.args)

    # ---- goal and problem --------------------------------------------------------------------------------------
    def goal(self) -> str:
        """The goal as a clause: the nl.yaml's hand-written goal for this problem, else rendered from its facts."""
        written = self.templates.goals.get(self.task.problem.name.lower())
        if written:
            return written
        parts = [self.words.fact(lit.predicate, lit.args, lit.positive) for lit in self.task.goal]
        parts += [self.words.formulas.claim(str(part)) for part in self.task.problem.complex_goal]
        return join_and(parts)

    def unsatisfied(self, goals: list[str]) -> str:
        """'a is not on b and c is not clear' for unsatisfied goal literals."""
        return join_and([self.words.unmet(g) for g in goals])

    def objects(self) -> str:
        """'2 cars (c0 and c1) and 3 locations (l0, l1 and l2)'; untyped objects are simply listed."""
        return objects_text(self.task.problem, self.task.domain, self.templates)

    def initial_state(self) -> str:
        return join_and([self.words.fact(lit.predicate, lit.args, True) for lit in self.task.problem.init])

    def problem_description(self) -> str:
        return (f"I have the following objects: {self.objects()}.\n\n"
                f"Currently, {self.initial_state() or 'nothing is the case'}.\n\n"
                f"My goal is that {self.goal()}.")


def objects_text(problem: Problem, domain: Domain, templates: NLTemplates) -> str:
    groups: dict[str, list[str]] = {}
    for name, type_name in problem.objects.items():
        groups.setdefault(type_name, []).append(name)
    for name, type_name in domain.constants.items():
        groups.setdefault(type_name, []).append(name)
    parts = []
    for type_name, names in groups.items():
        noun = templates.type_noun(type_name)
        if noun is None:
            parts.append(join_and(names))
        elif len(names) == 1:
            parts.append(f"{article(noun)} {noun} ({names[0]})")
        else:
            parts.append(f"{len(names)} {templates.type_plural(type_name)} ({join_and(names)})")
    if len(parts) > 2:
        return "; ".join(parts[:-1]) + "; and " + parts[-1]
    return join_and(parts)

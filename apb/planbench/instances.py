"""One PlanBench instance as its prompt generation sees it: the initial and goal facts (PlanBench's `pred_a_b`
keys), the atoms in PlanBench's sorted order, the gold plan (`name_a_b` actions) and STRIPS progression the way
PlanBench's executor does it (adds, then deletes).

Gold plans are the plans PlanBench's Fast Downward (`astar(lmcut())`) found, as its released prompt files hold them
(apb.planbench.gold_plans); an instance the release does not cover gets apb's own A* with LM-cut (optimal, and
the same plan wherever the release allows a comparison: docs/planbench.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

from apb.datasets.planbench import PlanBenchConfig
from apb.engine import Task, load_domain, load_problem
from apb.planbench.gold_plans import released_plan
from apb.planbench.render import fact_key, sorted_atoms


def _key(name: str) -> str:
    """`(at a0 l0-0)` -> `at_a0_l0-0`."""
    return "_".join(name.strip("()").split())


@cache
def _domain(text: str):
    return load_domain(text)


@dataclass(frozen=True)
class Instance:
    """Instance `number` of a config's instance folder (its generalized one when `generalized`)."""

    config: PlanBenchConfig
    number: int
    generalized: bool = False

    @property
    def rel(self) -> str:
        return self.config.instance_rel(self.number, self.generalized)

    @cached_property
    def text(self) -> str:
        return (self.config.generalized_instance_text(self.number) if self.generalized
                else self.config.instance_text(self.number))

    @cached_property
    def task(self) -> Task:
        domain = _domain(self.config.domain_text())
        return Task(domain, load_problem(self.text, domain))

    @cached_property
    def init_atoms(self) -> list[tuple[str, tuple[str, ...]]]:
        return sorted_atoms(self.task.problem.init)

    @cached_property
    def goal_atoms(self) -> list[tuple[str, tuple[str, ...]]]:
        return sorted_atoms(self.task.problem.goal)

    @cached_property
    def init(self) -> frozenset[str]:
        return frozenset(fact_key(lit) for lit in self.task.problem.init)

    @cached_property
    def goal(self) -> frozenset[str]:
        return frozenset(fact_key(lit) for lit in self.task.problem.goal)

    @cached_property
    def plan(self) -> list[str]:
        """The gold plan as `name_a_b` actions (empty when there is none)."""
        known = released_plan(self.config.domain_text(), self.text)
        if known is not None:
            return known
        from apb.planners import astar

        result = astar(self.task, heuristic="lmcut", timeout=None)
        return [] if result.plan is None else ["_".join(str(a).strip("()").split()) for a in result.plan]

    def plan_from(self, state: frozenset[str]) -> list[str]:
        """The gold plan from another initial state (same goal): the released one where the release states it
        (apb.planbench.gold_plans, keyed by the state), else apb's A*."""
        text = self.problem_text(state)
        known = released_plan(self.config.domain_text(), text)
        if known is not None:
            return known
        from apb.planners import astar

        domain = _domain(self.config.domain_text())
        result = astar(Task(domain, load_problem(text, domain)), heuristic="lmcut", timeout=None)
        return [] if result.plan is None else ["_".join(str(a).strip("()").split()) for a in result.plan]

    def problem_text(self, state: frozenset[str]) -> str:
        """The instance with another initial state, as canonical PDDL text (objects and facts sorted): the problem
        PlanBench plans again from in t6."""
        objects = " ".join(f"{name} - {kind}" for name, kind in sorted(self.task.problem.objects.items()))
        facts = " ".join(f"({' '.join(f.split('_'))})" for f in sorted(state))
        goal = " ".join(f"({' '.join(f.split('_'))})" for f in sorted(self.goal))
        return (f"(define (problem replanning) (:domain {self.task.domain.name}) (:objects {objects}) "
                f"(:init {facts}) (:goal (and {goal})))")

    def effects(self, action: str) -> tuple[set[str], set[str]]:
        """(adds, deletes) of one `name_a_b` action as fact keys."""
        ground = self.task.parse_action("(" + " ".join(action.split("_")) + ")")
        names = self.task.fact_names
        return {_key(names[i]) for i in ground.add}, {_key(names[i]) for i in ground.delete}

    def progress(self, state: frozenset[str] | set[str], plan: list[str]) -> frozenset[str]:
        """The facts after `plan` from `state`, as PlanBench's executor computes them (adds, then deletes)."""
        facts = set(state)
        for action in plan:
            adds, deletes = self.effects(action)
            facts = (facts | adds) - deletes
        return frozenset(facts)

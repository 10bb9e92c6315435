"""A state's facts indexed for the drawers: true fluent facts plus the task's static facts, as argument tuples
by predicate. Built from the engine's public API (fact strings), once per state drawn."""

from __future__ import annotations

from collections import defaultdict

from apb.engine.task import State, Task


def fact_tuple(fact: str) -> tuple[str, ...]:
    """'(on a b)' -> ('on', 'a', 'b')."""
    return tuple(fact.strip().strip("()").split())


class StaticFacts:
    """The static facts of a task as tuples by predicate (they are the same in every state: parsed once)."""

    def __init__(self, task: Task) -> None:
        self.by_predicate: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for fact in sorted(task.static_facts):
            parts = fact_tuple(fact)
            if parts:
                self.by_predicate[parts[0]].append(parts[1:])


class StateView:
    """What holds in one state: `args(pred)` lists the argument tuples of the true atoms of `pred`."""

    def __init__(self, task: Task, state: State, static: StaticFacts) -> None:
        self.task = task
        self.fluent: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for fact in sorted(task.facts(state)):
            parts = fact_tuple(fact)
            if parts:
                self.fluent[parts[0]].append(parts[1:])
        self.static = static.by_predicate

    def args(self, predicate: str) -> list[tuple[str, ...]]:
        return self.fluent.get(predicate, []) + self.static.get(predicate, [])

    def has(self, predicate: str, *args: str) -> bool:
        return tuple(args) in self.args(predicate)

    def holds(self, predicate: str) -> bool:
        """A 0-ary atom (`(handempty)`)."""
        return bool(self.args(predicate))

    def objects_with(self, predicate: str) -> set[str]:
        """The first arguments of the true atoms of `predicate`."""
        return {a[0] for a in self.args(predicate) if a}

    def mapping(self, predicate: str) -> dict[str, str]:
        """first argument -> second argument of the true atoms of a binary predicate."""
        return {a[0]: a[1] for a in self.args(predicate) if len(a) >= 2}

    def objects_of(self, *types: str) -> list[str]:
        """The objects whose declared type is one of `types` (case-insensitive), sorted."""
        wanted = {t.lower() for t in types}
        return sorted(o for o, t in self.task.objects.items() if str(t).lower() in wanted)

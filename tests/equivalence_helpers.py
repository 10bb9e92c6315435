"""Helpers of the equivalence tests: problems as (objects, init, goal) and back to PDDL text."""

from __future__ import annotations

from apb.engine import Domain


def render(domain: Domain, objects: dict[str, str], init, goal, name: str = "p") -> str:
    """PDDL problem text; objects typed with `- type` (untyped domains accept `- object`)."""
    decl = " ".join(f"{obj} - {kind}" for obj, kind in objects.items())
    atoms = lambda facts: " ".join("(" + " ".join(f) + ")" for f in facts)  # noqa: E731
    return (f"(define (problem {name}) (:domain {domain.name})\n  (:objects {decl})\n  (:init {atoms(init)})\n"
            f"  (:goal (and {atoms(goal)})))\n")


def rename(objects: dict[str, str], init, goal, order: list[int], prefix: str = "x"):
    """The problem with objects renamed to prefix0.. in the given order (a permutation of their indices)."""
    names = list(objects)
    new = {names[i]: f"{prefix}{rank}" for rank, i in enumerate(order)}
    sub = lambda fact: (fact[0], *(new.get(a, a) for a in fact[1:]))  # noqa: E731
    return {new[o]: objects[o] for o in names}, [sub(f) for f in init], [sub(f) for f in goal], new


def remove_at(items: list, index: int) -> list:
    """The list without its item at `index`."""
    return [item for i, item in enumerate(items) if i != index]

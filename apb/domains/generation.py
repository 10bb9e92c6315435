"""Helpers every bundled generator shares: parameter checking and a fixed problem-file layout."""

from __future__ import annotations

from collections.abc import Mapping


def check_parameters(domain: str, defaults: Mapping[str, int], ranges: Mapping[str, tuple[int, int]],
                     params: Mapping) -> dict[str, int]:
    """The full parameter set (defaults filled in); ValueError names an unknown or out-of-range parameter."""
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}: {domain} takes {', '.join(defaults)}")
    values = {**defaults, **params}
    for key, (low, high) in ranges.items():
        value = values[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"parameter {key!r} must be an integer from {low} to {high}, got {value!r}")
    return values


def render_problem(name: str, domain: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    """Problem PDDL in a fixed layout: one object group, fact and goal per line."""
    lines = [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"] + [f"    {fact}" for fact in init] + ["  )"]
    lines += ["  (:goal (and"] + [f"    {fact}" for fact in goal] + ["  ))", ")"]
    return "\n".join(lines) + "\n"

"""Helpers every bundled generator shares: parameter checking and a fixed problem-file layout."""

from __future__ import annotations

from collections.abc import Mapping


def merge_parameters(domain: str, defaults: Mapping[str, int], params: Mapping) -> dict[str, int]:
    """The defaults overridden by `params`; ValueError names any parameter the domain does not take."""
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}: {domain} takes {', '.join(defaults)}")
    return {**defaults, **params}


def check_range(key: str, value, low: int, high: int, why: str = "") -> int:
    """`value` if it is an integer from `low` to `high`; else ValueError naming the parameter (and `why`)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"parameter {key!r} must be an integer from {low} to {high}{why}, got {value!r}")
    return value


def check_parameters(domain: str, defaults: Mapping[str, int], ranges: Mapping[str, tuple[int, int]],
                     params: Mapping) -> dict[str, int]:
    """The full parameter set (defaults filled in); ValueError names an unknown or out-of-range parameter."""
    values = merge_parameters(domain, defaults, params)
    for key, (low, high) in ranges.items():
        check_range(key, values[key], low, high)
    return values


def render_problem(name: str, domain: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    """Problem PDDL in a fixed layout: one object group, fact and goal per line."""
    lines = [f"(define (problem {name})", f"  (:domain {domain})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"] + [f"    {fact}" for fact in init] + ["  )"]
    lines += ["  (:goal (and"] + [f"    {fact}" for fact in goal] + ["  ))", ")"]
    return "\n".join(lines) + "\n"

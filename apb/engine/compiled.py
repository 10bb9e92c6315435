"""Compiled simulation of the non-STRIPS parts of a task: one Python function per ground action for its complex
precondition (`checks[i](bits) -> bool`) and its conditional effects (`transitions[i](bits) -> bits`, before the
axioms), all generated as one module and compiled once, on first use.

The generated code only tests and combines bit masks (hex literals); it is equivalent to evaluating the ground
formulas (`holds`), which remains the fallback when Python's compiler refuses the source (too deep or too large).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from apb.engine.formulas import python_condition


def _source(actions: Sequence) -> str:
    lines: list[str] = []
    for action in actions:
        i = action.index
        if action.extra:
            condition = " and ".join(python_condition(f) for f in action.extra)
            lines += [f"def check_{i}(b):", f"    return {condition}"]
        if action.effects:
            lines += [f"def transition_{i}(b):", f"    d = {action.del_mask:#x}", f"    a = {action.add_mask:#x}"]
            for effect in action.effects:
                lines.append(f"    if {python_condition(effect.condition)}:")
                lines.append(f"        d |= {effect.del_mask:#x}")
                lines.append(f"        a |= {effect.add_mask:#x}")
            lines.append("    return (b & ~d) | a")
    return "\n".join(lines) + "\n"


def compile_actions(actions: Sequence) -> tuple[dict[int, Callable], dict[int, Callable]]:
    """(checks, transitions) by action index for the actions with complex preconditions / conditional effects."""
    namespace: dict = {}
    try:
        exec(compile(_source(actions), "<ground actions>", "exec"), namespace)  # the source holds only masks
    except (RecursionError, SyntaxError, MemoryError, ValueError):
        return _interpreted(actions)
    checks = {a.index: namespace[f"check_{a.index}"] for a in actions if a.extra}
    transitions = {a.index: namespace[f"transition_{a.index}"] for a in actions if a.effects}
    return checks, transitions


def _interpreted(actions: Sequence) -> tuple[dict[int, Callable], dict[int, Callable]]:
    """The same functions as closures over the ground formulas."""
    def check(extra):
        return lambda bits: all(f.holds(bits) for f in extra)

    def transition(action):
        def apply(bits: int) -> int:
            delete, add = action.del_mask, action.add_mask
            for effect in action.effects:
                if effect.condition.holds(bits):
                    delete |= effect.del_mask
                    add |= effect.add_mask
            return (bits & ~delete) | add
        return apply
    return ({a.index: check(a.extra) for a in actions if a.extra},
            {a.index: transition(a) for a in actions if a.effects})

"""Compiled simulation of the non-STRIPS parts of a task: one Python function per ground action for its complex
precondition (`checks[i](bits) -> bool`) and its conditional effects (`transitions[i](bits) -> bits`, before the
axioms), each generated and compiled the first time the action is tested or applied (a walk or a search uses few
of a large task's actions: compiling all 3,530 of caldera-sat18 p05 up front took 0.36 s).

The generated code only tests and combines bit masks (hex literals); it is equivalent to evaluating the ground
formulas (`holds`), which remains the fallback when Python's compiler refuses the source (too deep or too large).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from apb.engine.formulas import python_condition


def _check_source(action) -> str:
    condition = " and ".join(python_condition(f) for f in action.extra)
    return f"def check(b):\n    return {condition}\n"


def _transition_source(action) -> str:
    lines = ["def transition(b):", f"    d = {action.del_mask:#x}", f"    a = {action.add_mask:#x}"]
    for effect in action.effects:
        lines.append(f"    if {python_condition(effect.condition)}:")
        lines.append(f"        d |= {effect.del_mask:#x}")
        lines.append(f"        a |= {effect.add_mask:#x}")
    lines.append("    return (b & ~d) | a")
    return "\n".join(lines) + "\n"


def _compiled(source: str, name: str) -> Callable | None:
    namespace: dict = {}
    try:
        exec(compile(source, "<ground action>", "exec"), namespace)  # the source holds only masks
    except (RecursionError, SyntaxError, MemoryError, ValueError):
        return None
    return namespace[name]


def _interpreted_check(action) -> Callable[[int], bool]:
    return lambda bits: all(f.holds(bits) for f in action.extra)


def interpreted_transition(action) -> Callable[[int], int]:
    """The action's successor function (before axioms) by evaluating its effects' ground conditions."""
    def apply(bits: int) -> int:
        delete, add = action.del_mask, action.add_mask
        for effect in action.effects:
            if effect.condition.holds(bits):
                delete |= effect.del_mask
                add |= effect.add_mask
        return (bits & ~delete) | add
    return apply


class _OnDemand(dict):
    """index -> function, made by `make(action)` the first time an index is looked up with `[]`."""

    def __init__(self, actions: Sequence, make: Callable) -> None:
        super().__init__()
        self._actions, self._make = actions, make

    def __missing__(self, index: int) -> Callable:
        function = self[index] = self._make(self._actions[index])
        return function


def compile_actions(actions: Sequence) -> tuple[dict[int, Callable], dict[int, Callable]]:
    """(checks, transitions) by action index, for `actions` indexed by their `index` (a task's actions): look an
    index up with `[]` only for an action with complex preconditions (checks) / conditional effects (transitions)."""
    def check(action) -> Callable:
        return _compiled(_check_source(action), "check") or _interpreted_check(action)

    def transition(action) -> Callable:
        return _compiled(_transition_source(action), "transition") or interpreted_transition(action)

    return _OnDemand(actions, check), _OnDemand(actions, transition)

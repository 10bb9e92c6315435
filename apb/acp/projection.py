"""Unreachability proved on a projection: the task restricted to the facts that mention one of an atom's objects
(every action keeps only its preconditions and effects on those facts). Every plan of the task maps to a path of the
projection, so an atom the projection's complete state space never reaches never holds (a pattern-database style
abstraction). It proves what h^2 cannot, such as a vehicle's capacity above its initial one in Transport (a
counting argument over three facts). STRIPS tasks only; the projection is enumerated breadth-first within
PROJECTION_STATES states and WORK_LIMIT operator tries (counts, never seconds), and it proves nothing unless the
enumeration completes."""

from __future__ import annotations

from apb.engine import State, Task

PROJECTION_STATES = 20_000
WORK_LIMIT = 2_000_000  # (state, operator) pairs tried at most: a count, so the verdict is the same on every run
PATTERN_LIMIT = 64  # facts in a pattern at most


def _objects(name: str) -> set[str]:
    return set(name.strip("()").split()[1:])


def projection_unreachable(task: Task, state: State, fid: int, limit: int = PROJECTION_STATES) -> bool:
    """Whether fact `fid` never holds from `state`, proved on the projection onto the facts sharing an object with
    it (False when it is reachable there, the task is not STRIPS, the pattern is too large or the projection's
    space exceeds `limit` states)."""
    if not task.is_strips:
        return False
    objects = _objects(task.fact_names[fid])
    if not objects:
        return False
    static = task.static_facts
    pattern = [i for i, name in enumerate(task.fact_names) if name not in static and _objects(name) & objects]
    if fid not in pattern or len(pattern) > PATTERN_LIMIT:
        return False
    mask = 0
    for i in pattern:
        mask |= 1 << i
    ops = {}
    for action in task.actions:
        if action.effects or action.extra or action.neg:
            return False
        add, delete = action.add_mask & mask, action.del_mask & mask
        if add or delete:
            ops.setdefault((action.pre_mask & mask, add, delete), None)
    start = state.bits & mask
    seen, frontier, target = {start}, [start], 1 << fid
    work = 0
    while frontier:
        following = []
        for bits in frontier:
            if bits & target:
                return False
            work += len(ops)
            if work > WORK_LIMIT:
                return False
            for pre, add, delete in ops:
                if bits & pre == pre:
                    succ = (bits & ~delete) | add
                    if succ not in seen:
                        if len(seen) >= limit:
                            return False
                        seen.add(succ)
                        following.append(succ)
        frontier = following
    return True

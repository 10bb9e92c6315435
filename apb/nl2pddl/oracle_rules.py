"""Where Planetarium's own planning oracles cannot plan, so Planetarium scores a problem not solvable whatever PDDL
semantics says.

Planetarium plans Blocksworld and Gripper problems with hand-written oracles on its scene graphs (its
`oracles/blocksworld.py` and `oracles/gripper.py`; Floor Tile and Rover go to Fast Downward, as apb plans them), and
`evaluate` scores any exception its oracle raises as "not solvable". Read from that code, the states it cannot plan
from (each rule below names the step that fails):

- Blocksworld, an unsupported block: a block the initial state puts neither on the table, nor on a block, nor in
  the arm (it appears in no initial fact, or only in `clear`). The oracle unstacks every block by looking up what is
  under it, and there is nothing.
- Blocksworld, a cycle of `on` in the initial state (`(on a b) (on b a)`, `(on a a)`): the oracle orders the blocks
  topologically, which a cycle forbids.
- Gripper, balls to move and no gripper: the robot is in a room, some ball is in a room (initially or in the goal)
  and no object is a gripper. The oracle gathers every ball with the first gripper, and there is none.

`oracle_refusal(domain_name, problem)` returns the rule's reason for a problem, else None; `apb.nl2pddl.evaluate`
scores such a problem not solvable (and so not correct), as Planetarium does.
"""

from __future__ import annotations

from apb.engine import Problem


def oracle_refusal(domain_name: str, problem: Problem) -> str | None:
    """Why Planetarium's oracle for `domain_name` cannot plan from `problem` (None when it can, or when Planetarium
    plans the domain with Fast Downward)."""
    rule = _RULES.get(domain_name.lower())
    return rule(problem) if rule else None


def _facts(atoms) -> list[tuple[str, ...]]:
    return [(lit.predicate.lower(), *(a.lower() for a in lit.args)) for lit in atoms if lit.positive]


def _blocksworld(problem: Problem) -> str | None:
    init = _facts(problem.init)
    under: dict[str, list[str]] = {}
    for fact in init:
        if fact[0] == "on-table" and len(fact) == 2:
            under.setdefault(fact[1], []).append("table")
        elif fact[0] == "holding" and len(fact) == 2:
            under.setdefault(fact[1], []).append("arm")
        elif fact[0] == "on" and len(fact) == 3:
            under.setdefault(fact[1], []).append(fact[2])
    for block in problem.objects:
        if not under.get(block.lower()):
            return (f"block {block} is neither on the table, nor on a block, nor held in the initial state "
                    "(Planetarium's Blocksworld oracle finds nothing under it to unstack it from)")
    for block in sorted(under):
        seen, current = [block], block
        while True:
            below = [b for b in under.get(current, []) if b not in ("table", "arm")]
            if not below:
                break
            current = below[0]
            if current in seen:
                cycle = " on ".join([*seen[seen.index(current):], current])
                return (f"the initial state stacks blocks in a cycle ({cycle}): Planetarium's Blocksworld oracle "
                        "orders blocks topologically")
            seen.append(current)
    return None


def _gripper(problem: Problem) -> str | None:
    init, goal = _facts(problem.init), _facts(problem.goal)
    kinds = {kind: {f[1] for f in init if f[0] == kind and len(f) == 2} for kind in ("room", "ball", "gripper")}
    if kinds["gripper"] or not any(f[0] == "at-robby" and len(f) == 2 and f[1] in kinds["room"] for f in init):
        return None
    placed = [f for f in init + goal if f[0] == "at" and len(f) == 3 and f[1] in kinds["ball"]
              and f[2] in kinds["room"]]
    if placed:
        return (f"ball {placed[0][1]} is in room {placed[0][2]} and no object is a gripper (Planetarium's Gripper "
                "oracle moves every ball with the first gripper)")
    return None


_RULES = {"blocksworld": _blocksworld, "gripper": _gripper}

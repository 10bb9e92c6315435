"""Domain rules: exact goal closures where the generic one would need to search (Planetarium's full specification).

Blocksworld (IPC 4-op, untyped; apb's `ontable`/`handempty` naming and Planetarium's `on-table`/`arm-empty`): from
any proper initial state every arrangement of towers with at most one block in the hand is reachable, so a goal's
closure is what every arrangement satisfying it shares. A positive goal never forces `on` or `holding` (a block whose
support is not given can always stand on the table); it forces `clear x` when nothing can end up on x, `on-table x`
when x can stand on nothing else and cannot be held, and `arm-empty` when every block is mentioned (a mentioned block
cannot be in the hand without contradicting the goal). tests/test_equivalence_rules.py checks the rule against an
exhaustive exploration of the state space for every goal over three and four blocks.

Gripper (Planetarium's: one robot, untyped, two or more rooms): every placement of balls in rooms and grippers is
reachable, so a goal implies only the type facts and `free g` for every gripper it leaves empty once it places every
ball. The same test checks this rule against exhaustive exploration.

Floor Tile (Planetarium's simplified version): robots roam their connected part of the grid, paint never comes off
nor blocks anything, and a robot switches to any available colour but never gets back an initial colour that is not
available; a goal implies the static facts, the paint already there, and a robot's tile or colour only when it has
no other in any goal state (e.g. the one available colour when the goal's paint needs it: floortile_closure).
Checked against exhaustive exploration too.

A rule returns None when it does not apply (another domain, a negative goal, an initial state that is not a proper
state of the domain); the generic closure takes over then.
"""

from __future__ import annotations

from apb.engine import Domain
from apb.equivalence.closure import EXACT, UNSOLVABLE, Closure
from apb.equivalence.scene import Scene

_BLOCKS_NAMES = ({"on": "on", "ontable": "ontable", "clear": "clear", "holding": "holding", "arm": "handempty"},
                 {"on": "on", "ontable": "on-table", "clear": "clear", "holding": "holding", "arm": "arm-empty"})
_ARITY = {"on": 2, "ontable": 1, "clear": 1, "holding": 1, "arm": 0}


# Each action as (parameters, precondition predicates, added, deleted), predicates named by role.
_BLOCKS_SHAPE = sorted([
    (1, ("arm", "clear", "ontable"), ("holding",), ("arm", "clear", "ontable")),
    (1, ("holding",), ("arm", "clear", "ontable"), ("holding",)),
    (2, ("clear", "holding"), ("arm", "clear", "on"), ("clear", "holding")),
    (2, ("arm", "clear", "on"), ("clear", "holding"), ("arm", "clear", "on")),
])
_GRIPPER_SHAPE = sorted([
    (2, ("at-robby", "room"), ("at-robby",), ("at-robby",)),
    (3, ("at", "at-robby", "ball", "free", "gripper", "room"), ("carry",), ("at", "free")),
    (3, ("at-robby", "ball", "carry", "gripper", "room"), ("at", "free"), ("carry",)),
])


def _shape(domain: Domain, role: dict[str, str]) -> list[tuple]:
    """The domain's actions as (parameters, precondition, add, delete predicate roles), sorted: two domains with the
    same shape have the same dynamics up to argument wiring (checked by the rules' tests against exploration)."""
    def roles(literals) -> tuple[str, ...]:
        return tuple(sorted({role.get(lit.predicate, lit.predicate) for lit in literals}))

    return sorted((len(a.parameters), roles(a.precondition), roles(a.add_effects), roles(a.delete_effects))
                  for a in domain.actions)


def _blocks_names(domain: Domain) -> dict[str, str] | None:
    """The predicate names when `domain` is 4-op Blocksworld (five predicates, four actions), else None."""
    for names in _BLOCKS_NAMES:
        preds = domain.predicates
        if set(preds) == set(names.values()) and all(preds[names[r]].arity == arity for r, arity in _ARITY.items()) \
                and _shape(domain, {name: r for r, name in names.items()}) == _BLOCKS_SHAPE:
            return names
    return None


class _Towers:
    """A set of blocksworld facts split by role: support (below), what stands on a block (above), held blocks."""

    def __init__(self, facts, n: dict[str, str]) -> None:
        self.below: dict[str, str] = {}
        self.above: dict[str, str] = {}
        self.ontable: set[str] = set()
        self.clear: set[str] = set()
        self.held: set[str] = set()
        self.arm = False
        self.conflict = ""
        for fact in facts:
            pred, args = fact[0], fact[1:]
            if pred == n["on"]:
                x, y = args
                if x == y or self.below.get(x, y) != y or self.above.get(y, x) != x:
                    self.conflict = f"a block is on two blocks or two blocks on one ({' '.join(fact)})"
                self.below[x], self.above[y] = y, x
            elif pred == n["ontable"]:
                self.ontable.add(args[0])
            elif pred == n["clear"]:
                self.clear.add(args[0])
            elif pred == n["holding"]:
                self.held.add(args[0])
            else:
                self.arm = True
        if not self.conflict:
            self.conflict = self._check()

    def _check(self) -> str:
        if len(self.held) > 1 or (self.held and self.arm):
            return "the hand holds two things, or holds one and is empty"
        for x in self.held:
            if x in self.below or x in self.above or x in self.ontable or x in self.clear:
                return f"{x} is held and also placed or clear"
        if self.ontable & set(self.below):
            return "a block is both on the table and on a block"
        if self.clear & set(self.above):
            return "a block is clear but has a block on it"
        for x in self.below:
            seen = {x}
            while x in self.below:
                x = self.below[x]
                if x in seen:
                    return "the blocks form a cycle"
                seen.add(x)
        return ""

    def bottom(self, x: str) -> str:
        while x in self.below:
            x = self.below[x]
        return x

    def top(self, x: str) -> str:
        while x in self.above:
            x = self.above[x]
        return x

    def is_proper_state(self, blocks) -> bool:
        """Every block placed exactly once, clear exactly when free, the hand empty exactly when nothing is held."""
        if self.conflict:
            return False
        for x in blocks:
            places = (x in self.below) + (x in self.ontable) + (x in self.held)
            if places != 1 or (x in self.clear) != (x not in self.above and x not in self.held):
                return False
        return self.arm != bool(self.held)


def blocksworld_closure(domain: Domain, scene: Scene) -> Closure | None:
    """The exact closure of a Blocksworld goal (see the module docstring), or None if the rule does not apply."""
    n = _blocks_names(domain)
    if n is None or scene.goal_neg or len(set(scene.objects.values())) > 1:
        return None
    blocks = sorted(set(scene.objects) | set(domain.constants))
    if not _Towers(scene.init, n).is_proper_state(blocks):
        return None
    method = "rule:blocksworld"
    goal = _Towers(scene.goal, n)
    if goal.conflict:
        return Closure(UNSOLVABLE, scene.goal, None, method, goal.conflict)
    mentioned = {arg for fact in scene.goal for arg in fact[1:]}
    hand_fixed = goal.arm or bool(goal.held)

    def can_hold(x: str) -> bool:
        return not hand_fixed and x not in mentioned

    free_support = [y for y in blocks if y not in goal.below and y not in goal.ontable and y not in goal.held]
    open_top = [z for z in blocks if z not in goal.above and z not in goal.clear and z not in goal.held]
    implied = set(scene.goal)
    if not goal.held and all(x in mentioned for x in blocks):
        implied.add((n["arm"],))
    for x in blocks:
        if x in goal.held or can_hold(x):
            continue
        if x not in goal.above and all(y in (x, goal.bottom(x)) for y in free_support):
            implied.add((n["clear"], x))
        if x not in goal.below and all(z in (x, goal.top(x)) for z in open_top):
            implied.add((n["ontable"], x))
    closure = frozenset(implied)
    return Closure(EXACT, closure, closure, method, "")


_GRIPPER = {"room": 1, "ball": 1, "gripper": 1, "at-robby": 1, "at": 2, "free": 1, "carry": 2}


def _gripper_kinds(domain: Domain, scene: Scene, facts) -> tuple[set, set, set] | None:
    """(rooms, balls, grippers) of untyped single-robot Gripper when the kinds are disjoint and cover every object."""
    preds = domain.predicates
    if set(preds) != set(_GRIPPER) or any(preds[name].arity != arity for name, arity in _GRIPPER.items()) \
            or _shape(domain, {}) != _GRIPPER_SHAPE:
        return None
    kinds = {kind: {f[1] for f in facts if f[0] == kind} for kind in ("room", "ball", "gripper")}
    rooms, balls, grippers = kinds["room"], kinds["ball"], kinds["gripper"]
    if rooms & balls or rooms & grippers or balls & grippers or rooms | balls | grippers != set(scene.objects):
        return None
    return rooms, balls, grippers


def _gripper_places(facts, rooms, balls, grippers) -> tuple[dict, dict, set, set] | None:
    """(ball -> place, gripper -> ball, free grippers, robot rooms) of a fact set, None when a fact is misplaced."""
    place: dict[str, tuple] = {}
    load: dict[str, str] = {}
    free: set[str] = set()
    robot: set[str] = set()
    for fact in facts:
        pred, args = fact[0], fact[1:]
        if pred == "at-robby" and args[0] in rooms:
            robot.add(args[0])
        elif pred == "at" and args[0] in balls and args[1] in rooms and args[0] not in place:
            place[args[0]] = fact
        elif pred == "carry" and args[0] in balls and args[1] in grippers and args[0] not in place \
                and args[1] not in load:
            place[args[0]], load[args[1]] = fact, args[0]
        elif pred == "free" and args[0] in grippers:
            free.add(args[0])
        elif pred not in ("room", "ball", "gripper"):
            return None
    if free & set(load) or len(robot) > 1:
        return None
    return place, load, free, robot


def gripper_closure(domain: Domain, scene: Scene) -> Closure | None:
    """The exact closure of a goal of Planetarium's Gripper (one robot, any number of rooms): the type facts, plus
    `free g` for each gripper the goal leaves empty once every ball is placed. None if the rule does not apply."""
    kinds = _gripper_kinds(domain, scene, scene.init)
    if kinds is None or scene.goal_neg or not kinds[0]:
        return None
    rooms, balls, grippers = kinds
    init = _gripper_places(scene.init, rooms, balls, grippers)
    if init is None or len(init[0]) != len(balls) or len(init[3]) != 1 or init[2] | set(init[1]) != grippers:
        return None
    method = "rule:gripper"
    statics = frozenset(f for f in scene.init if f[0] in ("room", "ball", "gripper"))
    goal = _gripper_places(scene.goal, rooms, balls, grippers)
    if goal is None or any(f[0] in ("room", "ball", "gripper") and f not in statics for f in scene.goal):
        return Closure(UNSOLVABLE, statics | scene.goal, None, method, "the goal places a ball or gripper twice, "
                       "or uses an object as the wrong kind")
    place, load, _, _ = goal
    implied = set(statics | scene.goal)
    if len(place) == len(balls):
        implied.update(("free", g) for g in grippers if g not in load)
    closure = frozenset(implied)
    return Closure(EXACT, closure, closure, method, "")


_FLOOR_SHAPE = sorted([
    (3, ("available-color", "robot-has"), ("robot-has",), ("robot-has",)),
    (4, ("robot-at", "robot-has", "up"), ("painted",), ()),
    (4, ("robot-at", "robot-has", "up"), ("painted",), ()),
    (4, ("right", "robot-at", "robot-has"), ("painted",), ()),
    (4, ("right", "robot-at", "robot-has"), ("painted",), ()),
    (3, ("robot-at", "up"), ("robot-at",), ("robot-at",)),
    (3, ("robot-at", "up"), ("robot-at",), ("robot-at",)),
    (3, ("right", "robot-at"), ("robot-at",), ("robot-at",)),
    (3, ("right", "robot-at"), ("robot-at",), ("robot-at",)),
])
_FLOOR_STATIC = ("up", "right", "available-color")


def _components(tiles, edges) -> dict[str, frozenset]:
    """Tile -> the tiles connected to it (the grid's static up/right relations, both directions)."""
    neighbours: dict[str, set] = {tile: set() for tile in tiles}
    for a, b in edges:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    component: dict[str, frozenset] = {}
    for tile in neighbours:
        if tile in component:
            continue
        seen, stack = {tile}, [tile]
        while stack:
            for nxt in neighbours[stack.pop()] - seen:
                seen.add(nxt)
                stack.append(nxt)
        for member in seen:
            component[member] = frozenset(seen)
    return component


def floortile_closure(domain: Domain, scene: Scene) -> Closure | None:
    """The exact closure of a goal of Planetarium's Floor Tile (its official file: painting up, down, left and right),
    or None if the rule does not apply (another domain, or an init without exactly one tile and one colour per robot).

    Why it is exact: robots never block each other or the paint, so a robot r walks anywhere in its connected part
    of the grid and paints any tile next to it, at any time. Its colour is its initial one, h, until it first
    changes colour; from then on it holds an available colour and may switch among them freely (change-color needs
    the new colour available, any old one), but never gets h back unless h is available. So r either keeps h
    (paints only h, ends with h) or switches (paints h, then any available colour, and ends with any available
    colour it likes, switching last); switching paints everything keeping does. The goal is reachable iff every
    goal paint not already on the floor can be done by a robot in its most capable mode the goal allows (a goal
    colour h that is not available forbids switching; a goal colour that is neither h nor available, two goal
    tiles or colours, a tile out of reach, a static fact not in the init: unreachable). In a goal state r stands on
    any tile of its part (it walks there after painting) and holds any colour of: the available ones when it may
    switch, plus h when the goal's paint can be done with r keeping h and every other robot at its most capable.
    The closure is the goal, the static facts, the paint already on the floor, a robot's tile when its part is that
    one tile, and its colour when that set has one member. tests/test_equivalence_rules.py checks it against an
    exhaustive exploration of the state space.

    Planetarium's own rule (oracles/floortile.py) agrees on every case its dataset generator writes (no available
    colour, or every robot holding an available one) and on its test fixtures (one robot that must switch to the one
    available colour). It over-specifies with several robots and one available colour: it fixes that colour for a
    robot that alone reaches a goal tile even when the robot can paint the tile in its own colour and keep it
    (tests/test_nl2pddl_planetarium.py shows such a goal state); apb keeps the exact closure there."""
    if scene.goal_neg or _shape(domain, {}) != _FLOOR_SHAPE:
        return None
    kinds = {kind: {o for o, k in scene.objects.items() if k == kind} for kind in ("robot", "tile", "color")}
    robots, tiles = kinds["robot"], kinds["tile"]
    at = {f[1]: f[2] for f in scene.init if f[0] == "robot-at"}
    has = {f[1]: f[2] for f in scene.init if f[0] == "robot-has"}
    if set(at) != robots or set(has) != robots or sum(f[0] in ("robot-at", "robot-has") for f in scene.init) \
            != 2 * len(robots):
        return None
    method = "rule:floor-tile"
    statics = frozenset(f for f in scene.init if f[0] in _FLOOR_STATIC)
    available = {f[1] for f in statics if f[0] == "available-color"}
    component = _components(tiles, [f[1:] for f in statics if f[0] in ("up", "right")])
    neighbours = [f[1:] for f in statics if f[0] in ("up", "right")]  # a robot paints the tile next to it
    places = {r: component.get(at[r], frozenset({at[r]})) for r in robots}
    paints = {r: {t for a, b in neighbours if a in places[r] or b in places[r] for t in (a, b)} for r in robots}

    def unsolvable(reason: str) -> Closure:
        return Closure(UNSOLVABLE, statics | scene.goal, None, method, reason)

    goal_at: dict[str, set] = {}
    goal_has: dict[str, set] = {}
    jobs = []
    for fact in scene.goal:
        pred, args = fact[0], fact[1:]
        if pred in _FLOOR_STATIC and fact not in statics:
            return unsolvable(f"the static fact ({' '.join(fact)}) is not in the init")
        if pred == "robot-at":
            goal_at.setdefault(args[0], set()).add(args[1])
            if args[1] not in places[args[0]]:
                return unsolvable(f"{args[0]} cannot reach {args[1]}")
        elif pred == "robot-has":
            goal_has.setdefault(args[0], set()).add(args[1])
        elif pred == "painted" and fact not in scene.init:
            jobs.append(args)
    if any(len(v) > 1 for v in (*goal_at.values(), *goal_has.values())):
        return unsolvable("a robot on two tiles or with two colours")
    # the modes the goal allows each robot: keep its colour, switch to available ones
    keep = {r: goal_has.get(r, {has[r]}) == {has[r]} for r in robots}
    switch = {r: bool(available) and goal_has.get(r, available) <= available for r in robots}
    for r in robots:
        if not keep[r] and not switch[r]:
            return unsolvable(f"{r} cannot get colour {next(iter(goal_has[r]))}")

    def colours(r: str, keeping: bool) -> set:
        return {has[r]} if keeping or not switch[r] else {has[r]} | available

    def covered(fixed: str | None = None) -> tuple | None:
        """The first goal paint no robot can do (robot `fixed` keeping its colour, the others most capable)."""
        for tile, colour in jobs:
            if not any(tile in paints[r] and colour in colours(r, r == fixed) for r in robots):
                return tile, colour
        return None

    missing = covered()
    if missing is not None:
        return unsolvable(f"no robot can paint {missing[0]} {missing[1]}")
    implied = set(statics | scene.goal) | {f for f in scene.init if f[0] == "painted"}
    implied |= {("robot-at", r, at[r]) for r in robots if len(places[r]) == 1}
    for r in robots:
        finals = set(goal_has.get(r, available)) if switch[r] else set()
        if keep[r] and covered(r) is None:
            finals.add(has[r])
        if len(finals) == 1:
            implied.add(("robot-has", r, finals.pop()))
    closure = frozenset(implied)
    return Closure(EXACT, closure, closure, method, "")


def blocksworld_conflict(domain: Domain, scene: Scene) -> str | None:
    """Why a Blocksworld goal is unreachable from an initial state that need not be proper (a fact missing, say),
    else None: the goal breaks an invariant that the initial state keeps and every action preserves.

    The invariants are those `_Towers` checks on a fact set: `on` relates each block to at most one block below and
    one above and has no cycle; a clear block has nothing on it; a held block is not clear, on the table, on a block
    or under one; a block on the table is on no block; at most one block is held, none when the arm is empty. Each
    action keeps them: pickup x needs x clear and on the table (so nothing is on x and x is on nothing) and an empty
    arm (so nothing else is held); putdown x makes x clear and on the table with nothing on or under it; stack x y
    puts a held block (on nothing, under nothing) on a clear y (so no block was on y, and no cycle appears: it
    would need a chain of blocks from y down onto x, and nothing is on a held block); unstack x y takes a clear x
    off its one support into an empty hand, which leaves that support clear. So a goal
    with a cycle of `on`, a block on two blocks, a held block that is also clear or placed, a clear block with a
    block on it, ... is unreachable whenever the initial state has no such conflict."""
    n = _blocks_names(domain)
    if n is None or scene.goal_neg or _Towers(scene.init, n).conflict:
        return None
    return _Towers(scene.goal, n).conflict or None


RULES = (blocksworld_closure, gripper_closure, floortile_closure)
# Sound reasons a goal is unreachable where the exact rules do not apply (an initial state that is not proper).
CONFLICTS = (blocksworld_conflict,)


def rule_closure(domain: Domain, scene: Scene) -> Closure | None:
    """The closure an exact domain rule gives, or an `unsolvable` one when the goal breaks an invariant the initial
    state keeps (CONFLICTS), else None (the generic closure's job)."""
    for rule in RULES:
        closure = rule(domain, scene)
        if closure is not None:
            return closure
    for conflict in CONFLICTS:
        reason = conflict(domain, scene)
        if reason:
            return Closure(UNSOLVABLE, frozenset(scene.goal), None, "invariant", reason)
    return None

_DEPOT_SHAPE = sorted([
    (3, ("at",), ("at",), ("at",)),
    (4, ("at", "available", "clear", "on"), ("clear", "lifting"), ("at", "available", "clear", "on")),
    (4, ("at", "available", "in"), ("lifting",), ("available", "in")),
    (4, ("at", "clear", "lifting"), ("at", "available", "clear", "on"), ("clear", "lifting")),
    (4, ("at", "lifting"), ("available", "in"), ("lifting",)),
])


def _colocated(facts) -> bool:
    """Whether every crate in `facts` is where its surface is."""
    place = {f[1]: f[2] for f in facts if f[0] == "at"}
    return all(place.get(f[1]) == place.get(f[2]) for f in facts if f[0] == "on" and f[2] in place)


def depot_colocation(domain: Domain, scene: Scene, facts: frozenset) -> frozenset:
    """Depot: a crate stands where the surface under it stands (drop adds `on` and `at` together at the surface's
    place, lift removes both, and a surface with a crate on it never moves), so `on x y` and `at y p` imply
    `at x p` when the initial state already keeps that invariant. Returns `facts` with these implications added
    (unchanged for other domains)."""
    if _shape(domain, {}) != _DEPOT_SHAPE or not _colocated(scene.init):
        return facts
    derived = set(facts)
    place = {f[1]: f[2] for f in facts if f[0] == "at"}
    changed = True
    while changed:
        changed = False
        for fact in [f for f in derived if f[0] == "on"]:
            crate, surface = fact[1], fact[2]
            if surface in place and crate not in place:
                place[crate] = place[surface]
                derived.add(("at", crate, place[surface]))
                changed = True
    return frozenset(derived)


# Sound implications a domain adds to the generic closure's lower bound.
DERIVATIONS = (depot_colocation,)

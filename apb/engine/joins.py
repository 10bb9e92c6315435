"""Joins of relaxed-reachability grounding: a fact index, and per schema the join plans that enumerate the
bindings whose positive preconditions hold in it (see apb.engine.ground, which drives them semi-naively).

`_SchemaGrounder` compiles a join order per schema and starting literal (`_plan`), and, once a plan has run
enough, generates it as one Python function of nested loops (`_code`); `_step` interprets a plan otherwise.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable

from apb.engine.formulas import NNF, predicates_of, to_nnf
from apb.engine.model import ActionSchema, Domain

Fact = tuple  # (predicate, arg, ...)


class _FactIndex:
    """Facts by predicate, and by the values at a given set of argument positions (built on demand)."""

    def __init__(self) -> None:
        self.by_pred: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        self.facts: set[Fact] = set()
        self._lookups: dict[tuple[str, tuple[int, ...]], dict[tuple, list]] = {}

    def add(self, fact: Fact) -> bool:
        if fact in self.facts:
            return False
        self.facts.add(fact)
        pred, args = fact[0], fact[1:]
        self.by_pred[pred].append(args)
        for (lpred, positions), table in self._lookups.items():
            if lpred == pred:
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return True

    def matching(self, pred: str, positions: tuple[int, ...], key: tuple) -> list[tuple[str, ...]]:
        if not positions:
            return self.by_pred.get(pred, [])
        table = self._lookups.get((pred, positions))
        if table is None:
            table = {}
            for args in self.by_pred.get(pred, []):
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
            self._lookups[(pred, positions)] = table
        return table.get(key, [])


# A join plan runs interpreted until its runs times its steps pass this (compiling costs more than a few runs on
# small tasks; a long plan run often pays it back soonest).
COMPILE_AFTER = 4096
# A schema's add-effect facts come from a generated lambda after this many interpreted calls.
ADDS_COMPILE = 64


def _literals(node: NNF | None) -> list | None:
    """The literals of a condition that is a literal or a conjunction of them ([] for none), else None."""
    if node is None:
        return []
    if node.kind == "lit":
        return [node.literal]
    if node.kind == "and" and all(part.kind == "lit" for part in node.parts):
        return [part.literal for part in node.parts]
    return None


def _when_function(whens: list, term: Callable, static_preds: frozenset, static_facts: frozenset) -> Callable:
    """`when_adds(a, reached, pending)` of `_SchemaGrounder.simple_whens` (see there): the relaxed test of each
    condition, static literals and equalities exactly, positive fluent ones by `reached`, negated fluent ones true."""
    def atom(lit) -> str:
        return "(" + ", ".join([repr(lit.predicate), *(term(x) for x in lit.args)]) + ",)"

    lines = ["def when_adds(a, reached, pending):", "    out = []"]
    for position, (condition, literals) in enumerate(whens):
        exact, fluent = [], []
        for lit in _literals(condition):
            if lit.predicate == "=":
                left, right = (term(x) for x in lit.args)
                exact.append(f"{left} {'==' if lit.positive else '!='} {right}")
            elif lit.predicate in static_preds:
                exact.append(f"{atom(lit)} {'in' if lit.positive else 'not in'} static")
            elif lit.positive:
                fluent.append(f"{atom(lit)} in reached")
        indent = "    "
        if exact:
            lines.append(f"{indent}if {' and '.join(exact)}:")
            indent += "    "
        facts = "".join(atom(lit) + ", " for lit in literals)
        if fluent:
            lines += [f"{indent}if {' and '.join(fluent)}:", f"{indent}    out += ({facts})",
                      f"{indent}else:", f"{indent}    pending.append({position})"]
        else:
            lines.append(f"{indent}out += ({facts})")
    lines.append("    return out")
    namespace = {"static": static_facts}
    exec(compile("\n".join(lines) + "\n", "<when>", "exec"), namespace)  # reprs of names only
    return namespace["when_adds"]


class _SchemaGrounder:
    """Enumerates the bindings of one schema whose positive preconditions hold in a fact index.

    The positive literals are joined in a greedy order (next a literal with an argument known already, then with
    fewest unbound variables, static ones first on ties); a positive equality with one side known binds the other
    side instead of filtering; equalities and negated static literals are tested as soon as their variables are
    bound. `join` enumerates every binding over the index, `join_from(j, args)` only those whose j-th literal is
    the fact `args` (semi-naive grounding: each new fact is joined with the facts reached so far). Variables no
    literal binds range over their type.
    """

    def __init__(self, schema: ActionSchema, domain: Domain, objects_of, static_preds: frozenset,
                 static_facts: frozenset) -> None:
        self.schema = schema
        self.params = [p.name for p in schema.parameters]
        self.slot = {name: i for i, name in enumerate(self.params)}
        self.allowed = [objects_of(p.types) for p in schema.parameters]
        self.positives = [lit for lit in schema.precondition if lit.positive and lit.predicate != "="]
        self.static_preds = static_preds
        self.static_facts = static_facts
        # per positive literal, what the join order weighs (made with the first plan): its variables, its arity,
        # 0 when static else 1
        self._shapes: list[tuple[frozenset, int, int]] | None = None
        self.filters = [lit for lit in schema.precondition
                        if lit.predicate == "=" or (not lit.positive and lit.predicate in static_preds)]
        self._plans: dict[int | None, tuple] = {}
        self._compiled: dict[int | None, Callable | None] = {}
        self._runs: dict[int | None, int] = {}  # interpreted runs of each plan so far
        # ADL parts, checked by relaxed evaluation when a binding is found and again when a predicate they use grows.
        self.complex: list[NNF] = [to_nnf(part) for part in schema.complex_precondition]
        self.complex_preds = frozenset(pred for node in self.complex for pred, _ in predicates_of(node))
        self.conditional = [(ce, None if ce.condition is None else to_nnf(ce.condition))
                            for ce in schema.conditional_effects]
        # the positive conditional effects by `when` (condition in NNF, forall parameters, literals)
        groups: dict[tuple, tuple] = {}
        for ce in schema.conditional_effects:
            if ce.literal.positive:
                key = (id(ce.condition), tuple(p.name for p in ce.parameters))
                if key not in groups:
                    nnf = None if ce.condition is None else to_nnf(ce.condition)
                    # decided by static facts and equalities alone: tested first, exactly, and never waits
                    static = nnf is not None and all(pred == "=" or pred in static_preds
                                                     for pred, _ in predicates_of(nnf))
                    groups[key] = (nnf, ce.parameters, [], static)
                groups[key][2].append(ce.literal)
        self.effect_preds = frozenset(pred for _, c in self.conditional if c is not None
                                      for pred, _ in predicates_of(c))
        # `adds(args)`: the unconditional add effects' facts, as one generated expression
        terms = {name: f"a[{i}]" for i, name in enumerate(self.params)}

        def term(arg: str) -> str:
            return terms.get(arg, repr(arg))

        def adds_source() -> str:
            facts = ["(" + ", ".join([repr(eff.predicate), *(term(x) for x in eff.args)]) + ",)"
                     for eff in schema.add_effects]
            return f"lambda a: ({', '.join(facts)}{',' if facts else ''})"

        slot = self.slot
        specs = [(eff.predicate, tuple((slot[x], None) if x in slot else (None, x) for x in eff.args))
                 for eff in schema.add_effects]
        self._adds_calls = 0
        compiled: list[Callable] = []

        def adds(a: tuple) -> tuple:
            """The facts interpreted from `specs` until ADDS_COMPILE calls, then the generated lambda's (callers
            holding on to this function get the lambda's answer too)."""
            if compiled:
                return compiled[0](a)
            self._adds_calls += 1
            if self._adds_calls >= ADDS_COMPILE:
                compiled.append(eval(adds_source()))  # reprs of the schema's names
                self.adds = compiled[0]
            return tuple((pred, *[a[i] if i is not None else c for i, c in spec]) for pred, spec in specs)

        self.adds: Callable[[tuple], tuple] = adds
        if not self.params:  # a schema without parameters adds the same facts every time
            constant = tuple((eff.predicate, *eff.args) for eff in schema.add_effects)
            self.adds = lambda a: constant
        # The `when`s without forall variables whose condition is a literal conjunction, as one generated function
        # `when_adds(args, reached, pending)`: the facts of those whose condition may hold, and the positions (in
        # `simple_whens`: (condition, literals)) of those waiting for a fluent fact appended to `pending`; the
        # other `when`s stay in `when_groups` (relaxed evaluation per instance of their forall variables).
        self.when_groups = [g for g in groups.values() if g[1] or _literals(g[0]) is None]
        self.simple_whens = [(g[0], g[2]) for g in groups.values() if not g[1] and _literals(g[0]) is not None]
        self.when_adds: Callable | None = None
        if self.simple_whens:
            self.when_adds = _when_function(self.simple_whens, term, static_preds, static_facts)

    # ---- join plans ------------------------------------------------------------------------------------------
    def _plan(self, first: int | None) -> tuple:
        """(steps, free slots, end filters) of the join that starts with positive literal `first` (or greedily)."""
        plan = self._plans.get(first)
        if plan is None:
            plan = self._plans[first] = self._make_plan(first)
        return plan

    def _make_plan(self, first: int | None) -> tuple:
        slot = self.slot
        bound: set[str] = set()
        steps: list[list] = []  # [kind, ...details, filters]
        remaining = list(range(len(self.positives)))
        equalities = [lit for lit in self.filters if lit.predicate == "=" and lit.positive]
        used_eq: set[int] = set()

        def spec(arg: str):
            return slot[arg] if arg.startswith("?") else arg

        def take_literal(i: int) -> None:
            lit = self.positives[i]
            older = first is not None and i < first  # semi-naive: a literal before `first` matches no fresh fact
            positions, key, binds, same = [], [], [], []
            first_pos: dict[str, int] = {}
            for pos, arg in enumerate(lit.args):
                if not arg.startswith("?") or arg in bound:
                    positions.append(pos)
                    key.append(spec(arg))
                elif arg in first_pos:
                    same.append((first_pos[arg], pos))
                else:
                    first_pos[arg] = pos
                    binds.append((pos, slot[arg], self.allowed[slot[arg]]))
            bound.update(first_pos)
            if binds:
                steps.append(["lit", lit.predicate, tuple(positions), tuple(key), tuple(binds), tuple(same), older, []])
            else:  # every argument known: a membership test
                steps.append(["check", lit.predicate, tuple(key), older, []])

        def take_equalities() -> None:
            progress = True
            while progress:
                progress = False
                for k, lit in enumerate(equalities):
                    if k in used_eq:
                        continue
                    a, b = lit.args
                    known_a = not a.startswith("?") or a in bound
                    known_b = not b.startswith("?") or b in bound
                    if known_a != known_b:
                        src, dst = (a, b) if known_a else (b, a)
                        used_eq.add(k)
                        bound.add(dst)
                        steps.append(["eq", spec(src), slot[dst], self.allowed[slot[dst]], []])
                        progress = True

        if first is not None:
            remaining.remove(first)
            take_literal(first)
        take_equalities()
        shapes = self._shapes
        if shapes is None:
            shapes = self._shapes = [(frozenset(a for a in lit.args if a.startswith("?")), len(lit.args),
                                      0 if lit.predicate in self.static_preds else 1) for lit in self.positives]
        # the unbound variables of each literal, counted down as variables get bound
        unbound = [len(variables - bound) for variables, _, _ in shapes]
        users: dict[str, list[int]] = {}
        for i, (variables, _, _) in enumerate(shapes):
            for name in variables:
                users.setdefault(name, []).append(i)
        known = set(bound)

        def cost(i: int) -> tuple[int, int, int]:
            _, arity, static = shapes[i]
            return 0 if unbound[i] < arity else 1, unbound[i], static  # an argument known: no cross product

        while remaining:
            best = min(remaining, key=cost)
            remaining.remove(best)
            take_literal(best)
            take_equalities()
            for name in bound - known:
                for i in users.get(name, ()):
                    unbound[i] -= 1
            known.update(bound)
        # Each filter at the first step after which its variables are bound, else after the free variables.
        bound_at: dict[str, int] = {}
        for depth, step in enumerate(steps):
            names = ([self.params[b[1]] for b in step[4]] if step[0] == "lit"
                     else [self.params[step[2]]] if step[0] == "eq" else [])
            for name in names:
                bound_at.setdefault(name, depth)
        end_filters = []
        for lit in self.filters:
            if lit.predicate == "=" and lit.positive and equalities.index(lit) in used_eq:
                continue
            variables = [a for a in lit.args if a.startswith("?")]
            test = (lit.predicate, lit.positive, tuple(spec(a) for a in lit.args))
            if steps and all(v in bound_at for v in variables):
                steps[max((bound_at[v] for v in variables), default=0)][-1].append(test)
            else:
                end_filters.append(test)
        free = [i for i, name in enumerate(self.params) if name not in bound]
        pools = [_sorted_pool(self.allowed[i]) for i in free]
        return [(*s[:-1], tuple(s[-1])) for s in steps], tuple(free), tuple(pools), tuple(end_filters)

    # ---- compiled plans --------------------------------------------------------------------------------------
    def _code(self, first: int | None) -> Callable | None:
        """The join of `_plan(first)` as one generated function `run(facts, matching, out, given)` of nested loops
        over local variables (what `_step` interprets), or None while the plan's runs so far times its steps are at
        most COMPILE_AFTER (compiling costs more than a few runs on small tasks) or when Python's compiler refuses
        it (too deeply nested): then `_step` runs the plan."""
        if first in self._compiled:
            return self._compiled[first]
        runs = self._runs[first] = self._runs.get(first, 0) + 1
        if runs * max(len(self._plan(first)[0]), 1) <= COMPILE_AFTER:
            return None
        steps, free, pools, end_filters = self._plan(first)
        namespace: dict = {"static": self.static_facts, "product": itertools.product}
        lines = ["def run(facts, matching, out, given, fresh):"]
        depth = 1

        def term(spec) -> str:
            return f"v{spec}" if spec.__class__ is int else repr(spec)

        def name(value) -> str:
            key = f"c{len(namespace)}"
            namespace[key] = value
            return key

        def emit(line: str) -> None:
            lines.append("    " * depth + line)

        def fresh_of(pred: str) -> str:  # the fresh facts' arguments of a predicate, read once per run
            local = f"fresh_{len(fresh_names)}"
            if pred not in fresh_names:
                fresh_names[pred] = local
                lines.insert(1, f"    {local} = fresh.get({pred!r}, EMPTY)")
            return fresh_names[pred]

        fresh_names: dict[str, str] = {}
        namespace["EMPTY"] = frozenset()

        def tests(filters) -> list[str]:
            out = []
            for pred, positive, specs in filters:
                if pred == "=":
                    out.append(f"{term(specs[0])} {'==' if positive else '!='} {term(specs[1])}")
                else:  # a negated static literal
                    out.append(f"({pred!r}, {''.join(term(k) + ', ' for k in specs)}) not in static")
            return out

        def guard(conditions: list[str]) -> None:
            nonlocal depth
            if conditions:
                emit("if " + " and ".join(conditions) + ":")
                depth += 1

        for number, step in enumerate(steps):
            given = first is not None and number == 0
            if step[0] == "check":
                _, pred, key, older, filters = step
                values = "(" + "".join(term(k) + ", " for k in key) + ")"
                conditions = [f"given == {values}"] if given else []
                conditions.append(f"({pred!r}, *{values}) in facts")
                if older:
                    conditions.append(f"{values} not in {fresh_of(pred)}")
                guard(conditions + tests(filters))
            elif step[0] == "eq":
                _, src, dst, allowed, filters = step
                emit(f"v{dst} = {term(src)}")
                guard([f"v{dst} in {name(allowed)}", *tests(filters)])
            else:
                _, pred, positions, key, binds, same, older, filters = step
                if given:
                    emit("for args in (given,):")
                    depth += 1
                    guard([f"args[{p}] == {term(k)}" for p, k in zip(positions, key)])
                else:
                    values = "(" + "".join(term(k) + ", " for k in key) + ")"
                    emit(f"for args in matching({pred!r}, {positions!r}, {values}):")
                    depth += 1
                conditions = []
                for pos, slot, allowed in binds:
                    emit(f"v{slot} = args[{pos}]")
                    conditions.append(f"v{slot} in {name(allowed)}")
                conditions += [f"args[{a}] == args[{b}]" for a, b in same]
                if older:
                    conditions.append(f"args not in {fresh_of(pred)}")
                guard(conditions + tests(filters))
        result = "(" + "".join(f"v{i}, " for i in range(len(self.params))) + ")"
        if free:
            emit(f"for values in product(*{name(pools)}):")
            depth += 1
            emit(", ".join(f"v{slot}" for slot in free) + ", = values")
        guard(tests(end_filters))
        emit(f"out.append({result})")
        try:
            exec(compile("\n".join(lines) + "\n", f"<join {self.schema.name}>", "exec"), namespace)  # reprs
            run = namespace["run"]
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            run = None
        self._compiled[first] = run
        return run

    # ---- enumeration -----------------------------------------------------------------------------------------
    def join(self, index: _FactIndex) -> list[tuple[str, ...]]:
        """Every binding (a tuple of objects, one per parameter) whose positive literals hold in `index`."""
        out: list[tuple[str, ...]] = []
        if not self.params:  # a schema without parameters (grounded tasks): its literals are facts to look up
            self._only_binding(None, (), index, out, None)
            return out
        run = self._code(None)
        if run is not None:
            run(index.facts, index.matching, out, None, None)
            return out
        plan = self._plan(None)
        self._step(plan, 0, [None] * len(self.params), index, out, None)
        return out

    def join_from(self, first: int, args: tuple[str, ...], index: _FactIndex, out: list,
                  fresh: dict[str, set] | None = None) -> None:
        """Appends to `out` the bindings whose literal `first` is the fact with these arguments. With `fresh` (the
        arguments of the facts the index got last, by predicate), a literal before `first` matches none of them:
        a binding with several fresh facts is then found once, from its first literal matching one."""
        fresh = fresh or {}
        if not self.params:
            self._only_binding(first, args, index, out, fresh)
            return
        run = self._code(first)
        if run is not None:
            run(index.facts, index.matching, out, args, fresh)
            return
        self._step(self._plan(first), 0, [None] * len(self.params), index, out, args, fresh)

    def _step(self, plan: tuple, depth: int, vals: list, index: _FactIndex, out: list, given,
              fresh: dict[str, set] | None = None) -> None:
        steps = plan[0]
        if depth == len(steps):
            self._complete(plan, vals, out)
            return
        step = steps[depth]
        if step[0] == "check":
            _, pred, key, older, filters = step
            values = tuple([vals[k] if k.__class__ is int else k for k in key])
            if (given is not None and tuple(given) != values) or (pred, *values) not in index.facts:
                return
            if older and fresh and values in fresh.get(pred, ()):
                return
            if not filters or self._filters_hold(filters, vals):
                if depth + 1 == len(steps) and not plan[1] and not plan[3]:
                    out.append(tuple(vals))
                else:
                    self._step(plan, depth + 1, vals, index, out, None, fresh)
            return
        if step[0] == "eq":
            _, src, dst, allowed, filters = step
            value = vals[src] if src.__class__ is int else src
            if value not in allowed:
                return
            vals[dst] = value
            if not filters or self._filters_hold(filters, vals):
                self._step(plan, depth + 1, vals, index, out, None, fresh)
            return
        _, pred, positions, key, binds, same, older, filters = step
        if given is not None:
            if any(given[p] != (vals[k] if k.__class__ is int else k) for p, k in zip(positions, key)):
                return
            candidates = (given,)
        else:
            candidates = index.matching(pred, positions, tuple([vals[k] if k.__class__ is int else k for k in key]))
        if older and fresh and pred in fresh:
            candidates = [args for args in candidates if args not in fresh[pred]]
        # the last step of a plan without free variables or end filters appends its bindings here
        leaf = depth + 1 == len(steps) and not plan[1] and not plan[3]
        for args in candidates:
            ok = True
            for pos, slot, allowed in binds:
                value = args[pos]
                if value not in allowed:
                    ok = False
                    break
                vals[slot] = value
            if not ok:
                continue
            if same and any(args[a] != args[b] for a, b in same):
                continue
            if filters and not self._filters_hold(filters, vals):
                continue
            if leaf:
                out.append(tuple(vals))
            else:
                self._step(plan, depth + 1, vals, index, out, None, fresh)

    def _only_binding(self, first: int | None, given: tuple, index: _FactIndex, out: list, fresh) -> None:
        """`join` / `join_from` for a schema without parameters, as its plan of membership tests would run: the
        binding () when literal `first` is the fact `given`, every positive literal is reached, none before
        `first` is fresh, and the filters hold."""
        facts = index.facts
        for i, lit in enumerate(self.positives):
            if first is not None and i == first and tuple(given) != lit.args:
                return
            if (lit.predicate, *lit.args) not in facts:
                return
            if first is not None and i < first and fresh and lit.args in fresh.get(lit.predicate, ()):
                return
        if not self.filters or self._filters_hold(tuple((lit.predicate, lit.positive, lit.args)
                                                        for lit in self.filters), []):
            out.append(())

    def _complete(self, plan: tuple, vals: list, out: list) -> None:
        _, free, pools, filters = plan
        if not free:
            if not filters or self._filters_hold(filters, vals):
                out.append(tuple(vals))
            return
        for values in itertools.product(*pools):
            for slot, value in zip(free, values):
                vals[slot] = value
            if not filters or self._filters_hold(filters, vals):
                out.append(tuple(vals))

    def _filters_hold(self, filters: tuple, vals: list) -> bool:
        for pred, positive, specs in filters:
            args = [vals[k] if k.__class__ is int else k for k in specs]
            if pred == "=":
                if (args[0] == args[1]) != positive:
                    return False
            elif (pred, *args) in self.static_facts:  # a negated static literal
                return False
        return True


def _sorted_pool(objects: frozenset) -> tuple[str, ...]:
    return tuple(sorted(objects))

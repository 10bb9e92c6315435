"""Reading a record's context (its domain, objects, state and goal) into a problem, and the other problems the
context may stand for (`readings`)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from apb.acp.english.domains import Domain, domain_of
from apb.acp.english.phrases import (
    FACT_HOLE,
    NAME,
    ContextError,
    Template,
    fill,
    normal_space,
    read_one,
    split_list,
)


@dataclass
class Reading:
    """What a context says: the domain, objects by type, the state (with the static facts) and the goal."""

    domain: Domain
    objects: dict[str, str]  # name -> type
    init: list[str]
    goal: list[str]
    domain_pddl: str = ""  # the domain file of this reading (the domain's own unless a `readings` variant's)

    def __post_init__(self):
        self.domain_pddl = self.domain_pddl or self.domain.pddl

    def problem_pddl(self) -> str:
        """The problem: the context's objects (a name only a question mentions is no object: its atoms never hold
        and its actions never apply), its state as :init and its goal."""
        by_type: dict[str, list[str]] = {}
        for name, kind in sorted(self.objects.items()):
            by_type.setdefault(kind, []).append(name)
        decl = " ".join(" ".join(names) + (f" - {kind}" if self.domain.typed else "")
                        for kind, names in sorted(by_type.items()))
        goal = " ".join(self.goal)
        name = re.search(r"\(domain\s+([^\s()]+)", self.domain_pddl).group(1)
        return (f"(define (problem read) (:domain {name})\n (:objects {decl})\n (:init {' '.join(self.init)})\n"
                f" (:goal (and {goal})))\n")


def readings(reading: Reading) -> list[Reading]:
    """Every problem the English may stand for: the reading itself, then one per `readings` entry of the domain file
    where the release's English leaves a fact out that its problems differ on (Swap's problems come with and without
    `not-eq` facts, under two domain files; Satellite's English names one mode per instrument where its PDDL may
    support more). An entry gives another domain file (`pddl`), `distinct` facts as the domain's own rule does, and
    `open` facts: the predicate over every object of the given types. The solver answers only where every reading
    agrees (each such fact is static and appears only positively in preconditions, so the readings with none and with
    all of them bound every other)."""
    out = [reading]
    for variant in reading.domain.readings:
        init = set(reading.init)
        for rule in variant.get("distinct") or []:
            names = sorted(n for n, t in reading.objects.items() if t == rule["type"])
            init |= {f"({rule['predicate']} {a} {b})" for a in names for b in names if a != b}
        for rule in variant.get("open") or []:
            pools = [sorted(n for n, t in reading.objects.items() if t == kind) for kind in rule["types"]]
            init |= {"(" + " ".join((rule["predicate"], *args)) + ")" for args in itertools.product(*pools)}
        out.append(Reading(reading.domain, dict(reading.objects), sorted(init), list(reading.goal),
                           variant.get("pddl") or reading.domain_pddl))
    return out


def _clauses(text: str) -> list[str]:
    """Sentences and ';'-separated clauses of a stretch of context (a sentence may start with a lower-case object
    name: "cabinet1 is open. soapbar2 is clean.")."""
    parts = re.split(r"(?<=\.)\s+|(?<=[.;])\s*(?=[A-Z]|$)|;\s*", text)
    return [normal_space(p).rstrip(".;").strip() for p in parts if normal_space(p).rstrip(".;").strip()]


def read_context(context: str, dom: Domain | None = None) -> Reading | None:
    """The PDDL a released record's context describes; None for an unsupported domain, ContextError for a sentence
    the domain's templates do not read. `dom`: the domain to read it as (else the release's domain the context
    opens with); a domain with a reader of its own (apb's wording) reads it so."""
    dom = dom or domain_of(context)
    if dom is None:
        return None
    if dom.reader is not None:
        return dom.reader(dom, context)
    text = normal_space(context)
    for legend in ("The available actions are:", "The available propositions are:"):  # gen records' legends
        text = re.sub(re.escape(legend) + r".*?(?=" + re.escape(dom.goal_start) + "|$)", "", text)
    if dom.state_start not in text:
        raise ContextError(f"{dom.name} context without {dom.state_start!r}: {text[:80]}...")
    before, after = text.split(dom.state_start, 1)
    state_text, _, goal_text = after.partition(dom.goal_start)
    objects = _objects(dom, text)
    init: list[str] = []
    for clause in _clauses(before):  # descriptive sentences; only the static ones carry facts
        try:
            init += _state_clause(dom, clause, dom.static)
        except ContextError:
            continue
    for clause in _clauses(state_text):
        init += _state_clause(dom, clause)
    init += _derived(dom, objects, text, init)
    goal = []
    if goal_text.strip():
        for part in split_atoms(dom, goal_text.strip().rstrip(".")):
            goal += part
    for fact in init + goal:
        for name in fact.strip("()").split()[1:]:
            if name not in objects:
                kind = dom.type_of(name)
                if kind is None:
                    raise ContextError(f"{dom.name}: {name!r} in {fact} is not an object name")
                objects[name] = kind
    return Reading(dom, objects, sorted(set(init)), goal)


def _state_clause(dom: Domain, clause: str, templates: list[Template] | None = None) -> list[str]:
    """The facts of one state clause: read whole, else cut at its commas into clauses the templates read (every
    cut must give the same facts)."""
    for prefix in dom.prefixes:
        clause = re.sub("^" + prefix, "", clause, flags=re.IGNORECASE).strip()
    templates = dom.state if templates is None else templates
    listed = _item_list(dom, clause)
    if listed is not None:
        return listed
    facts = read_one(templates, clause)
    if facts is not None:
        return facts
    pieces = re.split(r"(,\s+and\s+|,\s+|\s+and\s+)", clause)
    ways = segmentations(pieces[0::2], pieces[1::2], lambda s: read_one(templates, s))
    found = {tuple(sorted(f for part in way for f in part)) for way in ways}
    if len(found) != 1:
        raise ContextError(f"{dom.name}: cannot read the state sentence {clause!r}")
    return list(next(iter(found)))


def _item_list(dom: Domain, clause: str) -> list[str] | None:
    """A clause made of a head and a list of items ("Rover rover0 can traverse from w1 to w2, w2 to w1"): the
    domain's `item_lists` rules, each item read with the rule's item template."""
    for rule in dom.item_lists:
        head = re.match(rule["head"].pattern.pattern + r"\s*(?P<rest_>.+)$", clause, re.IGNORECASE)
        if head is None:
            continue
        values = {k: v for k, v in head.groupdict().items() if k != "rest_"}
        out = []
        for item in split_list(head.group("rest_")):
            m = rule["item"].pattern.fullmatch(item.strip())
            if m is None:
                return None
            both = {**values, **m.groupdict()}
            out += [FACT_HOLE.sub(lambda h, b=both: fill(b[h.group(1)], h.group(2)), f) for f in rule["facts"]]
        return out
    return None


def split_atoms(dom: Domain, text: str) -> list[list[str]]:
    """A list of atoms written 'A, B, and C' (an atom's own words may contain 'and' or a comma): the one way to
    cut it into atoms the templates read; ContextError when there is none or more than one."""
    pieces = re.split(r"(,\s+and\s+|,\s+|\s+and\s+)", normal_space(text))
    words, seps = pieces[0::2], pieces[1::2]
    ways = segmentations(words, seps, lambda s: read_one(dom.atoms, s))
    if len(ways) != 1:
        raise ContextError(f"{dom.name}: {'cannot read' if not ways else 'ambiguous'} atoms {text[:120]!r}")
    return ways[0]


def segmentations(words, seps, reader, limit=4):
    """Every way to cut words (joined back with their separators) into pieces the reader reads."""
    @cache
    def go(i):
        if i == len(words):
            return [[]]
        out = []
        for j in range(i + 1, len(words) + 1):
            piece = words[i] + "".join(seps[k] + words[k + 1] for k in range(i, j - 1))
            read = reader(piece)
            if read is None:
                continue
            for rest in go(j):
                out.append([read, *rest])
                if len(out) > limit:
                    return out
        return out
    return go(0)


def _objects(dom: Domain, text: str) -> dict[str, str]:
    objects = {}
    for count in dom.counts:
        m = re.search(count["pattern"], text)
        if m:
            start = int(count.get("start", 0))
            for i in range(start, start + int(m.group(1))):
                objects[count["name"].format(i=i)] = count["type"]
    if dom.grid:
        for name in _grid_cells(dom.grid, text):
            objects[name] = dom.grid["type"]
    for rule in dom.lists:  # objects named in a list sentence ("There are 4 agents: zoe, bob, vic, and steve")
        m = re.search(rule["pattern"], text)
        if m:
            for name in split_list(m.group(1)):
                objects[name] = rule["type"]
    for rule in dom.count_lists:  # objects counted by class ("2 cloths, 1 towel": cloth1, cloth2, towel1)
        m = re.search(rule["pattern"], text)
        if m:
            for name in _counted(dom, rule, m.group(1)):
                kind = rule.get("type") or dom.type_of(name)
                if kind is None:
                    raise ContextError(f"{dom.name}: {name!r} (counted in {m.group(0)[:80]!r}) is not an object name")
                objects[name] = kind
    for token in re.findall(NAME, text):
        kind = dom.type_of(token)
        if kind is not None and (not dom.grid or kind != dom.grid["type"]):
            objects[token] = kind
    return objects


def _counted(dom: Domain, rule: dict, text: str) -> list[str]:
    """The names of a list of counts by class, "1 candle, 2 cloths, and 3 knives": candle1, cloth1, cloth2, knife1,
    ... (numbered from the rule's `start`, 0 unless given; typed by the rule's `type`, else by name). A plural is
    the class name + "s" unless the domain's `plurals` says otherwise."""
    out = []
    start = int(rule.get("start", 0))
    for item in split_list(text):
        m = re.fullmatch(r"(\d+)\s+([a-z][\w\-]*)", item.strip(), re.IGNORECASE)
        if m is None:
            raise ContextError(f"{dom.name}: {item!r} is not a count of a class of objects ('2 cloths')")
        count, word = int(m.group(1)), m.group(2).lower()
        singular = dom.plurals.get(word) or (word[:-1] if count > 1 and word.endswith("s") else word)
        out += [f"{singular}{i}" for i in range(start, start + count)]
    return out


def _grid_cells(grid: dict, text: str) -> list[str]:
    m = re.search(grid["size"], text)
    if not m:
        raise ContextError(f"no grid size ({grid['size']!r}) in the context")
    rows, cols = int(m.group(1)), int(m.group(2))
    removed = set()
    gone = re.search(grid["unavailable"], text) if grid.get("unavailable") else None
    if gone:
        removed = set(split_list(gone.group(1)))
    return [grid["name"].format(i=i, j=j) for i in range(rows) for j in range(cols)
            if grid["name"].format(i=i, j=j) not in removed]


def _derived(dom: Domain, objects: dict[str, str], text: str, init: list[str]) -> list[str]:
    """The facts the English leaves out, by the domain file's rules: `distinct` (a predicate over every pair of
    distinct objects of a type), `grid.connect` (4-neighbours among the grid's cells), `complement`
    (a fact for every object of a type that no state fact names at the given argument positions), `named` (a fact
    for every object of a type that a state fact names there), `classes` (facts by an object's class, from the
    domain's world knowledge), `always` (facts that hold in every state of the release's problems)."""
    out = list(dom.always)
    for rule in dom.distinct:
        names = sorted(n for n, t in objects.items() if t == rule["type"])
        out += [f"({rule['predicate']} {a} {b})" for a in names for b in names if a != b]
    if dom.grid:
        grid = dom.grid
        cells = {}
        for name, kind in objects.items():
            m = re.fullmatch(grid["parse"], name) if kind == grid["type"] else None
            if m:
                cells[(int(m.group(1)), int(m.group(2)))] = name
        for (i, j), name in cells.items():
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                other = cells.get((i + di, j + dj))
                if other:
                    out.append(f"({grid['connect']} {name} {other})")
    for rule in dom.complement:
        named = _named_by(init, rule["unless"])
        out += [f"({rule['predicate']} {n})" for n, t in sorted(objects.items())
                if (rule.get("type") is None or t == rule["type"]) and n not in named]
    for rule in dom.named:
        named = _named_by(init, rule["by"])
        out += [f"({rule['predicate']} {n})" for n, t in sorted(objects.items())
                if (rule.get("type") is None or t == rule["type"]) and n in named]
    if dom.classes:
        out += _class_facts(dom.classes, objects)
    return out


def _named_by(init: list[str], places: list) -> set[str]:
    """The objects the facts name at the given (predicate, argument position) places."""
    named = set()
    for fact in init:
        name, *args = fact.strip("()").split()
        for other, position in places:
            if name == other and len(args) > position:
                named.add(args[position])
    return named


def _class_facts(rules: dict, objects: dict[str, str]) -> list[str]:
    """The facts a domain's world knowledge gives each object by its class (`classes.of`: a regex whose group is
    the class of a name, "cloth" of cloth2): `facts` rows (`{x}` the object, `{c}` its class; for the objects of a
    `type` and of the listed `classes`, every class when none are listed) and `pairs` rows (`{a}`, `{b}`: a class
    of the context's objects of the row's `type`, and one its `table` row lists that some object of the context
    has)."""
    of = re.compile(rules["of"])
    classes = {}
    for name, kind in objects.items():
        m = of.fullmatch(name)
        if m:
            classes[name] = (m.group(1), kind)
    out = []
    for row in rules.get("facts") or []:
        wanted = set(row["classes"]) if row.get("classes") is not None else None
        for name, (cls, kind) in sorted(classes.items()):
            if (row.get("type") is None or kind == row["type"]) and (wanted is None or cls in wanted):
                out += [FACT_HOLE.sub(lambda h, v={"x": name, "c": cls}: v[h.group(1)], f) for f in row["facts"]]
    present = {cls for cls, _ in classes.values()}
    for row in rules.get("pairs") or []:
        firsts = {cls for cls, kind in classes.values() if row.get("type") is None or kind == row["type"]}
        for a in sorted(firsts):
            for b in sorted(present & set(row["table"].get(a) or [])):
                out += [FACT_HOLE.sub(lambda h, v={"a": a, "b": b}: v[h.group(1)], f) for f in row["facts"]]
    return out

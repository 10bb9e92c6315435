"""Reading back the English apb itself writes, for any domain: `apb acp generate` words its ACPBench-format bool/MCQ
records with the domain's NL templates (`apb.nl`: curated, rule-based or a description file) and the question
wording of `apb/prompts/acp/questions.yaml` (`apb.acp.wording`); this module turns both into a reader (a
`Domain` of `apb.acp.english`), so the solver answers apb's own records on domains the release never had.

Every atom and action template is the NL template itself as a regular expression (a type noun right before a
placeholder is optional, as the renderer drops it before an object name that starts with it), and a reading is kept
only when rendering the atom or action again gives the text back: two actions whose English names the same objects
(Childsnack's `make_sandwich` and `make_sandwich_no_gluten`, Scanalyzer's argument orders) are told apart by the
words that distinguish them, never by a guess. The context is read with the context template (its `{objects}`
list gives every object and its type, `{state}` the state with its static facts, `{goal}` the goal) and the
questions with regular expressions built from the question templates. A record names no domain: the answer command
gives the reader the PDDL domains it knows (the generative records of the same files, `--domain`), and
`attach_domains` pairs each English-only record with the one whose reader reads its context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from apb.acp.english.context import Reading
from apb.acp.english.domains import Domain
from apb.acp.english.phrases import NAME, ContextError, Template, normal_space, split_list
from apb.acp.records import Question
from apb.engine import ApbError, load_domain
from apb.engine.model import ROOT_TYPE

_HOLE = re.compile(r"\{(\w+)\}")
MAX_OBJECTS = 100_000
_DESCRIPTIONS: dict[str, tuple[str, str | None]] = {}  # domain PDDL -> the templates its records were read with


def _literal(text: str) -> str:
    return re.escape(text).replace(r"\ ", r"\s+")


@dataclass
class Rendered(Template):
    """An apb NL template (`apb.nl.nl_yaml.Template`) read back: its regular expression reads the arguments, and the
    reading stands only if `render(args)` gives the text again (compared ignoring case and spacing)."""

    nl: object = None
    render: object = None
    types: tuple = ()  # the types each parameter admits, in order

    def __post_init__(self):
        nl = self.nl
        out, seen = [], set()
        for k, slot in enumerate(nl.slots):
            before = nl.parts[k]
            noun = nl.elide[k] if nl.elide else None
            if noun is not None and before.lower().endswith(noun[0] + " "):
                cut = len(before) - len(noun[0]) - 1
                out.append(_literal(before[:cut]) + "(?:" + _literal(before[cut:]) + ")?")
            else:
                out.append(_literal(before))
            name = f"p{slot}"
            out.append(f"(?P={name})" if name in seen else f"(?P<{name}>{NAME})")
            seen.add(name)
        out.append(_literal(nl.parts[-1]))
        self.pattern = re.compile("".join(out), re.IGNORECASE)

    def read(self, text, known=None):
        m = self.pattern.fullmatch(text.strip())
        if m is None:
            return None
        values = m.groupdict()
        if any(f"p{i}" not in values for i in range(len(self.nl.params))):
            return None  # a parameter the English never names cannot be read back
        args = [values[f"p{i}"].lower() for i in range(len(self.nl.params))]
        if normal_space(self.render(args)).lower() != normal_space(text).lower():
            return None
        return [f.format(*args) for f in self.facts]


@dataclass
class Generated:
    """What the reader of one apb-worded domain needs beyond `Domain`: the type of each object noun, the domain's
    constants (declared by the domain, not the problem) and the context's regular expression (apb's questions are
    the release's wordings, which `apb/acp/english/questions.yaml` reads)."""

    domain: object  # the engine's Domain
    nouns: dict[str, str]
    constants: dict[str, str]
    context: re.Pattern


def _atom_templates(words, predicates) -> tuple[list[Template], list[Template]]:
    """(positive, positive and negated) atom templates of every predicate."""
    positive, both = [], []
    for name, schema in predicates.items():
        if name not in words.templates.predicates:
            continue
        template = words.templates.predicates[name]
        slots = "".join(f" {{{i}}}" for i in range(len(schema.parameters)))
        types = tuple(p.types for p in schema.parameters)
        pos = Rendered(template.text, [f"({name}{slots})"], nl=template.compiled,
                       render=lambda args, n=name: words.fact(n, args, True), types=types)
        neg = Rendered(template.negated, [f"(not ({name}{slots}))"], nl=template.compiled_negated,
                       render=lambda args, n=name: words.fact(n, args, False), types=types)
        positive.append(pos)
        both += [pos, neg]
    return positive, both


def _action_templates(words, domain) -> list[Template]:
    out = []
    for schema in domain.actions:
        template = words.templates.actions.get(schema.name)
        if template is None:
            continue
        slots = "".join(f" {{{i}}}" for i in range(len(schema.parameters)))
        out.append(Rendered(template.text, [f"({schema.name}{slots})"], nl=template.compiled,
                            render=lambda args, n=schema.name: words.action(n, args),
                            types=tuple(p.types for p in schema.parameters)))
    return out


def _piece(template: str) -> str:
    """A context template as a regular expression whose groups are its placeholders (any text, lazily)."""
    out, pos, seen = [], 0, set()
    for m in _HOLE.finditer(template):
        out.append(_literal(template[pos:m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        pos = m.end()
    out.append(_literal(template[pos:]))
    return "".join(out)


def _context_pattern(c: dict) -> re.Pattern:
    """apb's context (`apb.acp.wording.Wording.context`: the domain's description, then the objects, the state and,
    for some tasks, the goal sentence) as a regular expression with the groups objects, state and goal."""
    pattern = (r"(?P<intro>.*)\s" + _piece(c["objects"]) + r"\s*" + _piece(c["state"])
               + r"(?:\s*" + _piece(c["goal"]) + ")?")
    return re.compile(pattern, re.DOTALL)


@cache
def generated_domain(domain_pddl: str, description: str = "curated", domain_file: str | None = None) -> Domain:
    """The reader of the English apb writes for a domain (its PDDL text; the NL templates `description` names, as
    `apb acp generate --description` does)."""
    from apb.acp.wording import phrases
    from apb.nl import load_templates
    from apb.nl.render import DomainText

    domain = load_domain(domain_pddl)
    templates = load_templates(domain, description, domain_file=domain_file)
    words = DomainText(domain, templates)
    positive, both = _atom_templates(words, domain.predicates)
    actions = _action_templates(words, domain)
    nouns = {}
    for kind in [*domain.types, ROOT_TYPE]:
        noun = templates.type_noun(kind)
        if noun is not None:
            nouns.setdefault(noun.lower(), kind)
            nouns.setdefault(templates.type_plural(kind).lower(), kind)
    extra = Generated(domain=domain, nouns=nouns, constants=dict(domain.constants),
                      context=_context_pattern(phrases()["context"]))
    dom = Domain(name=domain.name, detect=re.compile(r"(?!x)x"), pddl=domain_pddl, types={}, counts=[], grid=None,
                 distinct=[], complement=[], static=[], state=positive, atoms=both, actions=actions, non_actions=[],
                 item_lists=[], ambiguous=[], always=[], state_start="", prefixes=[], goal_start="",
                 typed=any(t != ROOT_TYPE for t in domain.types))
    dom.generated = extra
    dom.reader = read_generated_context
    return dom


def read_generated_context(dom: Domain, context: str) -> Reading:
    """The problem an apb-worded context states (ContextError naming what does not read). An atom whose English
    two predicates share is read as the one its objects' types admit."""
    extra: Generated = dom.generated
    m = extra.context.fullmatch(normal_space(context))
    if m is None:
        raise ContextError(f"{dom.name}: the context does not follow apb's context template: {context[:80]!r}")
    groups = m.groupdict()
    objects = _objects(dom, extra, groups["objects"]) if "objects" in groups else {}
    typed = {**objects, **extra.constants} if "objects" in groups else None
    init = _atom_list(dom, dom.state, groups.get("state") or "", typed)
    goal = _atom_list(dom, dom.atoms, groups.get("goal") or "", typed)
    for fact in init + goal:
        for name in fact.replace("(not ", "").strip("()").split()[1:]:
            if name not in objects and name not in extra.constants:
                if typed is not None:
                    raise ContextError(f"{dom.name}: {name!r} in {fact} is not one of the context's objects")
                objects[name] = ROOT_TYPE
    return Reading(dom, objects, sorted(set(init)), goal)


def read_generated_atoms(dom: Domain, text: str, reading: Reading | None) -> list[str]:
    """The atoms of a list in apb's wording of the domain, typed by the reading's objects."""
    objects = None if reading is None else {**reading.objects, **dom.generated.constants}
    return _atom_list(dom, dom.atoms, text, objects)


def read_typed(dom: Domain, templates: list[Template], text: str, objects: dict[str, str] | None) -> list[str] | None:
    """The facts the templates read from `text`, among the readings whose objects have the types the predicate or
    action admits (when `objects` is known), when exactly one is left."""
    found = set()
    for template in templates:
        facts = template.read(text)
        if facts is None:
            continue
        if objects is not None and isinstance(template, Rendered):
            args = facts[0].replace("(not ", "").strip("()").split()[1:]
            if any(objects.get(a) is None or not dom.generated.domain.is_subtype(objects[a], kinds)
                   for a, kinds in zip(args, template.types)):
                continue
        found.add(tuple(facts))
    return list(next(iter(found))) if len(found) == 1 else None


MAX_PIECES = 12  # separators (", ", " and ") one atom's own English may hold


def _atom_list(dom: Domain, templates: list[Template], text: str, objects: dict[str, str] | None) -> list[str]:
    """The atoms of a list "f1, f2 and f3" ("nothing is the case" when empty): its one reading (ContextError when
    there is none or more than one). Cut at its separators from the end (an atom's own words may hold one), so a
    state of thousands of facts reads in one pass."""
    text = normal_space(text).rstrip(".")
    if not text or text == "nothing is the case":
        return []
    pieces = re.split(r"(,\s+and\s+|,\s+|\s+and\s+)", text)
    words, seps = pieces[0::2], pieces[1::2]
    n = len(words)
    ways = [0] * n + [1]  # readings of words[i:], counted up to 2
    first: list = [None] * (n + 1)
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, min(n, i + MAX_PIECES) + 1):
            if not ways[j]:
                continue
            read = read_typed(dom, templates, words[i] + "".join(seps[k] + words[k + 1] for k in range(i, j - 1)),
                              objects)
            if read is not None:
                ways[i] = min(2, ways[i] + ways[j])
                first[i] = first[i] or (read, j)
    if ways[0] != 1:
        raise ContextError(f"{dom.name}: {'cannot read' if not ways[0] else 'ambiguous'} atoms {text[:100]!r}")
    out, i = [], 0
    while i < n:
        read, i = first[i]
        out += read
    return sorted(set(out))


_GROUP = re.compile(r"(?:(\d+)|an?)\s+([^();]+?)\s+\(([^()]*)\)")


def _objects(dom: Domain, extra: Generated, text: str) -> dict[str, str]:
    """The objects of `apb.nl.render.objects_text` ("2 cars (c0 and c1); a ferry (f); and l0"), by type, the
    domain's constants left out."""
    objects: dict[str, str] = {}
    rest = text
    for m in _GROUP.finditer(text):
        noun = m.group(2).lower()
        kind = extra.nouns.get(noun)
        if kind is None:
            raise ContextError(f"{dom.name}: {noun!r} names no type of the domain")
        names = split_list(m.group(3))
        if m.group(1) and int(m.group(1)) != len(names):
            raise ContextError(f"{dom.name}: {m.group(0)!r} lists {len(names)} objects")
        for name in names:
            objects[name.lower()] = kind
        rest = rest.replace(m.group(0), " ")
    for piece in re.split(r";\s*(?:and\s+)?|,\s+and\s+|,\s+|\s+and\s+", rest):
        piece = piece.strip()
        if re.fullmatch(NAME, piece):
            objects.setdefault(piece.lower(), ROOT_TYPE)
        elif piece:
            raise ContextError(f"{dom.name}: cannot read the objects {piece[:80]!r}")
    if len(objects) > MAX_OBJECTS:
        raise ContextError(f"{dom.name}: more than {MAX_OBJECTS} objects")
    return {n: t for n, t in objects.items() if n not in extra.constants}


def reads(dom: Domain, context: str) -> bool:
    """Whether the domain's reader reads the context."""
    try:
        read_generated_context(dom, context)
    except (ContextError, ApbError, KeyError):
        return False
    return True


def attach_domains(questions: list[Question], domains: list[tuple[str, str, str | None]] = ()) -> list[Question]:
    """The questions, each English-only bool/MCQ record given the PDDL domain whose apb wording reads its context
    (`domain_pddl`; its reader is `generated_domain`): from `domains` ((PDDL text, description, domain file)) and the
    domains of the generative records among the questions (curated templates). Records no reader reads are
    unchanged (the release's reader, `apb.acp.english.domain_of`, still reads the release's)."""
    known = list(dict.fromkeys([*domains, *(_bundled(q.domain, q.domain_pddl) for q in questions
                                            if q.format == "gen" and q.domain_pddl)]))
    if not known:
        return questions
    out = []
    for q in questions:
        if q.format in ("bool", "mcq") and not q.domain_pddl and not q.problem_pddl:
            for pddl, description, file in known:
                try:
                    dom = generated_domain(pddl, description, file)
                except ApbError:
                    continue
                if reads(dom, q.context):
                    _DESCRIPTIONS[pddl] = (description, file)
                    q = replace(q, domain_pddl=pddl)
                    break
        out.append(q)
    return out


@cache
def _bundled(name: str, domain_pddl: str) -> tuple[str, str, str | None]:
    """(PDDL, "curated", domain file): the bundled domain's file when a bundled domain of that name has this PDDL (its
    curated templates sit beside it), else no file (rule-based templates)."""
    from apb.datasets import resolve

    try:
        dataset = resolve(name)
        if dataset.domain_text() == domain_pddl and dataset.domain_file:
            return domain_pddl, "curated", str(dataset.domain_file)
    except (ApbError, OSError, ValueError):
        pass
    return domain_pddl, "curated", None


def reader_of(q: Question) -> Domain | None:
    """The apb-wording reader of a record `attach_domains` paired with a domain, else None."""
    if not q.domain_pddl or q.problem_pddl or q.format not in ("bool", "mcq"):
        return None
    return domain_reader(q.domain_pddl)


def domain_reader(domain_pddl: str) -> Domain | None:
    """The reader of apb's wording of a PDDL domain (the templates its records were paired with, else curated),
    None when there is no domain or it does not load."""
    if not domain_pddl:
        return None
    description, file = _DESCRIPTIONS.get(domain_pddl, ("curated", None))
    try:
        return generated_domain(domain_pddl, description, file)
    except ApbError:
        return None



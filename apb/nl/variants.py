"""Robustness variants of any domain (after PlanBench's "mystery" domains): `obfuscated` and `shuffled`.

- `obfuscated`: every predicate, action, type and object name is replaced by a meaningless word, the same word
  everywhere (domain, problems, gold plans); the NL layer follows with plain templates built from those words
  ("{x} is dofavu with {y}"), so neither the PDDL nor the English gives away what the domain is about.
- `shuffled`: the same domain and wording, but each problem's object names are permuted (egg_1 may now be called
  oven_2); hand-written goals follow the renaming.

`variant_texts(kind, domain_text, problem_text, templates)` maps one domain and problem to the variant;
`apply_variant(dataset, templates, kind)` does it for a whole dataset, writing the variant's files (domain,
problems, gold plans) once into a cache folder, and returns the variant's Dataset and templates. Plans keep their
lengths, so symbolic planners solve the same problems with the same plan lengths.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import tempfile
from dataclasses import replace
from pathlib import Path

from apb.datasets import Dataset, ProblemEntry
from apb.datasets.dataset import strip_comments
from apb.engine import load_domain, parse_domain, parse_problem
from apb.engine.errors import ApbError
from apb.engine.input_files import read_input
from apb.engine.model import ROOT_TYPE, Domain
from apb.nl.nl_yaml import NLTemplates
from apb.nl.template_builder import build_templates

VARIANTS = ("obfuscated", "shuffled")
CACHE_ENV = "APB_VARIANT_CACHE"  # where variant files are written (default: <tmp>/apb-variants)
_TOKEN = re.compile(r"[^\s()]+")
_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"
# PDDL words a generated name must never be
_KEYWORDS = frozenset({"and", "or", "not", "either", "define", "domain", "problem", "object", "forall", "exists",
                       "when", "imply", "increase", "decrease", "assign", "minimize", "maximize", "total-cost"})


class VariantError(ApbError):
    """A variant that cannot be built: an unknown kind, or a dataset whose files cannot be renamed."""


def check_kind(kind: str) -> str:
    """`kind` if it is a variant name; VariantError listing them otherwise."""
    if kind not in VARIANTS:
        raise VariantError(f"unknown variant {kind!r}: use one of {', '.join(VARIANTS)}")
    return kind


# ---- names ------------------------------------------------------------------------------------------------------
def meaningless_words(count: int, taken: set[str], seed: int = 0) -> list[str]:
    """`count` distinct pronounceable nonsense words (two or three syllables), none of them in `taken`."""
    rng = random.Random(seed)
    out: list[str] = []
    seen = set(taken) | _KEYWORDS
    while len(out) < count:
        word = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(rng.choice((2, 3))))
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out


def domain_names(domain: Domain) -> list[str]:
    """Every name a domain defines, in a fixed order: types (not `object`), predicates, actions, constants."""
    names = [t for t in domain.types if t != ROOT_TYPE]
    names += [p for p in domain.predicates if p != "="]
    names += [a.name for a in domain.actions]
    names += list(domain.constants)
    return list(dict.fromkeys(names))


def obfuscation_map(domain: Domain, objects: list[str], seed: int = 0) -> dict[str, str]:
    """Original name -> meaningless word for the domain's names, its name and the given objects; the domain's
    `?variables` become ?v1, ?v2, ... (they name the NL placeholders, so they would tell too)."""
    names = [domain.name, *domain_names(domain), *objects]
    names = list(dict.fromkeys(n.lower() for n in names))
    words = meaningless_words(len(names), set(names), seed)
    variables = sorted({p.name.lower() for a in domain.actions for p in a.parameters} |
                       {p.name.lower() for s in domain.predicates.values() for p in s.parameters})
    return {**dict(zip(names, words)), **{v: f"?v{i}" for i, v in enumerate(variables, 1)}}


def shuffle_map(objects: list[str], key: str, seed: int = 0) -> dict[str, str]:
    """A permutation of the object names that moves every object when there are at least two (seeded by `key`)."""
    names = list(objects)
    if len(names) < 2:
        return {n: n for n in names}
    rng = random.Random(f"{seed}:{key}")
    order = names[:]
    while any(a == b for a, b in zip(names, order)):
        rng.shuffle(order)
    return dict(zip(names, order))


def rename_pddl(text: str, mapping: dict[str, str]) -> str:
    """PDDL text with every name in `mapping` replaced (comments dropped; keywords kept; `?x` variables only when
    the mapping has them)."""
    def swap(match: re.Match) -> str:
        token = match.group(0)
        if token[0] == ":":
            return token
        return mapping.get(token.lower(), token)

    return _TOKEN.sub(swap, strip_comments(text))


def rename_words(text: str, mapping: dict[str, str]) -> str:
    """English text with whole-word object names replaced, all at once (so a permutation stays one)."""
    if not mapping:
        return text
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
                         + r")(?![\w-])", re.IGNORECASE)
    return pattern.sub(lambda m: mapping[m.group(0).lower()], text)


def rename_plan(actions: list[str], mapping: dict[str, str]) -> list[str]:
    """Plan actions `(name arg ...)` with names replaced."""
    return ["(" + " ".join(mapping.get(t.lower(), t) for t in a.strip().strip("()").split()) + ")" for a in actions]


# ---- templates --------------------------------------------------------------------------------------------------
def _arguments(params: tuple[str, ...]) -> str:
    slots = ["{" + p + "}" for p in params]
    if len(slots) <= 2:
        return " and ".join(slots)
    return ", ".join(slots[:-1]) + " and " + slots[-1]


def obfuscated_templates(domain: Domain) -> NLTemplates:
    """Plain templates for an obfuscated domain, made only of its (meaningless) names: no hint of the original."""
    predicates = {}
    for name, schema in domain.predicates.items():
        params = tuple(p.name.lstrip("?") for p in schema.parameters)
        if not params:
            text, negated = f"{name} holds", f"{name} does not hold"
        elif len(params) == 1:
            text, negated = f"{{{params[0]}}} is {name}", f"{{{params[0]}}} is not {name}"
        else:
            rest = _arguments(params[1:])
            text, negated = f"{{{params[0]}}} is {name} with {rest}", f"{{{params[0]}}} is not {name} with {rest}"
        predicates[name] = {"text": text, "negated": negated}
    actions = {}
    for action in domain.actions:
        params = tuple(p.name.lstrip("?") for p in action.parameters)
        text = action.name if not params else f"{action.name} {{{params[0]}}}"
        if len(params) > 1:
            text += " with " + _arguments(params[1:])
        variables = {p: f"argument {i} of {action.name}" for i, p in enumerate(params, 1)}
        actions[action.name] = {"text": text, "variables": variables}
    types = {t: t for t in domain.types if t != ROOT_TYPE}
    data = {"format": 1, "domain": domain.name, "types": types, "predicates": predicates, "actions": actions}
    return build_templates(domain, data, source="obfuscated")


def variant_texts(kind: str, domain_text: str, problem_text: str, templates: NLTemplates, *,
                  seed: int = 0) -> tuple[str, str, NLTemplates, dict[str, str]]:
    """(domain text, problem text, templates, name mapping) of one problem's variant."""
    check_kind(kind)
    domain = parse_domain(domain_text)
    problem = parse_problem(problem_text, domain)
    objects = list(problem.objects)
    if kind == "shuffled":
        mapping = shuffle_map(objects, problem.name, seed)
        goals = dict(templates.goals)
        if problem.name in goals:
            goals[problem.name] = rename_words(goals[problem.name], mapping)
        return domain_text, rename_pddl(problem_text, mapping), replace(templates, goals=goals), mapping
    mapping = obfuscation_map(domain, objects, seed)
    new_domain = rename_pddl(domain_text, mapping)
    return new_domain, rename_pddl(problem_text, mapping), obfuscated_templates(parse_domain(new_domain)), mapping


# ---- whole datasets ---------------------------------------------------------------------------------------------
def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / "apb-variants")


def _stamp(path: Path | str | None) -> tuple:
    """A file's identity for the in-process cache: path, modification time and size (None when missing)."""
    if path is None:
        return (None,)
    try:
        stat = Path(path).stat()
    except OSError:
        return (str(path), None)
    return (str(path), stat.st_mtime_ns, stat.st_size)


_MADE: dict[tuple, tuple[Dataset, NLTemplates]] = {}
_MADE_LIMIT = 64


def apply_variant(dataset: Dataset, templates: NLTemplates, kind: str, *, seed: int = 0) -> tuple[Dataset,
                                                                                                    NLTemplates]:
    """The variant of a dataset (its files written once into the cache folder) and the templates that go with it.
    Problem ids, splits and the dataset's name stay the same; object names of obfuscated problems are mapped with
    one table for the whole dataset, so an object keeps its word across problems. Made once per process for the
    same files (an eval builds one env per episode)."""
    check_kind(kind)
    key = (kind, seed, dataset.name, _stamp(dataset.domain_file), _stamp(templates.file), templates.source,
           tuple((e.id, e.split, _stamp(e.path), _stamp(e.plan_path)) for e in dataset.problems),
           str(cache_root()))
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        made = _MADE[key] = _make_variant(dataset, templates, kind, seed)
    return made


def _make_variant(dataset: Dataset, templates: NLTemplates, kind: str, seed: int) -> tuple[Dataset, NLTemplates]:
    domain_text = read_input(dataset.domain_file, "domain file")
    if dataset.layout == "pddlgym":  # PDDLGym's action predicates out, as the dataset's own domain has them
        from apb.datasets.pddlgym_library import action_predicates, standard_domain

        name = str(dataset.domain_file)
        domain_text = standard_domain(domain_text, name, action_predicates(domain_text, name))
    problems = {entry.id: dataset.problem_text(entry.id) for entry in dataset.problems}
    plans = {}
    for entry in dataset.problems:
        plan = dataset.gold_plan(entry.id) if entry.plan_path is not None else None
        if plan is not None:
            notes = [line for line in entry.plan_path.read_text(encoding="utf-8").splitlines()
                     if line.startswith("; optimal")]
            plans[entry.id] = ([step.text for step in plan.steps], notes)
    digest = hashlib.sha256(repr((kind, seed, domain_text, sorted(problems.items()), sorted(plans.items())))
                            .encode()).hexdigest()[:20]
    folder = cache_root() / f"{dataset.name}-{kind}-{digest}"
    out_templates = templates
    if kind == "obfuscated":
        objects = sorted({name for entry in dataset.problems
                          for name in parse_problem(problems[entry.id], dataset.domain).objects})
        mapping = obfuscation_map(dataset.domain, objects, seed)
        new_domain = rename_pddl(domain_text, mapping)
        out_templates = obfuscated_templates(parse_domain(new_domain))
        per_problem = {pid: mapping for pid in problems}
    else:
        new_domain = domain_text
        goals = dict(templates.goals)
        per_problem = {}
        for pid, text in problems.items():
            problem = parse_problem(text, dataset.domain)
            per_problem[pid] = shuffle_map(list(problem.objects), problem.name, seed)
            if problem.name in goals:
                goals[problem.name] = rename_words(goals[problem.name], per_problem[pid])
        out_templates = replace(templates, goals=goals)
    files = {"domain.pddl": new_domain}
    entries = []
    for entry in dataset.problems:
        stem = f"{len(entries):03d}"
        mapping = per_problem[entry.id]
        files[f"problems/{stem}.pddl"] = rename_pddl(problems[entry.id], mapping)
        plan_path = None
        if entry.id in plans:
            actions, notes = plans[entry.id]
            files[f"plans/{stem}.plan"] = "\n".join([*rename_plan(actions, mapping), *notes]) + "\n"
            plan_path = folder / "plans" / f"{stem}.plan"
        entries.append(ProblemEntry(entry.id, folder / "problems" / f"{stem}.pddl", plan_path, entry.split))
    _write_once(folder, files)
    variant = Dataset(dataset.name, dataset.layout, folder, folder / "domain.pddl",
                      load_domain(folder / "domain.pddl"), entries)
    return variant, out_templates


def _write_once(folder: Path, files: dict[str, str]) -> None:
    """Writes the files into `folder` unless a complete copy is there (atomic: a temporary folder renamed)."""
    if (folder / ".complete").is_file():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    for name, text in files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (work / ".complete").write_text("", encoding="utf-8")
    try:
        work.rename(folder)
    except OSError:  # another process wrote the same variant first
        import shutil

        shutil.rmtree(work, ignore_errors=True)
        if not (folder / ".complete").is_file():
            raise VariantError(f"{folder}: cannot write the variant's files; set ${CACHE_ENV} to a writable "
                               "folder") from None

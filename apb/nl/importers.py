"""Importers of NL descriptions written for other tools, turned into apb NL templates.

AutoPlanBench (`from_autoplanbench`)
    `domain_description_seed*.json` as written by AutoPlanBench: `predicate_nl_templates` and `action_nl_templates`
    with `{?x}` placeholders, `action_nl_templates_indef` (the same with "a <type>" before each placeholder),
    `actions`/`predicates` with each entry's `pddl` signature. Older files (the `_planbench` datasets) only have
    `predicate_mappings`/`action_mappings` with positional `{}` placeholders and a `domain_intro`; those are read
    too, filling the placeholders in parameter order.

PDDLGym-style YAML (`from_pddlgym_yaml`)
    The kind of description used when prompting LLMs with PDDLGym domains: predicate descriptions, lifted skill
    (operator) descriptions and per-variable descriptions::

        domain: baking                # optional; a different name than the domain's is noted in `skipped`
        intro: I am baking cakes.     # optional (also: description)
        predicates:                   # name -> text in the predicate's parameter order
          on: "?x is on top of ?y"    #   or {text: ..., negated: ..., parameters: [?x, ?y]}
        skills:                       # also: operators, actions
          stack:
            description: "stack ?ob on top of ?underob"   # also: text, nl; or just the string
            variables:                # also: parameters, params, args; a mapping or a list in parameter order
              ?ob: the block to stack
              ?underob: the block to put it on
            indefinite: stack A on top of B               # optional, letters A, B, ... in parameter order
        types:                        # optional: type -> noun ("a block" and "block" both work)
          block: a block

    Placeholders may be written `?x`, `{x}` or `{?x}`. When a description uses other variable names than the
    domain but as many of them, they are mapped by position: the order of `variables`/`parameters` when given,
    else the order in which they first appear in the text. Names are matched case-insensitively, with `_` and
    `-` taken as the same. An unquoted YAML key `on`/`off`/`yes`/`no` is read as written, not as a boolean.

Both importers are lenient about content and strict about form. Entries that do not fit the domain (a predicate
or action it does not have, such as AutoPlanBench's `=`/`!=`, or placeholders that do not match the parameters)
are left out and listed in the result's `skipped` attribute; the caller fills the gaps with rule-based wording
(`apb.nl.template_builder.complete`). A file that cannot be read as a description at all (bad JSON or YAML, not a
mapping, a text that is not a string) raises NLTemplateError naming the file and, where known, the line.
Predicate descriptions state only the positive form; the negated one is derived (`negate`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from apb.engine.model import Domain
from apb.nl.grammar import LETTERS, article, letter
from apb.nl.nl_yaml import NLTemplateError, NLTemplates, read_description_text, read_yaml_with_lines
from apb.nl.template_builder import build_templates, param_names

_APB_PLACEHOLDER = re.compile(r"\{\?([^{}\s]+)\}")
_ANY_PLACEHOLDER = re.compile(r"\{\??([A-Za-z_][\w-]*)\}|\?([A-Za-z_][\w-]*)")
_VERB_NEGATIONS = (
    (re.compile(r"\b(is|are|am|was|were) not\b"), None),  # already negative: drop the 'not'
    (re.compile(r"\bthere (is|are) (an?|some) "), r"there \1 no "),
    (re.compile(r"\b(has|have) been\b"), r"\1 not been"),
    (re.compile(r"\b(is|are|am|was|were)\b"), r"\1 not"),
    (re.compile(r"\bhas\b"), "does not have"),
    (re.compile(r"\bhave\b"), "do not have"),
    (re.compile(r"\bcannot\b"), "can"),
    (re.compile(r"\bcan\b"), "cannot"),
    (re.compile(r"\b(does|do|did|will|should|must|may|could|would) not\b"), None),
    (re.compile(r"\b(does|do|did|will|should|must|may|could|would)\b"), r"\1 not"),
)
_SUBJECTLESS = re.compile(r"^[a-z]{2,}ing\b")


# ---- shared wording helpers -----------------------------------------------------------------------------------
def add_subject(text: str) -> str:
    """Predicate texts without a subject get "I": 'holding {x}' -> 'I am holding {x}', 'have chips' -> 'I have
    chips'. Anything else is returned as it is."""
    stripped = text.strip()
    if stripped.startswith(("have ", "hold ")) or stripped in ("have", "hold"):
        return "I " + stripped
    if _SUBJECTLESS.match(stripped) and not stripped.startswith(("nothing", "something", "everything",
                                                                 "anything")):
        return "I am " + stripped
    return stripped


def negate(text: str) -> str:
    """The negation of a predicate text: 'not' after the first is/are/am ('{x} is not clear'), 'has' -> 'does not
    have', 'can' -> 'cannot', a negative text made positive ('{x} is not equal to {y}' -> '{x} is equal to {y}',
    'there is no bomb' -> 'there is a bomb'), a third-person verb right after the subject placeholder ->
    'does not <verb>' ('{c} supports {m}' -> '{c} does not support {m}'); otherwise, and for texts with 'nothing',
    'no', 'never', ..., 'it is not the case that ...'."""
    stripped = text.strip()
    there_no = re.search(r"\bthere (is|are) no (\w+)", stripped)
    if there_no:  # 'there is no bomb at {x}' -> 'there is a bomb at {x}'
        verb, noun = there_no.groups()
        some = f"{article(noun)} {noun}" if verb == "is" else f"some {noun}"
        return stripped[:there_no.start()] + f"there {verb} {some}" + stripped[there_no.end():]
    if re.search(r"\b(nothing|nobody|no one|none|no|never)\b", stripped):
        # '{x} has nothing on top of it': inserting 'not' would make a double negative
        return "it is not the case that " + stripped
    first = _first_verb(stripped)
    if first is not None:
        _, replacement, match = first
        if replacement is None:
            return stripped[:match.start()] + re.sub(r" not\b", "", match.group(0), count=1) + stripped[match.end():]
        return stripped[:match.start()] + match.expand(replacement) + stripped[match.end():]
    verb = re.match(r"^(\{[^{}]+\}) ([a-z]+?)(es|s)\b", stripped)
    if verb and not (verb.group(2) + verb.group(3)).endswith(("ss", "us")) and verb.group(2) + verb.group(
            3) not in ("is", "was", "has", "this", "thus", "yes", "does", "goes"):
        base = verb.group(2)
        if verb.group(3) == "es" and base.endswith("i"):
            base = base[:-1] + "y"  # carries -> carry
        elif verb.group(3) == "es" and not base.endswith(("ch", "sh", "x", "z", "o", "ss")):
            base += "e"  # uses -> use
        return f"{verb.group(1)} does not {base}{stripped[verb.end():]}"
    return "it is not the case that " + stripped


def _first_verb(text: str):
    best = None
    for pattern, replacement in _VERB_NEGATIONS:
        match = pattern.search(text)
        if match and (best is None or match.start() < best[2].start()):
            best = (pattern, replacement, match)
    return best


def _norm(name: object) -> str:
    return str(name).strip().lower().replace("_", "-")


def _lookup(name: object, table: dict) -> str | None:
    """The domain's spelling of a predicate/action/type name, matching case and '_'/'-' loosely."""
    key = str(name).strip().lower()
    if key in table:
        return key
    wanted = _norm(name)
    for candidate in table:
        if _norm(candidate) == wanted:
            return candidate
    return None


def _convert(text: str, params: tuple[str, ...], order: list[str] | None, pattern: re.Pattern,
             by_appearance: bool = True) -> str | None:
    """`text` with its placeholders renamed to the domain's `{param}` form, or None when they do not fit.

    Names that are parameters are kept; otherwise, if the text uses as many distinct names as there are
    parameters, they are mapped by position (`order`, else, with `by_appearance`, the order of first
    appearance)."""
    found: list[str] = []
    for match in pattern.finditer(text):
        name = next(g for g in match.groups() if g is not None).rstrip("-")
        if name not in found:
            found.append(name)
    lowered = {p.lower(): p for p in params}
    mapping = {}
    if all(n.lower() in lowered for n in found):
        mapping = {n: lowered[n.lower()] for n in found}
    else:
        if not order and not by_appearance:
            return None
        names = [n.lstrip("?") for n in order] if order else found
        if len(names) != len(params) or set(found) - set(names):
            return None
        mapping = dict(zip(names, params))

    def sub(match: re.Match) -> str:
        name = next(g for g in match.groups() if g is not None)
        trail = name[len(name.rstrip("-")):]
        return "{" + mapping[name.rstrip("-")] + "}" + trail

    return pattern.sub(sub, text)


def _indefinite_letters(text: str, params: tuple[str, ...]) -> str | None:
    """'{x}' placeholders (already converted) -> letters A, B, ... in parameter order."""
    index = {p: i for i, p in enumerate(params)}
    bad = False

    def sub(match: re.Match) -> str:
        nonlocal bad
        name = match.group(1)
        if name not in index:
            bad = True
            return match.group(0)
        return letter(index[name])

    out = re.sub(r"\{([^{}\s]+)\}", sub, text)
    if bad or any(not re.search(r"\b" + letter(i) + r"\b", out) for i in range(len(params))):
        return None
    return out


def _pddl_order(entry: object) -> list[str] | None:
    """The parameter names of an AutoPlanBench `actions`/`predicates` entry: from `pddl` '(sail ?from ?to)' or
    the keys of `parameter_types`."""
    if not isinstance(entry, dict):
        return None
    pddl = entry.get("pddl")
    if isinstance(pddl, str):
        names = re.findall(r"\?([^\s()]+)", pddl)
        if names or re.fullmatch(r"\(\s*[^\s()]+\s*\)", pddl.strip()):
            return names
    types = entry.get("parameter_types")
    if isinstance(types, dict):
        return [str(k).lstrip("?") for k in types]
    return None


def _positional(text: str, params: tuple[str, ...]) -> str | None:
    """AutoPlanBench's old '{}' templates: the i-th '{}' is the i-th parameter."""
    if text.count("{}") != len(params) or re.search(r"\{[^}]", text):
        return None
    parts = text.split("{}")
    out = [parts[0]]
    for p, part in zip(params, parts[1:]):
        out.append("{" + p + "}" + part)
    return "".join(out)


def _valid(text: str, params: tuple[str, ...]) -> bool:
    found = re.findall(r"\{([^{}\s]+)\}", text)
    return bool(text.strip()) and set(found) == set(params) and all(p in found for p in params)


# ---- AutoPlanBench -------------------------------------------------------------------------------------------------
def from_autoplanbench(path: str | Path, domain: Domain) -> NLTemplates:
    """Templates from an AutoPlanBench `domain_description*.json` (source 'autoplanbench:<path>')."""
    path = Path(path)
    text = read_description_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise NLTemplateError(f"invalid JSON: {err.msg}", file=path, line=err.lineno) from None
    if not isinstance(data, dict):
        raise NLTemplateError("an AutoPlanBench description must be a JSON object with predicate_nl_templates "
                              "and action_nl_templates", file=path)
    skipped: list[str] = []
    sections = ("predicate_nl_templates", "predicate_mappings", "action_nl_templates", "action_mappings",
                "action_nl_templates_indef", "action_mappings_indef", "predicates", "actions")
    for key in sections:
        if key in data and not isinstance(data[key], dict):
            raise NLTemplateError(f"{key} must be a JSON object mapping names to texts", file=path)
    if not any(key in data for key in sections[:4]):
        raise NLTemplateError("not an AutoPlanBench description: it has none of predicate_nl_templates, "
                              "action_nl_templates, predicate_mappings, action_mappings", file=path)

    def read(new_key: str, old_key: str, params_of, info_key: str) -> dict[str, str]:
        """name -> text with {param} placeholders, from the {?x} section or else the positional {} one."""
        out: dict[str, str] = {}
        entries = data.get(new_key)
        positional = entries is None
        if positional:
            entries = data.get(old_key) or {}
        info = data.get(info_key) or {}
        for raw_name, raw in entries.items():
            what = info_key[:-1]
            name = _lookup(raw_name, domain.predicates if what == "predicate" else {a.name: a for a in
                                                                                      domain.actions})
            if name is None:
                why = "equality is built in" if raw_name in ("=", "!=") else f"not in domain {domain.name}"
                skipped.append(f"{what} {raw_name}: {why}")
                continue
            if not isinstance(raw, str) or not raw.strip():
                skipped.append(f"{what} {raw_name}: the text is not a non-empty string")
                continue
            params = params_of(name)
            converted = _positional(raw, params) if positional else _convert(
                raw, params, _pddl_order(info.get(raw_name)), _APB_PLACEHOLDER, by_appearance=False)
            if converted is None or not _valid(converted, params):
                skipped.append(f"{what} {raw_name}: placeholders of {raw!r} do not match the parameters "
                               f"({', '.join('?' + p for p in params) or 'none'})")
                continue
            out[name] = converted.strip()
        return out

    def pred_params(name: str) -> tuple[str, ...]:
        return param_names(domain.predicates[name].parameters)

    def action_params(name: str) -> tuple[str, ...]:
        return param_names(domain.action(name).parameters)

    predicates = {}
    for name, text in read("predicate_nl_templates", "predicate_mappings", pred_params, "predicates").items():
        text = add_subject(text)
        predicates[name] = {"text": text, "negated": negate(text)}
    actions: dict[str, dict] = {}
    for name, text in read("action_nl_templates", "action_mappings", action_params, "actions").items():
        actions[name] = {"text": text}
    indefinites = read("action_nl_templates_indef", "action_mappings_indef", action_params, "actions")
    for name, text in indefinites.items():
        if name in actions:
            indefinite = _indefinite_letters(text, action_params(name))
            if indefinite is not None:
                actions[name]["indefinite"] = indefinite
    intro = data.get("domain_intro")
    # the old files' domain_intro goes on to list the actions and rules, which apb renders itself
    intro = " ".join(re.split(r"\n\s*\n|\bHere are the actions?\b", intro.strip())[0].split()) \
        if isinstance(intro, str) else ""
    result = build_templates(domain, {"domain": domain.name, "intro": intro, "predicates": predicates,
                                      "actions": actions}, source=f"autoplanbench:{path}", file=path)
    result.skipped = _dedupe(skipped)
    return result


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# ---- PDDLGym-style YAML --------------------------------------------------------------------------------------------
_SKILL_KEYS = ("skills", "operators", "actions")
_TEXT_KEYS = ("description", "text", "nl", "template")
_VARIABLE_KEYS = ("variables", "parameters", "params", "args", "arguments")
_NEGATED_KEYS = ("negated", "negation", "negative", "not")
_TOP_KEYS = {"domain", "intro", "description", "predicates", "types", *_SKILL_KEYS}


def _raw_keys(lines: dict, path: tuple, mapping: dict) -> list[tuple[str, object]]:
    """The mapping's items with keys as written in the file: YAML reads an unquoted `on:` as True."""
    written = [key[-1] for key in lines if len(key) == len(path) + 1 and key[:-1] == path]
    items = list(mapping.items())
    if len(written) == len(items):
        return [(str(w), value) for w, (_, value) in zip(written, items)]
    return [(str(k), value) for k, value in items]


def _first_key(entry: dict, keys: tuple[str, ...]) -> str | None:
    return next((k for k in keys if k in entry), None)


def from_pddlgym_yaml(path: str | Path, domain: Domain) -> NLTemplates:
    """Templates from a PDDLGym-style YAML description (source 'pddlgym:<path>'); see the module docstring."""
    path = Path(path)
    data, lines = read_yaml_with_lines(path)

    def fail(message: str, *key) -> NLTemplateError:
        line = None
        for n in range(len(key), 0, -1):
            line = lines.get(tuple(key[:n]))
            if line:
                break
        return NLTemplateError(message, file=path, line=line)

    if not isinstance(data, dict):
        raise fail("a PDDLGym-style description must be a mapping with predicates and skills (see "
                   "apb.nl.importers)")
    top = {str(k).lower(): (str(k), v) for k, v in _raw_keys(lines, (), data)}
    unknown = sorted(set(top) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}: the keys are domain, intro, predicates, skills (or operators, "
                   "actions), types", top[unknown[0]][0])
    skill_key = next((k for k in _SKILL_KEYS if k in top), None)
    if "predicates" not in top and skill_key is None:
        raise fail("a PDDLGym-style description needs predicates or skills")
    skipped: list[str] = []
    if "domain" in top:
        given = top["domain"][1]
        if not isinstance(given, str | int | float):
            raise fail("domain must be the domain's name", top["domain"][0])
        if _norm(given) != _norm(domain.name):
            skipped.append(f"domain: the file is for {given!r}, the domain is {domain.name!r}")
    intro = ""
    for key in ("intro", "description"):
        if key in top:
            value = top[key][1]
            if not isinstance(value, str):
                raise fail(f"{key} must be text", top[key][0])
            intro = " ".join(value.split())

    types: dict[str, str] = {}
    if "types" in top:
        raw_key, raw_types = top["types"]
        raw_types = {} if raw_types is None else raw_types  # an empty section
        if not isinstance(raw_types, dict):
            raise fail("types must map type names to nouns, e.g. 'block: a block'", raw_key)
        for name, value in _raw_keys(lines, (raw_key,), raw_types):
            if isinstance(value, dict):
                value = value.get("singular") or value.get("noun") or value.get("description")
            if not isinstance(value, str) or not value.strip():
                raise fail(f"type {name!r}: give a noun such as 'a {name}'", raw_key, name)
            known = _lookup(name, domain.types)
            if known is None:
                skipped.append(f"type {name}: not a type of domain {domain.name}")
                continue
            types[known] = re.sub(r"^(a|an|the)\s+", "", value.strip(), flags=re.IGNORECASE)

    predicates: dict[str, dict] = {}
    if "predicates" in top:
        raw_key, raw_preds = top["predicates"]
        raw_preds = {} if raw_preds is None else raw_preds  # an empty section
        if not isinstance(raw_preds, dict):
            raise fail("predicates must map predicate names to descriptions", raw_key)
        for name, value in _raw_keys(lines, (raw_key,), raw_preds):
            where = (raw_key, name)
            order = None
            negated = None
            if isinstance(value, dict):
                text_key = _first_key(value, _TEXT_KEYS)
                if text_key is None:
                    raise fail(f"predicate {name!r}: give its text, e.g. {{text: '?x is clear'}}", *where)
                text = value[text_key]
                negated_key = _first_key(value, _NEGATED_KEYS)
                negated = value[negated_key] if negated_key else None
                var_key = _first_key(value, _VARIABLE_KEYS)
                if var_key is not None:
                    order = _variable_names(value[var_key], fail, (*where, var_key))
                if negated is not None and not isinstance(negated, str):
                    raise fail(f"predicate {name!r}: the negated text must be a string", *where, negated_key)
            else:
                text = value
            if not isinstance(text, str) or not text.strip():
                raise fail(f"predicate {name!r}: the description must be a non-empty string", *where)
            known = _lookup(name, domain.predicates)
            if known is None:
                skipped.append(f"predicate {name}: not in domain {domain.name}")
                continue
            params = param_names(domain.predicates[known].parameters)
            converted = _convert(text, params, order, _ANY_PLACEHOLDER)
            if converted is None or not _valid(converted, params):
                raise fail(f"predicate {name!r}: the placeholders of {text!r} do not match the parameters "
                           f"({', '.join('?' + p for p in params) or 'none'})", *where)
            converted = add_subject(" ".join(converted.split()))
            if negated is not None:
                negated = _convert(negated, params, order or _appearance(text), _ANY_PLACEHOLDER)
                if negated is None or not _valid(negated, params):
                    raise fail(f"predicate {name!r}: the negated text does not match the parameters", *where)
            predicates[known] = {"text": converted, "negated": negated or negate(converted)}

    actions: dict[str, dict] = {}
    if skill_key is not None:
        raw_key, raw_skills = top[skill_key]
        raw_skills = {} if raw_skills is None else raw_skills  # an empty section
        if not isinstance(raw_skills, dict):
            raise fail(f"{skill_key} must map skill (operator) names to descriptions", raw_key)
        by_name = {a.name: a for a in domain.actions}
        for name, value in _raw_keys(lines, (raw_key,), raw_skills):
            where = (raw_key, name)
            variables_raw = None
            order = None
            indefinite = None
            var_key = None
            if isinstance(value, dict):
                text_key = _first_key(value, _TEXT_KEYS)
                if text_key is None:
                    raise fail(f"skill {name!r}: give its description, e.g. {{description: 'stack ?ob on ?underob'}}",
                               *where)
                text = value[text_key]
                var_key = _first_key(value, _VARIABLE_KEYS)
                if var_key is not None:
                    variables_raw = value[var_key]
                    order = _variable_names(variables_raw, fail, (*where, var_key))
                indefinite = value.get("indefinite")
                if indefinite is not None and not isinstance(indefinite, str):
                    raise fail(f"skill {name!r}: indefinite must be a string", *where, "indefinite")
            else:
                text = value
            if not isinstance(text, str) or not text.strip():
                raise fail(f"skill {name!r}: the description must be a non-empty string", *where)
            known = _lookup(name, by_name)
            if known is None:
                skipped.append(f"skill {name}: not an action of domain {domain.name}")
                continue
            params = param_names(by_name[known].parameters)
            converted = _convert(text, params, order, _ANY_PLACEHOLDER)
            if converted is None or not _valid(converted, params):
                raise fail(f"skill {name!r}: the placeholders of {text!r} do not match the parameters "
                           f"({', '.join('?' + p for p in params) or 'none'})", *where)
            entry: dict = {"text": " ".join(converted.split())}
            if indefinite is not None:
                indefinite = " ".join(indefinite.split())
                missing = [letter(i) for i in range(len(params)) if not re.search(rf"\b{letter(i)}\b", indefinite)]
                if missing or _ANY_PLACEHOLDER.search(indefinite):
                    raise fail(f"skill {name!r}: indefinite must name the parameters with the letters "
                               f"{', '.join(LETTERS[:len(params)])} in order", *where, "indefinite")
                entry["indefinite"] = indefinite
            if variables_raw is not None:
                entry["variables"] = _variables(variables_raw, params, order, fail, (*where, var_key), name)
            actions[known] = entry

    data_out = {"domain": domain.name, "intro": intro, "types": types, "predicates": predicates,
                "actions": actions}
    result = build_templates(domain, data_out, source=f"pddlgym:{path}", file=path)
    result.skipped = _dedupe(skipped)
    return result


def _appearance(text: str) -> list[str]:
    out: list[str] = []
    for match in _ANY_PLACEHOLDER.finditer(text):
        name = next(g for g in match.groups() if g is not None).rstrip("-")
        if name not in out:
            out.append(name)
    return out


def _clean_var(name: object) -> str:
    return str(name).strip().strip("{}").lstrip("?")


def _variable_names(raw: object, fail, where: tuple) -> list[str]:
    """Variable names in order from a `variables` mapping ({?x: desc}) or list ([?x, ?y] or [{?x: desc}])."""
    if isinstance(raw, dict):
        return [_clean_var(k) for k in raw]
    if isinstance(raw, list):
        names = []
        for item in raw:
            if isinstance(item, dict) and len(item) == 1:
                names.append(_clean_var(next(iter(item))))
            elif isinstance(item, str) and re.fullmatch(r"\{?\??[A-Za-z_][\w-]*\}?", item.strip()):
                names.append(_clean_var(item))
            else:
                return []  # a list of plain descriptions: positional, no names
        return names
    raise fail("variables must map variable names to descriptions (?x: the block to stack)", *where)


def _variables(raw: object, params: tuple[str, ...], order: list[str] | None, fail, where: tuple,
               skill: str) -> dict[str, str]:
    """Per-variable descriptions keyed by the domain's parameter names."""
    if isinstance(raw, dict):
        names = [_clean_var(k) for k in raw]
        descriptions = list(raw.values())
    else:
        items = raw if isinstance(raw, list) else []
        if order:
            names = order
            descriptions = [next(iter(i.values())) if isinstance(i, dict) else "" for i in items]
        else:
            names = list(params[:len(items)])
            descriptions = items
    lowered = {p.lower(): p for p in params}
    if all(n.lower() in lowered for n in names):
        mapped = [lowered[n.lower()] for n in names]
    elif len(names) == len(params):
        mapped = list(params)
    else:
        raise fail(f"skill {skill!r}: variables {', '.join('?' + n for n in names)} do not match the parameters "
                   f"({', '.join('?' + p for p in params)})", *where)
    out = {}
    for name, description in zip(mapped, descriptions):
        if description is None or description == "":
            continue
        if not isinstance(description, str | int | float):
            raise fail(f"skill {skill!r}: the description of ?{name} must be text", *where)
        out[name] = " ".join(str(description).split())
    return out


__all__ = ["add_subject", "from_autoplanbench", "from_pddlgym_yaml", "negate"]

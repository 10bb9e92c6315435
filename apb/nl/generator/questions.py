"""The prompts of `apb nl generate`: prompt files and few-shot examples loaded through apb.prompts, and the layout
of questions, few-shot answers and repair requests. All wording lives in apb/prompts/nl_generate/."""

from __future__ import annotations

import string
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import yaml

from apb.engine.model import ROOT_TYPE, Domain, Parameter
from apb.nl.generator.results import NLGenerateError
from apb.nl.grammar import letter
from apb.prompts import load_prompt

PROMPTS = "nl_generate/"
Typed = Sequence[tuple[str, str | None]]  # (parameter name without '?', its type or None when untyped)


# ---- prompt files -------------------------------------------------------------------------------------------------
@cache
def prompt_text(name: str) -> str:
    """The text of a prompt file of apb/prompts/nl_generate/ (trailing newline removed)."""
    return load_prompt(PROMPTS + name).rstrip("\n")


def fill_prompt(name: str, **values: str) -> str:
    """The prompt file `name` with its $fields filled in."""
    return string.Template(prompt_text(name)).substitute(values)


@cache
def fragments() -> dict[str, str]:
    """The small pieces of questions and answers (apb/prompts/nl_generate/fragments.yaml)."""
    return {str(k): str(v) for k, v in yaml.safe_load(load_prompt(PROMPTS + "fragments.yaml")).items()}


def fragment(key: str, **values: str) -> str:
    """One piece of fragments.yaml with its $fields filled in."""
    return string.Template(fragments()[key]).substitute(values)


def load_examples(source: str | Path | dict | None = None) -> dict:
    """The few-shot examples: the bundled examples.yaml, another YAML file of that shape, or such a mapping."""
    where = "examples"
    if source is None:
        where = "apb/prompts/nl_generate/examples.yaml"
        data = yaml.safe_load(load_prompt(PROMPTS + "examples.yaml"))
    elif isinstance(source, str | Path):
        path = Path(source)
        where = str(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except OSError as err:
            raise NLGenerateError(f"{path}: cannot read the examples file: {err.strerror or err}") from None
        except yaml.YAMLError as err:
            raise NLGenerateError(f"{path}: invalid YAML: {err}") from None
    else:
        data = source
    if not isinstance(data, dict):
        raise NLGenerateError(f"{where}: the examples must be a mapping with the lists predicates and actions")
    for kind, keys in (("predicates", ("name", "text", "negated")), ("actions", ("name", "text", "indefinite"))):
        items = data.get(kind) or []
        if not isinstance(items, list):
            raise NLGenerateError(f"{where}: {kind} must be a list of examples")
        for i, item in enumerate(items):
            if not isinstance(item, dict) or any(not isinstance(item.get(k), str) for k in keys):
                raise NLGenerateError(f"{where}: {kind} example {i + 1} needs the keys {', '.join(keys)} "
                                      "(and parameters)")
            params = item.get("parameters") or {}
            if not isinstance(params, dict):
                raise NLGenerateError(f"{where}: {kind} example {i + 1} ({item['name']}): parameters must map "
                                      "parameter names to types (null when untyped)")
    return {"domains": data.get("domains") or {}, "predicates": data.get("predicates") or [],
            "actions": data.get("actions") or []}


# ---- question and answer layout -----------------------------------------------------------------------------------
def type_of(param: Parameter) -> str | None:
    """The type a question shows for a parameter: None for an untyped one, 'either a b' for a union."""
    if len(param.types) == 1:
        return None if param.types[0] == ROOT_TYPE else param.types[0]
    return param.type_str


def typed_parameters(parameters: Sequence[Parameter]) -> list[tuple[str, str | None]]:
    """(name without '?', type) of each parameter, as questions show them."""
    return [(p.name.lstrip("?"), type_of(p)) for p in parameters]


def _signature(name: str, params: Typed) -> str:
    parts = [name]
    for pname, ptype in params:
        parts.append(f"?{pname} - {ptype}" if ptype else f"?{pname}")
    return "(" + " ".join(parts) + ")"


def _parameter_line(params: Typed, *, letters: bool) -> str:
    if not params:
        return fragment("none_parameters")
    out = []
    for i, (pname, ptype) in enumerate(params):
        mark = f" ({letter(i)})" if letters else ""
        out.append(f"?{pname}{mark}: {ptype or fragment('untyped')}")
    return "; ".join(out)


def _optional_line(key: str, text: str | None) -> str:
    return "\n" + fragment(key, text=text) if text else ""


def bullets(items: Sequence[str], empty: str) -> str:
    """'- item' lines, or '- <the none_ fragment `empty`>' for no items."""
    return "\n".join(f"- {item}" for item in items) if items else f"- {fragment(empty)}"


def predicate_question(domain: str, name: str, params: Typed, *, notes: str = "", comment: str = "",
                       usage: str = "") -> str:
    """The question about one predicate: its PDDL form, parameter types, comments and how actions use it."""
    return fill_prompt("predicate_question.txt", domain=domain, notes=_optional_line("about_domain", notes),
                       pddl=_signature(name, params), parameters=_parameter_line(params, letters=False),
                       comment=_optional_line("file_comment", comment), usage=usage or fragment("none_usage"))


def action_question(domain: str, name: str, params: Typed, *, requires: Sequence[str], effects: Sequence[str],
                    notes: str = "", comment: str = "") -> str:
    """The question about one action: its PDDL form, parameters as letters, preconditions and effects in English."""
    return fill_prompt("action_question.txt", domain=domain, notes=_optional_line("about_domain", notes),
                       pddl=_signature(name, params), parameters=_parameter_line(params, letters=True),
                       comment=_optional_line("file_comment", comment), requires=bullets(requires, "none_items"),
                       effects=bullets(effects, "none_items"))


def intro_question(domain: str, *, notes: str, types: Sequence[str], actions: Sequence[str]) -> str:
    """The question for the intro line: the kinds of objects and the actions in their indefinite form."""
    return fill_prompt("intro.txt", domain=domain, notes=_optional_line("about_domain", notes),
                       types=", ".join(types) or fragment("none_types"), actions=bullets(actions, "none_actions"),
                       format=prompt_text("intro_format.txt"))


def predicate_usage(domain: Domain, name: str) -> str:
    """How the actions use a predicate: 'board (requires it, makes it false), debark (makes it true)'."""
    out = []
    for action in domain.actions:
        roles = []
        if any(lit.predicate == name and lit.positive for lit in action.precondition):
            roles.append(fragment("usage_requires"))
        if any(lit.predicate == name and not lit.positive for lit in action.precondition):
            roles.append(fragment("usage_requires_false"))
        if any(lit.predicate == name for lit in action.add_effects):
            roles.append(fragment("usage_adds"))
        if any(lit.predicate == name for lit in action.delete_effects):
            roles.append(fragment("usage_deletes"))
        if roles:
            out.append(f"{action.name} ({', '.join(roles)})")
    return ", ".join(out)


def predicate_answer(text: str, negated: str) -> str:
    """A few-shot answer about a predicate, in the format the parser reads."""
    return fragment("predicate_answer", text=text, negated=negated)


def action_answer(text: str, indefinite: str, variables: dict[str, str], params: Sequence[str]) -> str:
    """A few-shot answer about an action, in the format the parser reads."""
    lines = [fragment("action_answer", text=text, indefinite=indefinite)]
    lines += [fragment("parameter_answer", name=p, description=variables[p]) for p in params if variables.get(p)]
    return "\n".join(lines)


def example_turns(kind: str, examples: dict) -> list[dict]:
    """The system message and the few-shot (question, answer) turns for `kind` (predicate | action)."""
    fmt = prompt_text(f"{kind}_format.txt")
    system = prompt_text("system.txt") + "\n\n" + fill_prompt(f"{kind}.txt", format=fmt)
    messages: list[dict] = [{"role": "system", "content": system}]
    notes = examples.get("domains") or {}
    for item in examples[kind + "s"]:
        params = [(str(k), None if v is None else str(v)) for k, v in (item.get("parameters") or {}).items()]
        dom = str(item.get("domain") or "example")
        if kind == "predicate":
            question = predicate_question(dom, item["name"], params, notes=notes.get(dom, ""),
                                          comment=item.get("comment") or "", usage=item.get("used_by") or "")
            answer = predicate_answer(item["text"], item["negated"])
        else:
            question = action_question(dom, item["name"], params, requires=item.get("requires") or [],
                                       effects=item.get("effects") or [], notes=notes.get(dom, ""),
                                       comment=item.get("comment") or "")
            variables = {str(k): str(v) for k, v in (item.get("variables") or {}).items()}
            answer = action_answer(item["text"], item["indefinite"], variables, [p for p, _ in params])
        messages.append({"role": "user", "content": question})
        messages.append({"role": "assistant", "content": answer})
    return messages


def repair_request(kind: str, issues: Sequence[str]) -> str:
    """The repair turn: what is wrong with the answer, and the format to answer in."""
    return fill_prompt("repair.txt", problems="; ".join(issues), format=prompt_text(f"{kind}_format.txt"))

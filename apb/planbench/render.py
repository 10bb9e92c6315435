"""PlanBench's prompt wording of one problem, as its prompt generation writes it: objects, facts, actions and
states in a config's own words (its YAML's `encoded_objects`, `predicates`, `actions`), the `[STATEMENT]` blocks of
its tasks. Facts are PlanBench's strings `pred_arg1_arg2`; actions `name_arg1_arg2` (lower case)."""

from __future__ import annotations

from collections.abc import Iterable

from apb.engine import Literal
from apb.planbench.wording import object_text


def fact_key(literal: Literal) -> str:
    """A fact as PlanBench's executor names it: `on_a_b`, `handempty`."""
    return "_".join((literal.predicate.lower(), *(a.lower() for a in literal.args)))


def _atom_text(pred: str, args: Iterable[str], data: dict) -> str | None:
    template = (data.get("predicates") or {}).get(pred)
    if template is None:
        return None
    return template.format(*[object_text(a, data) for a in args])


def join_facts(texts: list[str]) -> str:
    """`a, b and c` (PlanBench's list of facts); one fact alone; nothing for none."""
    if len(texts) > 1:
        return ", ".join(texts[:-1]) + f" and {texts[-1]}"
    return texts[0] if texts else ""


def state_text(facts: Iterable[str], data: dict) -> str:
    """A set of fact keys in words, sorted by key (PlanBench's `get_state_translation`); facts whose predicate the
    config does not word, or words as nothing (logistics' static types), are left out."""
    texts = []
    for key in sorted(facts):
        pred, *args = key.split("_")
        text = _atom_text(pred, args, data)
        if text:
            texts.append(text)
    return join_facts(texts)


def atoms_text(atoms: list[tuple[str, tuple[str, ...]]], data: dict) -> str:
    """Atoms in words in the order given (PlanBench's problem parse: empty wordings dropped when there are several)."""
    texts = [t for pred, args in atoms if (t := _atom_text(pred, args, data)) is not None]
    if len(texts) > 1:
        texts = [t for t in texts if t]
    return join_facts(texts) if len(texts) > 1 else texts[0]


def sorted_atoms(literals: Iterable[Literal]) -> list[tuple[str, tuple[str, ...]]]:
    """Distinct atoms sorted as PlanBench sorts a problem's atoms: by `pred arg1 arg2`."""
    atoms = {(lit.predicate.lower(), tuple(a.lower() for a in lit.args)) for lit in literals}
    return sorted(atoms, key=lambda atom: atom[0] + " " + " ".join(atom[1]))


def action_text(action: str, data: dict) -> str:
    """An action `name_arg1_arg2` in the config's words (`unstack the red block from on top of the blue block`)."""
    name, *args = action.split("_")
    return data["actions"][name].format(*[object_text(a, data) for a in args])


def plan_lines(plan: list[str], data: dict, end: str = "[PLAN END]") -> str:
    """`\\n` + one worded action a line + the end marker line."""
    return "\n" + "".join(action_text(a, data) + "\n" for a in plan) + f"{end}\n"


def gold_plan_text(plan: list[str], data: dict) -> str:
    """A record's `ground_truth_plan`: `(name arg ...)` lines; the released blocksworld files name blocks by their
    colour (`(unstack yellow orange)`), every other config by the PDDL names."""
    def arg(a: str) -> str:
        if data.get("domain_name") in COLOUR_NAMED:
            return str(data["encoded_objects"][a]).split()[0]
        return a
    return "".join("(" + " ".join([a.split("_")[0], *map(arg, a.split("_")[1:])]) + ")\n" for a in plan)


COLOUR_NAMED = ("blocksworld", "blocksworld_3")


def fill_template(init: str, goal: str, plan: str, data: dict) -> str:
    """One `[STATEMENT]` with its `[PLAN]` (PlanBench's `fill_template`): blocksworld configs read `-` as a space
    and `ontable` as `on the table` throughout."""
    text = ""
    if init != "":
        text += f"\n[STATEMENT]\nAs initial conditions I have that, {init.strip()}."
    if goal != "":
        text += f"\nMy goal is to have that {goal}."
    text += f"\n\nMy plan is as follows:\n\n[PLAN]{plan}"
    if "blocksworld" in data["domain_name"]:
        text = text.replace("-", " ").replace("ontable", "on the table")
    return text

"""The oracle agent: answers every question from its gold, in ACPBench's answer format (what `apb acp answer`
writes). Under apb's sound scorer it must score 100% on generated questions."""

from __future__ import annotations

from apb.acp.records import Question


def oracle_answer(q: Question):
    """The gold answer in ACPBench's answer format: yes/no, a letter, or the generative answer of the task
    (app: actions; prog: {"pos", "neg"}; val: an index; reach: an atom or None; areach: an action or None;
    just: the shortened plan; land: an atom or None; nexta: an action)."""
    gold = q.answer
    if q.format in ("bool", "mcq") or q.task in ("app", "prog", "val"):
        return gold
    if q.task in ("reach", "areach"):
        return gold[0] if gold else None
    if q.task == "just":
        if gold and isinstance(gold[0], list):
            return gold[0]
        return gold
    if q.task == "land":
        yes = gold.get("yes") if isinstance(gold, dict) else None
        return yes[0] if yes else None
    if q.task == "nexta":
        yes = gold.get("yes") if isinstance(gold, dict) else gold
        return yes[0] if yes else None
    return gold


AGENTS = {"oracle": oracle_answer}

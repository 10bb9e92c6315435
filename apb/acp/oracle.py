"""The agents of `apb acp answer`: `oracle` echoes each question's gold in ACPBench's answer format (for `just`
the release's gold is a removal, which no scorer accepts as an answer); `solver` (`apb.acp.solver`) computes the
answer from the question's PDDL and never reads the gold. Under apb's sound scorer the oracle scores 100% on
generated questions."""

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
        if not gold:
            return None
        return gold[0] if str(gold[0]).startswith("(") else f"({gold[0]})"  # reach atoms are stored bare
    if q.task == "just":
        if q.source == "apb" and q.gold.get("simplified"):
            return q.gold["simplified"][0]  # apb's full gold holds the shortened plans
        if gold and isinstance(gold[0], list):
            return gold[0]  # the release's gold is a removal: echoed as is
        return gold
    if q.task == "land":
        yes = gold.get("yes") if isinstance(gold, dict) else None
        return yes[0] if yes else None
    if q.task == "nexta":
        yes = gold.get("yes") if isinstance(gold, dict) else gold
        return yes[0] if yes else None
    return gold


def agent_answer(agent: str, q: Question) -> tuple[object, str] | None:
    """(answer, text as a model would write it) from the named agent, None when it has no answer."""
    from apb.acp.scorers import answer_text
    from apb.acp.solver import solve_question

    if agent == "solver":
        return solve_question(q)
    answer = oracle_answer(q)
    return answer, answer_text(q, answer)


AGENTS = ("oracle", "solver")

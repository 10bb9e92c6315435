"""The balancing rule of every ACP dataset apb hands a trainer or an evaluator: which gold the n-th question of a
group is made to have. Yes and no each once in every pair of consecutive numbers, the MCQ letters A..D each once in
every block of four, in a seeded order (so neither "the first is a yes" nor a fixed letter cycle): a constant answer
scores at chance for every size and seed. Generation (`apb.acp.generate`) is the one place that applies it; a
dataset that asks for one question per entry (reasoning-gym, GEM) passes the entry's index as the number."""

from __future__ import annotations

import random

from apb.acp.records import LABELS, question_id

YES_NO = ("yes", "no")


def target(fmt: str, number: int, seed: int) -> str | None:
    """The answer the `number`-th question of a group in format `fmt` is made to have: yes/no for bool, a letter for
    mcq, None for generative questions (their gold is a set, not a choice)."""
    if fmt == "bool":
        choices = YES_NO
    elif fmt == "mcq":
        choices = LABELS
    else:
        return None
    block, place = divmod(number, len(choices))
    order = list(choices)
    random.Random(question_id(seed, fmt, "balance", block)).shuffle(order)
    return order[place]

"""The balancing rule's check, shared by every adapter's test: a constant answer (each of yes and no, each of the
letters A..D) scores at chance on a dataset apb hands a trainer or an evaluator, never above."""

from __future__ import annotations

from collections.abc import Callable, Iterable

CONSTANTS = {"bool": ("yes", "no"), "mcq": ("A", "B", "C", "D")}
CHANCE = {"bool": 0.5, "mcq": 0.25}
TOLERANCE = 0.10  # the bound: within 10 points of chance over 200 entries
SEEDS = (0, 1, 2)
ENTRIES = 200


def constant_scores(fmt: str, entries: Iterable, score: Callable[[str, object], float]) -> dict[str, float]:
    """The mean score of each constant answer of the format over the entries."""
    entries = list(entries)
    assert entries
    return {answer: sum(float(score(answer, entry)) for entry in entries) / len(entries)
            for answer in CONSTANTS[fmt]}


def assert_at_chance(fmt: str, entries: Iterable, score: Callable[[str, object], float], what: str = "") -> None:
    """Every constant answer scores within TOLERANCE of chance."""
    scores = constant_scores(fmt, entries, score)
    off = {a: round(s, 3) for a, s in scores.items() if abs(s - CHANCE[fmt]) > TOLERANCE}
    assert not off, f"{what}: a constant answer is not at chance ({CHANCE[fmt]}): {off}"

"""Sets of fact ids as Python integers (bit i set: fact i), the representation of states, preconditions and
effects throughout the engine: `bit_mask(ids)` builds one, `bit_ids(mask)` lists its ids in ascending order."""

from __future__ import annotations

from collections.abc import Iterable


def bit_mask(ids: Iterable[int]) -> int:
    """The integer with exactly the bits of `ids` set."""
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


def bit_ids(mask: int) -> list[int]:
    """The set bits of `mask`, ascending: by lowest set bit for sparse masks, by scanning the binary digits for
    denser ones (fewer big-integer operations)."""
    if mask.bit_count() <= 12:
        ids = []
        while mask:
            low = mask & -mask
            ids.append(low.bit_length() - 1)
            mask ^= low
        return ids
    digits = bin(mask)[:1:-1]
    ids = []
    i = digits.find("1")
    while i >= 0:
        ids.append(i)
        i = digits.find("1", i + 1)
    return ids

"""A text space that accepts any printable text (Gymnasium's default `Text` charset has no spaces), its shared memory
for AsyncVectorEnv (so `gymnasium.make_vec(..., vectorization_mode="async")` returns the real text), and the integer
action-index check of discrete action spaces."""

from __future__ import annotations

import multiprocessing
import operator
import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.spaces import Sequence as SequenceSpace
from gymnasium.spaces import Text
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from apb.engine.errors import ApbError

# What `sample()` draws from: printable ASCII without the vertical tab and form feed.
SAMPLE_CHARSET = "".join(c for c in string.printable if c not in "\x0b\x0c\r")


def action_index(action: Any, size: int, who: str = "DiscreteActions") -> int:
    """An integer action index (a Python or numpy integer, or a one-element integer array) checked against
    0..size-1; anything else is an ApbError that says what to pass."""
    value = action
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype, np.integer):
        value = value.reshape(()).item()
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        shown = repr(action) if len(repr(action)) <= 60 else repr(action)[:57] + "..."
        hint = "; env.action_names lists the action of each index" if isinstance(action, str) else ""
        raise ApbError(f"{who} takes an integer action index 0-{size - 1}, got {shown} "
                       f"({type(action).__name__}){hint}")
    index = int(value)
    if not 0 <= index < size:
        raise ApbError(f"action index {index} is out of range 0-{size - 1}")
    return index


class PrintableText(Text):
    """Text of `min_length`..`max_length` characters; `contains` accepts every printable Unicode character plus
    newline and tab (object names and templates are not limited to ASCII), `sample` draws from ASCII."""

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, str) or not self.min_length <= len(x) <= self.max_length:
            return False
        return x.isprintable() or x.replace("\n", "").replace("\t", "").isprintable()

    def __repr__(self) -> str:
        return f"PrintableText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, PrintableText) and self.min_length == other.min_length
                and self.max_length == other.max_length)

    __hash__ = None  # mutable like every gymnasium space


class TextTuple(SequenceSpace):
    """A tuple of one-line printable texts with at most `max_chars` characters in all (each plus one): a Sequence
    of PrintableText whose bounded size lets AsyncVectorEnv share it (LiteralObservations' fields)."""

    def __init__(self, max_length: int, max_chars: int, seed: Any = None) -> None:
        super().__init__(PrintableText(max_length), seed=seed)
        self.max_chars = max_chars

    def contains(self, x: Any) -> bool:
        return (super().contains(x) and sum(len(t) + 1 for t in x) <= self.max_chars
                and not any("\n" in t for t in x))

    def __repr__(self) -> str:
        return f"TextTuple({self.feature_space.max_length}, {self.max_chars})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, TextTuple) and self.max_chars == other.max_chars
                and self.feature_space == other.feature_space)

    __hash__ = None


class SharedTexts(Sequence):
    """The values of a vector env's shared-memory buffer, decoded on access (Gymnasium deep-copies it into a
    plain tuple unless the vector env is made with `copy=False`, when this live view is returned)."""

    def __init__(self, shared_memory: Any, n: int, max_length: int, lines: bool = False) -> None:
        self._memory = shared_memory
        self._n = n
        self._size = max_length + 1
        self._lines = lines  # a TextTuple: each text is stored with a newline after it

    def _text(self, index: int) -> str | tuple[str, ...]:
        buffer = np.frombuffer(self._memory.get_obj(), dtype=np.int32)
        start = index * self._size
        length = int(buffer[start])
        text = buffer[start + 1:start + 1 + length].tobytes().decode("utf-32-le", "surrogatepass")
        return tuple(text.split("\n")[:-1]) if self._lines else text

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self._text(i) for i in range(*index.indices(self._n)))
        i = operator.index(index)
        if not -self._n <= i < self._n:
            raise IndexError(f"index {i} is out of range for {self._n} envs")
        return self._text(i % self._n)

    def __len__(self) -> int:
        return self._n

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, tuple | SharedTexts) and tuple(self) == tuple(other)

    __hash__ = None

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __copy__(self) -> tuple:
        return tuple(self)

    def __deepcopy__(self, memo: dict) -> tuple:
        return tuple(self)

    def __reduce__(self):
        return tuple, (tuple(self),)


# Gymnasium's shared memory for `Text` stores character indices into the sample charset and reads the buffer
# once, so AsyncVectorEnv (shared_memory=True, its default) returned strings of '0'; a Sequence cannot be shared at
# all. PrintableText and TextTuple register their own: per env a length slot and up to `size` UTF-32 code points
# (a TextTuple's texts each followed by a newline), decoded on every access.
def _size(space: PrintableText | TextTuple) -> int:
    return space.max_chars if isinstance(space, TextTuple) else space.max_length


@create_shared_memory.register(PrintableText)
@create_shared_memory.register(TextTuple)
def _create_shared_text(space: PrintableText | TextTuple, n: int = 1, ctx: Any = multiprocessing) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * (_size(space) + 1))


@read_from_shared_memory.register(PrintableText)
@read_from_shared_memory.register(TextTuple)
def _read_shared_text(space: PrintableText | TextTuple, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(shared_memory, n, _size(space), lines=isinstance(space, TextTuple))


@write_to_shared_memory.register(PrintableText)
@write_to_shared_memory.register(TextTuple)
def _write_shared_text(space: PrintableText | TextTuple, index: int, value: Any, shared_memory: Any) -> None:
    size = _size(space)
    text = "".join(f"{t}\n" for t in value) if isinstance(space, TextTuple) else str(value)
    if isinstance(space, TextTuple) and len(text) > size:
        raise ApbError(f"{len(value)} texts of {len(text)} characters do not fit {space!r}")
    codes = np.frombuffer(text[:size].encode("utf-32-le", "surrogatepass"), dtype=np.int32)
    buffer = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    start = index * (size + 1)
    buffer[start] = len(codes)
    buffer[start + 1:start + 1 + len(codes)] = codes

"""A picture as data: a list of shapes on a canvas, drawn both to SVG text (apb.envs.pictures.svg) and to an
H×W×3 uint8 array (apb.envs.pictures.raster), so the report and `render_mode="rgb_array"` show the same drawing.

Shapes carry the objects they show (`objects`), so a caller can highlight every shape of an object the last action
changed or a failed action lacked without the domain drawers knowing about highlights.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (30, 30, 30)
GREY: Colour = (150, 150, 150)
LIGHT: Colour = (235, 235, 235)
CHANGED: Colour = (255, 140, 0)   # what the last action changed
MISSING: Colour = (220, 30, 30)   # what a failed action needed
GOAL: Colour = (40, 150, 60)
# Fills for kinds of objects, picked by a stable index (a type's position in the domain), never by a hash of the
# name (Python salts str hashes per process, and pictures must be the same in every run).
PALETTE: tuple[Colour, ...] = ((91, 155, 213), (237, 125, 49), (112, 173, 71), (255, 192, 0), (165, 105, 189),
                               (68, 114, 196), (38, 166, 154), (233, 113, 160), (158, 72, 14), (99, 99, 99))

CHAR_W, CHAR_H = 6, 8  # one glyph cell of the bitmap font at scale 1 (5×7 glyph plus spacing)


def palette(index: int) -> Colour:
    return PALETTE[index % len(PALETTE)]


def text_width(text: str, size: int = 1) -> int:
    return len(text) * CHAR_W * size


def clip(text: str, width: int, size: int = 1) -> str:
    """`text` cut to fit `width` pixels, with a trailing '~' when cut."""
    room = max(1, width // (CHAR_W * size))
    return text if len(text) <= room else text[: max(0, room - 1)] + "~"


def wrap(text: str, width: int, size: int = 1) -> list[str]:
    """`text` in lines that fit `width` pixels, broken between words and never inside a parenthesised fact
    (`(on a b)` stays whole when it fits a line; a longer one is split across lines, never cut)."""
    room = max(1, width // (CHAR_W * size))
    units, current, depth = [], "", 0
    for word in text.split():
        current = f"{current} {word}" if current else word
        depth += word.count("(") - word.count(")")
        if depth <= 0:
            units.append(current)
            current, depth = "", 0
    if current:
        units.append(current)
    lines: list[str] = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) <= room:
            line = f"{line} {unit}"
            continue
        if line:
            lines.append(line)
        while len(unit) > room:
            lines.append(unit[:room])
            unit = unit[room:]
        line = unit
    if line:
        lines.append(line)
    return lines


@dataclass(slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = WHITE
    stroke: Colour | None = BLACK
    width: int = 1
    objects: tuple[str, ...] = ()


@dataclass(slots=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: Colour | None = WHITE
    stroke: Colour | None = BLACK
    width: int = 1
    objects: tuple[str, ...] = ()


@dataclass(slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = BLACK
    width: int = 1
    objects: tuple[str, ...] = ()
    arrow: bool = False


@dataclass(slots=True)
class Text:
    x: float          # left edge
    y: float          # top edge
    text: str
    colour: Colour = BLACK
    size: int = 1     # scale of the 6×8 font cell
    objects: tuple[str, ...] = ()


Shape = Rect | Circle | Line | Text


@dataclass
class Scene:
    """A canvas of `width`×`height` pixels and its shapes, drawn in order (later shapes on top)."""

    width: int
    height: int
    shapes: list[Shape] = field(default_factory=list)
    background: Colour = WHITE
    title: str = ""

    def add(self, shape: Shape) -> Shape:
        self.shapes.append(shape)
        return shape

    def rect(self, x, y, w, h, fill=WHITE, stroke=BLACK, width=1, objects=()) -> Rect:
        return self.add(Rect(x, y, w, h, fill, stroke, width, tuple(objects)))

    def circle(self, cx, cy, r, fill=WHITE, stroke=BLACK, width=1, objects=()) -> Circle:
        return self.add(Circle(cx, cy, r, fill, stroke, width, tuple(objects)))

    def line(self, x1, y1, x2, y2, stroke=BLACK, width=1, objects=(), arrow=False) -> Line:
        return self.add(Line(x1, y1, x2, y2, stroke, width, tuple(objects), arrow))

    def text(self, x, y, text, colour=BLACK, size=1, objects=(), max_width: float | None = None) -> Text:
        if max_width is not None:
            text = clip(text, int(max_width), size)
        return self.add(Text(x, y, text, colour, size, tuple(objects)))

    def label(self, cx, y, text, colour=BLACK, size=1, objects=(), max_width: float | None = None) -> Text:
        """Text centred on `cx`."""
        if max_width is not None:
            text = clip(text, int(max_width), size)
        return self.add(Text(cx - text_width(text, size) / 2, y, text, colour, size, tuple(objects)))

"""A Scene rasterised to an H×W×3 uint8 numpy array with numpy only (no imaging library): filled and outlined
rectangles and circles, thick lines (with arrow heads) and text in apb's own 5×7 bitmap font."""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources

import numpy as np

from apb.envs.pictures.scene import CHAR_H, CHAR_W, Circle, Line, Rect, Scene, Text


@lru_cache(maxsize=1)
def _glyphs() -> dict[str, np.ndarray]:
    """Each character of font5x7.txt as a 7×5 boolean array."""
    text = resources.files("apb.envs.pictures").joinpath("font5x7.txt").read_text(encoding="utf-8")
    glyphs = {" ": np.zeros((7, 5), dtype=bool)}
    for line in text.splitlines():
        if not line.strip() or line.startswith("# "):
            continue
        char, *rows = line.split(" ")
        glyphs[char] = np.array([[c == "#" for c in row] for row in rows], dtype=bool)
    return glyphs


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int) -> np.ndarray:
    """The pixels of `text` (one line) at `size`, as a boolean array of CHAR_H*size × len*CHAR_W*size."""
    glyphs = _glyphs()
    mask = np.zeros((CHAR_H, CHAR_W * len(text)), dtype=bool)
    for i, char in enumerate(text.upper()):
        glyph = glyphs.get(char)
        if glyph is None:
            glyph = glyphs["?"]
        mask[0:7, i * CHAR_W: i * CHAR_W + 5] = glyph
    if size > 1:
        mask = mask.repeat(size, axis=0).repeat(size, axis=1)
    return mask


def _clip_box(canvas: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    h, w = canvas.shape[:2]
    return (max(0, min(w, round(x0))), max(0, min(h, round(y0))),
            max(0, min(w, round(x1))), max(0, min(h, round(y1))))


def _rect(canvas: np.ndarray, s: Rect) -> None:
    x0, y0, x1, y1 = _clip_box(canvas, s.x, s.y, s.x + s.w, s.y + s.h)
    if x1 <= x0 or y1 <= y0:
        return
    if s.fill is not None:
        canvas[y0:y1, x0:x1] = s.fill
    if s.stroke is not None and s.width > 0:
        t = s.width
        canvas[y0:min(y1, y0 + t), x0:x1] = s.stroke
        canvas[max(y0, y1 - t):y1, x0:x1] = s.stroke
        canvas[y0:y1, x0:min(x1, x0 + t)] = s.stroke
        canvas[y0:y1, max(x0, x1 - t):x1] = s.stroke


def _circle(canvas: np.ndarray, s: Circle) -> None:
    x0, y0, x1, y1 = _clip_box(canvas, s.cx - s.r - 1, s.cy - s.r - 1, s.cx + s.r + 2, s.cy + s.r + 2)
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.ogrid[y0:y1, x0:x1]
    d = np.sqrt((xs + 0.5 - s.cx) ** 2 + (ys + 0.5 - s.cy) ** 2)
    region = canvas[y0:y1, x0:x1]
    if s.fill is not None:
        region[d <= s.r] = s.fill
    if s.stroke is not None and s.width > 0:
        region[(d <= s.r) & (d > s.r - s.width)] = s.stroke


def _segments(canvas: np.ndarray, ends: np.ndarray, colour, width: float) -> None:
    """Straight segments (rows of x1, y1, x2, y2) `width` pixels thick, all at once: squares stamped at one-pixel
    steps along each (cost ∝ total length, not the area of bounding boxes: long edges stay cheap)."""
    h, w = canvas.shape[:2]
    ax, ay, bx, by = ends.T
    steps = (np.maximum(np.abs(bx - ax), np.abs(by - ay))).astype(np.int64) + 1
    starts = np.repeat(np.cumsum(steps) - steps, steps)
    t = (np.arange(int(steps.sum())) - starts) / np.repeat(np.maximum(steps - 1, 1), steps)
    xs = np.floor(np.repeat(ax, steps) + t * np.repeat(bx - ax, steps)).astype(np.int64)
    ys = np.floor(np.repeat(ay, steps) + t * np.repeat(by - ay, steps)).astype(np.int64)
    thick = max(1, int(width))
    low = -(thick // 2)
    for dy in range(low, low + thick):
        for dx in range(low, low + thick):
            px, py = xs + dx, ys + dy
            keep = (px >= 0) & (px < w) & (py >= 0) & (py < h)
            canvas[py[keep], px[keep]] = colour


def _line_ends(s: Line) -> list[tuple[float, float, float, float]]:
    """The segments of a line: itself, and the two strokes of its arrow head."""
    ends = [(s.x1, s.y1, s.x2, s.y2)]
    if s.arrow:
        angle = math.atan2(s.y2 - s.y1, s.x2 - s.x1)
        ends += [(s.x2, s.y2, s.x2 - 8 * math.cos(angle + side), s.y2 - 8 * math.sin(angle + side))
                 for side in (-0.45, 0.45)]
    return ends


def _text(canvas: np.ndarray, s: Text) -> None:
    if not s.text:
        return
    mask = _text_mask(s.text, s.size)
    x, y = round(s.x), round(s.y)
    h, w = canvas.shape[:2]
    mx0, my0 = max(0, -x), max(0, -y)
    mx1, my1 = min(mask.shape[1], w - x), min(mask.shape[0], h - y)
    if mx1 <= mx0 or my1 <= my0:
        return
    canvas[y + my0:y + my1, x + mx0:x + mx1][mask[my0:my1, mx0:mx1]] = s.colour


_DRAW = {Rect: _rect, Circle: _circle, Text: _text}


def to_array(scene: Scene) -> np.ndarray:
    """The scene as an H×W×3 uint8 array (a fresh array on every call). Consecutive lines of one colour and width
    are drawn in one batch (the same pixels as one by one: they are all the same colour)."""
    canvas = np.empty((scene.height, scene.width, 3), dtype=np.uint8)
    canvas[:] = scene.background
    shapes = scene.shapes
    i = 0
    while i < len(shapes):
        shape = shapes[i]
        if type(shape) is Line:
            ends: list = []
            j = i
            while j < len(shapes) and type(shapes[j]) is Line and shapes[j].stroke == shape.stroke \
                    and shapes[j].width == shape.width:
                ends += _line_ends(shapes[j])
                j += 1
            _segments(canvas, np.array(ends, dtype=np.float64), shape.stroke, shape.width)
            i = j
            continue
        _DRAW[type(shape)](canvas, shape)
        i += 1
    return canvas

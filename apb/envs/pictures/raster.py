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


def _segment(canvas: np.ndarray, ax: float, ay: float, bx: float, by: float, colour, width: float) -> None:
    """A straight segment `width` pixels thick: squares stamped at one-pixel steps along it (cost ∝ length, not
    the area of its bounding box: long edges of the generic graph stay cheap)."""
    h, w = canvas.shape[:2]
    steps = int(max(abs(bx - ax), abs(by - ay))) + 1
    xs = np.floor(np.linspace(ax, bx, steps)).astype(np.int64)
    ys = np.floor(np.linspace(ay, by, steps)).astype(np.int64)
    low = -(int(width) // 2)
    for dy in range(low, low + max(1, int(width))):
        for dx in range(low, low + max(1, int(width))):
            px, py = xs + dx, ys + dy
            keep = (px >= 0) & (px < w) & (py >= 0) & (py < h)
            canvas[py[keep], px[keep]] = colour


def _line(canvas: np.ndarray, s: Line) -> None:
    _segment(canvas, s.x1, s.y1, s.x2, s.y2, s.stroke, s.width)
    if s.arrow:
        angle = math.atan2(s.y2 - s.y1, s.x2 - s.x1)
        for side in (-0.45, 0.45):
            hx = s.x2 - 8 * math.cos(angle + side)
            hy = s.y2 - 8 * math.sin(angle + side)
            _segment(canvas, s.x2, s.y2, hx, hy, s.stroke, s.width)


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


_DRAW = {Rect: _rect, Circle: _circle, Line: _line, Text: _text}


def to_array(scene: Scene) -> np.ndarray:
    """The scene as an H×W×3 uint8 array (a fresh array on every call)."""
    canvas = np.empty((scene.height, scene.width, 3), dtype=np.uint8)
    canvas[:] = scene.background
    for shape in scene.shapes:
        _DRAW[type(shape)](canvas, shape)
    return canvas

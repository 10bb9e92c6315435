"""A Scene as SVG text (self-contained: no fonts or images to fetch), the same drawing as the raster."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from apb.envs.pictures.scene import CHAR_H, CHAR_W, Circle, Colour, Line, Rect, Scene, Text


def _c(colour: Colour | None) -> str:
    return "none" if colour is None else "#{:02x}{:02x}{:02x}".format(*colour)


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _objects(shape) -> str:
    return f" data-objects='{escape(' '.join(shape.objects))}'" if shape.objects else ""


def _shape(shape) -> str:
    if isinstance(shape, Rect):
        return (f"<rect x='{_n(shape.x)}' y='{_n(shape.y)}' width='{_n(shape.w)}' height='{_n(shape.h)}' "
                f"fill='{_c(shape.fill)}' stroke='{_c(shape.stroke)}' stroke-width='{shape.width}'"
                f"{_objects(shape)}/>")
    if isinstance(shape, Circle):
        return (f"<circle cx='{_n(shape.cx)}' cy='{_n(shape.cy)}' r='{_n(shape.r)}' fill='{_c(shape.fill)}' "
                f"stroke='{_c(shape.stroke)}' stroke-width='{shape.width}'{_objects(shape)}/>")
    if isinstance(shape, Line):
        parts = [f"<line x1='{_n(shape.x1)}' y1='{_n(shape.y1)}' x2='{_n(shape.x2)}' y2='{_n(shape.y2)}' "
                 f"stroke='{_c(shape.stroke)}' stroke-width='{shape.width}'{_objects(shape)}/>"]
        if shape.arrow:
            angle = math.atan2(shape.y2 - shape.y1, shape.x2 - shape.x1)
            points = [(shape.x2, shape.y2)] + [(shape.x2 - 8 * math.cos(angle + s), shape.y2 - 8 * math.sin(angle + s))
                                               for s in (-0.45, 0.45)]
            parts.append(f"<polygon points='{' '.join(f'{_n(x)},{_n(y)}' for x, y in points)}' "
                         f"fill='{_c(shape.stroke)}'/>")
        return "".join(parts)
    if isinstance(shape, Text):
        size = CHAR_H * shape.size
        width = CHAR_W * shape.size * len(shape.text)
        return (f"<text x='{_n(shape.x)}' y='{_n(shape.y + 7 * shape.size)}' font-size='{size + 1}' "
                f"textLength='{width}' lengthAdjust='spacingAndGlyphs' fill='{_c(shape.colour)}'"
                f"{_objects(shape)}>{escape(shape.text)}</text>")
    raise TypeError(f"not a shape: {shape!r}")


def to_svg(scene: Scene) -> str:
    """The scene as one <svg> element (text), sized in pixels like the raster."""
    title = f"<title>{escape(scene.title)}</title>" if scene.title else ""
    body = "".join(_shape(s) for s in scene.shapes)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{scene.width}' height='{scene.height}' "
            f"viewBox='0 0 {scene.width} {scene.height}' font-family='monospace' role='img'>{title}"
            f"<rect width='100%' height='100%' fill='{_c(scene.background)}'/>{body}</svg>")

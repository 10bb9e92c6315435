"""Pictures of states: `render_mode="rgb_array"` (an H×W×3 uint8 array) and the SVG of the same drawing.

A drawer turns a state into a Scene (shapes: apb.envs.pictures.scene); the Scene is drawn to SVG text
(apb.envs.pictures.svg) or rasterised with numpy alone (apb.envs.pictures.raster, its own 5×7 bitmap font), so a
core install draws without an imaging library. Bundled domains have their own drawers (apb.envs.pictures.drawers);
any other PDDL gets the generic graph (apb.envs.pictures.generic).
"""

from apb.envs.pictures.painter import LastStep, Painter
from apb.envs.pictures.raster import to_array
from apb.envs.pictures.scene import Scene
from apb.envs.pictures.svg import to_svg

__all__ = ["LastStep", "Painter", "Scene", "to_array", "to_svg"]

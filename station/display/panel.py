"""The display panel as data: physical size, resolution, viewing distance. Pure.

Every readability figure is computed from a `PanelConfig`: a size in millimetres on the glass is a
number of pixels times the pixel pitch, and the visual angle follows from the viewing distance.
Pixels need not be square (many 7" 800x480 panels are not), so each axis has its own pitch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

DESIGN_DISTANCE_MM = 800.0  # the product's design viewing distance (standards-ux requirement 24)


@dataclass(frozen=True, slots=True)
class PanelConfig:
    """One display panel: the active area in mm and in pixels, and how far the dealer sits."""

    width_mm: float
    height_mm: float
    width_px: int
    height_px: int
    viewing_distance_mm: float = DESIGN_DISTANCE_MM
    name: str = ""

    def __post_init__(self) -> None:
        if min(self.width_mm, self.height_mm, self.viewing_distance_mm) <= 0:
            raise ValueError(f"panel {self.name!r}: sizes and distance must be positive")
        if min(self.width_px, self.height_px) <= 0:
            raise ValueError(f"panel {self.name!r}: resolution must be positive")

    @property
    def pitch_x_mm(self) -> float:
        """Millimetres per pixel, horizontally."""
        return self.width_mm / self.width_px

    @property
    def pitch_y_mm(self) -> float:
        """Millimetres per pixel, vertically (what a cap height is measured in)."""
        return self.height_mm / self.height_px

    def x_mm(self, px: float) -> float:
        return px * self.pitch_x_mm

    def y_mm(self, px: float) -> float:
        return px * self.pitch_y_mm

    def px_x(self, mm: float) -> int:
        """The fewest whole pixels that span at least `mm` horizontally."""
        return math.ceil(mm / self.pitch_x_mm - 1e-9)

    def px_y(self, mm: float) -> int:
        """The fewest whole pixels that span at least `mm` vertically."""
        return math.ceil(mm / self.pitch_y_mm - 1e-9)

    def scaled_mm(self, mm_at_design_distance: float) -> float:
        """A height specified at 80 cm, scaled to this panel's viewing distance (same angle)."""
        return mm_at_design_distance * self.viewing_distance_mm / DESIGN_DISTANCE_MM

    def arcmin(self, height_mm: float) -> float:
        """The visual angle of a height on the glass, in minutes of arc."""
        return math.degrees(2 * math.atan(height_mm / (2 * self.viewing_distance_mm))) * 60


# The common 10.1" 1280x800 IPS panel (active area about 217 x 136 mm): the product default.
PANEL_10_1 = PanelConfig(217.0, 136.0, 1280, 800, name='10.1" 1280x800')
# The official-style 7" 800x480 panel (about 154 x 86 mm): pixels are not square.
PANEL_7 = PanelConfig(154.0, 86.0, 800, 480, name='7" 800x480')

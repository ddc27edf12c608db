"""A builder for screen models: places text that fits, wraps it, records what did not. Pure.

Widths come from `fontmetrics` (never smaller than the real rendered width), so a text the
canvas accepted fits on the glass. A text that cannot fit is shortened with an ellipsis and
recorded in `clipped`; a block left out is recorded in `dropped`; tests require both empty.
"""

from __future__ import annotations

from station.display.colour import Colour
from station.display.fontmetrics import cap_px, text_width
from station.display.model import (
    Align,
    Box,
    CardFace,
    Item,
    Rect,
    ScreenModel,
    Shape,
    Suit,
    Target,
    Text,
)
from station.display.panel import PanelConfig
from station.display.theme import Edge, Style, TextRole, Theme


class Canvas:
    def __init__(self, screen: str, panel: PanelConfig, theme: Theme) -> None:
        self.screen = screen
        self.panel = panel
        self.theme = theme
        self.items: list[Item] = []
        self.targets: list[Target] = []
        self.clipped: list[str] = []
        self.dropped: list[str] = []

    # sizes --------------------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.panel.width_px

    @property
    def height(self) -> int:
        return self.panel.height_px

    def size(self, role: TextRole) -> int:
        return self.theme.font_px(role, self.panel)

    def cap(self, role: TextRole) -> int:
        return cap_px(self.size(role))

    def row(self, role: TextRole) -> int:
        return self.theme.row_px(role, self.panel)

    def measure(self, text: str, role: TextRole) -> int:
        return text_width(text, self.size(role))

    def fits(self, text: str, role: TextRole, width: int) -> bool:
        return self.measure(text, role) <= width

    def mm_x(self, mm: float) -> int:
        return self.panel.px_x(mm)

    def mm_y(self, mm: float) -> int:
        return self.panel.px_y(mm)

    @property
    def pad(self) -> int:
        """The standard gap: about 1.5 mm."""
        return self.mm_y(1.5)

    # drawing ------------------------------------------------------------------------------
    def box(
        self,
        rect: Rect,
        style: Style | None = None,
        edge: Edge | None = None,
        width: int = 0,
        shape: Shape = Shape.RECT,
    ) -> Rect:
        fill = self.theme.pair(style).bg if style is not None else None
        outline = self.theme.edges[edge] if edge is not None else None
        self.items.append(Box(rect, fill, outline, width if outline is not None else 0, shape))
        return rect

    def text(
        self,
        rect: Rect,
        text: str,
        role: TextRole = TextRole.TEXT,
        style: Style = Style.BASE,
        align: Align = Align.LEFT,
        key: bool = False,
    ) -> bool:
        """Place one line; returns False (and records it) when it had to be shortened."""
        size = self.size(role)
        ok = text_width(text, size) <= rect.w
        shown = text
        if not ok:
            self.clipped.append(f"{self.screen}: {text!r} in {rect.w}px")
            while shown and text_width(shown + "…", size) > rect.w:
                shown = shown[:-1]
            shown = shown.rstrip() + "…" if shown else ""
        self.items.append(Text(rect, shown, role, size, style, align, key))
        return ok

    def card(self, rect: Rect, rank: str, suit: Suit, role: TextRole = TextRole.KEY) -> None:
        self.items.append(CardFace(rect, rank, suit, self.size(role)))

    def target(self, rect: Rect, action: str) -> None:
        self.targets.append(Target(rect, action))

    def button(
        self,
        rect: Rect,
        label: str,
        action: str,
        style: Style = Style.BASE,
        edge: Edge = Edge.BUTTON,
    ) -> None:
        """A touch button: outlined box, centred label, hit target."""
        self.box(rect, style, edge, max(2, self.mm_y(0.6)), Shape.ROUNDED)
        self.text(rect.inset(self.pad // 2, 0), label, TextRole.TEXT, style, Align.CENTER)
        self.target(rect, action)

    def drop(self, what: str) -> None:
        self.dropped.append(f"{self.screen}: {what}")

    # text flow ----------------------------------------------------------------------------
    def wrap(self, text: str, role: TextRole, width: int) -> list[str]:
        """Greedy word wrap; a word longer than the width stays whole (and will be clipped)."""
        lines: list[str] = []
        line = ""
        for word in text.split():
            candidate = f"{line} {word}" if line else word
            if line and not self.fits(candidate, role, width):
                lines.append(line)
                line = word
            else:
                line = candidate
        if line:
            lines.append(line)
        return lines or [""]

    def paragraph(
        self,
        rect: Rect,
        text: str,
        role: TextRole = TextRole.TEXT,
        style: Style = Style.BASE,
        max_lines: int | None = None,
    ) -> int:
        """Wrapped text from the top of `rect`; returns the height used."""
        row = self.row(role)
        lines = self.wrap(text, role, rect.w)
        room = max(0, rect.h // row)
        limit = room if max_lines is None else min(room, max_lines)
        if len(lines) > limit:
            if limit == 0:
                self.drop(text)
                return 0
            kept = [*lines[: limit - 1], " ".join(lines[limit - 1 :])]
            lines = kept
        for i, line in enumerate(lines):
            self.text(Rect(rect.x, rect.y + i * row, rect.w, row), line, role, style)
        return len(lines) * row

    def model(self, background: Colour | None = None) -> ScreenModel:
        return ScreenModel(
            self.screen,
            self.width,
            self.height,
            background if background is not None else self.theme.background,
            tuple(self.items),
            tuple(self.targets),
            tuple(self.clipped),
            tuple(self.dropped),
        )

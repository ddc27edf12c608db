"""The pygame-ce painter: draws a screen model on a surface, writes PNGs. Edge adapter.

This is the only module that imports pygame at its top; `station.display` imports it lazily
(from the render thread or `render_png`), so importing the package stays light. It makes no
layout decision: every position and size comes from the pure screen model.
"""

from __future__ import annotations

import os
import struct
import zlib

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import pygame

from station.display import card_face
from station.display.colour import Colour, rgb
from station.display.fontmetrics import ascent_px, cap_px
from station.display.model import Align, Box, CardFace, Rect, ScreenModel, Shape, Suit, Text
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, Theme
from station.output import Guard, write_output


def font_path(theme: Theme = DEFAULT_THEME) -> str:
    """The font file the display renders with: pygame-ce's bundled FreeSans Bold."""
    return os.path.join(os.path.dirname(pygame.__file__), theme.font_file)


class Painter:
    """Paints screen models; keeps one pygame Font per size and the images of the texts it
    drew lately (a frame repeats most of the last one's texts: rendering a text with
    anti-aliasing is most of a frame's cost, blitting a kept image a small part)."""

    KEPT_TEXTS = 2048  # images kept before the cache starts again (a few MB at most)

    def __init__(self, theme: Theme = DEFAULT_THEME) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.theme = theme
        self._fonts: dict[int, pygame.font.Font] = {}
        self._images: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}

    def font(self, size: int) -> pygame.font.Font:
        f = self._fonts.get(size)
        if f is None:
            f = pygame.font.Font(font_path(self.theme), size)
            self._fonts[size] = f
        return f

    def rendered(self, text: str, size: int, fg: tuple[int, int, int]) -> pygame.Surface:
        """The anti-aliased image of `text` at `size` in `fg` (kept: never drawn on)."""
        key = (text, size, fg)
        img = self._images.get(key)
        if img is None:
            if len(self._images) >= self.KEPT_TEXTS:
                self._images.clear()
            img = self._images[key] = self.font(size).render(text, True, fg)
        return img

    def paint(self, surface: pygame.Surface, model: ScreenModel) -> None:
        surface.fill(rgb(model.background))
        for item in model.items:
            match item:
                case Box():
                    self._box(surface, item)
                case Text():
                    self._text(surface, item)
                case CardFace():
                    self._card(surface, item)

    # primitives ---------------------------------------------------------------------------
    def _box(self, surface: pygame.Surface, box: Box) -> None:
        r = _rect(box.rect)
        radius = {Shape.ROUNDED: max(4, box.rect.h // 6), Shape.CHIP: box.rect.h // 2}.get(
            box.shape, 0
        )
        if box.shape in (Shape.DISC, Shape.ELLIPSE):
            if box.fill is not None:
                pygame.draw.ellipse(surface, rgb(box.fill), r)
            if box.outline is not None and box.width:
                pygame.draw.ellipse(surface, rgb(box.outline), r, box.width)
            return
        if box.shape is Shape.STADIUM:
            radius = min(box.rect.w, box.rect.h) // 2
        if box.shape is Shape.OCTAGON:
            points = _octagon(box.rect)
            if box.fill is not None:
                pygame.draw.polygon(surface, rgb(box.fill), points)
            if box.outline is not None and box.width:
                pygame.draw.polygon(surface, rgb(box.outline), points, box.width)
            return
        if box.fill is not None:
            pygame.draw.rect(surface, rgb(box.fill), r, border_radius=radius)
        if box.outline is None or not box.width:
            return
        if box.shape is Shape.DASHED:
            _dashed(surface, box.rect, rgb(box.outline), box.width)
            return
        pygame.draw.rect(surface, rgb(box.outline), r, box.width, border_radius=radius)
        if box.shape is Shape.CHIP:  # a chip at the left end: ring with a notched edge
            cx, cy, rad = (
                box.rect.x + box.rect.h // 2,
                box.rect.y + box.rect.h // 2,
                box.rect.h // 3,
            )
            pygame.draw.circle(surface, rgb(box.outline), (cx, cy), rad, max(2, rad // 3))
            pygame.draw.circle(surface, rgb(box.outline), (cx, cy), max(2, rad // 3))

    def _text(self, surface: pygame.Surface, text: Text) -> None:
        if not text.text:
            return
        pair = self.theme.pair(text.style)
        img = self.rendered(text.text, text.size, rgb(pair.fg))
        x = text.rect.x
        if text.align is Align.CENTER:
            x = text.rect.x + (text.rect.w - img.get_width()) // 2
        elif text.align is Align.RIGHT:
            x = text.rect.right - img.get_width()
        baseline = text.rect.y + (text.rect.h + cap_px(text.size)) // 2
        surface.blit(img, (x, baseline - ascent_px(text.size)))

    def _card(self, surface: pygame.Surface, card: CardFace) -> None:
        r = card.rect
        radius = max(3, r.w // 10)
        pygame.draw.rect(surface, rgb(Colour.WHITE), _rect(r), border_radius=radius)
        pygame.draw.rect(surface, rgb(Colour.GREY), _rect(r), 2, border_radius=radius)
        img = self.rendered(card.rank, card.size, rgb(card.ink))  # the index in the suit's ink
        rank, suit = card_face.parts(card)
        baseline = rank.y + rank.h  # the capitals fill the rank's box
        x = rank.x if card.wide else rank.x + (rank.w - img.get_width()) // 2
        surface.blit(img, (x, baseline - ascent_px(card.size)))
        cx, cy = suit.center
        _suit(surface, card.suit, cx, cy, suit.h / 2, rgb(card.ink))


def _rect(r: Rect) -> pygame.Rect:
    return pygame.Rect(r.x, r.y, r.w, r.h)


def _octagon(r: Rect) -> list[tuple[float, float]]:
    cut = min(r.w, r.h) * 0.29
    return [
        (r.x + cut, r.y), (r.right - cut, r.y), (r.right, r.y + cut), (r.right, r.bottom - cut),
        (r.right - cut, r.bottom), (r.x + cut, r.bottom), (r.x, r.bottom - cut), (r.x, r.y + cut),
    ]  # fmt: skip


def _dashed(surface: pygame.Surface, r: Rect, colour: tuple[int, int, int], width: int) -> None:
    dash = max(6, width * 4)
    for x0 in range(r.x, r.right, 2 * dash):
        x1 = min(x0 + dash, r.right)
        pygame.draw.line(surface, colour, (x0, r.y), (x1, r.y), width)
        pygame.draw.line(surface, colour, (x0, r.bottom - 1), (x1, r.bottom - 1), width)
    for y0 in range(r.y, r.bottom, 2 * dash):
        y1 = min(y0 + dash, r.bottom)
        pygame.draw.line(surface, colour, (r.x, y0), (r.x, y1), width)
        pygame.draw.line(surface, colour, (r.right - 1, y0), (r.right - 1, y1), width)


def _suit(
    surface: pygame.Surface,
    suit: Suit,
    cx: float,
    cy: float,
    s: float,
    colour: tuple[int, int, int],
) -> None:
    """A suit symbol as a shape (the bundled font has no suit glyphs), half-size `s`."""
    if s < 2:
        return
    if suit is Suit.DIAMONDS:
        pygame.draw.polygon(
            surface, colour, [(cx, cy - s), (cx + 0.75 * s, cy), (cx, cy + s), (cx - 0.75 * s, cy)]
        )
        return
    lobe = s * 0.52
    if suit is Suit.HEARTS:
        for dx in (-lobe, lobe):
            pygame.draw.circle(surface, colour, (cx + dx * 0.95, cy - s * 0.35), lobe)
        pygame.draw.polygon(
            surface, colour, [(cx - s, cy - s * 0.25), (cx + s, cy - s * 0.25), (cx, cy + s)]
        )
        return
    stem = [(cx, cy), (cx - s * 0.4, cy + s), (cx + s * 0.4, cy + s)]
    pygame.draw.polygon(surface, colour, stem)
    if suit is Suit.SPADES:
        for dx in (-lobe, lobe):
            pygame.draw.circle(surface, colour, (cx + dx * 0.95, cy + s * 0.2), lobe)
        pygame.draw.polygon(
            surface, colour, [(cx - s, cy + s * 0.1), (cx + s, cy + s * 0.1), (cx, cy - s)]
        )
        return
    r = s * 0.44
    for ox, oy in ((0.0, -0.5), (-0.5, 0.15), (0.5, 0.15)):
        pygame.draw.circle(surface, colour, (cx + ox * s, cy + oy * s), r)
    pygame.draw.circle(surface, colour, (cx, cy), r * 0.6)


def render_surface(model: ScreenModel, painter: Painter | None = None) -> pygame.Surface:
    surface = pygame.Surface((model.width, model.height))
    (painter or Painter()).paint(surface, model)
    return surface


PNG_LEVEL = 1  # zlib's fastest: files about 25% larger than SDL's, written in half the time


def png_bytes(surface: pygame.Surface, level: int = PNG_LEVEL) -> bytes:
    """`surface` as an 8-bit RGB PNG (no filter, zlib at `level`). SDL's own PNG writer has no
    compression setting: a 10.1" frame took 38 ms there, 20 ms here (half of it is the pixels'
    copy), and the demo and `replay --frames` write hundreds of frames."""
    width, height = surface.get_size()
    stride = width * 3
    pixels = pygame.image.tobytes(surface, "RGB")
    rows = b"".join(b"\x00" + pixels[y : y + stride] for y in range(0, stride * height, stride))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rows, level)),
            chunk(b"IEND", b""),
        )
    )


def render_png(
    model: ScreenModel,
    path: str | Path,
    panel: PanelConfig | None = None,
    theme: Theme = DEFAULT_THEME,
    *,
    guard: Guard | None = None,
    force: bool = True,
    painter: Painter | None = None,
) -> Path:
    """Paint `model` off-screen and save it as a PNG (no display needed). `force`: a picture
    already there is replaced (the screenshots are made again in place). `painter`: one kept
    across frames keeps its fonts and the images of its texts."""
    if panel is not None and (model.width, model.height) != (panel.width_px, panel.height_px):
        raise ValueError(f"model is {model.width}x{model.height}, panel {panel.name} is not")
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = png_bytes(render_surface(model, painter or Painter(theme)))
    # Through station.output: never over a journal or config, written whole or not at all.
    write_output(out, data, guard or Guard(), force=force)
    return out

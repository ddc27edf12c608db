"""Reading a screen model the way the dealer reads the glass: helpers for the display tests."""

from __future__ import annotations

from typing import assert_never

from station.display import fontmetrics
from station.display.model import Align, Box, Rect, ScreenModel, Text


def glyph_extent(t: Text) -> Rect:
    """Where the glyphs of `t` actually go: width from the font, cap band vertically."""
    r = t.rect
    w = min(fontmetrics.text_width(t.text, t.size), r.w)
    match t.align:
        case Align.LEFT:
            x = r.x
        case Align.RIGHT:
            x = r.x + r.w - w
        case Align.CENTER:
            x = r.x + (r.w - w) // 2
        case _:
            assert_never(t.align)
    cap = fontmetrics.cap_px(t.size)
    return Rect(x, r.y + (r.h - cap) // 2, w, cap)


def background_under(model: ScreenModel, text: Text) -> str:
    """The fill under the centre of the text: the last filled box drawn before it there."""
    cx, cy = text.rect.center
    colour: str = model.background
    for item in model.items:
        if item is text:
            break
        if isinstance(item, Box) and item.fill is not None and item.rect.contains(cx, cy):
            colour = item.fill
    return colour

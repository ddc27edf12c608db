"""The band along the bottom, nearest the dealer: the STOP, or the next step. Pure.

- STOP: an octagon sign and the engine's STOP text, wrapped (in the alert colours, with a
  thick vermillion edge: it is also the shape that says STOP).
- NEXT: the prompt in force. On one line at the key size when it fits; else wrapped at the text
  size, up to the lines the layout allows; when it needs more, the prompt's designed short form
  (`prompt_forms`) if its code has one; else the whole text, on as many lines as it takes. A
  prompt is never cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from station.display.canvas import Canvas
from station.display.dealer_view import DealerView
from station.display.model import Align, Rect, Shape
from station.display.theme import Edge, Style, TextRole

K, T, H = TextRole.KEY, TextRole.TEXT, TextRole.HEAD
NEXT_LABEL = "NEXT"
STOP_SIGN = "STOP"


@dataclass(frozen=True, slots=True)
class BandText:
    text: str
    role: TextRole
    lines: list[str]
    short: bool  # the prompt's short form stands in for it


def _next_width(c: Canvas, width: int) -> int:
    return width - c.measure(NEXT_LABEL, T) - 6 * c.pad


def sign_role(c: Canvas, text: str, width: int) -> TextRole:
    """The STOP sign at the headline size, or at the key size when that leaves the STOP's
    text a line more room (a small panel)."""
    big = len(c.wrap(text, T, _stop_width(c, width, H)))
    small = len(c.wrap(text, T, _stop_width(c, width, K)))
    return K if small < big else H


def _stop_width(c: Canvas, width: int, role: TextRole) -> int:
    return width - c.measure(STOP_SIGN, role) - 8 * c.pad


def next_text(c: Canvas, view: DealerView, width: int, max_lines: int) -> BandText:
    """How the prompt is said in a band `width` wide that may take `max_lines` text lines."""
    room = _next_width(c, width)
    full = view.next.text
    if c.fits(full, K, room):
        return BandText(full, K, [full], False)
    lines = c.wrap(full, T, room)
    if len(lines) <= max_lines or not view.next.short:
        return BandText(full, T, lines, False)
    short = view.next.short
    if c.fits(short, K, room):
        return BandText(short, K, [short], True)
    return BandText(short, T, c.wrap(short, T, room), True)


def need(c: Canvas, view: DealerView, width: int, max_lines: int) -> int:
    """The band's height at `width`."""
    p = c.pad
    if view.stop_text is not None:
        role = sign_role(c, view.stop_text, width)
        rows = len(c.wrap(view.stop_text, T, _stop_width(c, width, role)))
        return max(rows * c.row(T), c.row(role)) + 2 * p
    said = next_text(c, view, width, max_lines)
    if said.role is K:
        return c.row(K) + 2 * p
    return max(len(said.lines) * c.row(T), c.row(K)) + 2 * p


def draw(c: Canvas, view: DealerView, area: Rect, max_lines: int) -> BandText | None:
    """The band in `area`; returns how the prompt was said (None for a STOP)."""
    p = c.pad
    if view.stop_text is not None:
        c.box(area, Style.ALERT, Edge.STOP, c.mm_y(1.4))
        role = sign_role(c, view.stop_text, area.w)
        sign_w = c.measure(STOP_SIGN, role) + 4 * p
        sign = Rect(area.x + 2 * p, area.y + p, sign_w, area.h - 2 * p)
        c.box(sign, Style.ALERT, Edge.STOP, c.mm_y(1.0), Shape.OCTAGON)
        c.text(sign, STOP_SIGN, role, Style.ALERT, Align.CENTER)
        rest = Rect(sign.right + p, area.y + p, area.right - sign.right - 3 * p, area.h - 2 * p)
        lines = c.wrap(view.stop_text, T, rest.w)
        top = rest.y + (rest.h - len(lines) * c.row(T)) // 2
        c.paragraph(Rect(rest.x, top, rest.w, len(lines) * c.row(T)), view.stop_text, T,
                    Style.ALERT)  # fmt: skip
        return None
    c.box(area, Style.BASE, Edge.PLAIN, 3)
    label_w = c.measure(NEXT_LABEL, T) + 2 * p
    c.text(Rect(area.x + 2 * p, area.y, label_w, area.h), NEXT_LABEL, T, Style.DIM)
    said = next_text(c, view, area.w, max_lines)
    x = area.x + 2 * p + label_w
    room = Rect(x, area.y + p, area.right - x - 2 * p, area.h - 2 * p)
    if said.role is K:
        c.text(room, said.text, K, Style.BASE)
        return said
    h = len(said.lines) * c.row(T)
    c.paragraph(Rect(room.x, room.y + (room.h - h) // 2, room.w, h), said.text, T)
    return said

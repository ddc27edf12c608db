"""Checking a screen model the way a dealer at 80 cm would read it: every text whole, inside its
box, clear of every other text and card, at its role's size and at 7:1 contrast."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from station.display.canvas import BREAKS
from station.display.colour import contrast_ratio
from station.display.model import Box, CardFace, Rect, ScreenModel, Text
from station.display.panel import PanelConfig
from station.display.theme import DEFAULT_THEME, TEXT_CONTRAST_BAR, Style, TextRole
from tests.display.screen_read import glyph_extent

# Blocks a layout may leave for another page, saying where: not a text cut or lost.
ELSEWHERE = ("(on the SEATS page)", "(on the table page)", "(scroll down)")


def reads(model: ScreenModel, text: str) -> bool:
    """`text` is on the screen whole: its words, in order, on consecutive text items (a
    paragraph is drawn one line per item; a line ending in a hyphen or underscore carries a
    word broken there), nothing cut."""
    return reads_lines([t.text for t in model.texts()], text)


def reads_lines(texts: Sequence[str], text: str) -> bool:
    """`reads` on a screen's texts, in the order they are drawn."""
    want = " ".join(text.split())
    if not want:
        return True
    lines = [" ".join(t.split()) for t in texts]
    for i in range(len(lines)):
        got = {""}
        for line in lines[i:]:
            if not line:
                break
            nxt = set()
            for g in got:
                joins = [" "] if g and not g.endswith(BREAKS) else [""] if not g else ["", " "]
                nxt |= {g + j + line for j in joins if want.startswith(g + j + line)}
            if want in nxt:
                return True
            if not nxt:
                break
            got = nxt
    return False


def _under(model: ScreenModel) -> dict[int, Box | None]:
    """For each text (by id), the innermost filled box it is drawn on: the last filled box drawn
    before it under its centre (None: the screen itself). One pass over the items."""
    filled: list[Box] = []
    out: dict[int, Box | None] = {}
    for item in model.items:
        if isinstance(item, Text):
            if id(item) not in out:  # (an item drawn twice is judged where it is first)
                cx, cy = item.rect.center
                out[id(item)] = next((b for b in reversed(filled) if b.rect.contains(cx, cy)),
                                     None)  # fmt: skip
        elif isinstance(item, Box) and item.fill is not None:
            filled.append(item)
    return out


def _glyphs(model: ScreenModel) -> dict[int, Rect]:
    """Each text's glyph extent (by id), measured once."""
    return {id(t): glyph_extent(t) for t in model.texts()}


def overlaps(model: ScreenModel, glyphs: dict[int, Rect] | None = None) -> list[str]:
    """Texts whose glyphs touch another text's or a card face (a sweep along x)."""
    glyphs = _glyphs(model) if glyphs is None else glyphs
    rects: list[tuple[Rect, str]] = [(glyphs[id(t)], t.text) for t in model.texts() if t.text]
    rects += [(c.rect, f"card {c.rank}{c.suit.value}") for c in model.items
              if isinstance(c, CardFace)]  # fmt: skip
    rects.sort(key=lambda s: s[0].x)
    # (x, right, y, bottom, what): Rect.overlaps on plain numbers, a few million times a run
    spans = [(r.x, r.x + r.w, r.y, r.y + r.h, what) for r, what in rects]
    found = []
    for i, (ax, ar, ay, ab, ta) in enumerate(spans):
        for bx, br, by, bb, tb in spans[i + 1 :]:
            if bx >= ar:
                break
            if (ax < br and ay < bb and by < ab
                    and not (ta.startswith("card") and tb.startswith("card"))):  # fmt: skip
                found.append(f"{ta!r} overlaps {tb!r}")
    return found


@functools.cache
def _role_size(role: TextRole, panel: PanelConfig) -> int:
    return DEFAULT_THEME.font_px(role, panel)


@functools.cache
def _contrast(style: Style) -> float:
    pair = DEFAULT_THEME.pair(style)
    return contrast_ratio(pair.fg, pair.bg)


def problems(model: ScreenModel, panel: PanelConfig) -> list[str]:
    """Everything on `model` that a dealer could not read as intended."""
    out = [f"cut: {c}" for c in model.clipped]
    out += [f"left out: {d}" for d in model.dropped if not d.endswith(ELSEWHERE)]
    screen = Rect(0, 0, model.width, model.height)
    glyphs = _glyphs(model)
    under = _under(model)
    for t in model.texts():
        if not t.text:
            continue
        if t.size != _role_size(t.role, panel):
            out.append(f"{t.text!r}: size {t.size} is not the {t.role} size")
        pair = DEFAULT_THEME.pair(t.style)
        if _contrast(t.style) < TEXT_CONTRAST_BAR:
            out.append(f"{t.text!r}: contrast under {TEXT_CONTRAST_BAR}:1")
        box = under[id(t)]
        fill = model.background if box is None else box.fill
        if fill != pair.bg:
            out.append(f"{t.text!r}: drawn on {fill}, its style wants {pair.bg}")
        extent = glyphs[id(t)]
        if not extent.inside(screen):
            out.append(f"{t.text!r}: off the screen")
        elif not extent.inside(screen if box is None else box.rect):
            out.append(f"{t.text!r}: leaves its box {screen if box is None else box.rect}")
    return out + overlaps(model, glyphs) + seat_marks(model, panel, glyphs)


CLEAR_MM = 2.0  # a bet or the puck is nearer its own seat than any other's by this much
TOUCH_MM = 2.0  # the least gap between the button puck and a bet
APART_MM = 4.0  # the least gap between two seats' bets (closer, they read as one row)


def _gap(a: Rect, b: Rect) -> float:
    dx = max(0, b.x - a.right, a.x - b.right)
    dy = max(0, b.y - a.bottom, a.y - b.bottom)
    return float((dx * dx + dy * dy) ** 0.5)


def seat_marks(
    model: ScreenModel, panel: PanelConfig, glyphs: dict[int, Rect] | None = None
) -> list[str]:
    """Each bet in front of a seat, and the dealer button puck, reads as its own seat's: it is
    nearer that seat (its box; for the puck, its box or its bet) than any other seat's box or
    bet by CLEAR_MM at least (two bets side by side between two seats read as one seat's); the
    puck does not touch a bet; neither lies on a text or a card that is not its own."""
    out: list[str] = []
    clear, touch, apart = panel.px_y(CLEAR_MM), panel.px_y(TOUCH_MM), panel.px_y(APART_MM)
    marks = model.seats
    if not marks:
        return out
    glyphs = _glyphs(model) if glyphs is None else glyphs
    texts = [(t, glyphs[id(t)]) for t in model.texts() if t.text]
    cards = [c.rect for c in model.items if isinstance(c, CardFace)]
    for m in marks:
        for what, r in (("bet", m.chip), ("puck", m.puck)):
            if r is None:
                continue
            near = _gap(r, m.box)
            if what == "puck" and m.chip is not None:
                near = min(near, _gap(r, m.chip))
                if _gap(r, m.chip) < touch:
                    out.append(f"seat {m.seat}: the puck touches its bet")
            for o in marks:
                if o is m:
                    continue
                if _gap(r, o.box) < near + clear:
                    out.append(f"seat {m.seat}'s {what} is about as near seat {o.seat}")
                if o.chip is not None and _gap(r, o.chip) < near + clear:
                    out.append(f"seat {m.seat}'s {what} is about as near seat {o.seat}'s bet")
                if what == "bet" and o.chip is not None and _gap(r, o.chip) < apart:
                    out.append(f"seat {m.seat}'s bet is side by side with seat {o.seat}'s")
            around = r.inset(-2)
            for t, extent in texts:
                # (a text inside the mark is its own: its amount, its D)
                if extent.overlaps(r) and not t.rect.inside(around):
                    out.append(f"seat {m.seat}'s {what} lies on {t.text!r}")
            for card in cards:
                if card.overlaps(r):
                    out.append(f"seat {m.seat}'s {what} lies on a card")
    return out

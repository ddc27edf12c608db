"""The glance numbers: seat to act, amount to call, raise range, pot. Pure.

Tiles, label above value, the values at the key size (7 mm at 80 cm); the seat to act's tile in
the NOW colours. Laid out in the most compact plan that fits the width: one strip; one strip with
shorter labels (CALL, then ACT); with several pots listed on the felt, one strip without the
total; two strips, the raise limits in tiles of their own; failing all, one row per number.
"""

from __future__ import annotations

from station.display.canvas import Canvas
from station.display.dealer_view import DASH, DealerView
from station.display.model import Align, Rect
from station.display.theme import Edge, Style, TextRole

K, T = TextRole.KEY, TextRole.TEXT
EN_DASH = "\u2013"  # between the raise limits

Tile = tuple[str, str, bool]  # label, value, whether it is the seat to act (drawn in NOW)
Strip = tuple[list[Tile], list[int], int]  # the tiles, the width each needs, the spare width


def _plans(view: DealerView) -> list[list[list[Tile]]]:
    raise_text = DASH
    if view.min_raise != DASH:
        raise_text = f"{view.min_raise}{EN_DASH}{view.max_raise}"
    act: Tile = ("TO ACT", view.to_act, view.to_act != DASH)
    pot: Tile = ("POT", view.pot_total, False)
    limits: list[Tile] = [
        ("MIN RAISE", view.min_raise, False),
        ("MAX RAISE", view.max_raise, False),
    ]
    short_act: Tile = ("ACT", view.to_act, act[2])
    call: Tile = ("CALL", view.to_call, False)
    raises: Tile = ("RAISE", raise_text, False)
    plans = [
        [[act, ("TO CALL", view.to_call, False), raises, pot]],
        [[act, call, raises, pot]],
        [[short_act, call, raises, pot]],
    ]
    if len(view.pots) > 1:  # the pots are listed on the felt: one strip without the total
        plans.append([[short_act, call, raises]])
    plans.append([[act, ("TO CALL", view.to_call, False), pot], limits])
    plans.append([[act, call, pot], limits])
    return plans


def plan(c: Canvas, view: DealerView, width: int) -> list[Strip] | None:
    """The first layout whose every strip fits `width`; None: none does."""
    p = c.pad
    for tiles_plan in _plans(view):
        strips: list[Strip] = []
        for tiles in tiles_plan:
            need = [max(c.measure(a, T), c.measure(b, K)) + 2 * p for a, b, _ in tiles]
            strips.append((tiles, need, width - sum(need) - p * (len(tiles) - 1)))
        if all(spare >= 0 for _, _, spare in strips):
            return strips
    return None


def need(c: Canvas, view: DealerView, width: int) -> int:
    """The height the numbers take at `width`, with the gap below."""
    strips = plan(c, view, width)
    if strips is None:
        return 5 * c.row(K) + c.pad
    return len(strips) * (c.row(T) + c.row(K) + c.pad)


def draw(c: Canvas, view: DealerView, area: Rect) -> int:
    """The numbers from the top of `area`; returns the height used, with the gap below."""
    p = c.pad
    strips = plan(c, view, area.w)
    if strips is None:
        return _rows(c, view, area) + p
    height = c.row(T) + c.row(K)
    y = area.y
    for tiles, widths, spare in strips:
        x = area.x
        for (label, value, now), need_w in zip(tiles, widths, strict=True):
            w = need_w + spare // len(tiles)
            r = Rect(x, y, w, height)
            style = Style.NOW if now else Style.BASE
            c.box(r, style, Edge.TO_ACT if now else Edge.PLAIN, c.mm_y(0.8) if now else 2)
            inner = r.inset(p, 0)
            c.text(Rect(inner.x, r.y, inner.w, c.row(T)), label, T, style)
            c.text(Rect(inner.x, r.y + c.row(T), inner.w, c.row(K)), value, K, style, key=True)
            x += w + p
        y += height + p
    return y - area.y


def _rows(c: Canvas, view: DealerView, area: Rect) -> int:
    row = c.row(K)
    labels = ("TO ACT", "TO CALL", "MIN RAISE", "MAX RAISE", "POT")
    values = (view.to_act, view.to_call, view.min_raise, view.max_raise, view.pot_total)
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        r = Rect(area.x, area.y + i * row, area.w, row)
        style = Style.NOW if i == 0 and value != DASH else Style.BASE
        if style is Style.NOW:
            c.box(r, style, Edge.TO_ACT, 2)
        inner = r.inset(c.pad, 0)
        c.text(inner, label, T, style)
        c.text(inner, value, K, style, Align.RIGHT, key=True)
    return 5 * row

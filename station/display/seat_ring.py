"""The seats drawn where they sit around the table, each with its bet in front of it. Pure.

The rail (an oval or round table, `table_shape`) runs through the middle of the seat boxes, the
dealer's place at the bottom; each seat's bet sits on the felt in front of it, towards the
middle, and the dealer button (a white "D" puck) beside the bet of the seat that has it. A bet
or the puck goes only where it reads as its own seat's: nearer that seat than any other seat's
box or bet by CLEAR_MM, two seats' bets BETS_APART_MM apart, the puck PUCK_GAP_MM clear of its
bet; a table where that cannot be done at a density is not drawn at it. What is left in the
middle of the felt (`RingPlan.interiors`) is for the board and the pots.

A seat box says, at the density that fits (`Density`):

- FULL, three rows: the seat number and its blind (SB, BB, STR, BI); its state in words (TO ACT,
  IN HAND, FOLDED, ALL-IN, ...); its stack. A fourth row holds stud up-cards.
- COMPACT, two rows: the number and the blind; the stack while the seat plays, else its state
  in words (FOLDED, ALL-IN, SIT OUT, ...). The seat to act is marked ">" as well.
- TOKEN, one row: the number, then the stack or the state as in COMPACT ("7 FOLDED").

The seat to act is filled in the NOW colours with a thick outline (and says TO ACT or ">"), an
all-in seat or a winner has its state on a coloured band, a seat out of play is dim, and an
empty seat is dashed: each state has its words and its shape, never colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from station.display.canvas import Canvas
from station.display.dealer_view import SeatLabel, SeatState
from station.display.model import Align, Rect, SeatMarks, Shape
from station.display.panel import PanelConfig
from station.display.table_shape import TableKind, TableShape, inward
from station.display.theme import Edge, Style, TextRole, Theme

T = TextRole.TEXT
TO_ACT_MARK = ">"  # the font has no arrow; the fill and the outline say it too
BUTTON_MARK = "D"
# A bet or the button puck is nearer its own seat's box than any other seat's (box or bet) by
# this much at least, so that it never reads as the next seat's (two bets side by side between
# two seats, a bet against the puck of the seat beside it).
CLEAR_MM = 2.5
PUCK_GAP_MM = 2.5  # between the button puck and the bet beside it
BETS_APART_MM = 6.0  # between two seats' bets: closer, side by side, they read as one row


class Density(IntEnum):
    TOKEN = 1
    COMPACT = 2
    FULL = 3


@dataclass(frozen=True, slots=True)
class Slot:
    seat: SeatLabel
    box: Rect
    chip: Rect | None  # the bet in front (None: no bet)
    puck: Rect | None  # the dealer button (None: not this seat)


@dataclass(frozen=True, slots=True)
class RingPlan:
    density: Density
    rail: Rect  # the rail's bounding box (it runs through the seats' centres)
    kind: TableKind
    slots: tuple[Slot, ...]
    free: tuple[Rect, ...]  # boxes about the middle no seat, bet or puck reaches, largest first
    dealer: Rect  # the dealer's place on the rail (bottom centre)
    gap: int  # the felt's margin inside the rail's line

    def interiors(self) -> Iterator[Rect]:
        """The boxes of felt left free in the middle, the largest first: each free box within
        the rail's line (narrowed as they are asked for: the first that holds the middle's
        content is taken)."""
        return (_within_rail(self.kind, self.rail, r, self.gap) for r in self.free)


def token_text(s: SeatLabel) -> str:
    return f"{TO_ACT_MARK} {s.number}" if s.to_act else s.number


def token_value(s: SeatLabel) -> str:
    """TOKEN density: the stack while the seat plays (its state is then its outline), else the
    state in words."""
    plays = s.state in (SeatState.TO_ACT, SeatState.IN_HAND, SeatState.READY)
    return s.stack if plays and s.stack else s.word


def _thick(c: Canvas, s: SeatLabel) -> int:
    return c.mm_y(1.2) if s.to_act else 2


def _rows(density: Density, seats: Sequence[SeatLabel]) -> int:
    up = any(s.up_cards for s in seats)
    return int(density) + (1 if up and density is not Density.TOKEN else 0)


@lru_cache(maxsize=256)  # (the same seats are planned in a few regions)
def _box_size(
    panel: PanelConfig, theme: Theme, seats: tuple[SeatLabel, ...], density: Density
) -> tuple[int, int]:
    """One size for every seat box at `density`: the widest content, `rows` rows."""
    c = Canvas("seats", panel, theme)
    p = c.pad
    m = c.measure
    widths: list[int] = []
    for s in seats:
        number = m(s.number, T)
        if density is Density.FULL:
            widths += [number + p + m(s.blind, T), m(s.word, T), m(s.stack, T)]
        elif density is Density.COMPACT:
            widths += [m(token_text(s), T) + p + m(s.blind, T), m(token_value(s), T)]
        else:
            widths.append(m(token_text(s), T) + p + m(token_value(s), T))
        if s.up_cards and density is not Density.TOKEN:
            widths.append(sum(c.wide_card_w(rank) + p // 2 for rank, _ in s.up_cards))
    thick = c.mm_y(1.2)
    w = max(widths, default=0) + 2 * (thick + p // 2)
    h = _rows(density, seats) * c.row(T) + 2 * thick
    return w, h


def chip_h(c: Canvas) -> int:
    """A chip a little taller than the capitals of its amount."""
    return c.cap(T) + 2 * c.mm_y(0.8)


def chip_w(c: Canvas, bet: str) -> int:
    h = chip_h(c)
    return h + c.measure(bet, T) + c.pad // 2


def plan_ring(
    c: Canvas,
    seats: Sequence[SeatLabel],
    shape: TableShape,
    region: Rect,
    density: Density,
    flat: bool = False,
) -> RingPlan | None:
    """The seats around a table filling `region`; None when they do not fit at `density`
    (boxes, bets or pucks would overlap, leave the region, or sit where they would read as
    another seat's). `flat`: each bet above or below its seat before beside it, which leaves
    the felt's middle its width (a wide result between the seats at the table's ends)."""
    return _plan_ring(c.panel, c.theme, tuple(seats), shape, region, density, flat)


# The dealer screen tries a few regions and densities for each screen, and the next screen
# mostly has the same seats (a new prompt, a new alert): the plans are kept.
@lru_cache(maxsize=1024)
def _plan_ring(
    panel: PanelConfig,
    theme: Theme,
    seats: tuple[SeatLabel, ...],
    shape: TableShape,
    region: Rect,
    density: Density,
    flat: bool,
) -> RingPlan | None:
    if not seats:
        return None
    c = Canvas("seats", panel, theme)
    ordered = sorted(seats, key=lambda s: s.seat)
    marks = tuple((s.seat, chip_w(c, s.bet) if s.bet else 0, s.button) for s in ordered)
    size = _box_size(panel, theme, seats, density)
    spots = _spots_of(panel, theme, size, marks, shape, region, flat)
    if spots is None:
        return None
    slots = tuple(
        Slot(s, box, chip, puck)
        for s, box, chip, puck in zip(ordered, spots.boxes, spots.chips, spots.pucks, strict=True)
    )
    return RingPlan(density, spots.rail, shape.kind, slots, spots.free, spots.dealer, c.pad)


@dataclass(frozen=True, slots=True)
class _Spots:
    """Where a plan puts everything, seat by seat in the order they were asked for."""

    rail: Rect
    boxes: tuple[Rect, ...]
    chips: tuple[Rect | None, ...]
    pucks: tuple[Rect | None, ...]
    free: tuple[Rect, ...]
    dealer: Rect


# Where the boxes, bets and pucks go depends on the boxes' size and on which seats have a bet (of
# what width) or the button, not on what the boxes say: a new stack, state or bet amount of the
# same width finds its plan made (a table that does not fit is not tried again either).
@lru_cache(maxsize=2048)
def _spots_of(
    panel: PanelConfig,
    theme: Theme,
    size: tuple[int, int],
    marks: tuple[tuple[int, int, bool], ...],
    shape: TableShape,
    region: Rect,
    flat: bool,
) -> _Spots | None:
    """`marks`: each seat, by number, with its bet's width (0: no bet) and whether it has the
    button."""
    c = Canvas("seats", panel, theme)
    p = c.pad
    bw, bh = size
    ch = chip_h(c)
    rail = Rect(region.x + bw // 2, region.y + bh // 2, region.w - bw, region.h - bh)
    if rail.w < bw or rail.h < bh:
        return None
    boxes: list[Rect] = []
    normals: list[tuple[float, float]] = []
    for seat, _, _ in marks:  # the boxes first: they sit where the table says
        x, y = shape.point(seat, rail)
        boxes.append(Rect(round(x - bw / 2), round(y - bh / 2), bw, bh))
        normals.append(inward(shape.kind, rail, x, y))
    taken: list[Rect] = []
    for box in boxes:
        if not box.inside(region) or any(box.overlaps(o) for o in taken):
            return None
        taken.append(box)
    clear = c.mm_y(CLEAR_MM)

    def free(candidates: list[Rect], own: int) -> Rect | None:
        """The first spot on the felt that touches nothing and is clearly its seat's."""
        for r in candidates:
            if (
                r.inside(region)
                and not any(r.inset(-(p // 2)).overlaps(o) for o in taken)
                and owned(r, own, boxes, clear)
            ):
                taken.append(r)
                return r
        return None

    chips: list[Rect | None] = []
    pucks: list[Rect | None] = []
    for i, ((_, cw, button), box, (nx, ny)) in enumerate(zip(marks, boxes, normals, strict=True)):
        chip: Rect | None = None
        sides = (True, False) if flat else _sides(nx, ny)
        if cw:  # in front of the seat; else beside it, if the table is tight there
            chip = free([r for v in sides for r in _spots(box, nx, ny, cw, ch, p, v)], i)
            if chip is None:
                return None
        puck: Rect | None = None
        if button:
            side = ch + p // 2
            if chip is None:
                spots = [r for v in sides for r in _spots(box, nx, ny, side, side, p, v)]
            else:  # beside its bet, a clear gap between them (never touching it)
                spots = _beside(chip, side, c.mm_y(PUCK_GAP_MM), nx, ny)
            puck = free(spots, i)
            if puck is None:
                return None
        chips.append(chip)
        pucks.append(puck)
    if not _all_owned(boxes, chips, pucks, clear, c.mm_y(BETS_APART_MM)):
        return None
    dealer = _dealer_tab(c, rail, region)
    if any(dealer.overlaps(o) for o in taken):
        dealer = Rect(dealer.x, dealer.y, 0, 0)
    middle = _free_middle(rail, _inside_rail(shape.kind, rail, p), [*taken, dealer], p)
    return _Spots(rail, tuple(boxes), tuple(chips), tuple(pucks), middle, dealer)


def rect_gap(a: Rect, b: Rect) -> float:
    """The distance between two rects (0 when they touch or overlap)."""
    dx = max(0, b.x - a.right, a.x - b.right)
    dy = max(0, b.y - a.bottom, a.y - b.bottom)
    return math.hypot(dx, dy)


def owned(r: Rect, own: int, boxes: Sequence[Rect], clear: int) -> bool:
    """`r` (a bet or the button) reads as the seat of `boxes[own]`: every other seat's box is
    at least `clear` further from it than its own."""
    near = rect_gap(r, boxes[own])
    return all(rect_gap(r, b) >= near + clear for j, b in enumerate(boxes) if j != own)


def _all_owned(
    boxes: Sequence[Rect],
    chips: Sequence[Rect | None],
    pucks: Sequence[Rect | None],
    clear: int,
    apart: int,
) -> bool:
    """Every bet and button puck is clearly its own seat's, counting the other seats' bets
    too (a bet placed after a puck may have come to lie beside it); two seats' bets are
    `apart` at least."""
    for i, (box, chip, puck) in enumerate(zip(boxes, chips, pucks, strict=True)):
        for r in (chip, puck):
            if r is None:
                continue
            near = rect_gap(r, box)
            if chip is not None and r is puck:
                near = min(near, rect_gap(r, chip))
            others = [b for j, b in enumerate(boxes) if j != i]
            bets = [b for j, b in enumerate(chips) if j != i and b is not None]
            if any(rect_gap(r, o) < near + clear for o in [*others, *bets]):
                return False
            if r is chip and any(rect_gap(r, o) < apart for o in bets):
                return False  # two seats' bets side by side read as a row of one seat's
    return True


def _sides(nx: float, ny: float) -> tuple[bool, bool]:
    """Above/below the box first where the table's middle is more above or below it."""
    vertical = abs(ny) >= abs(nx)
    return vertical, not vertical


def _beside(chip: Rect, side: int, gap: int, nx: float, ny: float) -> list[Rect]:
    """Spots for the button puck next to a bet: towards the middle first."""
    y_mid = chip.y + (chip.h - side) // 2
    x_mid = chip.x + (chip.w - side) // 2
    right = Rect(chip.right + gap, y_mid, side, side)
    left = Rect(chip.x - gap - side, y_mid, side, side)
    below = Rect(x_mid, chip.bottom + gap, side, side)
    above = Rect(x_mid, chip.y - gap - side, side, side)
    across = [right, left] if nx >= 0 else [left, right]
    up_down = [below, above] if ny >= 0 else [above, below]
    return across + up_down if abs(ny) >= abs(nx) else up_down + across


def _spots(box: Rect, nx: float, ny: float, w: int, h: int, gap: int, vertical: bool) -> list[Rect]:
    """Spots for a `w` x `h` rect in front of `box` on one side (`_ahead`), then along that
    side: level with the box's edge nearer the middle, then with its other edge."""
    first = _ahead(box, nx, ny, w, h, gap, vertical)
    if vertical:
        inner, outer = (box.right - w, box.x) if nx >= 0 else (box.x, box.right - w)
        along = [Rect(inner, first.y, w, h), Rect(outer, first.y, w, h)]
    else:
        inner, outer = (box.bottom - h, box.y) if ny >= 0 else (box.y, box.bottom - h)
        along = [Rect(first.x, inner, w, h), Rect(first.x, outer, w, h)]
    return [first, *(r for r in along if r != first)]


def _ahead(box: Rect, nx: float, ny: float, w: int, h: int, gap: int, vertical: bool) -> Rect:
    """A `w` x `h` rect on the felt right in front of `box`: against the side of the box that
    faces the middle (above or below it when `vertical`, else beside it), shifted a little
    towards the middle."""
    cx, cy = box.center
    if vertical:
        x = round(cx + nx * box.w / 4 - w / 2)
        y = box.bottom + gap if ny >= 0 else box.y - gap - h
    else:
        y = round(cy + ny * box.h / 4 - h / 2)
        x = box.right + gap if nx >= 0 else box.x - gap - w
    return Rect(x, y, w, h)


def _rail_line(c: Canvas) -> int:
    return max(3, c.mm_y(1.0))


def _dealer_tab(c: Canvas, rail: Rect, region: Rect) -> Rect:
    w = c.measure("DEALER", T) + 2 * c.pad
    h = c.row(T) + 2 * _rail_line(c)  # the text clear of the tab's border
    return Rect(rail.x + (rail.w - w) // 2, min(region.bottom - h, rail.bottom - h // 2), w, h)


def _inside_rail(kind: TableKind, rail: Rect, gap: int) -> Rect:
    """The box inside the rail's line where the felt's content may go."""
    r = min(rail.w, rail.h) / 2
    if kind is TableKind.ROUND:
        return rail.inset(round(rail.w * 0.15), round(rail.h * 0.15))
    dx = round(r * 0.3) + gap
    return Rect(rail.x + dx, rail.y + 2 * gap, max(0, rail.w - 2 * dx), max(0, rail.h - 4 * gap))


def _within_rail(kind: TableKind, rail: Rect, box: Rect, gap: int) -> Rect:
    """`box` narrowed so that its corners stay inside the rail's line (round ends)."""
    cx, cy = rail.x + rail.w / 2, rail.y + rail.h / 2
    half_h = max(abs(box.y - cy), abs(box.bottom - cy))
    if kind is TableKind.ROUND:
        rx, ry = rail.w / 2 - gap, rail.h / 2 - gap
        half_w = rx * math.sqrt(max(0.0, 1 - (half_h / ry) ** 2)) if ry > 0 else 0.0
    else:
        r = min(rail.w, rail.h) / 2 - gap
        straight = max(0.0, rail.w - min(rail.w, rail.h)) / 2
        half_w = straight + math.sqrt(max(0.0, r * r - half_h * half_h))
    left = max(box.x, math.ceil(cx - half_w))
    right = min(box.right, math.floor(cx + half_w))
    return Rect(left, box.y, max(0, right - left), box.h)


def _free_middle(rail: Rect, region: Rect, taken: list[Rect], gap: int) -> tuple[Rect, ...]:
    """Boxes about the table's middle that no seat, bet or puck reaches, the largest first: for
    each width, as tall as it can be (the felt's content then takes the first that holds it)."""
    cx, cy = rail.x + rail.w // 2, rail.y + rail.h // 2
    found: list[Rect] = []
    step = max(8, gap * 2)
    spans = [(r.x - gap, r.x + r.w + gap, r.y, r.y + r.h) for r in taken]  # (x0, x1, y0, y1)
    region_top, region_bottom = region.y, region.bottom
    for half in range(rail.w // 2, step, -step):
        left, right = cx - half, cx + half
        top, bottom = region_top, region_bottom
        blocked = False
        for x0, x1, y0, y1 in spans:
            if x1 <= left or x0 >= right:
                continue
            if y1 <= cy:
                top = max(top, y1 + gap)
            elif y0 >= cy:
                bottom = min(bottom, y0 - gap)
            else:
                blocked = True
                break
        if not blocked and bottom > top:
            found.append(Rect(left, top, right - left, bottom - top))
    # the largest first; among near equals, the wider
    found.sort(key=lambda r: (-(r.w * r.h), -r.w))
    return tuple(found) or (Rect(cx, cy, 0, 0),)


# drawing --------------------------------------------------------------------------------------
def draw_ring(c: Canvas, plan: RingPlan) -> None:
    rail = plan.rail
    line = _rail_line(c)
    shape = Shape.ELLIPSE if plan.kind is TableKind.ROUND else Shape.STADIUM
    c.box(rail, None, Edge.OK, line, shape)
    if plan.dealer.w:
        c.box(plan.dealer, Style.BASE, Edge.OK, line)
        c.text(plan.dealer.inset(line), "DEALER", T, Style.DIM, Align.CENTER)
    for slot in plan.slots:
        c.seats.append(SeatMarks(slot.seat.seat, slot.box, slot.chip, slot.puck))
        _seat(c, slot, plan.density)
        if slot.chip is not None:
            _chip(c, slot.chip, slot.seat.bet)
        if slot.puck is not None:
            c.box(slot.puck, Style.CARD, Edge.PLAIN, 2, Shape.DISC)
            c.text(slot.puck, BUTTON_MARK, T, Style.CARD, Align.CENTER)


def _chip(c: Canvas, rect: Rect, bet: str) -> None:
    c.box(rect, Style.BASE, Edge.PLAIN, 2, Shape.CHIP)
    c.text(Rect(rect.x + rect.h, rect.y, rect.w - rect.h, rect.h), bet, T)


def _seat(c: Canvas, slot: Slot, density: Density) -> None:
    s, box, p = slot.seat, slot.box, c.pad
    row = c.row(T)
    thick = _thick(c, s)
    fill = Style.NOW if s.to_act else Style.BASE
    shape = Shape.DASHED if s.state in (SeatState.EMPTY, SeatState.AWAY) else Shape.RECT
    if s.selected:  # the dealer's seat key picked it: a second outline around the box
        c.box(box.inset(-max(3, p // 2)), None, Edge.BUTTON, max(3, p // 3))
    c.box(box, fill, s.edge, thick, shape)
    inner = box.inset(thick + p // 2, thick)
    text_style = fill if s.to_act else Style.DIM if s.style is Style.DIM else Style.BASE

    def band(i: int) -> Rect:
        return Rect(inner.x, inner.y + i * row, inner.w, row)

    def word(r: Rect, align: Align = Align.LEFT) -> None:
        if s.style is Style.INFO:  # all-in, winner: the word on its band
            c.box(Rect(box.x + thick, r.y, box.w - 2 * thick, row), Style.INFO)
        c.text(r, s.word, T, s.style if not s.to_act else fill, align)

    if density is Density.FULL:
        c.text(band(0), s.number, T, text_style)
        if s.blind:
            c.text(band(0), s.blind, T, text_style, Align.RIGHT)
        word(band(1))
        if s.stack:
            c.text(band(2), s.stack, T, text_style)
        cards_row = 3
    elif density is Density.COMPACT:
        c.text(band(0), token_text(s), T, text_style)
        if s.blind:
            c.text(band(0), s.blind, T, text_style, Align.RIGHT)
        value = token_value(s)
        if value == s.word:
            word(band(1))
        else:
            c.text(band(1), value, T, text_style)
        cards_row = 2
    else:
        value = token_value(s)
        if value == s.word and s.style is Style.INFO:
            c.box(Rect(box.x + thick, box.y + thick, box.w - 2 * thick, box.h - 2 * thick),
                  Style.INFO)  # fmt: skip
            c.text(band(0), token_text(s), T, Style.INFO)
            c.text(band(0), value, T, Style.INFO, Align.RIGHT)
        else:
            c.text(band(0), token_text(s), T, text_style)
            style = text_style if value != s.word else s.style
            c.text(band(0), value, T, style, Align.RIGHT)
        return
    if s.up_cards:  # stud: the up-cards, one line of rank-and-suit cards
        x, y, chh = inner.x, band(cards_row).y + 1, row - 2
        for rank, suit in s.up_cards:
            w = c.wide_card_w(rank)
            c.card(Rect(x, y, w, chh), rank, suit, T, wide=True)
            x += w + p // 2

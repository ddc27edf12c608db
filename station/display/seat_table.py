"""The compact seat table of a small panel: who has how much behind and in front. Pure.

Where the seat ring does not fit (a 7" panel), the seats a dealer checks a bet or settles a pot
against (every seat in the hand, and a folded seat whose chips are still in front) are drawn as a
table: one cell per seat, in seat order, filling two columns top to bottom where two fit side by
side. A cell reads, left to right, the seat number, what it has behind, and its bet in a chip, as
the seat ring draws it on a large panel:

    > 4   198  (o 2)     the seat to act: a ">" before the number, in the NOW colours
      5   ALL-IN (o 6)   an all-in seat has nothing behind: the word stands in for the 0
      3   FOLDED (o 1)   a folded seat with chips still in front: the word instead of its stack
      7    96  (o 6)     in the hand: its stack

When there are more seats than cells, the seat to act comes first, then the seats with a bet in
front (the current round, the largest first), then the all-ins, then the rest; the last cell then
says which seats are not shown ("MORE 8 9"), and each of them is recorded in `dropped`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from station.display.canvas import Canvas
from station.display.dealer_view import SeatLabel, SeatState
from station.display.model import Align, Rect, Shape
from station.display.theme import Edge, Style, TextRole

T = TextRole.TEXT
TO_ACT_MARK = ">"  # the font has no arrow; the row's colours and outline say it too
MORE = "MORE"
_IN_HAND = (SeatState.TO_ACT, SeatState.IN_HAND, SeatState.ALL_IN)


def table_seats(seats: Sequence[SeatLabel]) -> list[SeatLabel]:
    """The seats the table lists, in seat order: in the hand, or with chips in front."""
    return sorted((s for s in seats if s.state in _IN_HAND or s.bet), key=lambda s: s.seat)


def other_seats(seats: Sequence[SeatLabel]) -> list[SeatLabel]:
    """The seats the table leaves to the one-line summary (folded, empty, sitting out...)."""
    listed = {s.seat for s in table_seats(seats)}
    return [s for s in seats if s.seat not in listed]


def priority(seat: SeatLabel) -> tuple[int, int, int]:
    """What a dealer needs first: the seat to act, then the bets in front (the largest first:
    they make the amount to call), then the all-ins, then the rest, each in seat order."""
    if seat.to_act:
        rank = 0
    elif seat.bet_amount:
        rank = 1
    elif seat.state is SeatState.ALL_IN:
        rank = 2
    else:
        rank = 3
    return rank, -seat.bet_amount, seat.seat


def number_text(seat: SeatLabel) -> str:
    return f"{TO_ACT_MARK} {seat.number}" if seat.to_act else seat.number


def behind_text(seat: SeatLabel) -> str:
    """The stack, or the word for a seat whose stack is not the point (all-in, folded...)."""
    if seat.state not in (SeatState.TO_ACT, SeatState.IN_HAND):
        return seat.word
    return seat.stack


def summary_text(seats: Sequence[SeatLabel]) -> str:
    """The seats not in the table on one line, grouped by state: "FOLDED 1 2 6  EMPTY 3 10"."""
    groups: dict[str, list[str]] = {}
    for s in seats:
        groups.setdefault(s.word, []).append(s.number)
    return "  ".join(f"{k} {' '.join(v)}" for k, v in groups.items())


@dataclass(frozen=True, slots=True)
class Columns:
    number: int
    behind: int
    chip: int  # 0: no seat has a bet in front
    cell: int  # one cell's width
    count: int  # 1 or 2 cells side by side


def columns(c: Canvas, seats: Sequence[SeatLabel], width: int) -> Columns:
    p = c.pad
    number = max(c.measure(number_text(s), T) for s in seats)
    behind = max(c.measure(behind_text(s), T) for s in seats)
    bets = [s.bet for s in seats if s.bet]
    chip = max((chip_width(c, b) for b in bets), default=0)
    need = p + number + p + behind + p + (chip + p if chip else 0)
    count = 2 if 2 * need + p <= width else 1
    cell = (width - p) // 2 if count == 2 else width
    return Columns(number, behind, chip, cell, count)


def chip_height(c: Canvas) -> int:
    """A chip a little taller than the capitals of its amount, within a row."""
    return min(c.row(T), c.cap(T) + 2 * c.mm_y(0.6))


def chip_width(c: Canvas, bet: str) -> int:
    """A bet's chip: the chip drawn at the left end, then the amount, then the round end."""
    h = chip_height(c)
    return h + c.measure(bet, T) + h // 2


def seat_table(c: Canvas, seats: Sequence[SeatLabel], area: Rect, where_rest: str) -> int:
    """The table from the top of `area`, as many rows as fit; returns the height used.
    `where_rest` says where the seats left out can be seen (for `dropped`)."""
    if not seats:
        return 0
    row = c.row(T)
    cols = columns(c, seats, area.w)
    rows = min(area.h // row, -(-len(seats) // cols.count))
    cells = rows * cols.count
    shown: list[SeatLabel] = list(seats)
    if len(seats) > cells:
        # The last cell names the seats left out, unless it is the only one.
        keep = cells - 1 if cells > 1 else cells
        chosen = {s.seat for s in sorted(seats, key=priority)[:keep]}
        shown = [s for s in seats if s.seat in chosen]
    rest = [s for s in seats if s not in shown]
    for s in rest:
        c.drop(f"seat {s.number} stack and bet ({where_rest})")

    def place(i: int) -> Rect:
        col, r = divmod(i, rows)
        return Rect(area.x + col * (cols.cell + c.pad), area.y + r * row, cols.cell, row)

    for i, seat in enumerate(shown):
        _cell(c, seat, cols, place(i))
    if rest and len(shown) < cells:
        _more(c, rest, place(len(shown)))
    return rows * row


def _cell(c: Canvas, s: SeatLabel, cols: Columns, rect: Rect) -> None:
    p = c.pad
    if s.to_act:
        style, edge, width = Style.NOW, Edge.TO_ACT, c.mm_y(0.8)
    elif s.style is Style.INFO:
        style, edge, width = Style.INFO, Edge.ALLIN, 3
    else:
        style, edge, width = Style.BASE, Edge.PLAIN, 2
    c.box(rect, style, edge, width)
    # On the plain cell the seat's own words keep their shade (a folded seat's are dim).
    text_style = Style.DIM if style is Style.BASE and s.style is Style.DIM else style
    x = rect.x + p
    c.text(Rect(x, rect.y, cols.number, rect.h), number_text(s), T, text_style, Align.RIGHT)
    x += cols.number + p
    c.text(Rect(x, rect.y, cols.behind, rect.h), behind_text(s), T, text_style, Align.RIGHT)
    x += cols.behind + p
    if s.bet:
        h = chip_height(c)
        chip = Rect(x, rect.y + (rect.h - h) // 2, chip_width(c, s.bet), h)
        c.box(chip, Style.BASE, Edge.PLAIN, 2, Shape.CHIP)
        c.text(Rect(chip.x + h, rect.y, chip.w - h, rect.h), s.bet, T)


def _more(c: Canvas, rest: Sequence[SeatLabel], rect: Rect) -> None:
    p = c.pad
    c.box(rect, Style.BASE, Edge.BUTTON, 2, Shape.ROUNDED)
    inner = rect.inset(p, 0)
    said = (f"{MORE} {' '.join(s.number for s in rest)}", f"{MORE} +{len(rest)}")
    text = next((t for t in said if c.fits(t, T, inner.w)), said[-1])
    c.text(inner, text, T, Style.BASE)

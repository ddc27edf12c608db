"""The dealer screen's geometry: a `DealerView` placed on a panel as a screen model. Pure.

From the top: a status strip (hand, game, street, what the key panel is entering, the shoe, the
signed-in dealer's name (SIGN IN while nobody is: `dealer_signin`), the REVIEW and TECH touch
buttons; the CALL FLOOR banner while a floor call is held); the table as
the dealer sees it (`seat_ring`: the seats around the rail, each bet in front of its seat, the
dealer button, and on the felt in the middle the board and the pots, or a finished hand's
result, or the next hand's posts: `felt`); the glance numbers while a betting round is open
(`glance`); what is wrong and what to do about it (`alert_panel`); and along the bottom,
nearest the dealer, the STOP or the next step (`next_band`). Every size comes from the theme's
millimetres for the panel.

The table takes the room the rest leaves. Its seats are drawn at the richest density that fits
(three rows, two, one), the alerts getting their full room first and giving way block by block
(`alert_panel`) before the table is given up. The board and the pots always keep their place: a
table whose felt cannot hold them is not used.

Where no table fits (a 7" panel with ten seats), the screen has two pages, turned by a touch
anywhere below the status strip or by a seat key on the dealer panel (a seat picked opens
SEATS; `nav` turns back by itself after a while):

- TABLE: the glance numbers, what is wrong, the board and the pots (or the result, or the next
  hand), then as many rows of the seat table (`seat_table`) as are left;
- SEATS: the table with every seat, as the dealer sees it, or the seat table when even that does
  not fit; the STOP or NEXT band stays.

Whatever still does not fit is recorded in `ScreenModel.dropped`, saying where it can be seen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from station.display import alert_panel, dealer_signin, felt, glance, next_band, seat_table
from station.display.canvas import Canvas
from station.display.dealer_view import DealerView, Middle
from station.display.model import Align, Rect, ScreenModel, Shape
from station.display.panel import PanelConfig
from station.display.seat_ring import Density, RingPlan, draw_ring, plan_ring
from station.display.table_shape import DEFAULT_TABLE, TableShape
from station.display.theme import DEFAULT_THEME, Edge, Style, TextRole, Theme
from station.engine.snapshot import Phase

K, T, H = TextRole.KEY, TextRole.TEXT, TextRole.HEAD
ACTION_REVIEW = "nav:floor"
ACTION_TECH = "nav:diag"
ACTION_SEATS = "dealer:seats"  # small panels: the page with every seat
ACTION_DETAILS = "dealer:details"  # ... the alerts' texts the first page had no room for
ACTION_TABLE = "dealer:table"  # ... and back
SEATS_PAGE = "SEATS"
DETAILS_PAGE = "ALERTS"
BAND_LINES = 2  # the NEXT band's text lines before a prompt's short form stands in
WHERE_SEATS = "on the SEATS page"
FLOOR_HEAD, FLOOR_NOTE = "CALL FLOOR", "FLOOR PIN CLEARS"  # the strip while a floor call is held


class DealerPage(StrEnum):
    """The dealer screen's pages on a small panel (a large one shows everything at once)."""

    TABLE = "table"
    DETAILS = "details"
    SEATS = "seats"


@dataclass(frozen=True, slots=True)
class RingLayout:
    ring: RingPlan
    middle: Rect  # the felt the board and pots (or result, or next hand) are drawn in
    tiles: Rect | None
    alerts: Rect | None
    band: Rect | None  # None: left out (a small panel while the TO ACT tile says it all)


def dealer_screen(
    view: DealerView,
    panel: PanelConfig,
    theme: Theme = DEFAULT_THEME,
    page: DealerPage = DealerPage.TABLE,
    shape: TableShape = DEFAULT_TABLE,
) -> ScreenModel:
    c = Canvas("dealer", panel, theme)
    # The whole table on one screen; failing that (a small panel), the same without the NEXT
    # band while its only news is the seat to act (the TO ACT tile says it); else two pages.
    layout = _whole_table(panel, theme, view, shape)
    if layout is not None:
        _header(c, view)
        _draw_ring_layout(c, view, layout)
        return c.model()
    folded = _details(c, view)
    if page is DealerPage.DETAILS and not folded:
        page = DealerPage.TABLE  # nothing left to show there (the alert has gone)
    if page is DealerPage.SEATS or view.selected is not None:
        c.screen = "dealer-seats"
        _header(c, view, title=SEATS_PAGE, stop=view.stop_text is not None)
        _seats_page(c, view, shape)
        turn = ACTION_TABLE
    elif page is DealerPage.DETAILS:
        c.screen = "dealer-details"
        _header(c, view, title=DETAILS_PAGE)
        _details_page(c, view, folded)
        turn = ACTION_SEATS
    else:
        _header(c, view)
        _table_page(c, view)
        turn = ACTION_DETAILS if folded else ACTION_SEATS
    top = _header_height(c, view) + c.pad
    c.target(Rect(0, top, c.width, c.height - top), turn)  # anywhere below the strip
    return c.model()


def _in_hand(view: DealerView) -> bool:
    return view.phase not in (Phase.IDLE, Phase.BETWEEN, Phase.ENDED)


# the whole table on one screen -----------------------------------------------------------------
def _middle_key(view: DealerView) -> tuple[object, ...]:
    """What lies in the middle: every field of the view `felt` reads (and nothing else)."""
    return view.middle, view.board, view.board2, view.pots, view.result, view.between


# Each candidate table offers a few boxes of felt, mostly as wide as another's, and the next
# screen mostly has the same board and pots (or result, or next hand): the heights are kept,
# by what lies in the middle.
@lru_cache(maxsize=512)
def _heights(panel: PanelConfig, theme: Theme, middle: tuple[object, ...]) -> dict[int, int | None]:
    """The height the `middle` (`_middle_key`) needs at each width, filled in as asked for."""
    return {}


def _middle_need(panel: PanelConfig, theme: Theme, view: DealerView, width: int) -> int | None:
    """The height what lies in the middle (the board and pots, or the result, or the next
    hand) needs at `width`; None: it cannot be that narrow."""
    c = Canvas("dealer", panel, theme)
    match view.middle:
        case Middle.PLAY:
            return felt.middle_need_at(c, view, width, big=False)
        case Middle.RESULT:
            return felt.result_need(c, view, width)
        case Middle.NEXT_HAND:
            return felt.between_need(c, view, width)


# A small panel's pages each ask again (and are told no): the answer is kept.
@lru_cache(maxsize=256)
def _whole_table(
    panel: PanelConfig, theme: Theme, view: DealerView, shape: TableShape
) -> RingLayout | None:
    """The whole table on one screen (`_ring_layout`), else the same without the NEXT band
    while its only news is the seat to act; None: neither fits."""
    c = Canvas("dealer", panel, theme)
    return _ring_layout(c, view, shape) or _ring_layout(c, view, shape, compact=True)


def _ring_layout(
    c: Canvas, view: DealerView, shape: TableShape, compact: bool = False
) -> RingLayout | None:
    """The table with everything else on one screen, or None when it does not fit. With
    nothing wrong the table takes all the room left; with alerts, the richest table that leaves
    them their comfortable room, else the smallest table that leaves them what they cannot do
    without."""
    p = c.pad
    top = _header_height(c, view) + p
    width = c.width - 2 * p
    if compact and _band_shown(view, compact=False) == _band_shown(view, compact=True):
        return None  # nothing to gain: the band is there either way
    band_h = next_band.need(c, view, c.width, BAND_LINES) if _band_shown(view, compact) else 0
    # The glance numbers keep their place for the whole hand, so the table does not move
    # between streets (a dash where there is nothing to call).
    # (With an alert the layout changes anyway: then only while betting, else the pots say it.)
    tiles = view.betting or (_in_hand(view) and not view.wrong)
    tiles_h = glance.need(c, view, width) if tiles else 0
    room = c.height - top - band_h - tiles_h - p
    densities = (Density.FULL, Density.COMPACT, Density.TOKEN)
    if not view.wrong:
        for density in densities:
            found = _try_ring(c, view, shape, _ring_region(c, top, room), density)
            if found is not None:
                return _assemble(c, found, top, room, tiles_h, band_h, alerts=False)
        return None
    easy_h = alert_panel.comfortable(c, view, width) + p
    min_h = alert_panel.minimum(c, view, width) + p
    smallest: tuple[int, tuple[RingPlan, Rect]] | None = None
    for density in densities:
        least = _least_ring(c, view, shape, top, room - min_h, density)
        if least is None:
            continue
        height, found = least
        if room - height >= easy_h:  # this table leaves the alerts their room: the rest is its
            grown = _try_ring(c, view, shape, _ring_region(c, top, room - easy_h), density)
            return _assemble(c, grown or found, top, room - easy_h, tiles_h, band_h, alerts=True)
        if smallest is None or height < smallest[0]:
            smallest = least
    if smallest is None:
        return None
    height, found = smallest
    return _assemble(c, found, top, height, tiles_h, band_h, alerts=True)


def _ring_region(c: Canvas, top: int, height: int) -> Rect:
    """The table's share of the screen: the full width but a margin each side."""
    return Rect(c.pad // 2, top, c.width - c.pad, height)


def _try_ring(
    c: Canvas, view: DealerView, shape: TableShape, region: Rect, density: Density
) -> tuple[RingPlan, Rect] | None:
    for flat in (False, True):  # each bet in front of its seat; else above or below it
        ring = plan_ring(c, view.seats, shape, region, density, flat)
        middle = _middle(c, view, ring) if ring is not None else None
        if ring is not None and middle is not None:
            return ring, middle
    return None


def _least_ring(
    c: Canvas, view: DealerView, shape: TableShape, top: int, most: int, density: Density
) -> tuple[int, tuple[RingPlan, Rect]] | None:
    """The least height (to a few pixels) a table at `density` needs, at most `most`."""
    best = _try_ring(c, view, shape, _ring_region(c, top, most), density) if most > 0 else None
    if best is None:
        return None
    lo, hi = 0, most
    while hi - lo > c.pad:
        mid = (lo + hi) // 2
        found = _try_ring(c, view, shape, _ring_region(c, top, mid), density)
        if found is None:
            lo = mid
        else:
            hi, best = mid, found
    return hi, best


def _assemble(
    c: Canvas,
    found: tuple[RingPlan, Rect],
    top: int,
    ring_h: int,
    tiles_h: int,
    band_h: int,
    alerts: bool,
) -> RingLayout:
    p = c.pad
    ring, middle = found
    y = top + ring_h + p
    tiles = Rect(p, y, c.width - 2 * p, tiles_h) if tiles_h else None
    y += tiles_h
    area = Rect(p, y, c.width - 2 * p, c.height - band_h - y - p) if alerts else None
    band = Rect(0, c.height - band_h, c.width, band_h) if band_h else None
    return RingLayout(ring, middle, tiles, area, band)


def _middle(c: Canvas, view: DealerView, ring: RingPlan) -> Rect | None:
    """The first of the felt's free boxes that holds what lies in the middle; None: none."""
    heights = _heights(c.panel, c.theme, _middle_key(view))
    for r in ring.interiors():
        if r.w not in heights:
            heights[r.w] = _middle_need(c.panel, c.theme, view, r.w)
        need = heights[r.w]
        if need is not None and need <= r.h:
            return r
    return None


def _draw_ring_layout(c: Canvas, view: DealerView, layout: RingLayout) -> None:
    draw_ring(c, layout.ring)
    _draw_content(c, view, layout.middle, big=True)
    if layout.tiles is not None:
        glance.draw(c, view, layout.tiles)
    if layout.alerts is not None:
        alert_panel.draw(c, view, layout.alerts)
    if layout.band is not None:
        next_band.draw(c, view, layout.band, BAND_LINES)


def _draw_content(
    c: Canvas, view: DealerView, area: Rect, big: bool, cols: int = 1, seats: bool = True
) -> bool:
    """Draw what lies in the middle; True when a finished hand's board was drawn with it."""
    match view.middle:
        case Middle.PLAY:
            if big and not felt.middle_fits(c, view, area, big=True):
                big = False
            felt.draw_middle(c, view, area, big, cols, seats)
        case Middle.RESULT:
            # The winning hands named where the room allows (the least is without them). The
            # final board stays above the result: when it would not fit above one column of
            # lines, the lines go two to a row (with the names, else without), or stay one
            # column without the names (a label too wide for half the room: "DRAW BADUGI"), if
            # that makes room.
            board_h = felt.board_need(c, view, big=False)
            names = felt.result_need(c, view, area.w, cols, names=True) <= area.h
            need = felt.result_need(c, view, area.w, cols, names)
            if view.board2 and names and need + board_h + c.pad > area.h:
                # Two boards: what each board's half went for reads against the boards, so
                # they come before the names of the winning hands.
                plain = felt.result_need(c, view, area.w, cols, names=False)
                if plain + board_h + c.pad <= area.h:
                    names, need = False, plain
            if view.board and cols == 1 and need + board_h + c.pad > area.h:
                for f_cols, f_names in ((2, True), (2, False), (1, False)):
                    f_need = felt.result_need(c, view, area.w, f_cols, f_names)
                    if f_need + board_h + c.pad <= area.h:
                        cols, names, need = f_cols, f_names, f_need
                        break
                else:  # still no room above: the board beside the lines, on their right
                    bw = felt.board_width(c, view, big=False)
                    left = Rect(area.x, area.y, area.w - bw - c.pad, area.h)
                    for side_names in (True, False):
                        side = felt.result_need(c, view, left.w, 1, side_names)
                        if left.w > 0 and max(side, board_h) <= area.h:
                            board_y = area.y + (area.h - board_h) // 2
                            felt.draw_board(c, view, left.right + c.pad, board_y, big=False)
                            y = area.y + max(0, (area.h - side) // 2)
                            felt.draw_result(c, view, Rect(left.x, y, left.w, side), 1,
                                             side_names)  # fmt: skip
                            return True
            y = area.y + max(0, (area.h - need) // 2)
            above = bool(view.board) and need + board_h + c.pad <= area.h
            if above:  # the final board above it
                y = area.y + max(0, (area.h - need - board_h - c.pad) // 2)
                bw = felt.board_width(c, view, big=False)
                felt.draw_board(c, view, area.x + (area.w - bw) // 2, y, big=False)
                y += board_h + c.pad
            felt.draw_result(c, view, Rect(area.x, y, area.w, need), cols, names)
            return above
        case Middle.NEXT_HAND:
            need = felt.between_need(c, view, area.w)
            felt.draw_between(c, view, Rect(area.x, area.y + max(0, (area.h - need) // 2),
                                            area.w, need))  # fmt: skip
    return False


# small panels: two pages -----------------------------------------------------------------------
def _content_need(
    c: Canvas,
    view: DealerView,
    width: int,
    cols: int = 1,
    seats: bool = True,
    names: bool = False,
) -> int:
    """The middle's height; with `names`, a result names each pot's winning hand."""
    match view.middle:
        case Middle.PLAY:
            return felt.middle_need(c, view, width, big=False, cols=cols, seats=seats)
        case Middle.RESULT:
            return felt.result_need(c, view, width, cols, names)
        case Middle.NEXT_HAND:
            return felt.between_need(c, view, width)


def _band_shown(view: DealerView, compact: bool) -> bool:
    """A small panel leaves the band out while a betting round is open and the engine has
    nothing to add to it: the TO ACT tile already names the seat."""
    return not (compact and view.betting and view.next.code is None and view.stop_text is None)


@dataclass(frozen=True, slots=True)
class TablePage:
    """How a small panel's first page shares its height out."""

    view: DealerView  # without the pots when the POT tile says it
    tiles_h: int
    alerts_h: int  # the room the alerts get (0: none)
    middle_h: int
    band_lines: int
    band_h: int
    cols: int = 1  # the pots (or the result's) two to a row (many pots)
    pot_seats: bool = True  # False: the pots' seats are on the SEATS page (no room here)


def _table_plan(c: Canvas, view: DealerView) -> TablePage:
    p = c.pad
    top = _header_height(c, view) + p
    width = c.width - 2 * p
    if view.betting and len(view.pots) <= 1:
        view = replace(view, pots=())  # the POT tile says it
    tiles_h = glance.need(c, view, width) if view.betting else 0
    middle_h = _content_need(c, view, width)
    fixed = tiles_h + middle_h + (p if middle_h else 0)
    least = alert_panel.minimum(c, view, width, compact=True) if view.wrong else 0
    band = _band_shown(view, compact=True)
    lines = BAND_LINES
    band_h = next_band.need(c, view, c.width, lines) if band else 0
    if band and top + fixed + least + band_h + p > c.height:
        lines = 1  # the prompt's short form, before anything else gives way
        band_h = next_band.need(c, view, c.width, lines)
    bottom = c.height - band_h - p
    named = _content_need(c, view, width, names=True)
    if named > middle_h and top + tiles_h + named + p + least <= bottom:
        # A result names each pot's winning hand, before the seats' rows (the SEATS page
        # has every seat, its stack and what it won in front of it).
        middle_h, fixed = named, tiles_h + named + p
    cols, seats = 1, True
    if middle_h and top + fixed + least > bottom:  # many pots: a denser form
        room = bottom - top - tiles_h - least - p
        cols, seats, middle_h = _denser(c, view, width, room)
        fixed = tiles_h + middle_h + p
    alerts_h = max(0, bottom - top - fixed) if view.wrong else 0
    return TablePage(view, tiles_h, alerts_h, middle_h, lines, band_h, cols, seats)


def _denser(c: Canvas, view: DealerView, width: int, room: int) -> tuple[int, bool, int]:
    """The pots (or the result's) in less height, for a small panel with many pots: two to a
    row, each with its seats (or who it went to) under its amount; failing that, while the
    hand is played, two to a row with their seats on the SEATS page. The first that fits
    `room`, else the smallest: the columns, whether the seats are said here, the height."""
    forms = [(1, True), (2, True)]
    if view.middle is Middle.PLAY:
        forms.append((2, False))
    elif view.middle is Middle.NEXT_HAND:
        forms = forms[:1]
    needs = [(_content_need(c, view, width, cols, seats), cols, seats) for cols, seats in forms]
    h, cols, seats = next((n for n in needs if n[0] <= room), min(needs))
    return cols, seats, h


def _table_page(c: Canvas, view: DealerView) -> None:
    """The glance numbers, what is wrong, the board and the pots (or the result, or the next
    hand), then the seats that fit, in that order of need. Short of room, the NEXT band takes
    the prompt's short form first (one line); an incident's text that still does not fit is on
    the second page."""
    p = c.pad
    plan = _table_plan(c, view)
    view = plan.view
    width = c.width - 2 * p
    y = _header_height(c, view) + p
    bottom = c.height - plan.band_h - p
    if plan.tiles_h:
        y += glance.draw(c, view, Rect(p, y, width, bottom - y))
    if view.wrong:
        room = plan.alerts_h - (p if plan.middle_h else 0)
        y += alert_panel.draw(c, view, Rect(p, y, width, room), compact=True) + p
    board_drawn = False
    if plan.middle_h:
        area = Rect(p, y, width, plan.middle_h)
        if area.bottom > bottom:
            c.drop(f"{view.middle.value} (no room under the alerts)")
        else:
            board_drawn = _draw_content(
                c, view, area, big=False, cols=plan.cols, seats=plan.pot_seats
            )
            if not plan.pot_seats:
                c.drop(f"the seats of each pot ({WHERE_SEATS})")
            y += plan.middle_h + p
    seats = seat_table.table_seats(view.seats)
    if y < bottom:
        y += seat_table.seat_table(c, seats, Rect(p, y, width, bottom - y), WHERE_SEATS)
        y += _summary(c, view, Rect(p, y, width, max(0, bottom - y)))
        # The hand's final board(s), when the result had no room for them, in the room the
        # result and the seats leave: two boards one under the other, or side by side when only
        # one row fits.
        result = view.middle is Middle.RESULT and not board_drawn
        board_h = felt.board_need(c, view, big=False) if result else 0
        row_h, row_w = felt.card_size(c, big=False)[1], felt.board_row_width(c, view, big=False)
        if board_h and y + p + board_h <= bottom:
            bw = felt.board_width(c, view, big=False)
            top = y + p + (bottom - y - p - board_h) // 2
            felt.draw_board(c, view, p + (width - bw) // 2, top, big=False)
        elif board_h and y + p + row_h <= bottom and row_w <= width:
            top = y + p + (bottom - y - p - row_h) // 2
            felt.draw_board_row(c, view, p + (width - row_w) // 2, top, big=False)
    else:
        for s in seats:
            c.drop(f"seat {s.number} stack and bet ({WHERE_SEATS})")
    if plan.band_h:
        band = Rect(0, c.height - plan.band_h, c.width, plan.band_h)
        next_band.draw(c, view, band, plan.band_lines)


def _details(c: Canvas, view: DealerView) -> alert_panel.Details:
    """What the first page (of a small panel) has no room to show whole."""
    if not view.wrong:
        return alert_panel.Details()
    plan = _table_plan(c, view)
    room = plan.alerts_h - (c.pad if plan.middle_h else 0)
    return alert_panel.details(c, plan.view, c.width - 2 * c.pad, room)


def _details_page(c: Canvas, view: DealerView, folded: alert_panel.Details) -> None:
    """The alerts the first page could not show whole, in full, then the band."""
    p = c.pad
    top = _header_height(c, view) + p
    band_h = next_band.need(c, view, c.width, BAND_LINES)
    area = Rect(p, top, c.width - 2 * p, c.height - band_h - top - p)
    alert_panel.draw_details(c, view, folded, area)
    next_band.draw(c, view, Rect(0, c.height - band_h, c.width, band_h), BAND_LINES)


def _seats_page(c: Canvas, view: DealerView, shape: TableShape) -> None:
    """Every seat: the table as the dealer sees it when it fits, else the seat table (the seats
    in the hand, the others on a line). The page is a short look (it turns back by itself): the
    band stays on the first page, a STOP says so in the status strip."""
    p = c.pad
    top = _header_height(c, view) + p
    region = Rect(0, top, c.width, c.height - top - p)
    pot_seats = view.middle is Middle.PLAY and not _table_plan(c, view).pot_seats
    plans = (
        plan_ring(c, view.seats, shape, region, density, flat)
        for density in (Density.FULL, Density.COMPACT, Density.TOKEN)
        for flat in (False, True)
    )
    for ring in plans:
        if ring is not None:
            draw_ring(c, ring)
            middle = _middle(c, view, ring)
            if middle is not None:
                _draw_content(c, view, middle, big=False)
            elif pot_seats:
                c.drop("the seats of each pot (no room)")
            break
    else:
        width = c.width - 2 * p
        seats = seat_table.table_seats(view.seats)
        used = seat_table.seat_table(c, seats, Rect(p, top, width, region.h), "no room")
        used += _summary(c, view, Rect(p, top + used, width, max(0, region.bottom - top - used)))
        if pot_seats:  # the first page had room for the pots' amounts only
            _pot_seats(c, view, Rect(p, top + used + p, width, region.bottom - top - used - p))


def _pot_seats(c: Canvas, view: DealerView, area: Rect) -> None:
    """The pots with the seats that play for each (without the board: it is on the first
    page), one to a row or two, as they fit `area`; else the seats of each pot on a paragraph,
    runs of seats shortened ("MAIN SEATS 1-7 · SIDE 1 SEATS 2-7", en dashes)."""
    pots = replace(view, board=(), board2=())
    for cols in (1, 2):
        need = felt.middle_need(c, pots, area.w, big=False, cols=cols)
        if need <= area.h and (cols == 2 or felt.pots_width(c, pots) <= area.w):
            felt.draw_middle(c, pots, Rect(area.x, area.y, area.w, need), False, cols)
            return
    text = felt.pot_seats_text(view)
    if len(c.wrap(text, T, area.w)) * c.row(T) > area.h:
        c.drop("the seats of each pot (no room)")
        return
    c.paragraph(area, text, T)


def _summary(c: Canvas, view: DealerView, area: Rect) -> int:
    """The seats not in the table on one or two lines, if they fit; returns the height used."""
    text = seat_table.summary_text(seat_table.other_seats(view.seats))
    if not text or area.h <= 0:
        return 0
    if len(c.wrap(text, T, area.w)) * c.row(T) > area.h:
        c.drop(f"seats not in the hand ({WHERE_SEATS})")
        return 0
    return c.paragraph(area, text, T, Style.DIM)


# status strip ---------------------------------------------------------------------------------
def _dealer_forms(c: Canvas, view: DealerView) -> list[str]:
    """The dealer button's labels, longest first: the signed-in dealer's name (a long one cut to
    a fifth of the strip, with a dot to say so), then its first three letters; SIGN IN while
    nobody is signed in."""
    if not view.dealer:
        return [dealer_signin.SIGN_IN]
    name, room = view.dealer, c.width // 5 - 2 * c.pad
    while len(name) > 1 and not c.fits(name if name == view.dealer else f"{name}.", T, room):
        name = name[:-1]
    forms = [name if name == view.dealer else f"{name}."]
    if len(view.dealer) > 4:
        forms.append(f"{view.dealer[:3]}.")
    return forms


def _strip_need(c: Canvas, view: DealerView, title: str, stop: bool, full: bool) -> int:
    """The least room the status strip's left part must keep: the CALL FLOOR banner (its head,
    and in `full` its note), or a STOP, the key panel's entry (in `full` its long form), a link
    alert and the shortest title."""
    p = c.pad
    if view.floor_call:
        note = c.measure(FLOOR_NOTE, T) + 2 * p if full else 0
        return c.measure(FLOOR_HEAD, K) + 2 * c.mm_x(2) + p + note
    need = c.measure(title or (f"H{view.hand}" if view.hand else view.title), T) + p
    pills = ["STOP"] if stop else []
    entry = view.entry if full else view.entry_short or view.entry
    if entry:
        pills.append(entry)
    if view.status and view.status_alert:
        pills.append(view.status)
    if view.clock is not None:
        pills.append(view.clock.short)
    return need + sum(c.measure(t, T) + 3 * p for t in pills)


def _header_height(c: Canvas, view: DealerView) -> int:
    touch_h = c.mm_y(c.theme.touch_target_mm)
    return max(touch_h, c.row(K) if view.floor_call else c.row(T)) + c.pad


def _header(c: Canvas, view: DealerView, title: str = "", stop: bool = False) -> int:
    p = c.pad
    touch_h = c.mm_y(c.theme.touch_target_mm)
    height = _header_height(c, view)
    x_right = c.width - p // 2

    def width(label: str) -> int:
        return max(c.measure(label, T) + 2 * p, c.mm_x(c.theme.touch_target_mm))

    # The signed-in dealer's name (SIGN IN while nobody is: it opens the sign-in), left of
    # TECH and REVIEW; it gives way, to its short form and then altogether, to what must be
    # seen on a full strip (the panel's entry, in full where that fits without the name, a STOP,
    # a link alert): for the seconds those last, or until the hand is over (a sign-in is
    # between hands).
    gap = c.mm_x(c.theme.touch_gap_mm)
    fixed = x_right - width("TECH") - width("REVIEW") - 2 * gap - 2 * p
    need = _strip_need(c, view, title, stop, full=True)  # the long forms where they fit
    if fixed < need:
        need = _strip_need(c, view, title, stop, full=False)
    names = [f for f in _dealer_forms(c, view) if fixed - width(f) - gap >= need]
    buttons = [("TECH", ACTION_TECH), ("REVIEW", ACTION_REVIEW)]
    if names:
        buttons.append((names[0], dealer_signin.ACTION_OPEN))
    for label, action in buttons:
        w = width(label)
        x_right -= w
        rect = Rect(x_right, (height - touch_h) // 2, w, touch_h)
        x_right -= gap
        if view.floor_call:
            c.box(rect.inset(-2), Style.BASE)
        c.button(rect, label, action)
    left = Rect(p, 0, x_right - 2 * p, height)
    if view.floor_call:
        banner = Rect(0, 0, x_right, height)
        c.box(banner, Style.ALERT, Edge.FLOOR, c.mm_y(1.2))
        inner = banner.inset(c.mm_x(2), 0)
        head = FLOOR_HEAD
        c.text(Rect(inner.x, 0, c.measure(head, K), height), head, K, Style.ALERT)
        rest = Rect(inner.x + c.measure(head, K) + 2 * p, 0, 0, height)
        rest = Rect(rest.x, 0, inner.right - rest.x, height)
        if c.fits(FLOOR_NOTE, T, rest.w):
            c.text(rest, FLOOR_NOTE, T, Style.ALERT)
        return height
    hand = view.title  # "HAND 42"
    short = f"H{view.hand}" if view.hand else hand  # as the floor's lists say it
    full = " · ".join(x for x in (hand, view.game, view.street) if x)
    titles = [full, f"{hand} · {view.street}" if view.street else hand, hand, short]
    if view.game and view.street and view.board:
        # a game whose name is long: the game (a mixed game's, a Drawmaha's form) rather than
        # the street, once the board shows the street
        titles[1:1] = [f"{hand} · {view.game}", f"{short} · {view.game}"]
    if title:  # a second page says what it is
        titles = [f"{title} · {t}" for t in titles] + [title, short]
    # Right to left: a STOP on a page without its band, the link state, what the key panel is
    # in the middle of (in full, else its short form), the title in the room left (the longest
    # that fits; none before anything else gives way). "SHOE OK" is the first thing to go; a
    # link alert gives way to the panel's entry only where both cannot fit (a small panel), for
    # the few seconds the entry lasts: the dealer's keys are echoed where the table does not move.
    pills: list[tuple[str, Style, Edge]] = []
    if stop:
        pills.append(("STOP", Style.ALERT, Edge.STOP))
    link = None
    if view.status:
        ok = not view.status_alert
        link = (view.status, Style.BASE if ok else Style.ALERT, Edge.OK if ok else Edge.FAULT)

    def room_after(chosen: list[tuple[str, Style, Edge]]) -> int:
        return left.w - sum(c.measure(t, T) + 3 * p for t, _, _ in chosen)

    if view.entry:  # it must be seen
        forms = [(e, Style.INFO, Edge.BUTTON) for e in (view.entry, view.entry_short) if e]

        def first_fit(keep: list[tuple[str, Style, Edge]]) -> tuple[str, Style, Edge] | None:
            return next((e for e in forms if room_after([e, *keep]) >= 0), None)

        beside = first_fit([*pills, link]) if link is not None and view.status_alert else None
        pills = [beside or first_fit(pills) or forms[-1], *pills]
    clock = view.clock
    if clock is not None:
        # A tournament's level clock: the longest form that leaves room for the shortest
        # title, else the shortest form (the title gives way first); before the link state.
        least_title = c.measure(title or titles[-1], T) + p
        look = (clock.style, Edge.ALLIN if clock.style is Style.INFO else Edge.PLAIN)
        forms = [(f, *look) for f in clock.forms]
        best = next((f for f in forms if room_after([*pills, f]) >= least_title), None)
        if best is None:
            best = next((f for f in forms if room_after([*pills, f]) >= 0), None)
        if best is not None:
            pills.append(best)
        else:
            c.drop(f"clock {clock.short}")
    if link is not None:
        pills.append(link)
        least = title or titles[-1]  # a second page names itself before "SHOE OK"
        # (the title's room is what is left after the pills, less a pad: `room` below)
        if room_after(pills) < (0 if view.status_alert else c.measure(least, T) + p):
            pills.pop()
    x = left.right
    for text, style, edge in reversed(pills):
        w = c.measure(text, T) + 2 * p
        if x - w < left.x:
            c.drop(f"status {text}")
            continue
        x -= w
        rect = Rect(x, p // 2, w, height - p)
        c.box(rect, style, edge, 3, Shape.ROUNDED)
        c.text(rect, text, T, style, Align.CENTER)
        x -= p
    room = x - left.x - p
    title = next((t for t in titles if c.fits(t, T, room)), "")
    if title:
        c.text(Rect(left.x, 0, room, height), title, T, Style.BASE)
    return height

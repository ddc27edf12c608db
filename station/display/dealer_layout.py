"""The dealer screen's geometry: a `DealerView` placed on a panel as a screen model. Pure.

Layout, from the top: a status strip (hand, street, shoe, the REVIEW and TECH touch buttons; it
becomes the CALL FLOOR banner while a floor call is held); the seat ring around three sides, the
dealer's side at the bottom (seat 1 at the dealer's left, bottom-left); the centre with the glance
numbers (seat to act, to call, raise limits, pot), the board and the pots, or, while something is
wrong, the incident and recovery banners; and a band along the bottom, nearest the dealer, with the
next procedure step or the STOP. All sizes come from the theme's millimetres for this panel.

When the seat ring cannot fit at the required text sizes (a 7" panel), or fits but leaves no room
for an incident or the recovery step to do now, the layout falls back to a compact one with two
pages, and a touch anywhere below the status strip turns from one to the
other (`nav` returns to the table page by itself after a short while):

- TABLE: the glance numbers; then what is wrong (incident, recovery) or else the board and the
  pots as lines of text; then, in the rows left, the seat table (`seat_table`: number, stack,
  bet, the seat to act first when not all fit) and the other seats summarised on one line.
- SEATS: every seat's stack and bet, with each alert kept as a line above them and the STOP or
  NEXT band below; the glance numbers, pots and board come back as room allows.

Whatever still does not fit is recorded in `ScreenModel.dropped`, saying where it can be seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from station.display.canvas import Canvas
from station.display.dealer_view import (
    STEP_STATE_TEXT,
    DealerView,
    SeatLabel,
    StepLine,
    StepState,
)
from station.display.model import Align, Rect, ScreenModel, Shape
from station.display.panel import PanelConfig
from station.display.seat_table import (
    other_seats,
    rows_needed,
    seat_table,
    summary_text,
    table_seats,
)
from station.display.theme import DEFAULT_THEME, Edge, Style, TextRole, Theme
from station.engine.snapshot import SeatStatus

K, T, H = TextRole.KEY, TextRole.TEXT, TextRole.HEAD
ACTION_REVIEW = "nav:floor"
ACTION_TECH = "nav:diag"
ACTION_SEATS = "dealer:seats"  # small panels: the page with every seat's stack and bet
ACTION_TABLE = "dealer:table"  # ... and back
EN_DASH = "\u2013"  # between the raise limits
_WIDEST_STATUS = ("IN HAND", "SIT OUT", "FOLDED", "ALL-IN", "TO ACT", "EMPTY", "DEAD")
SEATS_PAGE = "SEATS"


class DealerPage(StrEnum):
    """The dealer screen's pages on a small panel (a large one shows everything at once)."""

    TABLE = "table"
    SEATS = "seats"


@dataclass(frozen=True, slots=True)
class RingSlot:
    seat: SeatLabel
    box: Rect
    bet: Rect


def dealer_screen(
    view: DealerView,
    panel: PanelConfig,
    theme: Theme = DEFAULT_THEME,
    page: DealerPage = DealerPage.TABLE,
) -> ScreenModel:
    ring = _layout(view, panel, theme, DealerPage.TABLE, ring=True)
    if ring is not None and not _alerts_dropped(ring):
        return ring
    table = _layout(view, panel, theme, DealerPage.TABLE, ring=False)
    assert table is not None
    if ring is not None and len(_alerts_dropped(table)) >= len(_alerts_dropped(ring)):
        return ring
    # No ring, or one that leaves no room for what is wrong (a small panel): the compact pages.
    if page is DealerPage.TABLE:
        return table
    seats = _layout(view, panel, theme, page, ring=False)
    assert seats is not None
    return seats


def _alerts_dropped(model: ScreenModel) -> list[str]:
    return [d for d in model.dropped if ": incident " in d or ": recovery step " in d]


def _layout(
    view: DealerView, panel: PanelConfig, theme: Theme, page: DealerPage, ring: bool
) -> ScreenModel | None:
    """The screen with the seat ring (None when it does not fit), or the compact one."""
    c = Canvas("dealer", panel, theme)
    top = _header_height(c, view)
    show_band = view.stop_text is not None or view.recovery is None
    band_h = _band_height(c, view, compact=not ring)
    band_top = c.height - band_h if show_band else c.height
    slots = _ring(c, view.seats, top + c.pad, band_top - c.pad) if ring else None
    if ring and slots is None:
        return None
    seats_page = not ring and page is DealerPage.SEATS
    if seats_page:
        c.screen = "dealer-seats"
    _header(c, view, seats_page)
    if slots is not None:
        ring_slots, center = slots
        for slot in ring_slots:
            _seat(c, slot)
        _center(c, view, center)
    else:
        body = Rect(0, top + c.pad, c.width, band_top - c.pad - top - c.pad)
        if seats_page:
            _seats_page(c, view, body)
        else:
            _compact(c, view, body)
        # Everything below the status strip turns the page (no room for one more button).
        below = Rect(0, top + c.pad, c.width, c.height - top - c.pad)
        c.target(below, ACTION_TABLE if seats_page else ACTION_SEATS)
    if show_band:
        _band(c, view, Rect(0, band_top, c.width, band_h))
    return c.model()


# status strip ---------------------------------------------------------------------------------
def _header_height(c: Canvas, view: DealerView) -> int:
    touch_h = c.mm_y(c.theme.touch_target_mm)
    return max(touch_h, c.row(K) if view.floor_call else c.row(T)) + c.pad


def _header(c: Canvas, view: DealerView, seats_page: bool = False) -> int:
    p = c.pad
    touch_h = c.mm_y(c.theme.touch_target_mm)
    height = _header_height(c, view)
    x_right = c.width - p // 2
    for label, action in (("TECH", ACTION_TECH), ("REVIEW", ACTION_REVIEW)):
        w = max(c.measure(label, T) + 2 * p, c.mm_x(c.theme.touch_target_mm))
        x_right -= w
        rect = Rect(x_right, (height - touch_h) // 2, w, touch_h)
        x_right -= c.mm_x(c.theme.touch_gap_mm)
        if view.floor_call:
            c.box(rect.inset(-2), Style.BASE)
        c.button(rect, label, action)
    left = Rect(p, 0, x_right - 2 * p, height)
    if view.floor_call:
        banner = Rect(0, 0, x_right, height)
        c.box(banner, Style.ALERT, Edge.FLOOR, c.mm_y(1.2))
        inner = banner.inset(c.mm_x(2), 0)
        head = "CALL FLOOR"
        c.text(Rect(inner.x, 0, c.measure(head, K), height), head, K, Style.ALERT)
        rest = Rect(inner.x + c.measure(head, K) + 2 * p, 0, 0, height)
        rest = Rect(rest.x, 0, inner.right - rest.x, height)
        note = "FLOOR PIN CLEARS"
        if c.fits(note, T, rest.w):
            c.text(rest, note, T, Style.ALERT)
        return height
    hand = view.title.split(" · ")[0]  # "HAND 42"
    short = hand.replace("HAND ", "H")  # "H42", as the floor's lists say it
    titles = [f"{view.title} · {view.street}" if view.street else view.title, hand, short]
    if seats_page:  # the page says what it is
        titles = [f"{SEATS_PAGE} · {t}" for t in titles] + [SEATS_PAGE, short]
    status_w = c.measure(view.status, T) + 2 * p if view.status else 0
    room = left.w - status_w - p
    if view.status and not view.status_alert and not c.fits(titles[0], T, room):
        status_w, room = 0, left.w  # an OK shoe is the first thing to give way
    if status_w:
        rect = Rect(left.right - status_w, p // 2, status_w, height - p)
        style = Style.ALERT if view.status_alert else Style.BASE
        c.box(rect, style, Edge.FAULT if view.status_alert else Edge.OK, 3, Shape.ROUNDED)
        c.text(rect, view.status, T, style, Align.CENTER)
    title = next((t for t in titles if c.fits(t, T, room)), titles[-1])
    c.text(Rect(left.x, 0, room, height), title, T, Style.BASE)
    return height


# seat ring ------------------------------------------------------------------------------------
def _seat_size(c: Canvas, seats: tuple[SeatLabel, ...]) -> tuple[int, int, int]:
    p = c.pad
    width = max(c.measure(s, T) for s in _WIDEST_STATUS) + 2 * p
    rows = 4 if any(s.up_cards for s in seats) else 3
    return width, rows * c.row(T) + p, c.row(T)


def _ring(
    c: Canvas, seats: tuple[SeatLabel, ...], top: int, bottom: int
) -> tuple[list[RingSlot], Rect] | None:
    """Seats up the left, across the far side, down the right (seat 1 at the dealer's left)."""
    n = len(seats)
    if n == 0:
        return [], Rect(c.pad, top, c.width - 2 * c.pad, bottom - top)
    sw, sh, bet_h = _seat_size(c, seats)
    gap = c.pad
    slot_h = sh + bet_h + gap + gap // 2
    for k in range(n // 2 + 1):
        across = n - 2 * k
        if across * sw + (across + 1) * gap > c.width:
            continue
        side_top = top + slot_h
        if k and side_top + k * slot_h > bottom:
            return None
        if bottom - side_top < c.row(K) * 3:
            return None
        side_w = sw + 2 * gap if k else gap
        center = Rect(side_w, side_top, c.width - 2 * side_w, bottom - side_top)
        if k and center.w < c.width // 2:
            return None
        ordered = sorted(seats, key=lambda s: s.seat)
        slots: list[RingSlot] = []
        # left column, seat 1 at the bottom
        for i, seat in enumerate(ordered[:k]):
            y = side_top + (k - 1 - i) * slot_h
            slots.append(_slot(seat, gap, y, sw, sh, bet_h, gap))
        step = (c.width - across * sw) // (across + 1)
        for i, seat in enumerate(ordered[k : k + across]):
            x = step + i * (sw + step)
            slots.append(_slot(seat, x, top, sw, sh, bet_h, gap))
        for i, seat in enumerate(ordered[k + across :]):
            y = side_top + i * slot_h
            slots.append(_slot(seat, c.width - gap - sw, y, sw, sh, bet_h, gap))
        return slots, center
    return None


def _slot(seat: SeatLabel, x: int, y: int, sw: int, sh: int, bet_h: int, gap: int) -> RingSlot:
    return RingSlot(seat, Rect(x, y, sw, sh), Rect(x, y + sh + gap // 2, sw, bet_h))


def _seat(c: Canvas, slot: RingSlot) -> None:
    s, box, p = slot.seat, slot.box, c.pad
    row = c.row(T)
    thick = c.mm_y(1.4) if s.to_act else 2
    shape = Shape.DASHED if s.status is SeatStatus.EMPTY else Shape.RECT
    fill = Style.NOW if s.to_act else Style.BASE
    c.box(box, fill, s.edge, thick, shape)
    inner = box.inset(thick + p // 2, thick)
    base = fill if s.to_act else Style.DIM if s.style is Style.DIM else Style.BASE
    r1 = Rect(inner.x, inner.y, inner.w, row)
    c.text(r1, s.number, T, base)
    if s.markers:
        c.text(r1, s.markers, T, base, Align.RIGHT)
    r2 = Rect(inner.x, inner.y + row, inner.w, row)
    if s.style is Style.INFO:
        c.box(Rect(box.x + thick, r2.y, box.w - 2 * thick, row), s.style)
    c.text(r2, s.status_text, T, s.style)
    r3 = Rect(inner.x, inner.y + 2 * row, inner.w, row)
    if s.stack:
        c.text(r3, s.stack, T, base)
    if s.up_cards:
        ch = row - p // 2
        cw = round(ch * 0.72)
        for i, (rank, suit) in enumerate(s.up_cards):
            c.card(Rect(inner.x + i * (cw + p // 2), inner.y + 3 * row, cw, ch), rank, suit, T)
    if s.bet:
        w = c.measure(s.bet, T) + slot.bet.h + p
        chip = Rect(slot.bet.x + (slot.bet.w - w) // 2, slot.bet.y, w, slot.bet.h)
        c.box(chip, Style.BASE, Edge.PLAIN, 2, Shape.CHIP)
        c.text(Rect(chip.x + chip.h, chip.y, chip.w - chip.h - p // 2, chip.h), s.bet, T)


# centre ---------------------------------------------------------------------------------------
def _center(c: Canvas, view: DealerView, area: Rect) -> None:
    used = _tiles(c, view, area)
    rest = Rect(area.x, area.y + used, area.w, area.h - used)
    if view.recovery is not None or view.incidents:
        _alerts(c, view, rest)
        return
    board_w = _board(c, view, rest)
    gap = 2 * c.pad if board_w else 0
    _pots(c, view, Rect(rest.x + board_w + gap, rest.y, rest.w - board_w - gap, rest.h))


_NUMBER_LABELS = ("TO ACT", "TO CALL", "MIN RAISE", "MAX RAISE", "POT")


def _number_rows(view: DealerView) -> list[tuple[str, str]]:
    return list(
        zip(
            _NUMBER_LABELS,
            (view.to_act, view.to_call, view.min_raise, view.max_raise, view.pot_total),
            strict=True,
        )
    )


def _numbers(c: Canvas, view: DealerView, area: Rect) -> None:
    row = c.row(K)
    for i, (label, value) in enumerate(_number_rows(view)):
        r = Rect(area.x, area.y + i * row, area.w, row)
        if r.bottom > area.bottom:
            c.drop(label)
            continue
        style = Style.NOW if i == 0 and value != "—" else Style.BASE
        if style is Style.NOW:
            c.box(r, style, Edge.TO_ACT, 2)
        inner = r.inset(c.pad, 0)
        c.text(inner, label, T, style)
        c.text(inner, value, K, style, Align.RIGHT, key=True)


Tile = tuple[str, str, bool]  # label, value, whether it is the seat to act (drawn in NOW)
Strip = tuple[list[Tile], list[int], int]  # the tiles, the width each needs, the spare width


def _tile_plans(view: DealerView) -> list[list[list[Tile]]]:
    """The ways to lay the numbers out as strips of tiles, the most compact first: one strip;
    one strip with a shorter label; then two strips, the raise limits in tiles of their own."""
    raise_text = "—"
    if view.min_raise != "—":
        raise_text = f"{view.min_raise}{EN_DASH}{view.max_raise}"
    act: Tile = ("TO ACT", view.to_act, view.to_act != "—")
    pot: Tile = ("POT", view.pot_total, False)
    limits: list[Tile] = [
        ("MIN RAISE", view.min_raise, False),
        ("MAX RAISE", view.max_raise, False),
    ]
    return [
        [[act, ("TO CALL", view.to_call, False), ("RAISE", raise_text, False), pot]],
        [[act, ("CALL", view.to_call, False), ("RAISE", raise_text, False), pot]],
        [[act, ("TO CALL", view.to_call, False), pot], limits],
        [[act, ("CALL", view.to_call, False), pot], limits],
    ]


def _tile_plan(c: Canvas, view: DealerView, width: int) -> list[Strip] | None:
    """The first layout whose every strip fits `width`; None: none does."""
    p = c.pad
    for plan in _tile_plans(view):
        strips: list[Strip] = []
        for tiles in plan:
            need = [max(c.measure(a, T), c.measure(b, K)) + 2 * p for a, b, _ in tiles]
            strips.append((tiles, need, width - sum(need) - p * (len(tiles) - 1)))
        if all(spare >= 0 for _, _, spare in strips):
            return strips
    return None


def _tiles_height(c: Canvas, view: DealerView, width: int) -> int:
    """What `_tiles` takes of the height at `width`, with the gap below."""
    plan = _tile_plan(c, view, width)
    if plan is None:
        return 5 * c.row(K) + c.pad
    return len(plan) * (c.row(T) + c.row(K) + c.pad)


def _tiles(c: Canvas, view: DealerView, area: Rect, strips: int = 2) -> int:
    """The numbers as strips of tiles, label above value (when a banner needs the room), at
    most `strips` of them; returns the height used, with the gap below."""
    p = c.pad
    plan = _tile_plan(c, view, area.w)
    if plan is None:
        _numbers(c, view, Rect(area.x, area.y, area.w, min(area.h, 5 * c.row(K))))
        return min(area.h, 5 * c.row(K)) + p
    for tiles, _, _ in plan[strips:]:
        c.drop(" and ".join(label for label, _, _ in tiles))
    height = c.row(T) + c.row(K)
    y = area.y
    for tiles, need, spare in plan[:strips]:
        x = area.x
        for (label, value, now), need_w in zip(tiles, need, strict=True):
            w = need_w + spare // len(tiles)
            r = Rect(x, y, w, height)
            style = Style.NOW if now else Style.BASE
            c.box(r, style, Edge.TO_ACT if now else Edge.PLAIN, 2)
            inner = r.inset(p, 0)
            c.text(Rect(inner.x, r.y, inner.w, c.row(T)), label, T, style)
            c.text(Rect(inner.x, r.y + c.row(T), inner.w, c.row(K)), value, K, style, key=True)
            x += w + p
        y += height + p
    return y - area.y


def _board(c: Canvas, view: DealerView, area: Rect) -> int:
    """The board cards from the top left of `area`; returns the width used."""
    if not view.board:
        return 0
    ch = round(c.row(K) * 1.35)
    cw = max(round(ch * 0.72), c.measure("10", K) + c.pad)
    gap = c.pad
    for i, (rank, suit) in enumerate(view.board):
        c.card(Rect(area.x + i * (cw + gap), area.y + c.row(T), cw, ch), rank, suit)
    slots = max(3, len(view.board))  # room for the flop at least; grows with the board
    c.text(Rect(area.x, area.y, slots * (cw + gap), c.row(T)), "BOARD", T, Style.DIM)
    return slots * (cw + gap) - gap


def _pots(c: Canvas, view: DealerView, area: Rect) -> None:
    if not view.pots:
        return
    p, kr, tr = c.pad, c.row(K), c.row(T)
    label_w = max(c.measure(pl.label, T) for pl in view.pots) + p
    amount_w = max(c.measure(pl.amount, K) for pl in view.pots) + 3 * p
    seats_x = area.x + label_w + amount_w
    c.text(Rect(area.x, area.y, label_w + amount_w, tr), "POTS", T, Style.DIM)
    c.text(Rect(seats_x, area.y, area.right - seats_x, tr), "SEATS", T, Style.DIM)
    y = area.y + tr
    for pl in view.pots:
        if y + kr > area.bottom:
            c.drop(f"pot {pl.label}")
            continue
        c.text(Rect(area.x, y, label_w, kr), pl.label, T)
        amount = Rect(area.x + label_w, y, amount_w - p, kr)
        c.text(amount, pl.amount, K, Style.BASE, Align.RIGHT, key=True)
        seats = pl.seats.removeprefix("SEATS ")
        c.text(Rect(seats_x, y, area.right - seats_x, kr), seats, T)
        y += kr


def _alerts_height(c: Canvas, view: DealerView, width: int) -> int:
    """What `_alerts` takes at `width` when nothing has to give way (laid out aside)."""
    scratch = Canvas(c.screen, c.panel, c.theme)
    return _alerts(scratch, view, Rect(0, 0, width, 100 * c.height))


def _alerts(c: Canvas, view: DealerView, area: Rect) -> int:
    """The recovery steps and incident banners from the top of `area`; returns the y below."""
    p, tr = c.pad, c.row(T)
    y = area.y
    incidents = list(view.incidents)
    rec = view.recovery
    if rec is not None:
        match = next((i for i in incidents if i.rule == rec.rule), None)
        head = f"RECOVERY · {rec.rule}" + (f" · {match.ruling}" if match else "")
        if not c.fits(head, T, area.w - 2 * p):
            head = head.removeprefix("RECOVERY · ")
        if match is not None:
            incidents.remove(match)
        c.box(Rect(area.x, y, area.w, tr), Style.INFO)
        c.text(Rect(area.x + p, y, area.w - 2 * p, tr), head, T, Style.INFO)
        y += tr + p // 2
        tag_w = max(c.measure(t, T) for t in ("DONE", "NOW")) + 2 * p
        steps = list(rec.steps)

        def need(some: list[StepLine]) -> int:
            width = area.w - tag_w - 2 * p
            return sum(len(c.wrap(f"{s.number}. {s.text}", T, width)) * tr + p // 2 for s in some)

        done = [st for st in steps if st.state is StepState.DONE]
        if y + need(steps) > area.bottom and len(done) > 1:  # short of room: one line for them
            c.text(
                Rect(area.x + p, y, area.w - 2 * p, tr),
                f"STEPS 1{EN_DASH}{len(done)} DONE",
                T,
                Style.DIM,
            )
            y += tr + p // 2
            steps = [st for st in steps if st.state is not StepState.DONE]
        if y + need(steps) > area.bottom:
            # Still short: the step to do now always shows; the later ones give way first.
            keep = [st for st in steps if st.state is not StepState.TODO]
            if y + need(keep) > area.bottom:
                keep = [st for st in keep if st.state is StepState.NOW] or keep
            for st in steps:
                if st not in keep:
                    c.drop(f"recovery step {st.number}")
            steps = keep
        for step in steps:
            text_rect = Rect(area.x + tag_w + p, y, area.w - tag_w - 2 * p, area.bottom - y)
            lines = c.wrap(f"{step.number}. {step.text}", T, text_rect.w)
            h = len(lines) * tr
            if y + h > area.bottom:
                c.drop(f"recovery step {step.number}")
                continue
            style = {StepState.DONE: Style.DIM, StepState.NOW: Style.NOW}.get(
                step.state, Style.BASE
            )
            if step.state is StepState.NOW:
                c.box(Rect(area.x, y, area.w, h), Style.NOW, Edge.TO_ACT, c.mm_y(0.8))
            tag = STEP_STATE_TEXT[step.state]
            if tag:
                c.text(Rect(area.x + p, y, tag_w, tr), tag, T, style)
            c.paragraph(
                Rect(text_rect.x, y, text_rect.w, h), f"{step.number}. {step.text}", T, style
            )
            y += h + p // 2
    for inc in incidents:
        head = f"{inc.rule} · {inc.ruling}"
        lines = c.wrap(inc.text, T, area.w - 2 * p)
        h = tr * (1 + min(2, len(lines)))
        if y + h > area.bottom:
            c.drop(f"incident {inc.rule}")
            continue
        c.box(Rect(area.x, y, area.w, h), Style.BASE, Edge.STOP, 3)
        c.box(Rect(area.x, y, area.w, tr), Style.ALERT)
        c.text(Rect(area.x + p, y, area.w - 2 * p, tr), head, T, Style.ALERT)
        c.paragraph(Rect(area.x + p, y + tr, area.w - 2 * p, h - tr), inc.text, T, max_lines=2)
        y += h + p
    return y


# bottom band ----------------------------------------------------------------------------------
def _band_height(c: Canvas, view: DealerView, compact: bool = False) -> int:
    if view.stop_text is None:  # a small panel keeps one pad of it for a row of seats
        return c.row(K) + (1 if compact else 2) * c.pad
    width = c.width - c.measure("STOP", H) - 10 * c.pad
    rows = min(3, max(2, len(c.wrap(view.stop_text.upper(), T, width))))
    return max(rows * c.row(T), c.row(H)) + 2 * c.pad


def _band(c: Canvas, view: DealerView, area: Rect) -> None:
    p = c.pad
    if view.stop_text is not None:
        c.box(area, Style.ALERT, Edge.STOP, c.mm_y(1.4))
        sign_w = c.measure("STOP", H) + 4 * p
        sign = Rect(area.x + 2 * p, area.y + p, sign_w, area.h - 2 * p)
        c.box(sign, Style.ALERT, Edge.STOP, c.mm_y(1.0), Shape.OCTAGON)
        c.text(sign, "STOP", H, Style.ALERT, Align.CENTER)
        text = view.stop_text.upper()
        rest = Rect(sign.right + 2 * p, area.y + p, area.right - sign.right - 4 * p, area.h - 2 * p)
        c.paragraph(rest, text, T, Style.ALERT, max_lines=3)
        return
    c.box(area, Style.BASE, Edge.PLAIN, 3)
    label = "NEXT"
    lw = c.measure(label, T) + 2 * p
    c.text(Rect(area.x + 2 * p, area.y, lw, area.h), label, T, Style.DIM)
    c.text(
        Rect(area.x + 2 * p + lw, area.y, area.w - lw - 4 * p, area.h),
        view.next_step,
        K,
        Style.BASE,
    )


# compact (small panels) -----------------------------------------------------------------------
WHERE_SEATS = "on the SEATS page"


def _board_and_pots(view: DealerView) -> list[tuple[str, str]]:
    """(what, line) for the board and, when there are side pots, every pot: small panels show
    them as text (the POT tile has the total)."""
    lines = []
    if view.board:
        cards = " ".join(f"{rank}{suit.value}" for rank, suit in view.board)
        lines.append(("board", f"BOARD {cards}"))
    if len(view.pots) > 1:
        lines.append(("pots", " · ".join(f"{pl.label} {pl.amount}" for pl in view.pots)))
    return lines


def _compact(c: Canvas, view: DealerView, area: Rect) -> None:
    """The TABLE page: the glance numbers; then what is wrong (incident, recovery) or else the
    board and the pots as lines of text; then the seat table in the rows left."""
    p = c.pad
    width = area.w - 2 * p
    wrong = view.recovery is not None or view.incidents
    strips = 2
    if wrong and _tiles_height(c, view, width) + _alerts_height(c, view, width) > area.h:
        strips = 1  # the raise limits' own strip gives way to what is wrong
    y = area.y + _tiles(c, view, Rect(area.x + p, area.y, width, area.h), strips)
    inner = Rect(area.x + p, y, width, area.bottom - y)
    if wrong:
        y = _alerts(c, view, inner) + p // 2
    else:
        for _, line in _board_and_pots(view):
            y += c.paragraph(Rect(inner.x, y, inner.w, area.bottom - y), line, T)
    seats = Rect(inner.x, y, inner.w, max(0, area.bottom - y))
    y += seat_table(c, table_seats(view.seats), seats, WHERE_SEATS)
    _summary(c, view, Rect(inner.x, y, inner.w, max(0, area.bottom - y)))


def _summary(c: Canvas, view: DealerView, area: Rect) -> int:
    """The seats not in the table on one or two lines, if they fit; returns the height used."""
    text = summary_text(other_seats(view.seats))
    if not text:
        return 0
    if len(c.wrap(text, T, area.w)) * c.row(T) > area.h:
        c.drop("seats not in the hand")
        return 0
    return c.paragraph(area, text, T, Style.DIM)


def _alert_lines(c: Canvas, view: DealerView, width: int) -> list[tuple[list[str], Style, Edge]]:
    """Each alert in brief, for the SEATS page: the recovery step to do now, then the head of
    each incident (rule and ruling); the TABLE page has them in full."""
    out: list[tuple[list[str], Style, Edge]] = []
    incidents = list(view.incidents)
    rec = view.recovery
    if rec is not None:
        incidents = [i for i in incidents if i.rule != rec.rule]
        now = next((st for st in rec.steps if st.state is StepState.NOW), None)
        text = f"NOW {now.number}. {now.text}" if now else f"RECOVERY · {rec.rule}"
        out.append((c.wrap(text, T, width), Style.NOW, Edge.TO_ACT))
        for st in rec.steps:
            if st is not now:
                c.drop(f"recovery step {st.number} (on the table page)")
    for inc in incidents:
        out.append((c.wrap(f"{inc.rule} · {inc.ruling}", T, width), Style.ALERT, Edge.STOP))
        c.drop(f"incident {inc.rule} text (on the table page)")
    return out


def _seats_page(c: Canvas, view: DealerView, area: Rect) -> None:
    """The SEATS page: each alert in brief, every seat of the table, then the glance numbers,
    the pots, the other seats and the board as the rows left allow."""
    p, tr = c.pad, c.row(T)
    inner = Rect(area.x + p, area.y, area.w - 2 * p, area.h)
    alerts = _alert_lines(c, view, inner.w - 2 * p)
    alerts_h = sum(len(lines) * tr + p // 2 for lines, _, _ in alerts)
    seats = table_seats(view.seats)
    spare = area.h - alerts_h - rows_needed(c, seats, inner.w) * tr
    y = area.y
    plan = _tile_plan(c, view, inner.w)
    strip_h = c.row(T) + c.row(K) + p
    strips = min(len(plan), spare // strip_h) if plan is not None else 0
    if plan is None and spare >= _tiles_height(c, view, inner.w):
        strips = 2  # the numbers as rows
    if strips:
        y += _tiles(c, view, inner, strips)
    else:
        c.drop("glance numbers (on the table page)")
    for lines, style, edge in alerts:
        h = len(lines) * tr
        c.box(Rect(inner.x, y, inner.w, h), style, edge, 3)
        c.paragraph(Rect(inner.x + p, y, inner.w - 2 * p, h), " ".join(lines), T, style)
        y += h + p // 2
    y += seat_table(c, seats, Rect(inner.x, y, inner.w, max(0, area.bottom - y)), "no room")
    for what, line in reversed(_board_and_pots(view)):  # the pots before the board
        if y + tr > area.bottom or not c.fits(line, T, inner.w):
            c.drop(f"{what} (on the table page)")
            continue
        c.text(Rect(inner.x, y, inner.w, tr), line, T)
        y += tr
    _summary(c, view, Rect(inner.x, y, inner.w, max(0, area.bottom - y)))

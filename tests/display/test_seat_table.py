"""The 7" dealer screen's seats: stack and bet of every seat in the hand, the seat to act marked,
and the SEATS page a touch away when the table page has no room for them (pure, screen models)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from station.display import scenes
from station.display.dealer_layout import ACTION_SEATS, ACTION_TABLE, DealerPage, dealer_screen
from station.display.dealer_view import StationStatus, dealer_view
from station.display.model import Rect
from station.display.nav import (
    SEATS_TIMEOUT_S,
    KeyIn,
    NavContext,
    NavKey,
    NavState,
    Screen,
    Tap,
    Tick,
    handle,
)
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.screens import DisplayInputs, screen_model
from station.display.seat_table import table_seats
from station.display.theme import DEFAULT_THEME, Style
from station.engine.snapshot import PotView, SeatStatus, SeatView, TableSnapshot
from tests.display.screen_read import background_under, glyph_extent, seat_cells

OK = StationStatus(shoe_ok=True)


def test_the_7_inch_screen_shows_stack_and_bet_of_every_seat_ten_handed() -> None:
    model = dealer_screen(dealer_view(scenes.ten_handed_preflop(), OK), PANEL_7)
    cells = {seat: words for seat, (words, _) in seat_cells(model).items()}
    assert cells == {
        "1": "1 995 5",
        "2": "2 1490 10",
        "3": "3 770 30",
        "4": "4 2210 30",
        "5": "5 ALL-IN 145",  # nothing behind: the word says why
        "6": "> 6 1250",  # to act, no bet yet
        "7": "7 480",
        "8": "8 3315",
        "9": "9 905",
        "10": "10 1120",
    }
    assert model.dropped == () and model.clipped == ()
    # and what the table page put first is still there, key-sized
    keys = {t.text for t in model.texts() if t.key}
    assert {"6", "145", "260–1250", "220"} <= keys  # noqa: RUF001


def test_the_seat_to_act_is_marked_by_a_sign_as_well_as_its_colours() -> None:
    model = dealer_screen(dealer_view(scenes.ten_handed_preflop(), OK), PANEL_7)
    cells = seat_cells(model)
    words, box = cells["6"]
    assert words.startswith("> 6")
    assert box.fill == DEFAULT_THEME.pair(Style.NOW).bg
    marked = [seat for seat, (w, _) in cells.items() if w.startswith(">")]
    assert marked == ["6"]
    allin_words, allin_box = cells["5"]
    assert "ALL-IN" in allin_words and allin_box.fill == DEFAULT_THEME.pair(Style.INFO).bg


def test_short_of_rows_the_seat_to_act_and_the_largest_bets_stay_and_the_rest_are_named() -> None:
    # The flop with side pots: the board and pots lines take two of the five rows.
    snap = replace(
        scenes.ten_handed_preflop(),
        board=("Kd", "9s", "4h"),
        pots=(PotView("Main", 100, (1, 2, 3)), PotView("Side 1", 50, (1, 2))),
    )
    model = dealer_screen(dealer_view(snap, OK), PANEL_7)
    cells = {seat: words for seat, (words, _) in seat_cells(model).items()}
    assert cells == {
        "6": "> 6 1250",
        "5": "5 ALL-IN 145",
        "3": "3 770 30",
        "4": "4 2210 30",
        "2": "2 1490 10",
        "MORE": "MORE 1 7 8 9 10",
    }
    assert sorted(model.dropped) == sorted(
        f"dealer: seat {n} stack and bet (on the SEATS page)" for n in (1, 7, 8, 9, 10)
    )
    assert "BOARD Kd 9s 4h" in model.all_text() and "MAIN 100 · SIDE 1 50" in model.all_text()


def test_the_seats_page_shows_every_seat_and_keeps_the_stop_and_the_incident() -> None:
    view = dealer_view(scenes.premature_flop_stop(), StationStatus(shoe_ok=False))
    table = dealer_screen(view, PANEL_7)
    assert seat_cells(table) == {}  # the STOP and the incident take the table page
    page = dealer_screen(view, PANEL_7, page=DealerPage.SEATS)
    cells = {seat: words for seat, (words, _) in seat_cells(page).items()}
    assert cells == {"1": "1 194 6", "4": "> 4 198 2", "5": "5 314 6", "7": "7 96 6"}
    text = page.all_text()
    assert "SEAT 4 HAS NOT ACTED." in text and "STOP" in text  # the band, whole
    assert "PREMATURE-FLOP · REDEAL" in text
    assert "SHOE DOWN" in text
    assert not [d for d in page.dropped if "seat " in d or "glance" in d]
    assert page.clipped == ()


def test_the_seats_page_of_a_recovery_keeps_the_step_to_do_now() -> None:
    page = dealer_screen(
        dealer_view(scenes.premature_flop_recovery(), OK), PANEL_7, page=DealerPage.SEATS
    )
    assert "NOW 3. Reshuffle the stub (press" in page.all_text()
    assert set(seat_cells(page)) == {"1", "4", "5", "7"}
    assert page.dropped == (
        "dealer-seats: recovery step 1 (on the table page)",
        "dealer-seats: recovery step 2 (on the table page)",
        "dealer-seats: recovery step 4 (on the table page)",
    )


CTX = NavContext()


def test_a_touch_below_the_status_strip_turns_to_the_seats_page_and_back() -> None:
    inputs = DisplayInputs(scenes.premature_flop_stop(), status=OK)
    state = NavState()
    model = screen_model(state, inputs, PANEL_7)
    x, y = PANEL_7.width_px // 2, PANEL_7.height_px // 2  # on the incident banner
    assert model.hit(x, y) == ACTION_SEATS
    state, out = handle(state, Tap(x, y, at=1.0), model, CTX)
    assert state.screen is Screen.SEATS and out == ()
    model = screen_model(state, inputs, PANEL_7)
    assert "4" in seat_cells(model)
    assert model.hit(*model.target("nav:floor").rect.center) == "nav:floor"  # still reachable
    state, _ = handle(state, Tap(x, y, at=2.0), model, CTX)
    assert state.screen is Screen.DEALER


def test_the_seats_page_goes_back_by_itself_and_by_key() -> None:
    inputs = DisplayInputs(scenes.ten_handed_preflop(), status=OK)
    state = NavState()
    state, _ = handle(state, KeyIn(NavKey.DOWN, at=10.0), screen_model(state, inputs, PANEL_7), CTX)
    assert state.screen is Screen.SEATS
    state, _ = handle(state, Tick(10.0 + SEATS_TIMEOUT_S - 1), None, CTX)
    assert state.screen is Screen.SEATS
    state, out = handle(state, Tick(10.0 + SEATS_TIMEOUT_S), None, CTX)
    assert state.screen is Screen.DEALER and out == ()
    state, _ = handle(state, KeyIn(NavKey.DOWN), screen_model(state, inputs, PANEL_7), CTX)
    model = screen_model(state, inputs, PANEL_7)
    assert ACTION_TABLE in model.actions()
    state, _ = handle(state, KeyIn(NavKey.BACK), model, CTX)
    assert state.screen is Screen.DEALER


def test_the_10_inch_screen_has_no_seats_page_its_ring_shows_every_seat() -> None:
    inputs = DisplayInputs(scenes.ten_handed_preflop(), status=OK)
    state = NavState()
    model = screen_model(state, inputs, PANEL_10_1)
    assert model.actions() == ("nav:diag", "nav:floor")
    state, _ = handle(state, KeyIn(NavKey.DOWN), model, CTX)
    assert state.screen is Screen.DEALER
    text = model.all_text()
    for stack in ("995", "1490", "770", "2210", "1250", "480", "3315", "905", "1120"):
        assert stack in text
    assert model.dropped == () and model.clipped == ()


_STATES = st.sampled_from([SeatStatus.ACTIVE] * 4 + [SeatStatus.FOLDED, SeatStatus.ALLIN,
                           SeatStatus.EMPTY, SeatStatus.OUT])  # fmt: skip
_BASES = (
    scenes.premature_flop_stop,  # STOP band and incident
    scenes.premature_flop_recovery,  # guided recovery, no band
    scenes.three_way_allin,  # board and side pots
    scenes.floor_call_betting,  # CALL FLOOR held
)


@st.composite
def _tables(draw: st.DrawFn) -> tuple[TableSnapshot, StationStatus]:
    """Any seating of 2 to 10 seats, amounts up to six digits, on one of the scenes above."""
    top = draw(st.sampled_from([200, 5_000, 250_000]))
    seats = []
    for seat in range(1, draw(st.integers(2, 10)) + 1):
        status = draw(_STATES)
        stack = None if status is SeatStatus.EMPTY else draw(st.integers(0, top))
        bet = 0
        if status in (SeatStatus.ACTIVE, SeatStatus.ALLIN, SeatStatus.FOLDED):
            bet = draw(st.one_of(st.just(0), st.integers(1, top)))
        seats.append(SeatView(seat, status, 0 if status is SeatStatus.ALLIN else stack, bet, 2))
    active = [s.seat for s in seats if s.status is SeatStatus.ACTIVE]
    to_act = draw(st.one_of(st.none(), st.sampled_from(active))) if active else None
    seats = [replace(s, to_act=s.seat == to_act) for s in seats]
    betting = to_act is not None
    snap = replace(
        draw(st.sampled_from(_BASES))(),
        seats=tuple(seats),
        to_act=to_act,
        to_call=draw(st.integers(0, top)) if betting else 0,
        min_raise_to=draw(st.integers(1, top)) if betting else None,
        max_raise_to=draw(st.integers(1, top)) if betting else None,
    )
    links = [OK, StationStatus(shoe_ok=False), StationStatus(shoe_ok=True, zones_ok=False)]
    return snap, draw(st.sampled_from(links))


@settings(max_examples=150, deadline=None)
@given(_tables())
def test_the_7_inch_screen_never_cuts_hides_or_overlaps_whatever_the_table(
    table: tuple[TableSnapshot, StationStatus],
) -> None:
    """Any seating and amounts on the 7" panel, both pages: no seat's figures cut or silently
    missing (shown, or named in `dropped` with where to find them), no incident or recovery step
    to do now given way, no two texts on top of each other."""
    snap, status = table
    view = dealer_view(snap, status)
    for page in DealerPage:
        model = dealer_screen(view, PANEL_7, page=page)
        assert model.clipped == ()
        screen = Rect(0, 0, model.width, model.height)
        for t in model.texts():
            assert t.rect.inside(screen), (page, t.text)
            assert background_under(model, t) == DEFAULT_THEME.pair(t.style).bg, (page, t.text)
        extents = [(t.text, glyph_extent(t)) for t in model.texts() if t.text]
        for (a, ea), (b, eb) in itertools.combinations(extents, 2):
            assert not ea.overlaps(eb), (page, a, b)
        assert not [
            d
            for d in model.dropped
            if (": incident " in d and "text (on the table page)" not in d)
            or (": recovery step " in d and "(on the table page)" not in d)
        ], (page, model.dropped)
        if not {ACTION_SEATS, ACTION_TABLE} & set(model.actions()):
            continue  # a heads-up table: the seat ring fits and shows everything
        cells = seat_cells(model)
        for seat in table_seats(view.seats):
            dropped = [d for d in model.dropped if f": seat {seat.number} stack and bet" in d]
            assert (seat.number in cells) != bool(dropped), (page, seat.number, model.dropped)
            if seat.number in cells and seat.bet:
                assert cells[seat.number][0].endswith(f" {seat.bet}")

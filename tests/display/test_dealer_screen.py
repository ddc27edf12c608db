"""The dealer screen's content: what the dealer reads in each must-show situation (pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from station.display import scenes
from station.display.dealer_layout import dealer_screen
from station.display.dealer_view import (
    SEAT_STATUS_TEXT,
    TO_ACT_TEXT,
    StationStatus,
    dealer_view,
    seat_label,
)
from station.display.model import CardFace, Suit
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.seat_table import table_seats
from station.engine.snapshot import SeatStatus, SeatView
from tests.display.screen_read import seat_cells

OK = StationStatus(shoe_ok=True)


def test_every_seat_state_has_its_own_words() -> None:
    labels = [seat_label(SeatView(1, status, 100, 0, 0), None).status_text for status in SeatStatus]
    labels.append(seat_label(SeatView(1, SeatStatus.ACTIVE, 100, 0, 2), 1).status_text)
    assert len(set(labels)) == len(SeatStatus) + 1
    assert TO_ACT_TEXT == "TO ACT"
    assert {SEAT_STATUS_TEXT[SeatStatus.FOLDED], SEAT_STATUS_TEXT[SeatStatus.ALLIN]} == {
        "FOLDED",
        "ALL-IN",
    }


def test_premature_flop_stop_names_seat_4_and_the_rule() -> None:
    view = dealer_view(scenes.premature_flop_stop(), OK)
    model = dealer_screen(view, PANEL_10_1)
    text = model.all_text()
    assert "STOP" in text
    assert "SEAT 4 HAS NOT ACTED" in text
    assert "PREMATURE-FLOP · REDEAL" in text
    seat4 = next(s for s in view.seats if s.seat == 4)
    assert seat4.to_act and seat4.status_text == "TO ACT"
    assert (view.to_act, view.to_call, view.min_raise, view.max_raise) == ("4", "4", "10", "200")
    assert view.pot_total == "21"  # 1 dead small blind + 2 + 6 + 6 + 6 in front
    assert model.clipped == () and model.dropped == ()


def test_three_way_allin_shows_main_and_two_side_pots_that_add_up() -> None:
    snap = scenes.three_way_allin()
    view = dealer_view(snap, OK)
    assert [(p.label, p.amount, p.seats) for p in view.pots] == [
        ("MAIN", "201", "SEATS 2 5 7 9"),
        ("SIDE 1", "210", "SEATS 5 7 9"),
        ("SIDE 2", "160", "SEATS 7 9"),
    ]
    assert view.pot_total == "571"
    assert [s.seat for s in view.seats if s.status_text == "ALL-IN"] == [2, 5, 7]
    model = dealer_screen(view, PANEL_10_1)
    keys = {t.text for t in model.texts() if t.key}
    assert {"201", "210", "160", "571"} <= keys
    assert "BURN & TURN" in model.all_text()
    assert model.clipped == () and model.dropped == ()


def test_recovery_marks_step_3_as_now_and_the_first_two_done() -> None:
    model = dealer_screen(dealer_view(scenes.premature_flop_recovery(), OK), PANEL_10_1)
    texts = [t.text for t in model.texts()]
    assert texts.count("DONE") == 2 and texts.count("NOW") == 1
    joined = " ".join(texts)
    for step in ("1. Leave the burn card", "Reshuffle the stub", "4. Deal a new flop WITHOUT"):
        assert step in joined
    assert model.clipped == () and model.dropped == ()


def test_call_floor_is_shown_in_words() -> None:
    model = dealer_screen(dealer_view(scenes.floor_call_betting(), OK), PANEL_10_1)
    assert "CALL FLOOR" in model.all_text()
    assert model.clipped == () and model.dropped == ()


def test_only_public_cards_are_drawn() -> None:
    """The board and stud up-cards are the only faces; a seat's face-down cards are a count."""
    snap = scenes.three_way_allin()
    model = dealer_screen(dealer_view(snap, OK), PANEL_10_1)
    faces = [(c.rank, c.suit) for c in model.items if isinstance(c, CardFace)]
    assert faces == [("K", Suit.DIAMONDS), ("9", Suit.SPADES), ("4", Suit.HEARTS)]


def test_stud_up_cards_are_shown_on_the_seat() -> None:
    """Seven-card stud, eight seats: each seat's up-cards are public and drawn on its box."""
    up = {1: ("Ah", "Td"), 2: ("3c", "3d"), 5: ("Ks", "2h")}
    seats = tuple(
        SeatView(s, SeatStatus.ACTIVE, 100, 0, 4, up.get(s, ()), to_act=s == 2) for s in range(1, 9)
    )
    snap = replace(scenes.three_way_allin(), game="stud", seats=seats, board=(), pots=(), to_act=2)
    model = dealer_screen(dealer_view(snap, OK), PANEL_10_1)
    faces = sorted(c.rank for c in model.items if isinstance(c, CardFace))
    assert faces == sorted(["A", "10", "3", "3", "K", "2"])
    assert model.clipped == () and model.dropped == ()


@pytest.mark.parametrize(
    "scene", [scenes.premature_flop_stop, scenes.three_way_allin, scenes.premature_flop_recovery]
)
def test_the_7_inch_panel_keeps_the_glance_numbers_and_says_what_it_left_out(scene: object) -> None:
    view = dealer_view(scene(), OK)  # type: ignore[operator]
    model = dealer_screen(view, PANEL_7)
    labels = {t.text for t in model.texts()}
    assert {"TO ACT", "TO CALL", "RAISE", "POT"} <= labels
    assert model.clipped == ()
    # Each seat in the hand is in the seat table with its stack, or named as left out.
    cells = seat_cells(model)
    for seat in table_seats(view.seats):
        left_out = f"dealer: seat {seat.number} stack and bet (on the SEATS page)"
        assert (seat.number in cells) != (left_out in model.dropped), seat.number
    assert not any("stacks and bets" in d for d in model.dropped)


def test_the_7_inch_panel_puts_what_is_wrong_before_the_seats() -> None:
    # What the dealer must act on is never what gives way: the incident banner with its rule,
    # the recovery step to do now, and (with nothing wrong) the board and every pot.
    stop = dealer_screen(dealer_view(scenes.premature_flop_stop(), OK), PANEL_7)
    assert "PREMATURE-FLOP · REDEAL" in stop.all_text()
    assert not any("incident" in d for d in stop.dropped)
    recovery = dealer_screen(dealer_view(scenes.premature_flop_recovery(), OK), PANEL_7)
    assert "NOW" in {t.text for t in recovery.texts()}
    assert "3. Reshuffle the stub" in recovery.all_text()
    assert not any("recovery step 3" in d for d in recovery.dropped)
    allin = dealer_screen(dealer_view(scenes.three_way_allin(), OK), PANEL_7).all_text()
    assert "BOARD Kd 9s 4h" in allin
    assert "MAIN 201 · SIDE 1 210 · SIDE 2 160" in allin


def test_recovery_steps_from_the_engine_are_numbered_once() -> None:
    """The engine's recovery, not a hand-built scene: each step reads "1. ...", never "1. 1. ..."
    (found in the demo's frames)."""
    from pathlib import Path

    from station.engine.table import Table
    from station.session_format import read_session

    scenario = Path(
        "tests/scenarios/PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl"
    )
    table = Table()
    for line in read_session(scenario).lines:
        table.feed(line.event, seq=line.line)
        if table.snapshot().recovery is not None:
            break
    snap = table.snapshot()
    assert snap.recovery is not None, "the premature flop starts a guided recovery"
    joined = dealer_screen(dealer_view(snap, OK), PANEL_10_1).all_text()
    assert "1. " in joined
    assert "1. 1." not in joined


@pytest.mark.parametrize(
    ("status", "text", "alert"),
    [
        (StationStatus(), "", False),
        (StationStatus(shoe_ok=True, zones_ok=True), "SHOE OK", False),
        (StationStatus(shoe_ok=False, zones_ok=True), "SHOE DOWN", True),
        (StationStatus(shoe_ok=True, zones_ok=False), "ZONES DOWN", True),
        (StationStatus(shoe_ok=False, zones_ok=False), "LINKS DOWN", True),
        (StationStatus(zones_ok=True), "ZONES OK", False),  # a table with no shoe configured
    ],
)
def test_the_status_strip_names_each_link_that_is_down(
    status: StationStatus, text: str, alert: bool
) -> None:
    view = dealer_view(scenes.premature_flop_stop(), status)
    assert (view.status, view.status_alert) == (text, alert)
    for panel in (PANEL_7, PANEL_10_1):
        model = dealer_screen(view, panel)
        usual = dealer_screen(dealer_view(scenes.premature_flop_stop(), OK), panel)
        assert model.dropped == usual.dropped  # the strip crowds nothing off the screen
        assert not any(text and text in c for c in model.clipped)
        if alert:  # always shown whole (an OK status is the first thing to give way)
            assert text in model.all_text()

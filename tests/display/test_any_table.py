"""Any seating, on either panel: the dealer screen never cuts, hides or overlaps (a property test:
random stacks, bets, states and seat counts on real table states from the rule scenarios)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.inputs.panel import MAX_DIGITS
from station.display.dealer_layout import DealerPage, dealer_screen
from station.display.dealer_view import StationStatus, dealer_view
from station.display.panel import PANEL_7, PANEL_10_1
from station.display.table_shape import table_for
from station.engine.snapshot import Phase, SeatStatus, SeatView, TableSnapshot
from tests.display.real_tables import at_line
from tests.display.screen_check import problems

_BASES = (  # a STOP with its recovery, betting on a board with side pots, a hand's end, posts
    ("PREMATURE-FLOP/rr11_burn_stays_flop_redealt_without_burn.jsonl", 13),
    ("POT-SIDE-POTS/rr11_two_allins_make_three_pots.jsonl", 20),
    ("POT-SIDE-POTS/rr11_two_allins_make_three_pots.jsonl", 30),
    ("BLIND-MISSED/rr11_player_owing_blinds_who_does_not_post_waits.jsonl", 46),
)
_STATES = st.sampled_from([SeatStatus.ACTIVE] * 4 + [SeatStatus.FOLDED, SeatStatus.ALLIN,
                           SeatStatus.EMPTY, SeatStatus.OUT])  # fmt: skip


@st.composite
def _tables(draw: st.DrawFn) -> tuple[TableSnapshot, StationStatus]:
    """2 to 10 seats, amounts up to six digits, on one of the real states above."""
    scenario, line = draw(st.sampled_from(_BASES))
    base = at_line(scenario, line)
    # Up to the most the key panel can enter (MAX_DIGITS: six digits).
    top = draw(st.sampled_from([200, 5_000, 250_000, 10**MAX_DIGITS - 1]))
    seats = []
    for seat in range(1, draw(st.integers(2, 10)) + 1):
        status = draw(_STATES)
        stack = None if status is SeatStatus.EMPTY else draw(st.integers(0, top))
        bet = 0
        if status in (SeatStatus.ACTIVE, SeatStatus.ALLIN, SeatStatus.FOLDED):
            bet = draw(st.one_of(st.just(0), st.integers(1, top)))
        stack = 0 if status is SeatStatus.ALLIN else stack
        blind = {2: "SB", 3: "BB"}.get(seat, "")
        seats.append(SeatView(seat, status, stack, bet, 2, button=seat == 1, blind=blind))
    active = [s.seat for s in seats if s.status is SeatStatus.ACTIVE]
    to_act = draw(st.one_of(st.none(), st.sampled_from(active))) if active else None
    seats = [replace(s, to_act=s.seat == to_act) for s in seats]
    betting = to_act is not None
    if betting:  # as the engine says it while a round is open
        base = replace(base, phase=Phase.BETTING, prompt=None, next_step=f"ACTION: SEAT {to_act}")
    snap = replace(
        base,
        seats=tuple(seats),
        to_act=to_act,
        to_call=draw(st.integers(0, top)) if betting else 0,
        min_raise_to=draw(st.integers(1, top)) if betting else None,
        max_raise_to=draw(st.integers(1, top)) if betting else None,
    )
    links = [StationStatus(shoe_ok=True), StationStatus(shoe_ok=False),
             StationStatus(shoe_ok=True, zones_ok=False, entry="MISDEAL: CONFIRM?",
                           entry_short="MISDEAL?"),
             StationStatus(shoe_ok=False, selected=1, entry="SEAT 1 VERBAL 1250000",
                           entry_short="S1 V 1250000")]  # fmt: skip
    return snap, draw(st.sampled_from(links))


@settings(max_examples=60, deadline=None)
@given(_tables())
def test_any_table_is_drawn_whole_on_either_panel(
    table: tuple[TableSnapshot, StationStatus],
) -> None:
    snap, status = table
    view = dealer_view(snap, status)
    shape = table_for(s.seat for s in snap.seats)
    for panel in (PANEL_10_1, PANEL_7):
        for page in DealerPage:
            model = dealer_screen(view, panel, page=page, shape=shape)
            assert problems(model, panel) == [], (panel.name, page)

"""The games of issue 29 on the screens, at both panel sizes: a double-board game's two boards
during the play and at its showdown, each board's half of the pot to its own winner, a hi-lo
split, a discard round's NEXT band, and the floor's recall of a double-board hand.

The sessions are real: the recorded Double Board Omaha hand shipped for the screenshots and the
rule scenarios; what the screens must show comes from the engine's own results (the boards, the
splits), which the scenarios check against the rulebooks.
"""

from __future__ import annotations

import pytest

from station.data import session_text
from station.demo.shots import DOUBLE_BOARD, session_end
from station.display.dealer_view import dealer_view
from station.display.floor_cursor import FloorCursor
from station.display.floor_view import FloorData, HandRecallView, RecallStep, floor_screen
from station.display.model import CardFace, ScreenModel
from station.display.panel import PanelConfig
from station.engine.table import Table
from station.formats.session import parse_session
from tests.display.real_tables import at_line
from tests.display.test_dealer_screen import OK, PANELS, assert_readable, pages, says

RIVER_BET = 62  # the session's line where the turn is out on both boards, before the river
PINEAPPLE = "DEAL-HOLDEM/gn_pineapple_three_down_cards_one_discarded_before_the_flop.jsonl"
O8REG = "CHIP-ODD-HILO/gn_omaha_hilo_regular_any_low_wins_high_gets_the_odd_chip.jsonl"


def _cards(models: list[ScreenModel]) -> set[str]:
    """Every card face drawn, as rank + suit letter ("Qd" for the queen of diamonds)."""
    return {f"{i.rank}{i.suit.value}" for m in models for i in m.items if isinstance(i, CardFace)}


def _face(code: str) -> str:
    rank = {"T": "10"}.get(code[0], code[0])
    return rank + code[1]


def _double_board_at(line: int) -> Table:
    table = Table()
    for ln in parse_session(session_text(DOUBLE_BOARD), DOUBLE_BOARD).lines:
        if ln.line > line:
            break
        table.feed(ln.event, seq=ln.line, at=ln.t)
    return table


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_both_boards_are_on_the_felt_while_the_hand_is_played(panel: PanelConfig) -> None:
    snap = _double_board_at(RIVER_BET).snapshot()
    assert len(snap.board) == 4 and len(snap.board2) == 4
    models = pages(snap, panel)
    shown = _cards(models)
    for code in (*snap.board, *snap.board2):
        assert _face(code) in shown, code
    assert says(models, "BURN & RIVER ON BOTH BOARDS")
    assert_readable(models, panel)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_double_board_showdown_shows_both_boards_and_each_boards_half(
    panel: PanelConfig,
) -> None:
    snap = session_end(DOUBLE_BOARD)
    assert snap.result is not None
    (pot,) = snap.result.pots
    halves = {part.name: part for part in pot.parts}
    assert set(halves) == {"board 1", "board 2"}
    view = dealer_view(snap, OK)
    assert view.result is not None
    lines = {line.label: line for line in view.result.pots}
    for name, part in halves.items():
        line = lines[name.upper()]
        assert (line.amount, line.winners) == (part.amount, tuple(sorted(part.won.items())))
    models = pages(snap, panel)
    shown = _cards(models)
    for code in (*snap.result.boards[0], *snap.result.boards[1]):
        assert _face(code) in shown, code  # the final boards, on the first page or the seats'
    assert says(models, "BOARD 1") and says(models, "BOARD 2")
    assert_readable(models, panel)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_hilo_pot_shows_its_high_and_low_halves(panel: PanelConfig) -> None:
    snap = at_line(O8REG, 37)
    assert snap.result is not None
    view = dealer_view(snap, OK)
    assert view.result is not None
    labels = [line.label for line in view.result.pots]
    assert labels[:2] == ["HIGH", "LOW"]
    models = pages(snap, panel)
    assert says(models, "HIGH") and says(models, "LOW")
    assert_readable(models, panel)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_discard_round_names_who_still_discards(panel: PanelConfig) -> None:
    snap = at_line(PINEAPPLE, 20)  # seat 1 has discarded, seats 2 and 3 have not
    assert snap.next_step == "DISCARD 1: SEATS 2 3"
    models = pages(snap, panel)
    assert says(models, "DISCARD 1: SEATS 2 3")
    assert_readable(models, panel)


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_floors_recall_shows_both_boards(panel: PanelConfig) -> None:
    steps = (
        RecallStep(1, "flop", ("Qd", "7h", "2c"), 110, ("Ks", "6d", "3s")),
        RecallStep(2, "s2 bet 300", ("Qd", "7h", "2c"), 410, ("Ks", "6d", "3s")),
    )
    hand = HandRecallView(1, "dbo", "2026-11-28T21:09:41Z", steps, "seat 2 wins 905")
    model = floor_screen(FloorData(hands=(hand,)), FloorCursor("recall", step=1), panel)
    assert "BOARD 1" in model.all_text() and "BOARD 2" in model.all_text()
    assert {"Qd", "7h", "2c", "Ks", "6d", "3s"} <= set(_cards([model]))
    assert_readable([model], panel)

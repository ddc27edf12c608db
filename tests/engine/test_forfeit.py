"""DECK-DEFECT-FREEROLL and DECK-FORFEITED-MONEY-ENTITLEMENT: the floor's FORFEIT after a void
hand keeps a refund in the pot for the next deal, which only the seats of the void deal receive.

001-RR11 §3 "Irregularities" r4-r6 (the whole story is the scenario in
tests/scenarios/DECK-FORFEITED-MONEY-ENTITLEMENT); these pin the edges: what may be forfeited,
and how long the forfeited money stays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from station.formats.session import SessionFormatError, parse_session
from tests.engine.tablekit import Run, cards, draw, key, setup, zone

HOLDEM = {"sb": 1, "bb": 2}


def _void_hand(run: Run) -> None:
    """Seats 1, 2 and 4, button 4 (seat 3 empty, between the big blind and the button):
    everyone calls 2 preflop, then a duplicate on the flop (2c was the first hole card, seat
    1's): void, each gets 2 back. The void deal is redealt by the same button: blinds 1 and 2
    again."""
    run.feed(setup("nlhe", {1: 100, 2: 100, 4: 100}, stakes=HOLDEM, button=4))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"), cards(6))
    run.feed(zone(4, 2), zone(1, 2), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(4, 0), draw("9h"), draw("Jd"), draw("2c"))
    assert run.hand_end()["void"] is True
    assert run.hand_end()["payouts"] == {"1": 2, "2": 2, "4": 2}


def _stack(run: Run, seat: int) -> int | None:
    return {v.seat: v.stack for v in run.snap.seats}[seat]


def test_DECK_DEFECT_FREEROLL_part_of_a_refund_may_be_forfeited_but_no_more() -> None:
    run = Run()
    _void_hand(run)
    run.feed({"type": "key", "key": "FORFEIT", "seat": 2, "amount": 1})
    (first,) = run.incidents("DECK-DEFECT-FREEROLL")
    assert (first["seat"], first["ruling"]) == (2, "forfeit")
    assert _stack(run, 2) == 99
    # Only the one chip left of his refund can still go.
    run.feed({"type": "key", "key": "FORFEIT", "seat": 2, "amount": 2})
    assert len(run.incidents("DECK-DEFECT-FREEROLL")) == 1
    assert run.incidents("STATION-UNEXPECTED-KEY")[-1]["event"] == len(run.lines)
    run.feed({"type": "key", "key": "FORFEIT", "seat": 2})  # the rest: 1
    assert len(run.incidents("DECK-DEFECT-FREEROLL")) == 2
    assert _stack(run, 2) == 98


def test_DECK_DEFECT_FREEROLL_the_snapshot_shows_what_each_seat_may_still_forfeit() -> None:
    # The floor's FORFEIT screen offers exactly these seats (station.display.floor_keys).
    run = Run()
    _void_hand(run)
    assert run.snap.refunds == ((1, 2), (2, 2), (4, 2)) and run.snap.carry == 0
    run.feed({"type": "key", "key": "FORFEIT", "seat": 2, "amount": 1})
    run.feed({"type": "key", "key": "FORFEIT", "seat": 4})
    assert run.snap.refunds == ((1, 2), (2, 1)) and run.snap.carry == 3
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    assert run.snap.refunds == () and run.snap.carry == 3  # in the new hand's pot now


def test_DECK_DEFECT_FREEROLL_only_after_a_void_hand() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100}, stakes=HOLDEM, button=2))
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"), cards(4), key("FOLD", 2))
    assert run.hand_end()["void"] is False
    run.feed({"type": "key", "key": "FORFEIT", "seat": 1})
    assert run.incidents("DECK-DEFECT-FREEROLL") == []
    assert run.incidents("STATION-UNEXPECTED-KEY")


def test_FORFEIT_during_a_hand_is_an_unexpected_key() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100}, stakes=HOLDEM, button=2))
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"), cards(4))
    run.feed({"type": "key", "key": "FORFEIT", "seat": 1})
    assert run.incidents("DECK-DEFECT-FREEROLL") == []
    assert run.incidents("STATION-UNEXPECTED-KEY")


def test_DECK_FORFEITED_MONEY_ENTITLEMENT_the_money_plays_once_then_anyone_may_sit_in() -> None:
    run = Run()
    _void_hand(run)
    run.feed({"type": "key", "key": "FORFEIT", "seat": 4})
    # Hand 2 (the void deal again: button 4, blinds 1 and 2): seat 3 sat down between the big
    # blind and the button and posted; he is left out while the 2 is in the pot.
    run.feed({"type": "seat", "seat": 3, "occupied": True}, zone(3, 2))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    (left_out,) = run.incidents("DECK-FORFEITED-MONEY-ENTITLEMENT")
    assert (left_out["hand"], left_out["seat"]) == (2, 3)
    assert "TAKE BACK 2" in left_out["text"]
    assert run.snap.pots[0].amount == 2  # the forfeited 2 in the middle; the blinds in front
    run.feed(zone(3, 0), cards(6), key("FOLD", 4), key("FOLD", 1))
    end = run.hand_end()
    assert end["hand"] == 2 and end["payouts"] == {"2": 2 + 1 + 2}
    # Hand 3 (button 1, small blind 2): the forfeited money is gone and the big blind reaches
    # the newcomer, who is dealt in (BLIND-NEW-PLAYER).
    run.feed(zone(2, 1), zone(3, 2), key("NEW_HAND"))
    assert len(run.incidents("DECK-FORFEITED-MONEY-ENTITLEMENT")) == 1
    hand = run.table.hand
    assert hand is not None and hand.number == 3 and 3 in hand.seats


def test_DECK_FORFEITED_MONEY_ENTITLEMENT_a_misdeal_keeps_the_money_in_the_redeal() -> None:
    run = Run()
    _void_hand(run)
    run.feed({"type": "key", "key": "FORFEIT", "seat": 4})
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"), cards(2), key("MISDEAL"), key("NEW_HAND"))
    assert run.snap.pots[0].amount == 2
    run.feed(cards(6), key("FOLD", 4), key("FOLD", 1))
    assert run.hand_end()["payouts"] == {"2": 5}


def test_a_FORFEIT_key_names_its_seat(tmp_path: Path) -> None:
    text = (
        '{"type":"setup","game":"nlhe","stakes":{"sb":1,"bb":2},"seats":{"1":9,"2":9}}\n'
        '{"type":"key","key":"FORFEIT"}\n'
    )
    with pytest.raises(SessionFormatError, match=r"s\.jsonl:2: a FORFEIT key needs the 'seat'"):
        parse_session(text, "s.jsonl")


def test_a_new_setup_without_two_of_the_entitled_seats_lets_the_money_play_for_anyone() -> None:
    # Otherwise no hand could ever be dealt again at that table; the money stays in the pot.
    run = Run()
    _void_hand(run)
    run.feed({"type": "key", "key": "FORFEIT", "seat": 4})
    run.feed(setup("nlhe", {4: 98, 5: 100, 6: 100}, stakes=HOLDEM, button=6))
    run.feed(zone(4, 1), zone(5, 2), key("NEW_HAND"))
    assert run.incidents("DECK-FORFEITED-MONEY-ENTITLEMENT") == []
    assert run.snap.pots[0].amount == 2
    run.feed(cards(6), key("FOLD", 6), key("FOLD", 4))
    assert run.hand_end()["payouts"] == {"5": 2 + 1 + 2}

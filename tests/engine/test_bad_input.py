"""Malformed or impossible events: an incident or a clear error naming the line, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from station.cli import main
from station.engine.cards import Card, synthetic_tag
from tests.engine.tablekit import Run, cards, draw, key, setup, zone

HOLDEM = {"sb": 1, "bb": 2}


def _dealt(stacks: dict[int, int]) -> Run:
    run = Run()
    run.feed(setup("nlhe", stacks, stakes=HOLDEM, button=max(stacks)))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"), cards(2 * len(stacks)))
    return run


def test_DECK_DUPLICATE_CARD_voids_the_hand_and_returns_every_wager() -> None:
    # 001-RR11 §3 "Irregularities" r4: "all action is void and all chips in the pot are
    # returned to the players who wagered them".
    run = _dealt({1: 100, 2: 100, 3: 100})
    run.feed(zone(3, 6), zone(1, 6), key("CHECK", 2))  # seat 2 owes 4: the check is refused
    run.feed(zone(2, 6))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0), draw("9h"), draw("2c"))  # 2c was seat 1's card
    (incident,) = run.incidents("DECK-DUPLICATE-CARD")
    assert incident["ruling"] == "void"
    assert incident["event"] == len(run.lines)
    end = run.hand_end()
    assert end["void"] is True
    assert end["payouts"] == {"1": 6, "2": 6, "3": 6}
    assert end["stacks"] == {"1": 100, "2": 100, "3": 100}


def test_DECK_DUPLICATE_CARD_during_the_deal_hands_back_the_blinds() -> None:
    # The same clause, before the first betting round has opened: the blinds are still in
    # front of their seats and are the only wagers; docs/session-format.md: a void hand's
    # payouts return each wager to its owner (the sum of payouts is every chip put in).
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100, 3: 100}, stakes=HOLDEM, button=1))
    run.feed(zone(2, 1), zone(3, 2), key("NEW_HAND"), draw("Ah"), draw("Kd"), draw("Ah"))
    (incident,) = run.incidents("DECK-DUPLICATE-CARD")
    assert incident["ruling"] == "void"
    end = run.hand_end()
    assert end["void"] is True
    assert end["payouts"] == {"2": 1, "3": 2}
    assert end["stacks"] == {"1": 100, "2": 100, "3": 100}


def test_the_same_tag_read_twice_is_a_sensor_reread_not_a_duplicate() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100}, stakes=HOLDEM, button=2))
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"))
    tag = synthetic_tag("blue-1", Card.parse("Ah"))
    run.feed({"type": "draw", "tag": tag}, {"type": "draw", "tag": tag})
    assert run.incidents() == []
    assert [d["card"] for d in run.out if d["type"] == "draw"] == ["Ah"]


def test_an_unknown_tag_is_an_incident_for_the_floor() -> None:
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100}, stakes=HOLDEM, button=2))
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"), {"type": "draw", "tag": "DEADBEEF"})
    (incident,) = run.incidents("STATION-UNKNOWN-TAG")
    assert incident["ruling"] == "floor"
    assert incident["event"] == len(run.lines)


def test_chips_at_a_seat_nobody_sits_in_are_an_incident_naming_the_line() -> None:
    run = _dealt({1: 100, 2: 100, 3: 100})
    run.feed(zone(7, 5))
    (incident,) = run.incidents("STATION-EMPTY-SEAT")
    assert incident["event"] == len(run.lines)


def test_a_seat_number_beyond_the_table_is_a_format_error_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "s.jsonl"
    session.write_text(
        '{"type":"setup","game":"nlhe","stakes":{"bb":2},"seats":{"1":9,"2":9}}\n'
        '{"type":"key","key":"NEW_HAND"}\n'
        '{"type":"zone","seat":12,"amount":5}\n'
    )
    assert main(["replay", str(session)]) == 2
    assert capsys.readouterr().err.startswith(f"{session}:3: 'seat' must be a seat number 1-10")


def test_BET_RELEASED_CHIPS_a_zone_falling_mid_street_is_judged() -> None:
    # 001-RR11 §3 r13: chips released into the pot are binding.
    run = _dealt({1: 100, 2: 100, 3: 100})
    run.feed(zone(3, 6), zone(3, 2))
    (incident,) = run.incidents("BET-RELEASED-CHIPS")
    assert incident["ruling"] == "correct_bet"
    assert incident["seat"] == 3
    assert run.snap.to_call == 5  # seat 1 (small blind) still faces the raise to 6


def test_PREMATURE_FLOP_a_returned_card_read_again_by_its_tag_is_a_new_draw() -> None:
    """The premature flop goes back into the stub; when the reshuffled stub gives one of its
    cards again, the shoe reads the same tag: a card dealt again, not a sensor re-read (found
    running the demo with tags)."""
    from station.engine.cards import default_registry

    registry = default_registry()
    deck = registry.decks[0]
    tag_of = {card.code: tag for tag, card in deck.tags.items()}
    path = Path(
        "tests/scenarios/PREMATURE-FLOP/gn_flop_before_big_blind_option_reshuffled_no_burn.jsonl"
    )
    run = Run()
    for raw in path.read_text().splitlines():
        if not raw or raw.startswith("#"):
            continue
        obj = json.loads(raw)
        if obj["type"] == "draw":
            obj = {"type": "draw", "tag": tag_of[obj.pop("card")]}
        run.feed(obj)
    board = [d for d in run.out if d["type"] == "draw" and d["role"] == "board"]
    assert [d["card"] for d in board] == ["8c", "6s", "Kd"]
    assert not run.incidents("DECK-DUPLICATE-CARD")

"""PHH export: a journaled hand becomes PHH that PokerKit (the format's reference parser, a test
oracle here only) loads and plays to the same finishing stacks, with incidents as comments."""

from __future__ import annotations

import io
import sys
import tomllib

import pytest
from pokerkit import HandHistory

from station.journal.clock import ManualClock
from station.journal.store import Journal
from station.phh.export import VARIANTS, hand_to_phh, phh_document, phh_order
from station.recall.hands import load_hand

from .conftest import PINS, enrol, station
from .synth import Writer, write_hand


@pytest.fixture
def hands(journal: Journal, clock: ManualClock) -> Journal:
    writer = Writer(journal, clock)
    write_hand(writer, 1, setup=True)
    write_hand(writer, 2, setup=True, incident=False)
    return journal


def test_a_hand_exports_as_phh_that_pokerkit_plays_to_the_same_stacks(hands: Journal) -> None:
    recall = load_hand(hands, 1)
    assert recall is not None
    text = hand_to_phh(recall)
    parsed = tomllib.loads(text)
    assert parsed["variant"] == "NT"
    assert parsed["seats"] == [2, 5, 7]  # p1 = first seat after the button (7), button last
    assert parsed["blinds_or_straddles"] == [1, 2, 0]
    assert parsed["antes"] == [0, 0, 0] and parsed["min_bet"] == 2
    assert parsed["starting_stacks"] == [200, 200, 200]
    assert parsed["finishing_stacks"] == [238, 198, 164]
    assert parsed["actions"] == [
        "d dh p1 AhKh",
        "d dh p2 7c7d",
        "d dh p3 QsJs",
        "p3 cbr 6",
        "p1 cc",
        "p2 f",
        "d db Kd8s3h",
        "p1 cc",
        "p3 cbr 10",
        "p1 cc",
        "d db 9c",
        "p1 cc",
        "p3 cc",
        "d db 2h",
        "p1 cbr 20",
        "p3 cc",
        "p1 sm AhKh",
        "p3 sm",
    ]
    assert "  # burn card 2c" in text.splitlines()
    assert "  # DECK-BOXED-SINGLE: BOXED CARD [001-RR11 §4 r1] (ruling play_on)" in text
    history = HandHistory.loads(text)
    states = list(history)
    assert list(states[-1].stacks) == [238, 198, 164]


def test_station_journal_export_phh_writes_every_finished_hand(
    hands: Journal, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    enrol(hands, "flo")  # hole cards: a floor credential (tests/journal/test_hidden_cards.py)
    who = ("--person", "flo", "--pin-stdin", "--journal", str(hands.path))
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{PINS['flo']}\n" * 3))
    assert station("journal", "export", "--phh", *who) == 0
    text = capsys.readouterr().out
    tables = tomllib.loads(text)
    assert sorted(tables) == ["1", "2"]
    assert [list(h)[-1].stacks for h in HandHistory.loads_all(text)] == [
        [238, 198, 164],
        [238, 198, 164],
    ]
    assert station("journal", "export", "--phh", "--hand", "2", *who) == 0
    single = tomllib.loads(capsys.readouterr().out)
    assert single["hand"] == 2 and "# DECK" not in str(single)
    assert station("journal", "export", "--phh", "--hand", "9", *who) == 2


def test_variant_codes_and_player_order() -> None:
    assert VARIANTS == {
        "nlhe": "NT",
        "flhe": "FT",
        "plo": "PO",
        "flo8": "FO/8",
        "stud": "F7S",
        "stud8": "F7S/8",
        "razz": "FR",
        "27sd": "N2L1D",
        "27td": "F2L3D",
        "badugi": "FB",
        "sdhe": "NS",
    }
    assert phh_order([1, 3, 6, 8], button=6, stud=False) == [8, 1, 3, 6]
    assert phh_order([1, 3, 6, 8], button=8, stud=False) == [1, 3, 6, 8]
    assert phh_order([1, 3, 6, 8], button=6, stud=True) == [1, 3, 6, 8]


def test_unfinished_hands_and_games_without_a_variant_are_left_out(hands: Journal) -> None:
    recall = load_hand(hands, 1)
    assert recall is not None
    from dataclasses import replace

    text, skipped = phh_document([replace(recall, game="a5td"), recall])
    assert skipped == ["hand 1: PHH has no variant for 'a5td'"]
    assert text.startswith("[1]\n")

"""The winning hand, named by the engine at the showdown as a dealer announces it (the dealer
screen shows the engine's words; it never evaluates a hand itself)."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.engine.cards import Card
from station.engine.decisions import HandEnd
from station.engine.evaluate import evaluate
from station.engine.evaluate.kinds import HandKind
from station.engine.evaluate.labels import announce
from station.engine.table import Table
from station.formats.session import read_session

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize(
    ("kind", "hole", "board", "said"),
    [
        (HandKind.HIGH, "Ah 2h", "Kh 9h 8h 3c 4d", "FLUSH, ACE HIGH"),
        (HandKind.HIGH, "Ks 7d", "Kc 7h 2s 3c 9d", "TWO PAIR, KINGS AND SEVENS"),
        (HandKind.HIGH, "Ts Td", "Th 4c 4d 2s 9d", "FULL HOUSE, TENS FULL OF FOURS"),
        (HandKind.HIGH, "9s 8d", "7c 6h 5s Kc 2d", "STRAIGHT, NINE HIGH"),
        (HandKind.HIGH, "As 7d", "Kc 8h 2s 3c 9d", "ACE HIGH"),
        (HandKind.OMAHA_LOW_A5_8, "Ah 2c Kd Ks", "8h 6s 3d Kc Qd", "LOW 8-6"),
        (HandKind.LOW_27, "2h 3c 4d 6s 8c", "", "LOW 8-6"),
    ],
)
def test_a_hand_is_announced_in_a_dealers_words(
    kind: HandKind, hole: str, board: str, said: str
) -> None:
    value = evaluate(kind, _cards(hole), _cards(board))
    assert announce(kind, value.score) == said


def test_each_pot_names_the_hand_that_won_it() -> None:
    """Three pots to three winners: seat 1 holds Ac Ad, seat 2 Kc Kd, seat 3 Qc Qd, on a board
    of 2h 7s 9d 5h 3c (the session's deal from the button, seat 4): each pot is announced by
    its own winner's hand."""
    end = _hand_end("POT-SIDE-POTS/rr11_two_allins_make_three_pots.jsonl")
    assert [p.named for p in end.pots] == ["PAIR OF ACES", "PAIR OF KINGS", "PAIR OF QUEENS"]


def test_a_pot_won_without_a_showdown_names_no_hand() -> None:
    end = _hand_end("BLIND-MISSED/gn_returning_player_may_come_back_as_the_live_straddle.jsonl")
    assert [p.named for p in end.pots] == [""]  # one hand left in: nothing to announce


def _hand_end(name: str) -> HandEnd:
    table = Table()
    ends: list[HandEnd] = []
    for line in read_session(SCENARIOS / name).lines:
        ends += [d for d in table.feed(line.event, seq=line.line, at=line.t)
                 if isinstance(d, HandEnd)]  # fmt: skip
    assert ends, name
    return ends[0]

"""The evaluator API the engine codes against: kinds, values, errors, properties."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from station.engine.cards import JOKER, SHORT_DECK, STANDARD_DECK, Card, parse_cards
from station.engine.evaluate import (
    DuplicateCardError,
    HandKind,
    HandValue,
    JokerNotPlayedError,
    evaluate,
    hand_kinds,
    score,
)
from station.engine.games import GAMES

from .helpers import ev


def test_kind_values_are_the_stable_strings() -> None:
    assert [k.value for k in HandKind] == [
        "high",
        "short_deck_high",
        "omaha_high",
        "low_a5",
        "low_a5_8",
        "omaha_low_a5_8",
        "omaha_low_a5",
        "low_27",
        "badugi",
        "high_joker",
        "high_nines",
        "badugi_ace_high",
        "badugi_high",
        "forty_nine",
        "mexican_high",
    ]


def test_hand_value_is_a_frozen_record() -> None:
    v = ev(HandKind.HIGH, "AcAd", "AhAs2c")
    assert isinstance(v, HandValue)
    assert v.kind is HandKind.HIGH
    assert v.label() == "Four of a kind, aces"
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.score = 0  # type: ignore[misc]


def test_the_same_card_twice_is_refused() -> None:
    with pytest.raises(DuplicateCardError, match="Ah appears twice"):
        evaluate(HandKind.HIGH, parse_cards("AhKd"), parse_cards("Ah2c3d4s5h"))
    with pytest.raises(ValueError, match="twice"):
        evaluate(HandKind.BADUGI, parse_cards("AhAh2c3d"))


@pytest.mark.parametrize(
    "kind",
    [
        HandKind.HIGH,
        HandKind.SHORT_DECK_HIGH,
        HandKind.OMAHA_HIGH,
        HandKind.OMAHA_LOW_A5_8,
        HandKind.LOW_27,
        HandKind.BADUGI,
    ],
)
def test_a_joker_in_a_form_without_one_is_refused(kind: HandKind) -> None:
    with pytest.raises(JokerNotPlayedError):
        evaluate(kind, (JOKER, *parse_cards("AhKd2c")), parse_cards("3d4s5h"))


def test_labels_of_each_kind() -> None:
    cases = [
        (HandKind.HIGH, "Tc9d", "8h7s6c2d2h", "Straight, ten high"),
        (HandKind.HIGH, "QcQd", "3h3s7c", "Two pair, queens and threes"),
        (HandKind.HIGH, "JcJd", "9h5s2c", "Pair of jacks"),
        (HandKind.HIGH, "7c7d", "7h5s6c6d", "Full house, sevens full of sixes"),
        (HandKind.HIGH, "5c5d", "5hKs2c", "Three of a kind, fives"),
        (HandKind.HIGH, "2c3c", "4c5c6c", "Straight flush, six high"),
        (HandKind.SHORT_DECK_HIGH, "6c6d", "6h6sAc", "Four of a kind, sixes"),
        (HandKind.OMAHA_HIGH, "AcAdKhQs", "AhKcKd", "Full house, aces full of kings"),
        (HandKind.LOW_A5, "8c6d4h3s2c", "", "8-6-4-3-2 low"),
        (HandKind.LOW_A5_8, "8c6d4h3s2c", "", "8-6-4-3-2 low"),
        (HandKind.OMAHA_LOW_A5_8, "Ac2d", "3h6s8cKd", "8-6-3-2-A low"),
        (HandKind.LOW_27, "8c6d4h3s2c", "", "8-6-4-3-2 low"),
        (HandKind.LOW_27, "6c5d4h3s2c", "", "Straight, six high"),
        (HandKind.BADUGI, "7c5d3hAs", "", "4-card badugi 7-5-3-A"),
    ]
    for kind, hole, board, text in cases:
        v = ev(kind, hole, board)
        assert v is not None, (kind, hole, board)
        assert v.label() == text


def test_score_matches_evaluate() -> None:
    hole, board = parse_cards("AhKh"), parse_cards("QhJh2c3d9s")
    for kind in (HandKind.HIGH, HandKind.SHORT_DECK_HIGH, HandKind.LOW_27, HandKind.BADUGI):
        v = evaluate(kind, hole, board)
        assert v is not None
        assert score(kind, hole, board) == v.score
    v = evaluate(HandKind.OMAHA_HIGH, parse_cards("AhKh5c5d"), board)
    assert v is not None
    assert score(HandKind.OMAHA_HIGH, parse_cards("AhKh5c5d"), board) == v.score
    assert score(HandKind.LOW_A5_8, parse_cards("KcKd"), board) is None


seven = st.lists(st.sampled_from(STANDARD_DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=150, deadline=None)
@given(seven, st.randoms(use_true_random=False))
def test_order_and_split_of_the_cards_never_matter(cards: list[Card], rnd: object) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    for kind in (HandKind.HIGH, HandKind.LOW_A5, HandKind.LOW_A5_8, HandKind.LOW_27):
        a = evaluate(kind, cards[:2], cards[2:])
        b = evaluate(kind, shuffled[:3], shuffled[3:])
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a.score == b.score
            assert a.label() == b.label()


@settings(max_examples=150, deadline=None)
@given(seven)
def test_the_named_cards_come_from_the_hand_and_make_the_same_score(cards: list[Card]) -> None:
    for kind in (HandKind.HIGH, HandKind.LOW_A5, HandKind.LOW_A5_8, HandKind.LOW_27):
        v = evaluate(kind, cards)
        if v is None:
            continue
        assert len(v.cards) == 5
        assert set(v.cards) <= set(cards)
        again = evaluate(kind, v.cards)
        assert again is not None and again.score == v.score
    b = evaluate(HandKind.BADUGI, cards[:4])
    assert b is not None
    assert 1 <= len(b.cards) <= 4
    assert len({c.suit for c in b.cards}) == len({c.rank for c in b.cards}) == len(b.cards)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(SHORT_DECK), min_size=7, max_size=7, unique=True))
def test_short_deck_differs_from_standard_only_where_the_rules_differ(cards: list[Card]) -> None:
    std = evaluate(HandKind.HIGH, cards)
    short = evaluate(HandKind.SHORT_DECK_HIGH, cards)
    assert std is not None and short is not None
    a, b = std.label(), short.label()
    if a.startswith(("Straight", "High card")) or b.startswith("Straight"):
        return  # A-6-7-8-9 is a straight only in short deck
    assert a == b


def test_each_game_form_names_its_hand_kinds() -> None:
    # games.py rows (catalog §7.1): the high half and the low half each game is judged by.
    expected = {
        "nlhe": (HandKind.HIGH, None),
        "sdhe": (HandKind.SHORT_DECK_HIGH, None),
        "plo": (HandKind.OMAHA_HIGH, None),
        "flo8": (HandKind.OMAHA_HIGH, HandKind.OMAHA_LOW_A5_8),
        "stud": (HandKind.HIGH, None),
        "stud8": (HandKind.HIGH, HandKind.LOW_A5_8),
        "razz": (None, HandKind.LOW_A5),
        "27td": (None, HandKind.LOW_27),
        "27sd": (None, HandKind.LOW_27),
        "a5sd": (None, HandKind.LOW_A5),
        "badugi": (None, HandKind.BADUGI),
        "drawhigh": (HandKind.HIGH_JOKER, None),
        "archie": (HandKind.HIGH_NINES, HandKind.LOW_A5_8),
        "baduci": (None, HandKind.LOW_27),  # and the ace-high badugi (GameSpec.second)
        "drawmaha-49-pl": (HandKind.OMAHA_HIGH, None),  # and the 49 hand (GameSpec.second)
    }
    for name, kinds in expected.items():
        assert hand_kinds(GAMES[name]) == kinds, name
    for spec in GAMES.values():
        high, low = hand_kinds(spec)
        assert high is not None or low is not None, spec.name

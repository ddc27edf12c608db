"""High hands: standard, short deck and Omaha rankings, named after the catalog rules they encode.

Expected values come from the rulebook text quoted in each test, not from the evaluator.
"""

from __future__ import annotations

import pytest

from station.engine.evaluate import HandKind

from .helpers import better, ev, ranked, score

H = HandKind.HIGH
SD = HandKind.SHORT_DECK_HIGH
OM = HandKind.OMAHA_HIGH


def test_hand_rankings_standard_order_000_USPA_3_1_1() -> None:
    # 000-USPA §3.1.1, "Poker Hand Rankings (from highest to lowest)", with its own examples.
    assert ranked(
        H,
        [
            "AsKsQsJsTs",  # 3.1.1.1 royal flush
            "4h5h6h7h8h",  # 3.1.1.2 straight flush, example 4-8 of hearts
            "QcQdQhQs3c",  # 3.1.1.3 four of a kind, example Q-Q-Q-Q-3
            "KcKd3c3d3h",  # 3.1.1.4 full house, example K-K-3-3-3
            "2d7d9dJdKd",  # 3.1.1.5 flush
            "5c6d7h8s9c",  # 3.1.1.6 straight
            "7c7d7hKs2c",  # 3.1.1.7 three of a kind
            "QcQd3h3s7c",  # 3.1.1.8 two pair, example Q-Q-3-3-7
            "JcJd9h5s2c",  # 3.1.1.9 pair
            "Ac9d7h5s3c",  # 3.1.1.10 high card, ace
        ],
    )


def test_royal_flush_and_full_house_labels() -> None:
    royal = ev(H, "AsKs", "QsJsTs2c3d")
    assert royal is not None and royal.label() == "Royal flush"
    boat = ev(H, "KhKd", "Ks7c7d2h3s")
    assert boat is not None
    assert boat.label() == "Full house, kings full of sevens"
    assert [c.code for c in boat.cards] == ["Kh", "Kd", "Ks", "7c", "7d"]


def test_five_high_straight_is_the_lowest_straight() -> None:
    # The ace plays high or low in a straight: 5-4-3-2-A is a straight (a "wheel", 000-USPA
    # §3.2.6 calls 5-4-3-2-A by that name) and the lowest one; A-K-Q-J-T is the highest.
    wheel = ev(H, "Ac2d3h4s5c")
    assert wheel is not None and wheel.label() == "Straight, five high"
    assert better(H, "2c3d4h5s6c", "Ac2d3h4s5c")
    assert better(H, "Ac2d3h4s5c", "AcAdAhKsQc")  # even the lowest straight beats trips
    assert better(H, "TcJdQhKsAc", "9cTdJhQsKc")
    # K-A-2-3-4 is not a straight: the ace does not turn the corner.
    corner = ev(H, "KcAd2h3s4c")
    assert corner is not None and corner.label() == "High card, ace"


def test_SUIT_RANKING_suits_never_break_a_tie_000_USPA_3_1_9_1() -> None:
    # The rule: suits never break a tie for winning a pot.
    assert score(H, "AsKs", "Qs9s2d3c4h") == score(H, "AhKh", "Qh9h2d3c4s")
    assert score(H, "AcKd", "Qh9s2d3c4h") == score(H, "AsKh", "Qd9c2d3c4h")


def test_DEAL_HOLDEM_best_five_of_seven_and_playing_the_board() -> None:
    # DEAL-HOLDEM: "Any five of the seven cards may be used; a player may play the board".
    board = "AhKhQhJhTh"
    assert score(H, "2c3d", board) == score(H, "7s8s", board)  # both play the royal board
    # Two hands share a board: the kicker decides, the sixth and seventh cards do not.
    assert better(H, "AcQd", "AsJd", "Ad9h7c4d2s")
    assert score(H, "2c3d", "AsAdKcKdQh") == score(H, "4c5d", "AsAdKcKdQh")


def test_SHOW_CARDS_SPEAK_the_best_hand_is_read_from_the_cards() -> None:
    # SHOW-CARDS-SPEAK: cards read for themselves; the evaluator finds the straight flush that a
    # player might miscall as a flush or a straight.
    v = ev(H, "6h9h", "7h8hTh2c2d")
    assert v is not None
    assert v.label() == "Straight flush, ten high"
    assert sorted(c.code for c in v.cards) == sorted(["6h", "7h", "8h", "9h", "Th"])


def test_short_deck_flush_beats_full_house_004_GN_r360() -> None:
    # 004-GN r360: "Royal Flush, Straight Flush, Four of a Kind, Flush, Full House, Straight, Three
    # of a Kind, Two Pair, One Pair, High Card".
    assert better(SD, "6h8h9hJhKh", "KsKcKd7s7c")  # K-J-9-8-6 flush beats kings full
    assert ranked(
        SD,
        [
            "AdKdQdJdTd",  # royal flush
            "6c7c8c9cTc",  # straight flush
            "QcQdQhQs6c",  # four of a kind
            "6h8h9hJhKh",  # flush
            "KsKcKd7s7c",  # full house
            "6c7d8h9sTc",  # straight
            "7c7d7hKs9c",  # three of a kind
            "QcQd8h8s7c",  # two pair
            "JcJd9h8s6c",  # one pair
            "AcJd9h8s6c",  # high card
        ],
    )


def test_short_deck_A6789_is_a_straight_004_GN_r359() -> None:
    # 004-GN r359: "An Ace is still both the highest and lowest card in rank. Therefore, the
    # holding of 9-8-7-6-A is a Straight."
    v = ev(SD, "Ah6c", "7d8s9hKcQd")
    assert v is not None
    assert v.label() == "Straight, nine high"
    assert [c.code for c in v.cards] == ["9h", "8s", "7d", "6c", "Ah"]
    assert better(SD, "6c7d8h9sTc", "Ah6c7d8s9h")  # the lowest straight
    assert better(SD, "Ah6c7d8s9h", "7c7d7hKs9c")  # still beats three of a kind
    flush_wheel = ev(SD, "Ah6h7h8h9h")
    assert flush_wheel is not None and flush_wheel.label() == "Straight flush, nine high"


def test_short_deck_same_order_as_standard_below_the_flush() -> None:
    # Only flush and full house swap (004-GN r360); everything else is the standard order.
    assert score(SD, "QcQdQhQs6c") > score(SD, "AdKdQdJd9d")
    assert better(SD, "6c7d8h9sTc", "7c7d7hKs9c")


def test_DEAL_OMAHA_exactly_two_hole_cards_no_flush_with_one_suited_card() -> None:
    # DEAL-OMAHA / 001-RR11 §6: the hand must use exactly two hole cards and three board cards.
    # Four hearts on board and one heart in the hand is not a flush.
    v = ev(OM, "AhKcQd2s", "9h8h5h3hJc")
    assert v is not None
    assert v.label() == "High card, ace"
    # Two hearts in the hand: the nut flush.
    v = ev(OM, "AhKhQd2s", "9h8h5h3hJc")
    assert v is not None and v.label() == "Flush, A-K-9-8-5"
    assert sorted(c.code for c in v.cards) == sorted(["Ah", "Kh", "9h", "8h", "5h"])


def test_DEAL_OMAHA_the_board_cannot_be_played_001_RR11_s6_r1() -> None:
    # 001-RR11 §6 r1: "playing the board ... is not possible in Omaha (because you must use two
    # cards from your hand and three cards from the board)". A full house on board with no pair
    # or set in the hand plays as three fives and two hole cards.
    v = ev(OM, "2c3d9h7s", "5h5d5cKsKd")
    assert v is not None
    assert v.label() == "Three of a kind, fives"
    assert {c.code for c in v.cards} >= {"9h", "7s"}
    # Four of a kind on the board is never held: the best is a pair with kickers... or trips.
    v = ev(OM, "2c3d9h7s", "QcQdQhQs4c")
    assert v is not None and v.label() == "Three of a kind, queens"


def test_DEAL_OMAHA_one_hole_card_is_not_a_straight() -> None:
    # Board 6-7-8-9 and one ten in the hand: no straight in Omaha (it would need two hole cards
    # among the five), unlike hold'em.
    assert ev(OM, "TcAdAhKs", "6c7d8h9sKd") is not None
    omaha = ev(OM, "TcAdAhKs", "6c7d8h9sKd")
    assert omaha is not None and omaha.label() == "Pair of aces"
    holdem = ev(H, "Tc2d", "6c7d8h9sKd")
    assert holdem is not None and holdem.label() == "Straight, ten high"


@pytest.mark.parametrize(
    ("kind", "hole", "board"),
    [
        (H, "AcKd", "2h3s"),  # four cards: no five-card hand yet
        (SD, "AcKd", ""),
        (OM, "AcKdQhJs", "2h3s"),  # Omaha needs three board cards
        (OM, "Ac", "2h3s4d5c"),  # and two hole cards
    ],
)
def test_too_few_cards_is_no_hand(kind: HandKind, hole: str, board: str) -> None:
    assert ev(kind, hole, board) is None

"""Low hands and badugi (catalog LOWBALL-SPECIFIC / LOWBALL-HAND-RANKS, CHIP-ODD-HILO qualifier).

Expected values come from the rulebook text quoted in each test, not from the evaluator.
"""

from __future__ import annotations

import pytest

from station.engine.evaluate import HandKind

from .helpers import better, ev, ranked, score

A5 = HandKind.LOW_A5
A58 = HandKind.LOW_A5_8
OL = HandKind.OMAHA_LOW_A5_8
D27 = HandKind.LOW_27
B = HandKind.BADUGI

# --- ace-to-five: 001-RR11 §11 "Ace-to-Five Lowball" ----------------------------------------------


def test_LOWBALL_HAND_RANKS_a5_best_hand_is_5432A() -> None:
    # "In ace-to-five lowball, the best hand is any 5-4-3-2-A. An ace is the lowest-ranking card."
    best = ev(A5, "5h4s3d2cAh")
    assert best is not None and best.label() == "5-4-3-2-A low"
    assert ranked(A5, ["5h4s3d2cAh", "6h4s3d2cAh", "6h5s3d2cAh", "7h4s3d2cAh", "KhQsJdTc9h"])


def test_LOWBALL_HAND_RANKS_a5_straights_and_flushes_do_not_count() -> None:
    # "Straights and flushes do not count against your hand."
    assert score(A5, "5h4h3h2hAh") == score(A5, "5c4d3h2sAc")  # a "straight flush" is the wheel
    assert score(A5, "8h6h4h3h2h") == score(A5, "8c6d4h3s2c")
    assert better(A5, "6c5d4h3s2c", "7c4d3h2sAc")  # the 6-high "straight" is a 6-high low
    assert better(A5, "5c4d3h2sAc", "6c5d4h3s2c")


def test_LOWBALL_HAND_RANKS_a5_AA_beats_22() -> None:
    # "For hands with a pair, A-A beats 2-2."
    assert better(A5, "AcAd7h5s3c", "2c2d7h5s3c")
    # Any hand without a pair is lower than a hand with one (the lowest hand wins).
    assert better(A5, "KcQdJhTs8c", "AcAd2h3s4c")
    # Two pair is worse than one pair; trips worse than two pair.
    assert ranked(A5, ["AcAd2h3s4c", "AcAd2h2s4c", "2c2d2h3s4c", "2c2d2h3s3c", "2c2d2h2s3c"])


def test_LOWBALL_HAND_RANKS_razz_best_five_of_seven_004_GN_r232() -> None:
    # 004-GN r232: "The lowest hand wins the pot. Aces are low, and straights and flushes have no
    # effect on the low value of a hand. The best possible hand is 5-4-3-2-A."
    v = ev(A5, "KsKd2c", "3h4hQcQs")  # two pairs showing do not matter: K-Q-4-3-2
    assert v is not None
    assert v.label() == "K-Q-4-3-2 low"
    assert sorted(c.rank for c in v.cards) == [2, 3, 4, 12, 13]
    # With only four ranks among seven cards the lowest pair is played.
    v = ev(A5, "AcAd2c", "2d3h3s4c")
    assert v is not None and v.label() == "Pair of aces (A-A-4-3-2)"


def test_DECK_JOKER_a5_joker_is_the_lowest_card_not_present_001_RR11_s11_a5_r1() -> None:
    # 001-RR11 §11 "Ace-to-Five Lowball" r1: "If a joker is used, it becomes the lowest card not
    # present in your hand."
    v = ev(A5, "JOKER 2c3d4s6h")
    assert v is not None and v.label() == "6-4-3-2-A low"  # the joker is the ace
    v = ev(A5, "JOKER Ac2d3s4h")
    assert v is not None and v.label() == "5-4-3-2-A low"  # the joker is the five
    assert [c.code for c in v.cards] == ["JOKER", "4h", "3s", "2d", "Ac"]
    v = ev(A5, "JOKER KcQdJhTs")
    assert v is not None and v.label() == "K-Q-J-T-A low"
    # A pair with the joker: the joker never pairs, it takes the lowest missing rank.
    v = ev(A5, "JOKER Ac2d2s3h")
    assert v is not None and v.label() == "Pair of twos (2-2-4-3-A)"  # the joker is the four


# --- eight or better: 001-RR11 §7 r2-r3, §10 intro ----------------------------------------------


def test_CHIP_ODD_HILO_qualifier_eight_or_better_001_RR11_s7_r2() -> None:
    # §7 r2: "a player's hand at the showdown must have five cards of different ranks that are an
    # eight or lower in rank. (An ace is the highest card and also the lowest card.)"
    eight = ev(A58, "8c4d3h2sAc")
    assert eight is not None and eight.label() == "8-4-3-2-A low"
    assert ev(A58, "9c4d3h2sAc") is None  # a nine is not eight or lower
    assert ev(A58, "8c4d4h2sAc") is None  # not five different ranks
    assert better(A58, "7c6d5h4s2c", "8c4d3h2sAc")


def test_CHIP_ODD_HILO_straights_and_flushes_do_not_impair_the_low_001_RR11_s7_r3() -> None:
    # §7 r3: "Straights and flushes do not impair the low value of a hand."
    assert ev(A58, "8h7h6h5h4h") is not None
    assert score(A58, "5h4h3h2hAh") == score(A58, "5c4d3h2sAd")


def test_CHIP_ODD_HILO_stud8_seven_cards() -> None:
    # Stud hi-lo (001-RR11 §10 intro): the best five of seven for low, 8 or better.
    v = ev(A58, "AcKd2h", "9s3c4d8h")
    assert v is not None and v.label() == "8-4-3-2-A low"
    assert ev(A58, "AcKd2h", "9s3c4d9h") is None  # only four ranks 8 or lower: no low
    assert ev(A58, "AcAd2h", "2s3c3d4h") is None  # pairs cannot make five different ranks


def test_CHIP_ODD_HILO_no_qualifying_low_means_no_low_hand() -> None:
    # CHIP-ODD-HILO: "no qualifying low -> best high wins all": the low evaluator says None.
    assert ev(OL, "AcKdQh2s", "9c9dTsJh3c") is None


def test_omaha_low_uses_exactly_two_hole_cards_001_RR11_s7() -> None:
    # §7 intro: "any combination of two holecards and three boardcards ... for the low hand".
    v = ev(OL, "Ah2c9d9s", "3h4c5dKsQs")
    assert v is not None and v.label() == "5-4-3-2-A low"
    # A-2-3-4 in the hand with one low board card: no low (three board cards are required).
    assert ev(OL, "Ac2d3h4s", "5c9dTsJhKc") is None
    # Counterfeit: hand A-2, board 2-3-4-K-Q. A-2 + 2-3-4 pairs the deuce; there is no low.
    assert ev(OL, "Ac2dKhKs", "2h3c4dKcQs") is None
    # Two different hole cards are compared by the whole five: 6-4-3-2-A beats 7-4-3-2-A.
    assert better(OL, "Ac6d", "Ah7s", "2c3d4hKcKd")


# --- deuce-to-seven: 001-RR11 §11 "Deuce-to-Seven Lowball", 004-GN r279-r280 ----------------------


def test_LOWBALL_HAND_RANKS_27_best_hand_is_75432_not_all_one_suit() -> None:
    # "the best hand is 7-5-4-3-2, not all of the same suit."
    best = ev(D27, "7h5c4d3s2h")
    assert best is not None and best.label() == "7-5-4-3-2 low"
    assert ranked(D27, ["7h5c4d3s2h", "7h6c4d3s2h", "8h5c4d3s2h", "KhQcJdTs8h"])
    suited = ev(D27, "7h5h4h3h2h")
    assert suited is not None and suited.label() == "Flush, 7-5-4-3-2"


def test_LOWBALL_HAND_RANKS_27_straights_and_flushes_count() -> None:
    # "Straights and flushes count against you, crippling the value of a hand."
    assert better(D27, "2c2d4h5s7c", "7h5h4h3h2h")  # a pair of deuces beats the 7-high flush
    assert better(D27, "KcQdJhTs8c", "6c5d4h3s2c")  # king-high beats the six-high straight
    assert better(D27, "6c5d4h3s2c", "7h5h4h3h2h")  # straight is lower than a flush


def test_LOWBALL_HAND_RANKS_27_wheel_is_ace_high() -> None:
    # "The hand 5-4-3-2-A is not considered to be a straight, but an ace-5 high, so it beats other
    # ace-high hands and pairs, but loses to king-high."
    wheel = ev(D27, "5c4d3h2sAc")
    assert wheel is not None and wheel.label() == "A-5-4-3-2 low"
    assert better(D27, "5c4d3h2sAc", "Ac6d4h3s2c")  # other ace-high hands
    assert better(D27, "5c4d3h2sAc", "2c2d4h5s7c")  # pairs
    assert better(D27, "KcQdJhTs8c", "5c4d3h2sAc")  # loses to king-high
    assert better(D27, "5c4c3c2cAd", "5h4h3h2hAh")  # all one suit: a flush, not a straight flush


def test_LOWBALL_HAND_RANKS_27_pair_of_aces_is_the_highest_pair() -> None:
    # "A pair of aces is the highest pair, so it loses to any other pair."
    assert better(D27, "KcKd4h3s2c", "AcAd4h3s2c")
    assert better(D27, "2c2d4h5s7c", "KcKd4h3s2c")


# --- badugi: 004-GN r290-r291 -----------------------------------------------------------------


def test_LOWBALL_HAND_RANKS_badugi_best_is_A234_rainbow_004_GN_r290() -> None:
    # r290: "A Badugi consists of four cards of different suits and ranks. For example, the best
    # hand consists of A-2-3-4 club, diamond, heart, spade in any sequence."
    best = ev(B, "Ac2d3h4s")
    assert best is not None and best.label() == "4-card badugi 4-3-2-A"
    assert better(B, "Ac2d3h4s", "Ac2d3h5s")
    assert better(B, "KcQdJhTs", "Ac2d3h")  # any four-card badugi beats any three-card hand
    assert ev(B, "Ac2c3h4s") is not None
    suited = ev(B, "Ac2c3h4s")
    assert suited is not None and suited.label() == "3-card badugi 4-3-A"  # 2c duplicates clubs


def test_LOWBALL_HAND_RANKS_badugi_three_card_example_004_GN_r291() -> None:
    # r291: "Ad-2c-3h-6h vs. Ac-3d-4h-5h, the winning hand would be Ad-2c-3h-6h because that hand
    # consists of the three lowest, unsuited cards, Ad-2c-3h."
    assert better(B, "Ad2c3h6h", "Ac3d4h5h")
    v = ev(B, "Ad2c3h6h")
    assert v is not None
    assert v.label() == "3-card badugi 3-2-A"
    assert sorted(c.code for c in v.cards) == ["2c", "3h", "Ad"]


def test_LOWBALL_HAND_RANKS_badugi_different_ranks_and_one_card_hands() -> None:
    # r290: different suits AND ranks. A-A-2-3 of four suits is a three-card A-2-3.
    v = ev(B, "AcAd2h3s")
    assert v is not None and v.label() == "3-card badugi 3-2-A"
    # r291 "... two, or even one card Badugi will be awarded the pot": four clubs.
    v = ev(B, "Kc9c5c2c")
    assert v is not None and v.label() == "1-card badugi 2"
    assert better(B, "Kc9c5h2h", "Ac2c3c4c")  # a two-card hand beats a one-card hand


@pytest.mark.parametrize(
    ("kind", "hole", "board"),
    [(A5, "Ac2d3h4s", ""), (A58, "Ac2d3h4s", ""), (D27, "7c5d4h3s", ""), (B, "", "")],
)
def test_too_few_cards_is_no_hand(kind: HandKind, hole: str, board: str) -> None:
    assert ev(kind, hole, board) is None

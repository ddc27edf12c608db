"""Chinese poker settlement (004-GN §XII): rows, scoop, fouls, royalties, points at risk, units x
stake. The expected numbers are worked from the rulebook's text and its own examples."""

from __future__ import annotations

from station.engine.cards import parse_cards
from station.engine.chinese import (
    Scoring,
    Setting,
    fouled,
    net,
    royalties,
    settle,
    stays_in_fantasyland,
    units,
)

OFC, CLASSIC, M27 = Scoring.OPEN_FACE, Scoring.CLASSIC, Scoring.MIDDLE_27


def S(text: str) -> Setting:
    front, middle, back = (parse_cards(p) for p in text.split("-"))
    return Setting(front, middle, back)


A = S("2c3d4h-5s5h7c8d9s-JcJdQsQhKc")  # 4-3-2 / fives / jacks and queens
B = S("AcKdQh-6s6h7d8c9c-TcThTd2s2h")  # A-K-Q / sixes / tens full


def test_MISDEAL_OTHER_FORMS_one_point_a_row_three_more_for_the_scoop() -> None:
    # r341: "One point is awarded to the participant who wins each comparison. If a participant
    # wins all three against another participant, he is awarded three extra points."
    assert units(B, A, CLASSIC) == 6  # B wins front, middle and back: 3 + 3
    low = S("2c3d5h-6s6h7d8c9c-TcThTd2s2h")  # front 5-3-2 loses to A's 4-3-2? no: 5 high wins
    assert units(low, A, CLASSIC) == 6
    split = S("2s3s5s-4c4d7h8h9h-AsAhAdKsKh")  # front wins (5-3-2 > 4-3-2), middle loses, back wins
    assert units(split, A, CLASSIC) == 1


def test_MISDEAL_OTHER_FORMS_fouled_hand_is_scooped() -> None:
    # r342: "A hand is considered fouled if the front is a higher ranking poker hand than the
    # middle or the middle is higher ranking than the back. A fouled hand is considered scooped
    # against a non-fouled hand."
    foul = S("AcAd2h-KsQh7c5d3s-JcJdQsTh9c")  # aces in front above king high in the middle
    assert fouled(foul, OFC)
    assert units(A, foul, CLASSIC) == 6
    assert units(foul, foul, CLASSIC) == 0


def test_MISDEAL_OTHER_FORMS_royalties_only_in_unfouled_hands_and_not_cancelled() -> None:
    # r343 table: back full house 6; middle pair 0; front no pair 0.
    assert royalties(B, OFC) == 6
    assert royalties(A, OFC) == 0
    # B wins 3 rows + 3 scoop, and his 6 in royalties: 12 units from A.
    assert units(B, A, OFC) == 12
    qq = S("QcQd2h-4s4h4d8c9c-5c6c7cJcKc")  # QQ top 7, trips middle 2, flush back 4
    assert royalties(qq, OFC) == 7 + 2 + 4
    short_back = S("QcQd2h-4s4h4d8c9c-5c6c7c8dTc")  # trips above a ten-high back: fouled
    assert royalties(short_back, OFC) == 0


def test_MISDEAL_OTHER_FORMS_2_7_middle_examples() -> None:
    # r353: "An example of a good hand: AA3-87436-TT99K. Examples of a fouled hand:
    # AA3-8743J-TT99K or AA3-87436-TT9QK." Middle royalties: 8 high is 2 points.
    good = S("AcAd3h-8s7h4c3s6d-TcTh9s9dKc")
    assert not fouled(good, M27)
    assert royalties(good, M27) == 9 + 2 + 0  # AA on top 9, 8-high middle 2
    assert fouled(S("AcAd3h-8s7h4c3sJd-TcTh9s9dKc"), M27)
    assert fouled(S("AcAd3h-8s7h4c3s6d-TcTh9sQdKc"), M27)
    perfect = S("2c2d3h-7s5h4c3s2s-TcTh9s9dKc")
    assert royalties(perfect, M27) == 8
    assert stays_in_fantasyland(perfect, M27)


def test_MISDEAL_OTHER_FORMS_points_at_risk_and_units_times_stake() -> None:
    # r339: a player loses at most the points he began the hand with; points won do not play in
    # later comparisons. Button 1, then 2, then 3.
    settings = {1: A, 2: B, 3: B}
    ex = settle(settings, [1, 2, 3], OFC, points={1: 20, 2: 100, 3: 100})
    owed = [(e.payer, e.payee, e.units) for e in ex]
    assert owed == [(1, 2, 12), (1, 3, 8)]  # seat 1 had 20: 12, then only 8 left
    assert net(ex, stake=5) == {1: -100, 2: 60, 3: 40}
    assert settle(settings, [1, 2, 3], OFC) == [ex[0], type(ex[0])(1, 3, 12)]


def test_MISDEAL_OTHER_FORMS_wrong_card_count_is_a_foul() -> None:
    # r342: "if a participant has more than or less than the exact number of cards that should be
    # set at that stage of the hand the hand is fouled."
    short = Setting(parse_cards("AcKd"), A.middle, A.back)
    assert fouled(short, OFC)

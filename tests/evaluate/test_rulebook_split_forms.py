"""The new hand kinds of issue 29 part B against the rulebooks' own words and examples.

PokerKit has none of them (no joker, no ace-high badugi, no badugi high, no 49, no Archie
qualifier), so the expected orders come from the quoted rules alone.
"""

from __future__ import annotations

from station.engine.evaluate import HandKind

from .helpers import better, ev, ranked, score

J, NINES = HandKind.HIGH_JOKER, HandKind.HIGH_NINES
BAH, BH, FN = HandKind.BADUGI_ACE_HIGH, HandKind.BADUGI_HIGH, HandKind.FORTY_NINE


def test_DECK_JOKER_IN_USE_draw_high_joker_is_an_ace_or_completes_a_straight_or_flush() -> None:
    # 001-RR11 §12 "The Joker" r2: "The joker may be used only as an ace, or to complete a
    # straight, flush, or straight flush. (Thus it is not a completely wild card.)"
    assert ev(J, "KsKhJOKER7c2d") is not None
    assert ev(J, "KsKhJOKER7c2d").label() == "Pair of kings"  # type: ignore[union-attr]
    assert better(J, "QsQdQc3h4h", "KsKhJOKER7c2d")  # no trips of kings
    assert ev(J, "AsJOKER7c2d9h").label() == "Pair of aces"  # type: ignore[union-attr]
    assert ev(J, "9s8hJOKER6c5d").label() == "Straight, nine high"  # type: ignore[union-attr]
    assert ev(J, "ThJh9h8hJOKER").label() == "Straight flush, queen high"  # type: ignore[union-attr]


def test_DECK_JOKER_IN_USE_joker_flush_is_the_highest_card_not_present() -> None:
    # r3: "If the joker is used to make a flush, it will be the highest card of the flush not
    # present in the hand": Ah Qh Jh 9h + joker is A-K-Q-J-9, which beats A-Q-J-9-8 of hearts.
    assert ev(J, "AhQhJh9hJOKER").label() == "Flush, A-K-Q-J-9"  # type: ignore[union-attr]
    assert score(J, "AhQhJh9hJOKER") > score(J, "AcQcJc9c8c")
    assert score(J, "AhQhJh9hJOKER") < score(J, "AcKcQcJc9c") + 1  # ties a natural A-K-Q-J-9


def test_DECK_JOKER_IN_USE_five_aces_is_the_best_hand() -> None:
    # 001-RR11 §12 "The Joker" rule 4: five aces (four aces and the joker) is the best hand.
    assert ev(J, "AsAhAdAcJOKER").label() == "Five aces"  # type: ignore[union-attr]
    assert ranked(J, ["AsAhAdAcJOKER", "AhKhQhJhTh", "KsKhKdKcJOKER"])


def test_LOWBALL_HAND_RANKS_archie_high_needs_a_pair_of_nines() -> None:
    # 004-GN §X "Archie": "the high hand of a pair of 9's or better wins half the pot".
    assert ev(NINES, "9s9h2c3d5h") is not None
    assert ev(NINES, "8s8h2c3d5h") is None
    assert ev(NINES, "AsKhQdJc9s") is None  # ace high
    assert ev(NINES, "2s2h3c3d5h") is not None  # two pair is better than a pair of nines


def test_LOWBALL_HAND_RANKS_baduci_ace_is_high() -> None:
    # 004-GN r300: "The best hand would be 2, 3, 4, and 5 of different suits with a 7 of any
    # suit. Aces are considered high in this game."
    assert better(BAH, "2s3h4d5c", "As2h3d4c")
    assert better(HandKind.BADUGI, "As2h3d4c", "2s3h4d5c")  # plain badugi: the ace is low
    assert better(BAH, "Kc2d3h", "2s3s4d5d")  # three cards beat two (r291)


def test_LOWBALL_HAND_RANKS_badugi_high_four_aces_best() -> None:
    # 004-GN §XI: "This game can also be played in a high variation. The best hand being As,
    # Ah, Ad, Ac. Straights and flushes have no value."
    assert ranked(BH, ["AsAhAdAc", "AsKhQdJc", "KsKhKdKc", "AsKsQdJd"])


def test_LOWBALL_HAND_RANKS_forty_nine_counts_faces_nothing_aces_one() -> None:
    # 004-GN §VIII "Drawmaha": "Face cards (K,Q,J) have zero value. Aces has a value of 1 and
    # all other cards have face value. The best hand for 49 is 10,10,10,10,9."
    assert score(FN, "TsThTdTc9s") == 49
    assert score(FN, "KsAh2d3c9s") == 15
    assert score(FN, "KsQhJdKcKd") == 0
    assert better(FN, "TsThTdTc9s", "TsThTd9c9s")

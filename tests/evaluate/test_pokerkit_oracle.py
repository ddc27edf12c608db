"""Our evaluators against PokerKit 0.7.7's (the test oracle): a seeded random cross-check, and the
rulebook cases where PokerKit's choices and the rulebooks could part.

The full 100,000-hands-per-evaluator run is `benchmarks/crosscheck_evaluators.py`; this is the
same check on 2,000 seeded hands per evaluator, so it runs in a few seconds.

Findings (0.7.7): PokerKit agrees with the rulebooks on every kind we implement. The A-5 low
(`RegularLowHand`) ignores straights and flushes as 001-RR11 §11 says; the 2-7 low
(`StandardLowHand`) no longer wraps the wheel (up to 0.7.4 it ranked 5-4-3-2-A as a straight,
against 001-RR11 §11 "Deuce-to-Seven"). PokerKit has no joker, so the joker rule of 001-RR11 §11
"Ace-to-Five" r1 is ours alone, and it refuses ranks below six in short deck, which we rank (the
engine reports such a card as a foreign card before any showdown).
"""

from __future__ import annotations

import pytest

pokerkit = pytest.importorskip("pokerkit")

from benchmarks.crosscheck_evaluators import SPECS, crosscheck  # noqa: E402
from station.engine.evaluate import HandKind  # noqa: E402
from tests.pokerkit_memo import kept_entries  # noqa: E402

from .helpers import better, ev  # noqa: E402

HANDS = 2_000


@pytest.mark.parametrize("name", [s.pokerkit_class for s in SPECS])
def test_crosscheck_with_pokerkit(name: str) -> None:
    with kept_entries():  # pure: PokerKit's answers unchanged, not recomputed (the module says why)
        result = crosscheck(name, HANDS, seed=20260101, workers=1)
    assert result["disagreements"] == 0, result["examples"]
    assert result["hands"] == HANDS


def _pk_better(cls_name: str, a: str, b: str, board: str = "") -> bool:
    cls = getattr(pokerkit, cls_name)
    return bool(cls.from_game(a, board) > cls.from_game(b, board))


def test_LOWBALL_HAND_RANKS_27_wheel_is_ace_high_in_pokerkit_0_7_7_too() -> None:
    # 001-RR11 §11 "Deuce-to-Seven": 5-4-3-2-A is ace-five high, loses to king-high, beats pairs.
    # PokerKit up to 0.7.4 wrapped the wheel into a straight; 0.7.7 follows the rulebook.
    assert _pk_better("StandardLowHand", "5c4d3h2sAc", "2c2d4h5s7c")
    assert _pk_better("StandardLowHand", "KcQdJhTs8c", "5c4d3h2sAc")
    assert better(HandKind.LOW_27, "5c4d3h2sAc", "2c2d4h5s7c")
    assert better(HandKind.LOW_27, "KcQdJhTs8c", "5c4d3h2sAc")


def test_LOWBALL_HAND_RANKS_a5_straights_and_flushes_ignored_in_pokerkit_too() -> None:
    # 001-RR11 §11 "Ace-to-Five": "Straights and flushes do not count against your hand."
    cls = pokerkit.RegularLowHand
    assert cls.from_game("5h4h3h2hAh") == cls.from_game("5c4d3h2sAc")
    assert _pk_better("RegularLowHand", "6c5d4h3s2c", "7c4d3h2sAc")


def test_joker_is_ours_alone() -> None:
    # PokerKit has no joker card; 001-RR11 §11 "Ace-to-Five" r1 makes it the lowest missing card.
    with pytest.raises(ValueError, match=r"valid card representations"):
        pokerkit.RegularLowHand.from_game("JOKER2c3d4s6h")
    v = ev(HandKind.LOW_A5, "JOKER 2c3d4s6h")
    assert v is not None and v.label() == "6-4-3-2-A low"


def test_short_deck_low_ranks_refused_by_pokerkit_ranked_by_us() -> None:
    # 004-GN r359 removes the deuces to fives; PokerKit refuses them, we rank what we are given
    # (no A-2-3-4-5 straight in short deck: the ace plays low only below the six).
    assert pokerkit.ShortDeckHoldemHand.from_game_or_none("Ac2d3h4s5c") is None
    v = ev(HandKind.SHORT_DECK_HIGH, "Ac2d3h4s5c")
    assert v is not None and v.label() == "High card, ace"

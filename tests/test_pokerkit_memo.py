"""The PokerKit memos of the oracle tests (tests/pokerkit_memo.py) give PokerKit's own answers."""

from __future__ import annotations

import pokerkit
import pytest
from pokerkit import Automation, Card, OmahaHoldemHand, StandardHighHand

from tests.pokerkit_memo import HandMemo, kept_entries, remember_hands


def test_a_remembered_hand_is_pokerkits_hand_for_the_same_cards() -> None:
    memo = HandMemo(StandardHighHand)
    first = memo.from_game(iter(Card.parse("AsKs")), "QsJsTs2c3d")  # an iterator, as State passes
    assert first == StandardHighHand.from_game("AsKs", "QsJsTs2c3d")
    assert str(first) == "Straight flush (AsKsQsJsTs)"
    assert memo.from_game("AsKs", "QsJsTs2c3d") is first  # kept, not made again
    other = memo.from_game("2h7d", "QsJsTs2c3d")
    assert other == StandardHighHand.from_game("2h7d", "QsJsTs2c3d") and other < first
    assert memo.low is StandardHighHand.low  # the rest of the hand type shows through


def test_a_call_that_fails_fails_every_time() -> None:
    memo = HandMemo(OmahaHoldemHand)
    for _ in range(2):  # no hole cards: no Omaha hand, each time (nothing remembered)
        with pytest.raises(ValueError, match="No valid OmahaHoldemHand"):
            memo.from_game((), "QsJsTs2c3d")
    assert not memo.hands


def test_kept_entries_give_pokerkits_entries_and_put_the_property_back() -> None:
    original = pokerkit.Hand.__dict__["entry"]
    hands = [StandardHighHand(c) for c in ("AsKsQsJsTs", "2c2d7h8s9c", "2h2s7c8d9h")]
    expected = [h.entry for h in hands]
    with kept_entries():
        assert pokerkit.Hand.__dict__["entry"] is not original
        assert [h.entry for h in hands] == expected
        assert [h.entry for h in hands] == expected  # the kept ones
        assert hands[1] == hands[2] and hands[2] < hands[0]
    assert pokerkit.Hand.__dict__["entry"] is original
    with pytest.raises(RuntimeError), kept_entries():
        raise RuntimeError
    assert pokerkit.Hand.__dict__["entry"] is original


def _showdown(remembered: bool) -> tuple[list[object], list[int]]:
    """Three players all in pre-flop; PokerKit kills the losing hands and pushes the chips."""
    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    st = pokerkit.NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (50, 80, 120), 3)
    if remembered:
        remember_hands(st)
    for cards in ("AcAd", "KcKd", "7h2s"):
        st.deal_hole(cards)
    st.complete_bet_or_raise_to(120)
    st.check_or_call()
    st.check_or_call()
    boards = iter(("Qs9h3c", "8d", "4s"))
    while st.status:  # PokerKit shows all-in hands before the runout
        if st.can_burn_card():
            st.burn_card("??")
        elif st.can_deal_board():
            st.deal_board(next(boards))
        else:
            st.show_or_muck_hole_cards(True)
    if remembered:  # the hand killing asked the memo
        assert st.hand_types[0].hands
    return [repr(op) for op in st.operations], list(st.stacks)


def test_a_remembering_state_plays_the_hand_exactly_as_pokerkit() -> None:
    assert _showdown(remembered=True) == _showdown(remembered=False)
    operations, stacks = _showdown(remembered=True)
    assert stacks == [150, 60, 40]  # aces win the main pot, kings the side pot of 60, 40 back
    assert sum("HandKilling" in op for op in operations) == 1  # 7-2 can win no pot: killed

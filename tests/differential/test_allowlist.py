"""The allow-list, pinned: one test per deliberate difference, named after its catalog rule id.

Each test builds the smallest hand that shows the difference and asserts both behaviours: what
PokerKit 0.7.7 does (as observed; a PokerKit upgrade that changes it fails here), and what our
engine does, with the expected value worked out from the rulebook text quoted in the comment (not
taken from the engine). Where the differential driver recognises the situation by a predicate,
the test also checks that the predicate names exactly this entry, so the allow-list cannot
silently cover more or less than its pinned case.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import pokerkit
import pytest
from pokerkit import Automation, BettingStructure

from station.engine.decisions import HandEnd
from station.engine.table import Table
from station.formats.session import event_from_dict
from tests.differential import allowlist
from tests.differential.allowlist import PK_ACTED, PK_CAPPED, PK_SHORT_ALLIN
from tests.differential.harness import Deal, Lockstep
from tests.differential.pair import Pair, shoe

# PokerKit's reason for refusing a raise nobody could call.
PK_NOBODY = (
    "There is no reason to complete, bet, or raise since every other player has either folded"
    " or gone all-in."
)

ENTRIES = {d.key: d for d in allowlist.EVERY}


def _limp(n: int) -> list[tuple[int, str]]:
    """Everybody calls the big blind pre-flop (seats 3..n, then the small and big blind)."""
    return [(s, "call") for s in [*range(3, n + 1), 1, 2]]


def _explains(pair: Pair, key: str) -> None:
    ctx = pair.context()
    assert ctx.rr_range == ctx.ours_range, "the rulebook model and the engine disagree"
    entry = allowlist.explain(ctx)
    assert entry is not None
    assert entry.key == key


def test_BET_CAP_HEADS_UP_pokerkit_never_uncaps() -> None:
    # 001-RR11 §3 "Betting and Raising" r5: "Unlimited raising is allowed in heads-up play ...
    # any time the action becomes heads-up before the raising has been capped." Limit 5/10
    # heads-up: button raises to 20, big blind 30, button 40, big blind 50; the button may raise
    # again, to 60.
    pair = Pair("flhe", [500, 500], 5, 10)
    pair.play((2, "raise", 20), (1, "raise", 30), (2, "raise", 40), (1, "raise", 50))
    assert pair.pk.actor == 2
    assert pair.pk.raise_range is None
    assert pair.pk.reason == PK_CAPPED
    assert pair.snap.to_act == 2
    assert pair.ours == (60, 60)
    assert not pair.snap.capped
    _explains(pair, "BET-CAP-HEADS-UP")


def test_BET_CAP_LIMIT_preflop_blind_counts_as_the_bet() -> None:
    # 001-RR11 §3 r4(a): "a maximum of a bet and three raises"; §4 intro: "Blinds are part of a
    # player's bet" (catalog BLIND-POSITIONS: "The big blind is the opening bet"). Limit 5/10,
    # four players: 20, 30, 40 are the three raises over the blind, so the big blind facing 40
    # may only call.
    pair = Pair("flhe", [500] * 4, 5, 10)
    pair.play((3, "raise", 20), (4, "raise", 30), (1, "raise", 40))
    assert pair.pk.actor == 2
    assert pair.pk.raise_range == (50, 50)  # PokerKit: four raises over the blind
    assert pair.snap.to_act == 2
    assert pair.snap.to_call == 30
    assert pair.ours is None
    assert pair.snap.capped
    _explains(pair, "BET-CAP-LIMIT:preflop")


def test_BET_CAP_LIMIT_short_allin_does_not_count_toward_the_cap() -> None:
    # Catalog BET-CAP-LIMIT: "All-in increases that do not qualify as a raise do not count";
    # 001-RR11 glossary "RAISE". Flop at 5/10 (bet 10): A bets 10, B calls, C, D, E go all-in
    # for 14, 18 and 19 (each less than half a bet over the last). No raise has been made, so F
    # (not yet acted) may still complete the wager to 20 (r7). PokerKit has counted four
    # "raises" (the bet and three all-ins) and caps the round.
    pair = Pair("flhe", [500, 500, 24, 28, 29, 500], 5, 10)
    pair.play(*_limp(6))
    pair.play((1, "raise", 10), (2, "call"), (3, "raise", 14), (4, "raise", 18), (5, "raise", 19))
    assert pair.pk.actor == 6
    assert pair.pk.raise_range is None
    assert pair.pk.reason == PK_CAPPED
    assert pair.snap.to_act == 6
    assert pair.snap.to_call == 19
    assert pair.ours == (20, 20)
    _explains(pair, "BET-CAP-LIMIT:short-allin")


def test_BET_LIMIT_SHORT_ALLIN_less_than_half_a_bet_is_completed() -> None:
    # 001-RR11 §3 r7 and the catalog's test: $10/$20, flop: A bets 10, B calls, C all-in 14;
    # "D (unacted) may fold/call 14/complete to 20". PokerKit: a full bet over the all-in, 24.
    pair = Pair("flhe", [500, 500, 24, 500], 5, 10)
    pair.play(*_limp(4))
    pair.play((1, "raise", 10), (2, "call"), (3, "raise", 14))
    assert pair.pk.actor == 4
    assert pair.pk.raise_range == (24, 24)
    assert pair.snap.to_act == 4
    assert pair.snap.to_call == 14
    assert pair.ours == (20, 20)
    _explains(pair, "BET-LIMIT-SHORT-ALLIN:complete")


def test_BET_LIMIT_SHORT_ALLIN_half_bet_reopens() -> None:
    # 001-RR11 §3 r7: "An all-in wager of a half a bet or more is treated as a full bet, and a
    # player may fold, call, or make a full raise"; catalog: "C all-in 15 instead -> full raise:
    # A may re-raise to 25". PokerKit: A already acted and the all-in was not a full raise.
    pair = Pair("flhe", [500, 500, 25, 500], 5, 10)
    pair.play(*_limp(4))
    pair.play((1, "raise", 10), (2, "call"), (3, "raise", 15), (4, "call"))
    assert pair.pk.actor == 1
    assert pair.pk.raise_range is None
    assert pair.pk.reason == PK_SHORT_ALLIN
    assert pair.snap.to_act == 1
    assert pair.snap.to_call == 5
    assert pair.ours == (25, 25)
    _explains(pair, "BET-LIMIT-SHORT-ALLIN:half-bet")


def test_BET_LIMIT_SHORT_ALLIN_first_wager_of_the_round() -> None:
    # 001-RR11 §3 r7: "an all-in wager of less than half a bet does not reopen the betting for
    # any player who has already acted". Flop at 5/10: A checks, B bets all-in 4, C calls; A
    # may only call 4. PokerKit: the all-in is the round's first wager, so it re-opens (to 14).
    pair = Pair("flhe", [500, 14, 500], 5, 10)
    pair.play((3, "call"), (1, "call"), (2, "call"))
    pair.play((1, "call"), (2, "raise", 4), (3, "call"))
    assert pair.pk.actor == 1
    assert pair.pk.raise_range == (14, 14)
    assert pair.snap.to_act == 1
    assert pair.snap.to_call == 4
    assert pair.ours is None
    _explains(pair, "BET-LIMIT-SHORT-ALLIN:first-wager")


def test_BET_NL_SHORT_ALLIN_NO_REOPEN_first_wager_of_the_round() -> None:
    # 001-RR11 §14 NL r3: a player who has already acted and is not facing a full-size wager
    # may not re-raise an all-in that is less than a full raise. No-limit 1/2: the under-the-gun
    # player limps for 2 (the big blind is the opening bet), the button goes all-in for 3 (a raise
    # of 1, less than the big blind), the blinds call: the limper may only call 1.
    pair = Pair("nlhe", [200, 200, 200, 3], 1, 2)
    pair.play((3, "call"), (4, "raise", 3), (1, "call"), (2, "call"))
    assert pair.pk.actor == 3
    assert pair.pk.raise_range == (5, 200)
    assert pair.snap.to_act == 3
    assert pair.snap.to_call == 1
    assert pair.ours is None
    _explains(pair, "BET-NL-SHORT-ALLIN-NO-REOPEN:first-wager")


def test_BET_NL_SHORT_ALLIN_NO_REOPEN_first_wager_below_the_minimum_bet() -> None:
    # The same rule after the flop (RR11/RR5/GN: "less than the minimum bet"): A checks, B bets
    # all-in 1 (the minimum bet is 2), C calls; A may only call.
    pair = Pair("nlhe", [200, 3, 200], 1, 2)
    pair.play((3, "call"), (1, "call"), (2, "call"))
    pair.play((1, "call"), (2, "raise", 1), (3, "call"))
    assert pair.pk.actor == 1
    assert pair.pk.raise_range == (3, 198)
    assert pair.snap.to_act == 1
    assert pair.ours is None
    _explains(pair, "BET-NL-SHORT-ALLIN-NO-REOPEN:first-wager")


def test_BET_NL_SHORT_ALLIN_NO_REOPEN_cumulative_short_allins_reopen() -> None:
    # 001-RR11 §14 NL r4: "Multiple all-in wagers, each of an amount too small to qualify as a
    # raise, still act as a raise and reopen the betting if the resulting wager size to a player
    # qualifies as a raise." No-limit 1/2, flop: A checks, B bets 20, C, D, E go all-in for 35,
    # 45 and 50, A calls. B faces 30 more, more than the full raise of 20: B may raise, to at
    # least 70. PokerKit sums only the all-ins after the first two already made a full raise.
    pair = Pair("nlhe", [500, 500, 37, 47, 52], 1, 2)
    pair.play(*_limp(5))
    pair.play((1, "call"), (2, "raise", 20), (3, "raise", 35), (4, "raise", 45), (5, "raise", 50))
    pair.play((1, "call"))
    assert pair.pk.actor == 2
    assert pair.pk.raise_range is None
    assert pair.pk.reason == PK_ACTED
    assert pair.snap.to_act == 2
    assert pair.snap.to_call == 30
    assert pair.ours == (70, 498)
    _explains(pair, "BET-NL-SHORT-ALLIN-NO-REOPEN:cumulative")


def test_BLIND_SHORT_BIG_BLIND_entrants_still_call_the_full_blind() -> None:
    # 001-RR11 §4 "Rules for using blinds" r1: the minimum bring-in and raise sizes "remain the
    # same even when the player in the blind does not have enough chips to post the full
    # amount"; §14 NL r2: an entrant comes in for at least the minimum bet and a pre-flop raiser
    # must at least double the big blind. No-limit 5/10, the big blind has 7.
    pair = Pair("nlhe", [100, 7, 100], 5, 10)
    assert pair.pk.actor == 3
    assert (pair.pk.to_call, pair.pk.raise_range) == (7, (17, 100))
    assert pair.snap.to_act == 3
    assert (pair.snap.to_call, pair.ours) == (10, (20, 100))
    # The driver recognises it at the first decision, checks the engine against the rulebook,
    # counts it and plays the hand no further.
    deal = Deal("nlhe", (100, 7, 100), 5, 10, pair.deal.deck, 1, 0.2, 0.3)
    result = Lockstep(deal).run()
    assert result.disagreement is None
    assert result.stopped
    assert result.allowed == {"BLIND-SHORT-BIG-BLIND": 1}


def test_BLIND_SHORT_BIG_BLIND_heads_up_blind_below_the_small_blind() -> None:
    # The same rule heads-up when the big blind (seat 1) posts 4 against a small blind of 10:
    # the button must still bring it in to 20 or fold. PokerKit has nothing left to decide: the
    # button's 10 already covers the blind, so it burns and deals the flop.
    deal = Deal("nlhe", (4, 240), 10, 20, shoe(2, 2, {}), 1, 0.2, 0.3)
    lock = Lockstep(deal)
    result = lock.run()
    assert lock.state.status
    assert lock.state.actor_index is None  # PokerKit: the round is over, the board runs out
    snap = lock.table.snapshot()
    assert (snap.to_act, snap.to_call) == (2, 10)
    assert result.disagreement is None
    assert result.stopped
    assert result.allowed == {"BLIND-SHORT-BIG-BLIND": 1}


def test_BLIND_POSITIONS_no_option_when_nobody_can_call_a_raise() -> None:
    # BLIND-POSITIONS: the big blind's option is the option to raise. No-limit 5/10: the small
    # blind is all-in for 3, the button folds; nobody could call a raise, so the dealer goes on
    # to the flop. PokerKit still asks the big blind to act (it may only check).
    pair = Pair("nlhe", [3, 100, 100], 5, 10)
    pair.play((3, "fold"))
    assert pair.pk.actor == 2
    assert pair.pk.to_call == 0
    assert pair.pk.raise_range is None
    assert pair.pk.reason == PK_NOBODY
    assert pair.snap.to_act is None
    assert pair.snap.next_step == "BURN & FLOP"
    pair._guarded(pair._decide)  # the driver checks it in PokerKit only and goes on
    assert pair.result.allowed == {"BLIND-POSITIONS:option-with-nobody-to-raise": 1}
    assert pair.state.actor_index is None


def test_CHIP_ODD_ONE_PER_PLAYER_three_way_split() -> None:
    # 001-RR11 §3 "Ties" r4: "No player may receive more than one odd chip"; r5(a): the first
    # hand clockwise from the button gets the odd chip. No-limit 2/3, four players, the small
    # blind folds: the pot of 11 (2 dead + 3 x 3) is split three ways on a royal-flush board:
    # 4/4/3 for seats 2, 3, 4 (seat 4 is the button). PokerKit: 5/3/3.
    board = "AsKsQsJsTs"
    pair = Pair("nlhe", [100, 100, 100, 100], 2, 3, board=board)
    pair.play((3, "call"), (4, "call"), (1, "fold"), (2, "call"))
    pair.finish()
    assert pair.result.disagreement is None
    assert pair.hand_end is not None
    assert dict(pair.hand_end.stacks) == {1: 98, 2: 101, 3: 101, 4: 100}
    assert list(pair.state.stacks) == [98, 102, 100, 100]
    assert pair.result.allowed == {"CHIP-ODD-ONE-PER-PLAYER": 1}


def test_POT_SIDE_POTS_each_pot_is_split_separately() -> None:
    # 001-RR11 §3 "Ties" r5(d): "all side pots and the main pot are split as separate pots".
    # No-limit 1/2, five players (button seat 5). Seat 3 is all-in pre-flop for 6; seats 2, 4
    # and 5 call, the small blind folds: main pot 25 (seats 2, 3, 4). Flop and turn: seat 2
    # bets 5, seat 4 calls; seat 5 calls the flop and folds the turn: side pot 25 (seats 2, 4).
    # Seats 2 and 4 tie with the same straight and beat seat 3. Main 25 (1 dead + 4 x 6) ->
    # 13/12, side 25 -> 13/12, each odd chip to seat 2 (first clockwise from the button): 26 and
    # 24. PokerKit merges the two pots once seat 3's hand is killed and splits 50: 25 and 25.
    holes = {1: "7c8c", 2: "6hKd", 3: "QsQh", 4: "6dKc", 5: "JdTd"}
    pair = Pair("nlhe", [100, 100, 6, 100, 100], 1, 2, holes=holes, board="2c3d4h5s9c")
    pair.play((3, "raise", 6), (4, "call"), (5, "call"), (1, "fold"), (2, "call"))
    pair.play((2, "raise", 5), (4, "call"), (5, "call"))
    pair.play((2, "raise", 5), (4, "call"), (5, "fold"))
    pair.finish()
    assert pair.result.disagreement is None
    assert pair.hand_end is not None
    won = dict(pair.hand_end.payouts)
    assert won == {2: 26, 4: 24}
    assert [p.amount for p in pair.hand_end.pots] == [25, 25]
    pk = list(pair.state.stacks)
    assert (pk[1], pk[3]) == (100 - 16 + 25, 100 - 16 + 25)
    assert pair.result.allowed == {"POT-SIDE-POTS:merged-split": 1}


# --- differences in games the generator does not play ----------------------------------------


def _feed(table: Table, lines: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = []
    for k, line in enumerate(lines, start=1):
        out += table.feed(event_from_dict(line)[1], seq=k)
    return out


def test_CHIP_ODD_STUD_highest_card_by_suit() -> None:
    # 001-RR11 §3 "Ties" r5(b): in stud the odd chip goes to the highest card by suit (all the
    # player's cards); spades > hearts > diamonds > clubs (§3 "Ties" r1). Seven-card stud,
    # bring-in 1, bets 2/4. Seat 3 brings in with the 2d and folds to the completion; seats 1
    # and 2 check it down and tie with ace-king-queen-jack-nine. The pot of 5 is split 2/3: seat
    # 2 holds the ace of spades and gets the odd chip. PokerKit gives it to seat 1 (lower index).
    downs = {1: ("Ac", "Kc"), 2: ("As", "Ks"), 3: ("7h", "7s")}
    ups3 = {1: "Qc", 2: "Qd", 3: "2d"}
    later = [("Jd", "Jh"), ("9h", "9c"), ("3d", "4s"), ("2h", "2c")]  # 4th-7th: seats 1, 2
    burns = ["5c", "5d", "5h", "5s"]

    # PokerKit
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        st = pokerkit.FixedLimitSevenCardStud.create_state(
            (
                Automation.ANTE_POSTING,
                Automation.BET_COLLECTION,
                Automation.BLIND_OR_STRADDLE_POSTING,
                Automation.HAND_KILLING,
                Automation.CHIPS_PUSHING,
                Automation.CHIPS_PULLING,
            ),
            True,
            0,
            1,
            2,
            4,
            (100, 100, 100),
            3,
        )
        for k in range(2):
            for seat in (1, 2, 3):
                st.deal_hole(downs[seat][k])
        for seat in (1, 2, 3):
            st.deal_hole(ups3[seat])
        assert st.actor_index == 2
        st.post_bring_in()
        st.complete_bet_or_raise_to(2)
        st.check_or_call()
        st.fold()
        for burn, cards in zip(burns, later, strict=True):
            st.burn_card(burn)
            for card in cards:
                st.deal_hole(card)
            while st.actor_index is not None:
                st.check_or_call()
        while st.can_show_or_muck_hole_cards():
            st.show_or_muck_hole_cards(True)
        assert not st.status
        assert list(st.stacks) == [101, 100, 99]  # PokerKit: odd chip to player 0 (seat 1)

    # Our engine, from the recorded session (docs/session-format.md: the deal starts at seat 1, the
    # bring-in is a zone amount after third street; a draw's face_up means the card left the
    # shoe face up, so up-cards are ordinary draws: the engine knows which slots are up).
    stakes = {"bring_in": 1, "small_bet": 2, "big_bet": 4}
    seats = {"1": 100, "2": 100, "3": 100}
    lines: list[dict[str, Any]] = [
        {"type": "setup", "game": "stud", "profile": "RR11", "stakes": stakes, "seats": seats},
        {"type": "key", "key": "NEW_HAND"},
    ]
    for k in range(2):
        lines += [{"type": "draw", "card": downs[s][k], "face_up": False} for s in (1, 2, 3)]
    lines += [{"type": "draw", "card": ups3[s], "face_up": False} for s in (1, 2, 3)]
    lines += [
        {"type": "zone", "seat": 3, "amount": 1},
        {"type": "zone", "seat": 1, "amount": 2},
        {"type": "zone", "seat": 2, "amount": 2},
        {"type": "key", "key": "FOLD", "seat": 3},
    ]
    lines += [{"type": "zone", "seat": s, "amount": 0} for s in (1, 2, 3)]
    table = Table()
    out = _feed(table, lines)
    seq = len(lines)
    for burn, cards in zip(burns, later, strict=True):
        step = [{"type": "draw", "card": burn, "face_up": False}]
        step += [{"type": "draw", "card": c, "face_up": False} for c in cards]
        for line in step:
            seq += 1
            out += table.feed(event_from_dict(line)[1], seq=seq)
        for _ in range(2):
            actor = table.snapshot().to_act
            assert actor is not None
            seq += 1
            out += table.feed(
                event_from_dict({"type": "key", "key": "CHECK", "seat": actor})[1], seq=seq
            )
    for seat in (1, 2):
        seq += 1
        out += table.feed(
            event_from_dict({"type": "key", "key": "TABLED", "seat": seat})[1], seq=seq
        )
    ends = [d for d in out if isinstance(d, HandEnd)]
    assert len(ends) == 1
    assert dict(ends[0].payouts) == {1: 2, 2: 3}
    assert dict(ends[0].stacks) == {1: 100, 2: 101, 3: 99}


def test_BET_LIMIT_STRUCTURE_flo8_is_fixed_limit() -> None:
    # Catalog BET-LIMIT-STRUCTURE (glossary "FIXED LIMIT": amounts per round are pre-set) and
    # docs/session-format.md (flo8 = Omaha hi-lo limit): at 10/20 with blinds 5/10 the first raise
    # is to exactly 20. PokerKit's FixedLimitOmahaHoldemHighLowSplitEightOrBetter is pot-limit:
    # 20..35.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        st = pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
            (
                Automation.ANTE_POSTING,
                Automation.BET_COLLECTION,
                Automation.BLIND_OR_STRADDLE_POSTING,
                Automation.CARD_BURNING,
                Automation.HOLE_DEALING,
            ),
            True,
            0,
            (5, 10),
            10,
            20,
            (1000, 1000, 1000, 1000),
            4,
        )
        assert st.betting_structure is BettingStructure.POT_LIMIT
        assert st.actor_index == 2
        assert st.min_completion_betting_or_raising_to_amount == 20
        assert st.max_completion_betting_or_raising_to_amount == 35
    setup: dict[str, Any] = {
        "type": "setup",
        "game": "flo8",
        "profile": "RR11",
        "stakes": {"sb": 5, "bb": 10, "small_bet": 10, "big_bet": 20},
        "seats": {"1": 1000, "2": 1000, "3": 1000, "4": 1000},
        "button": 4,
    }
    lines: list[dict[str, Any]] = [
        setup,
        {"type": "zone", "seat": 1, "amount": 5},
        {"type": "zone", "seat": 2, "amount": 10},
        {"type": "key", "key": "NEW_HAND"},
    ]
    lines += [{"type": "draw", "card": c, "face_up": False} for c in shoe(4, 4, {})[:16]]
    table = Table()
    _feed(table, lines)
    snap = table.snapshot()
    assert snap.to_act == 3
    assert (snap.min_raise_to, snap.max_raise_to) == (20, 20)


# --- the allow-list itself ---------------------------------------------------------------------


def test_every_allowed_difference_is_pinned_by_a_test_named_after_its_rule() -> None:
    tests = {name for name in dir(sys.modules[__name__]) if name.startswith("test_")}
    for d in allowlist.EVERY:
        assert d.test in tests, d.key
        assert d.test.startswith("test_" + d.rule.replace("-", "_") + "_"), d.key
        assert d.key.split(":")[0] == d.rule
    assert len(ENTRIES) == len(allowlist.EVERY)


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_allow_list_entry_is_documented(key: str) -> None:
    d = ENTRIES[key]
    assert d.citation and d.pokerkit and d.rulebook
    assert "RR11" in d.citation or "catalog" in d.citation

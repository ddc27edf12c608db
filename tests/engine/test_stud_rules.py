"""Stud rules of catalog §7 (STUD-BRINGIN, STUD-ACTION-LATER-STREETS, STUD-COMPLETION-NOT-A-RAISE)
on hands dealt through the table."""

from __future__ import annotations

from typing import Any

import pytest

from station.engine.cards import STANDARD_DECK
from tests.engine.tablekit import Run, cards, draw, key, setup, zone

STAKES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}


def _third_street(game: str, downs: list[str], ups: list[str]) -> Run:
    """Three players in seats 1-3; antes collected; two down cards each, then the up-cards."""
    run = Run()
    lines: list[dict[str, Any]] = [setup(game, {1: 100, 2: 100, 3: 100}, stakes=STAKES)]
    lines += [zone(s, 1) for s in (1, 2, 3)] + [zone(s, 0) for s in (1, 2, 3)]
    lines.append(key("NEW_HAND"))
    lines += [draw(c) for c in downs] + [draw(c) for c in ups]
    run.feed(lines)
    return run


def _bring_in_prompt(run: Run) -> str:
    prompts = [d["text"] for d in run.out if d["type"] == "prompt" and "BRING-IN" in d["text"]]
    assert len(prompts) == 1
    return prompts[0]


DOWNS = ["9c", "9d", "9h", "Tc", "Td", "Th"]


@pytest.mark.parametrize(
    ("game", "ups", "seat"),
    [
        # 001-RR11 §8 r2: lowest up-card by suit; clubs lowest (SUIT-RANKING).
        ("stud", ["3s", "3c", "3h"], 2),
        # 001-RR11 §9: razz brings in with the highest card, aces low; the king of spades is the
        # highest card by rank and suit (004-GN §IX Razz).
        ("razz", ["Kc", "Ks", "Ac"], 2),
        # 001-RR11 §10 r4: stud/8, the ace counts high for the bring-in.
        ("stud8", ["Ac", "2d", "5s"], 2),
    ],
)
def test_STUD_BRINGIN_by_rank_and_suit(game: str, ups: list[str], seat: int) -> None:
    run = _third_street(game, DOWNS, ups)
    assert _bring_in_prompt(run).startswith(f"BRING-IN: SEAT {seat} ")
    assert run.snap.to_act == seat


def test_STUD_COMPLETION_NOT_A_RAISE_then_three_raises() -> None:
    # 001-RR11 §8 r6: completing the bring-in is not a raise; three raises may follow (RR).
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(2, 2), zone(3, 5), zone(1, 10), zone(2, 15), zone(3, 20))
    snap = run.snap
    assert snap.capped
    assert snap.to_act == 1
    assert snap.to_call == 10


def test_STUD_ACTION_LATER_STREETS_high_hand_showing_starts() -> None:
    # 001-RR11 §8 r2: from 4th street the highest hand showing acts first.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(2, 2), zone(3, 2), zone(1, 2))
    run.feed([zone(s, 0) for s in (1, 2, 3)])
    # burn, then 4th street up-cards to seats 1, 2, 3: seat 2 pairs its three.
    run.feed(draw("2c"), draw("Kd"), draw("3d"), draw("Qs"))
    assert run.snap.to_act == 2


def test_STUD_ACTION_LATER_STREETS_razz_low_hand_showing_starts() -> None:
    # 001-RR11 §9 r2: in razz the lowest hand showing acts first.
    run = _third_street("razz", DOWNS, ["Kc", "Ks", "Ac"])
    run.feed(zone(2, 2), zone(3, 2), zone(1, 2))
    run.feed([zone(s, 0) for s in (1, 2, 3)])
    # burn, then seat 1 (K, 2), seat 2 (K, 4), seat 3 (A, 7): seat 3 shows 7-A, the lowest.
    run.feed(draw("2c"), draw("2h"), draw("4d"), draw("7s"))
    assert run.snap.to_act == 3


def test_STUD_BRINGIN_WRONG_PLAYER_is_corrected() -> None:
    # 001-RR11 §8 r5: the wrong player designated low takes the wager back.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(1, 2))
    assert [i["rule"] for i in run.incidents()] == ["STUD-BRINGIN-WRONG-PLAYER"]
    assert run.snap.to_act == 2


# --- helpers for whole stud hands -------------------------------------------------------------


def _ante_lines(game: str, seats: dict[int, int], profile: str = "RR11") -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [setup(game, seats, profile=profile, stakes=STAKES)]
    lines += [zone(s, 1) for s in seats] + [zone(s, 0) for s in seats]
    lines.append(key("NEW_HAND"))
    return lines


def _actions(run: Run, event: int | None = None) -> list[tuple[int, str, int]]:
    return [
        (d["seat"], d["action"], d["amount"])
        for d in run.out
        if d["type"] == "action" and (event is None or d["event"] == event)
    ]


def _last_prompt(run: Run) -> str:
    return str([d for d in run.out if d["type"] == "prompt"][-1]["text"])


def _draws(run: Run, first_event: int) -> list[tuple[str, str, int | None]]:
    return [
        (d["card"], d["role"], d["seat"])
        for d in run.out
        if d["type"] == "draw" and d["event"] >= first_event
    ]


def _check_round(run: Run, *, bring_in: bool = False) -> None:
    """Everyone checks (on third street: brings in, then calls) until the round closes."""
    for _ in range(20):
        snap = run.snap
        seat = snap.to_act
        if seat is None:
            return
        if bring_in:
            run.feed(zone(seat, STAKES["bring_in"]))
            bring_in = False
        elif snap.to_call:
            bet = next(s.bet for s in snap.seats if s.seat == seat)
            run.feed(zone(seat, bet + snap.to_call))
        else:
            run.feed(key("CHECK", seat))
    raise AssertionError("the round did not close")


def _collect(run: Run, seats: list[int]) -> None:
    run.feed([zone(s, 0) for s in seats])


# --- STUD-BRINGIN and its irregularities ------------------------------------------------------


def test_STUD_BRINGIN_low_card_opens_for_a_full_bet_as_a_completion() -> None:
    # 001-RR11 §8 r3: "The player with the forced bet has the option of opening for a full bet";
    # §8 r6: raising the forced bet to a full bet is a completion, not a raise.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed(zone(2, 5))
    assert _actions(run) == [(2, "complete", 5)]
    assert not run.incidents()
    assert run.snap.to_act == 3
    assert run.snap.to_call == 5


def test_STUD_BRINGIN_ALL_IN_low_card_all_in_for_the_ante_left_player_opens() -> None:
    # 001-RR11 §8 r4: the low card all-in for the ante: the action goes to the first active
    # player on his left, who may fold, bring in or complete (no check).
    run = Run()
    lines = _ante_lines("stud", {1: 100, 2: 1, 3: 100, 4: 100})
    lines += [draw(c) for c in [*DOWNS, "Jc", "Jd"]] + [draw(c) for c in ["3s", "3c", "3h", "Js"]]
    run.feed(lines)
    assert run.snap.to_act == 3
    assert "SEAT 3 MAY FOLD, BRING IN 2 OR COMPLETE TO 5" in _last_prompt(run)
    run.feed(key("CHECK", 3))
    assert run.incidents("STUD-BRINGIN")[-1]["ruling"] == "correct_bet"
    # The opener folds (no wager yet): the option passes to his left.
    run.feed(key("FOLD", 3))
    assert run.snap.to_act == 4
    run.feed(zone(4, 2))
    assert _actions(run)[-1] == (4, "bring_in", 2)
    assert not run.incidents("STUD-BRINGIN-WRONG-PLAYER")
    run.feed(zone(1, 2))
    assert run.snap.to_act is None  # seat 2 is all-in: the round is complete


def test_STUD_BRINGIN_ALL_IN_heads_up_against_the_allin_low_card_no_betting() -> None:
    run = Run()
    lines = _ante_lines("stud", {1: 100, 2: 1})
    lines += [draw(c) for c in DOWNS[:4]] + [draw("3s"), draw("3c")]
    run.feed(lines)
    assert run.snap.to_act is None
    assert any(d["type"] == "prompt" and "4TH STREET" in d["text"] for d in run.out)


def test_STUD_BRINGIN_WRONG_PLAYER_next_player_acted_the_wager_stands() -> None:
    # 001-RR11 §8 r5: "If the next hand has acted after the incorrect lowcard wager, the wager
    # stands, action continues from there, and the real lowcard has no obligations."
    run = _third_street("stud", DOWNS, ["3s", "3h", "3c"])  # seat 3 is low
    run.feed(zone(1, 2))  # seat 1 brings in by mistake and leaves the chips in
    run.feed(zone(2, 2))  # seat 2, next, calls
    rulings = [(i["ruling"], i["event"]) for i in run.incidents("STUD-BRINGIN-WRONG-PLAYER")]
    assert rulings == [("correct_bet", 18), ("play_on", 19)]
    assert _actions(run) == [(1, "bring_in", 2), (2, "call", 2)]
    assert run.snap.to_act == 3  # the real low card acts in turn, with no obligation
    run.feed(zone(3, 2))
    assert run.snap.to_act is None  # the round is complete


def test_STUD_BRINGIN_WRONG_PLAYER_taken_back_is_no_standing_wager() -> None:
    # The wrong bring-in taken back before the next player acts: the real low card must bet.
    run = _third_street("stud", DOWNS, ["3s", "3h", "3c"])
    run.feed(zone(1, 2), zone(1, 0), zone(3, 2))
    assert _actions(run) == [(3, "bring_in", 2)]
    assert [i["ruling"] for i in run.incidents()] == ["correct_bet"]


def test_EXPOSE_STUD_DOWNCARD_INITIAL_exposed_low_card_left_player_opens() -> None:
    # 001-RR11 §8 r1: "If the first card dealt faceup would have been the low card, action
    # starts with the first hand to that player's left. That player may fold, open for the
    # forced bet, or open for a full bet."
    run = Run()
    lines = _ante_lines("stud", {1: 100, 2: 100, 3: 100})
    lines += [draw("9c"), draw("2c", face_up=True), draw("9h")]  # seat 2's first card is up
    lines += [draw("Tc"), draw("Td"), draw("Th")]
    lines += [draw("Ks"), draw("8d"), draw("Qs")]  # seat 2's third card comes down
    run.feed(lines)
    assert _draws(run, 16)[0] == ("8d", "down", 2)
    assert run.snap.to_act == 3
    run.feed(zone(3, 5))
    assert _actions(run) == [(3, "complete", 5)]
    assert not run.incidents("STUD-BRINGIN-WRONG-PLAYER")


# --- STUD-LIMITS-PER-STREET -------------------------------------------------------------------


def _fourth_street(game: str, ups: list[str], fourth: list[str]) -> Run:
    run = _third_street(game, DOWNS, ups)
    _check_round(run, bring_in=True)
    _collect(run, [1, 2, 3])
    run.feed(draw("2s"), *[draw(c) for c in fourth])
    return run


def test_STUD_LIMITS_PER_STREET_open_pair_big_bet_then_raises_are_big() -> None:
    # 001-RR11 §8 r7: with an open pair on 4th street any player may bet either limit; "If a
    # $10 raise is made, then all other raises must be in increments of $10."
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Kd", "7d", "8h"])
    assert run.snap.to_act == 1
    run.feed(zone(1, 10))
    assert _actions(run)[-1] == (1, "bet", 10)
    run.feed(zone(2, 15))  # a raise of the small bet is not allowed any more
    assert [i["seat"] for i in run.incidents("BET-FULL-PLUS-HALF")] == [2]
    assert _actions(run)[-1] == (2, "raise", 20)


def test_STUD_LIMITS_PER_STREET_open_pair_small_bet_then_big_raise() -> None:
    # "If you bet $5, any player then has the option to call $5, raise $5, or raise $10."
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Kd", "7d", "8h"])
    run.feed(zone(1, 5), zone(2, 15))
    assert _actions(run)[-2:] == [(1, "bet", 5), (2, "raise", 15)]
    assert not run.incidents()


def test_STUD_LIMITS_PER_STREET_no_open_pair_keeps_the_small_bet() -> None:
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Qd", "7d", "8h"])
    run.feed(zone(1, 10))
    assert _actions(run)[-1] == (1, "bet", 5)
    assert run.incidents("BET-LIMIT-STRUCTURE")


def test_STUD_LIMITS_PER_STREET_razz_open_pair_does_not_change_the_limit() -> None:
    # 001-RR11 §9 r3: in razz an open pair does not change the limit.
    run = _fourth_street("razz", ["Kc", "Ks", "Ac"], ["2d", "4d", "Ah"])
    seat = run.snap.to_act
    assert seat is not None
    run.feed(zone(seat, 10))
    assert _actions(run)[-1] == (seat, "bet", 5)


# --- STUD-DEALER-ANNOUNCEMENTS ----------------------------------------------------------------


def test_STUD_DEALER_ANNOUNCEMENTS_high_hand_and_pairs_on_fourth_street() -> None:
    # 001-RR11 §8 r12: the dealer announces the high hand and all pairs, never straights or
    # flushes.
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Kd", "4c", "6h"])
    text = _last_prompt(run)
    assert "HIGH HAND SEAT 1" in text
    assert "PAIR OF KINGS" in text
    assert "OPEN PAIR" in text
    assert "STRAIGHT" not in text
    assert "FLUSH" not in text


def test_STUD_DEALER_ANNOUNCEMENTS_razz_face_card_pairs_are_not_announced() -> None:
    # 001-RR11 §9 r4: razz announces pairs the first time they appear, never face-card pairs.
    run = _fourth_street("razz", ["Kc", "7s", "Ac"], ["Kd", "7d", "2h"])
    text = _last_prompt(run)
    assert "LOW HAND SEAT 3" in text
    assert "SEVENS" in text
    assert "KINGS" not in text


# --- DEAL-STUD-ORDER --------------------------------------------------------------------------


def test_DEAL_STUD_ORDER_fold_without_a_wager_keeps_receiving_cards_until_a_bet() -> None:
    # 001-RR11 §8 r9: "If a hand is folded when there is no wager, that seat will continue to
    # receive cards until the hand is killed as a result of a bet."
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Kd", "7d", "8h"])
    run.feed(key("FOLD", 1), key("CHECK", 2), key("CHECK", 3))
    start = len(run.lines) + 1
    run.feed(draw("2h"), draw("Ac"), draw("Ad"), draw("As"))
    assert [seat for _, role, seat in _draws(run, start) if role == "up"] == [1, 2, 3]
    # Seat 3 (A-8-5 showing) starts fifth street; his bet kills seat 1's hand.
    assert run.snap.to_act == 3
    run.feed(zone(3, 10), zone(2, 10))
    _collect(run, [1, 2, 3])
    start = len(run.lines) + 1
    run.feed(draw("3d"), draw("Jc"), draw("Jd"))
    ups = [seat for _, role, seat in _draws(run, start) if role == "up"]
    assert ups == [2, 3]


# --- STUD-CARD-SHORTAGE -----------------------------------------------------------------------


def _to_the_last_street(n: int, profile: str) -> Run:
    """n players check (and call the bring-in) to the end of sixth street, cards in deck order."""
    run = Run()
    seats = dict.fromkeys(range(1, n + 1), 100)
    run.feed(_ante_lines("stud", seats, profile))
    run.feed(cards(3 * n))
    _check_round(run, bring_in=True)
    for street in range(3):
        _collect(run, list(seats))
        run.feed(cards(n + 1, skip=_drawn(run)))
        if street < 2:
            _check_round(run)
    return run


def _drawn(run: Run) -> set[str]:
    return {line["card"] for line in run.lines if line["type"] == "draw"}


def _finish_sixth(run: Run) -> int:
    _check_round(run)
    return len(run.lines)


def test_STUD_CARD_SHORTAGE_rr_last_card_mixed_with_the_burns() -> None:
    # 001-RR11 §8 r15: all the cards are dealt except the last, which is mixed with the burn
    # cards; scramble, cut, burn again and deliver the remaining downcards.
    run = _to_the_last_street(7, "RR11")
    closed = _finish_sixth(run)
    inc = run.incidents("STUD-CARD-SHORTAGE")
    assert [i["event"] for i in inc] == [closed]
    left = [c.code for c in STANDARD_DECK if c.code not in _drawn(run)]
    assert len(left) == 7
    burns = [d["card"] for d in run.out if d["type"] == "draw" and d["role"] == "burn"]
    start = len(run.lines) + 1
    run.feed([draw(c) for c in left[:6]])  # burn, seats 1-5; the last card is kept
    assert _last_prompt(run).startswith("KEEP THE LAST CARD")
    run.feed(draw(left[6]))  # the last card before the scramble: too early
    assert run.incidents("STUD-CARD-SHORTAGE")[-1]["ruling"] == "stop"
    run.feed(key("STUB_RESHUFFLE"))
    run.feed(draw(burns[0]), draw(left[6]), draw(burns[1]))
    roles = _draws(run, start)
    first_part = [(r, s) for _, r, s in roles[:6]]
    assert first_part == [("burn", None)] + [("down", s) for s in range(1, 6)]
    assert roles[-3:] == [(burns[0], "burn", None), (left[6], "down", 6), (burns[1], "down", 7)]
    assert not run.incidents("DECK-DUPLICATE-CARD")
    assert run.snap.to_act is not None  # seventh-street betting is open


def test_STUD_CARD_SHORTAGE_gn_burns_scrambled_into_the_stub_first() -> None:
    # 004-GN r226: players + 2 cards needed; the three burns make up the shortfall: scramble
    # the stub and the burns, then finish the hand.
    run = _to_the_last_street(7, "GN")
    _finish_sixth(run)
    assert run.incidents("STUD-CARD-SHORTAGE")
    left = [c.code for c in STANDARD_DECK if c.code not in _drawn(run)]
    burns = [d["card"] for d in run.out if d["type"] == "draw" and d["role"] == "burn"]
    run.feed(key("STUB_RESHUFFLE"))
    start = len(run.lines) + 1
    run.feed(draw(burns[2]), draw(burns[0]), [draw(c) for c in left[:6]])
    roles = _draws(run, start)
    assert roles[0] == (burns[2], "burn", None)
    assert roles[1] == (burns[0], "down", 1)
    assert not run.incidents("DECK-DUPLICATE-CARD")


def test_STUD_CARD_SHORTAGE_eight_players_common_card() -> None:
    # 001-RR11 §8 r15: not enough fresh cards for everyone: burn and turn a common card that
    # plays in every hand; the player now high with it starts the last round.
    run = _to_the_last_street(8, "RR11")
    _finish_sixth(run)
    (inc,) = run.incidents("STUD-CARD-SHORTAGE")
    assert "COMMON CARD" in inc["text"]
    left = [c.code for c in STANDARD_DECK if c.code not in _drawn(run)]
    burns = [d["card"] for d in run.out if d["type"] == "draw" and d["role"] == "burn"]
    assert len(left) == 1
    run.feed(key("STUB_RESHUFFLE"))
    start = len(run.lines) + 1
    run.feed(draw(left[0]), draw(burns[0]))
    assert _draws(run, start) == [(left[0], "burn", None), (burns[0], "board", None)]
    prompt = _last_prompt(run)
    starter = run.snap.to_act
    assert f"HIGH HAND SEAT {starter}" in prompt
    assert burns[0] in prompt  # the common card counts in the hand showing
    _check_round(run)
    run.finish()
    end = run.hand_end()
    assert end["board"] == [burns[0]]
    assert sum(end["payouts"].values()) == 8 * (1 + 2)  # antes and bring-in calls


# --- EXPOSE-STUD-FINAL-DOWNCARD, PREMATURE-STUD-STREET, DEAD-ABSENT ---------------------------


def test_PREMATURE_STUD_STREET_eliminate_key_confirms_the_eliminated_cards() -> None:
    # 001-RR11 §8 r14 / catalog: after the betting, one card per active player is eliminated
    # (the ELIMINATE key confirms), then the dealer burns and play resumes.
    run = _fourth_street("stud", ["Ks", "3c", "5h"], ["Qd", "7d", "8h"])
    run.feed(zone(1, 5), draw("Jd"), draw("Js"))  # seat 2 and 3 still to act
    assert run.incidents("PREMATURE-STUD-STREET")[0]["ruling"] == "stop"
    run.feed(zone(2, 5), zone(3, 5))
    _collect(run, [1, 2, 3])
    run.feed(key("ELIMINATE"))
    assert not run.incidents("STATION-UNEXPECTED-KEY")
    start = len(run.lines) + 1
    run.feed(draw("4h"), draw("5s"), draw("6d"), draw("7c"), draw("8s"))
    assert [r for _, r, _ in _draws(run, start)] == ["eliminated"] * 3 + ["burn", "up"]
    run.feed(key("ELIMINATE"))
    assert run.incidents("STATION-UNEXPECTED-KEY")  # nothing to eliminate now


def test_DEAD_ABSENT_stud_absent_player_killed_when_the_betting_reaches_him() -> None:
    # 001-RR11 §8 r8: "If you have not returned to the table in time to act, the hand will be
    # killed when the betting reaches your seat." His ante stays in the pot.
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed({"type": "seat", "seat": 3, "occupied": False})
    run.feed(zone(2, 2))
    (inc,) = run.incidents("DEAD-ABSENT")
    assert (inc["seat"], inc["ruling"]) == (3, "dead_hand")
    assert run.snap.to_act == 1
    run.feed(zone(1, 2))
    assert run.snap.to_act is None


def test_DEAD_ABSENT_stud_player_back_in_time_acts() -> None:
    run = _third_street("stud", DOWNS, ["3s", "3c", "3h"])
    run.feed({"type": "seat", "seat": 3, "occupied": False})
    run.feed({"type": "seat", "seat": 3, "occupied": True})
    run.feed(zone(2, 2))
    assert not run.incidents("DEAD-ABSENT")
    assert run.snap.to_act == 3

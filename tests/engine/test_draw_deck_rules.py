"""Draw and lowball procedure, the deck and its stub, burn errors (catalog §4, §6, §7 DRAW-RULES
and LOWBALL-SPECIFIC), with the outcomes worked out from the rulebook text."""

from __future__ import annotations

from tests.engine.tablekit import Run, draw, key, setup, zone

LIMIT = {"sb": 5, "bb": 10, "small_bet": 10, "big_bet": 20}


def _codes(text: str) -> list[str]:
    return text.split()


def _draws(run: Run, first_event: int = 0) -> list[tuple[str, str, int | None]]:
    return [
        (d["card"], d["role"], d["seat"])
        for d in run.out
        if d["type"] == "draw" and d["event"] >= first_event
    ]


def _actions(run: Run, event: int | None = None) -> list[tuple[int, str, int]]:
    return [
        (d["seat"], d["action"], d["amount"])
        for d in run.out
        if d["type"] == "action" and (event is None or d["event"] == event)
    ]


def _a5_to_the_draw(holes: dict[int, list[str]], profile: str = "RR11") -> Run:
    """Limit A-5 single draw, seats 1-3, button 3: seat 3 and seat 1 call, seat 2 checks."""
    run = Run()
    run.feed(setup("a5sd", {1: 500, 2: 500, 3: 500}, profile=profile, stakes=LIMIT, button=3))
    run.feed(zone(1, 5), zone(2, 10), key("NEW_HAND"))
    run.feed([draw(holes[s][k]) for k in range(5) for s in (1, 2, 3)])
    run.feed(zone(3, 10), zone(1, 10), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0))
    return run


HOLES = {
    1: ["Kc", "4d", "2h", "Qs", "5c"],
    2: ["3c", "Jd", "6h", "4s", "Th"],
    3: ["Js", "5h", "9c", "2c", "8d"],
}


# --- DRAW-MAX-CONSECUTIVE ---------------------------------------------------------------------


def test_DRAW_MAX_CONSECUTIVE_others_pat_a_burn_comes_before_the_fifth() -> None:
    # 001-RR11 §11 r10: four now, the fifth after everyone else has drawn; when nobody else
    # takes a card the fifth would follow the four, so "a card is burned before the player
    # receives a fifth card".
    run = _a5_to_the_draw(HOLES)
    run.feed(key("DRAW", 1, count=5, cards=["Kc", "4d", "2h", "Qs", "5c"]))
    run.feed(key("DRAW", 2, count=0), key("DRAW", 3, count=0))
    start = len(run.lines) + 1
    run.feed(draw(c) for c in ["7s", "Ac", "As", "Td", "7c", "9h", "2d"])
    assert _draws(run, start) == [
        ("7s", "burn", None),
        ("Ac", "draw", 1),
        ("As", "draw", 1),
        ("Td", "draw", 1),
        ("7c", "draw", 1),
        ("9h", "burn", None),
        ("2d", "draw", 1),
    ]


def test_DRAW_MAX_CONSECUTIVE_gn_deals_five_at_once() -> None:
    # 004-GN r268: "A participant may draw up to five consecutive cards."
    run = _a5_to_the_draw(HOLES, profile="GN")
    run.feed(key("DRAW", 1, count=5, cards=["Kc", "4d", "2h", "Qs", "5c"]))
    start = len(run.lines) + 1
    run.feed(draw(c) for c in ["7s", "Ac", "As", "Td", "7c", "9h"])
    assert [r for _, r, _ in _draws(run, start)] == ["burn"] + ["draw"] * 5


# --- LOWBALL-CHECK-RAISE ----------------------------------------------------------------------


def _after_the_draw(profile: str = "RR11") -> Run:
    run = _a5_to_the_draw(HOLES, profile=profile)
    run.feed(key("DRAW", s, count=0) for s in (1, 2, 3))
    return run


def test_LOWBALL_CHECK_RAISE_alerted_table_lets_the_raise_stand() -> None:
    # 001-RR11 §11 A-5 r2: "not permitted (unless the players are alerted that it is allowed)".
    run = Run()
    run.feed(
        setup(
            "a5sd",
            {1: 500, 2: 500, 3: 500},
            profile="RR11",
            stakes=LIMIT,
            button=3,
            rules={"a5_limit_check_raise": True},
        )
    )
    run.feed(zone(1, 5), zone(2, 10), key("NEW_HAND"))
    run.feed([draw(HOLES[s][k]) for k in range(5) for s in (1, 2, 3)])
    run.feed(zone(3, 10), zone(1, 10), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(key("DRAW", s, count=0) for s in (1, 2, 3))
    run.feed(key("CHECK", 1), zone(2, 20), zone(3, 20), zone(1, 40))
    assert _actions(run, len(run.lines)) == [(1, "raise", 40)]
    assert not run.incidents("LOWBALL-CHECK-RAISE")


def test_LOWBALL_CHECK_RAISE_a_raise_without_an_earlier_check_stands() -> None:
    # Only a player who checked earlier in the round is limited to a call.
    run = _after_the_draw()
    run.feed(zone(1, 20), zone(2, 40))
    assert _actions(run, len(run.lines)) == [(2, "raise", 40)]
    assert not run.incidents("LOWBALL-CHECK-RAISE")


# --- LOWBALL-SEVENS-RULE ----------------------------------------------------------------------

SEVENS = {
    1: ["7h", "5d", "4c", "3s", "2h"],  # 7-5-4-3-2
    2: ["8c", "6d", "4h", "3c", "Ks"],  # 8-6-4-3 + a king to draw
    3: ["Qc", "Jh", "Jc", "9s", "Qd"],
}


def _sevens(profile: str, second: str, *, seat1_bets: bool = False) -> Run:
    """Seat 3 folds, seat 1 completes, seat 2 checks (pot 20 before the draw); seat 1 stands
    pat on 7-5-4-3-2, seat 2 draws one to 8-6-4-3 and catches `second`; seat 2 bets 20 after a
    check (or seat 1 bets), the other calls; both show."""
    run = Run()
    run.feed(setup("a5sd", {1: 500, 2: 500, 3: 500}, profile=profile, stakes=LIMIT, button=3))
    run.feed(zone(1, 5), zone(2, 10), key("NEW_HAND"))
    run.feed([draw(SEVENS[s][k]) for k in range(5) for s in (1, 2, 3)])
    run.feed(key("FOLD", 3), zone(1, 10), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(key("DRAW", 1, count=0), key("DRAW", 2, count=1, cards=["Ks"]))
    run.feed(draw("9h"), draw(second))
    if seat1_bets:
        run.feed(zone(1, 20), zone(2, 20))
    else:
        run.feed(key("CHECK", 1), zone(2, 20), zone(1, 20))
    run.feed(key("TABLED", 2), key("TABLED", 1))
    return run


def test_LOWBALL_SEVENS_RULE_a_seven_that_bets_wins_everything() -> None:
    # 001-RR11 §11 A-5 r4 applies to a seven that is checked: seat 1 bets its 7-5-4-3-2 after
    # the draw and seat 2 calls: seat 1 wins the whole 60.
    run = _sevens("RR11", "Ad", seat1_bets=True)
    assert run.hand_end()["payouts"] == {"1": 60}
    assert not run.incidents("LOWBALL-SEVENS-RULE")


def test_LOWBALL_SEVENS_RULE_gn_has_no_sevens_rule() -> None:
    # Catalog D59: GN does not use the sevens rule: the checked seven wins everything.
    run = _sevens("GN", "Ad")
    assert run.hand_end()["payouts"] == {"1": 60}
    assert not run.incidents("LOWBALL-SEVENS-RULE")


def test_LOWBALL_SEVENS_RULE_checked_seven_wins_only_the_pot_before_the_draw() -> None:
    # r4: "all action after the draw is void ... still eligible to win whatever existed in the
    # pot before the draw": seat 1 takes the 20 from before the draw, the bets go back.
    run = _sevens("RR11", "Ad")
    assert run.hand_end()["payouts"] == {"1": 40, "2": 20}
    (inc,) = run.incidents("LOWBALL-SEVENS-RULE")
    assert inc["seat"] == 1


def test_LOWBALL_SEVENS_RULE_checked_seven_beaten_loses_the_pot_and_the_call() -> None:
    # r4 only protects the best hand: "if beaten he loses the pot and any calls" (catalog).
    # Seat 1 checks 7-5-4-3-2 and calls; seat 2 draws to 6-4-3-2-A and wins all 60.
    run = Run()
    holes = {
        1: ["7h", "5d", "4c", "3s", "2h"],
        2: ["6d", "4h", "3c", "2c", "Ks"],
        3: ["Qc", "Jh", "Jc", "9s", "Qd"],
    }
    run.feed(setup("a5sd", {1: 500, 2: 500, 3: 500}, profile="RR11", stakes=LIMIT, button=3))
    run.feed(zone(1, 5), zone(2, 10), key("NEW_HAND"))
    run.feed([draw(holes[s][k]) for k in range(5) for s in (1, 2, 3)])
    run.feed(key("FOLD", 3), zone(1, 10), key("CHECK", 2))
    run.feed(zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(key("DRAW", 1, count=0), key("DRAW", 2, count=1, cards=["Ks"]))
    run.feed(draw("9h"), draw("Ad"))
    run.feed(key("CHECK", 1), zone(2, 20), zone(1, 20))
    run.feed(key("TABLED", 2), key("TABLED", 1))
    assert run.hand_end()["payouts"] == {"2": 60}
    assert not run.incidents("LOWBALL-SEVENS-RULE")


# --- MISDEAL-WRONG-CARD-COUNT -----------------------------------------------------------------


def test_MISDEAL_WRONG_CARD_COUNT_fold_before_the_last_card_stands() -> None:
    # 001-RR11 §3 "Misdeals" r2(e): the top card may be dealt when it goes to the player in
    # proper sequence: the button's missing card. The first player's fold stands.
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=4))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["Ah", "7d", "Ks", "Qc", "4d", "9s", "2h"])
    run.feed(key("FOLD", 3))
    run.feed(draw("Jc"))
    assert _draws(run, len(run.lines)) == [("Jc", "hole", 4)]
    assert _actions(run) == [(3, "fold", 0)]
    assert run.snap.to_act == 4
    assert not [i for i in run.incidents() if i["ruling"] == "misdeal"]


def test_MISDEAL_WRONG_CARD_COUNT_two_cards_short_is_a_misdeal() -> None:
    # Omaha, two cards missing when the action starts: the top card cannot complete the deal in
    # proper sequence, so r2(e) makes it a misdeal (before the action cutoff).
    run = Run()
    run.feed(setup("plo", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=4))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in _codes("Ah 7d Ks Qc 4d 9s 2h Jc 3d Tc 8c 5h 6c Kd"))
    run.feed(zone(3, 2))
    assert [i["ruling"] for i in run.incidents("MISDEAL-WRONG-CARD-COUNT")] == ["misdeal"]


# --- BURN-ERROR-ANY-STREET / BURN-ERROR-FLOP / PREMATURE-TURN ----------------------------------


def _flop_dealt(profile: str = "RR11") -> Run:
    run = Run()
    run.feed(
        setup(
            "nlhe",
            {1: 200, 2: 200, 3: 200, 4: 200},
            profile=profile,
            stakes={"sb": 1, "bb": 2},
            button=4,
        )
    )
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["Ah", "7d", "Ks", "Qc", "4d", "9s", "2h", "Jc"])
    run.feed(zone(3, 2), zone(4, 2), zone(1, 2), key("CHECK", 2))
    run.feed(zone(s, 0) for s in (1, 2, 3, 4))
    run.feed(draw(c) for c in ["3d", "Tc", "8c", "5h"])
    return run


def test_BURN_ERROR_ANY_STREET_river_without_burn_stands_and_nothing_is_owed() -> None:
    # 001-RR11 §3 r16: once acted on, the card stands; on the river no card comes after it.
    run = _flop_dealt()
    run.feed(key("CHECK", s) for s in (1, 2, 3, 4))
    run.feed(draw("6c"), draw("Kd"))  # burn, turn
    run.feed(key("CHECK", s) for s in (1, 2, 3, 4))
    run.feed(draw("Qh"))  # the river, no burn
    run.feed(key("CHECK", 1))
    (inc,) = run.incidents("BURN-ERROR-ANY-STREET")
    assert inc["ruling"] == "play_on"
    assert "TWO" not in inc["text"]
    run.feed(key("CHECK", s) for s in (2, 3, 4))
    run.feed(key("TABLED", s) for s in (1, 2, 3, 4))
    assert run.hand_end()["board"] == ["Tc", "8c", "5h", "Kd", "Qh"]


def test_BURN_ERROR_FLOP_all_three_flop_cards_go_back_with_the_reshuffle() -> None:
    # 001-RR11 §5 r4 and r7: an exposed flop without a burn is reshuffled into the stub; there
    # was no burn to leave on the table, so every card turned may come out again.
    run = Run()
    run.feed(setup("nlhe", {1: 200, 2: 200, 3: 200, 4: 200}, stakes={"sb": 1, "bb": 2}, button=4))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["Ah", "7d", "Ks", "Qc", "4d", "9s", "2h", "Jc"])
    run.feed(zone(3, 2), zone(4, 2), zone(1, 2), key("CHECK", 2))
    run.feed(zone(s, 0) for s in (1, 2, 3, 4))
    run.feed(draw("3d"), draw("Tc"), draw("8c"), key("CHECK", 1), key("STUB_RESHUFFLE"))
    start = len(run.lines) + 1
    run.feed(draw("8c"), draw("3d"), draw("Tc"))
    assert [r for _, r, _ in _draws(run, start)] == ["board"] * 3
    assert not run.incidents("DECK-DUPLICATE-CARD")


def test_PREMATURE_TURN_gn_turn_without_a_burn_is_accepted() -> None:
    # Catalog D13 (GN): "what would have been the river card" as the turn, with or without a
    # burn draw: action after one card takes it as the turn, without an incident.
    run = _flop_dealt(profile="GN")
    run.feed(zone(1, 4), zone(2, 4), key("FOLD", 3))
    run.feed(draw("6c"), draw("Kd"))  # premature burn and turn: seat 4 has not acted
    run.feed(zone(4, 4), zone(1, 0), zone(2, 0), zone(4, 0))
    start = len(run.lines) + 1
    run.feed(draw("9d"), key("CHECK", 1))
    assert _draws(run, start)[-1] == ("9d", "board", None)
    assert not run.incidents("BURN-ERROR-ANY-STREET")
    run.feed(key("CHECK", 2), key("CHECK", 4), draw("2c"), draw("Js"))
    assert _draws(run, start)[-2:] == [("2c", "burn", None), ("Js", "board", None)]


def _one_hand(deck: str | None = "blue", players: int = 4) -> Run:
    seats = dict.fromkeys(range(1, players + 1), 200)
    run = Run()
    extra = {"deck": deck} if deck else {}
    run.feed(setup("nlhe", seats, stakes={"sb": 1, "bb": 2}, button=players, **extra))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    deck_cards = ["Ah", "7d", "Ks", "Qc", "4d", "9s", "2h", "Jc", "3d", "Tc", "8c", "5h"]
    run.feed(draw(c) for c in deck_cards[: 2 * players])
    run.feed(key("FOLD", s) for s in range(3, players + 1))
    run.feed(key("FOLD", 1))
    return run


def test_DECK_CHANGE_after_a_full_round_is_not_flagged() -> None:
    # 001-RR11 §2 r22: a deck used for a full round (once around: one hand per player) may go.
    run = Run()
    blinds = {"sb": 1, "bb": 2}
    for hand, dealt in enumerate((["Ah", "7d", "Ks", "Qc"], ["2h", "3h", "4h", "5h"])):
        button = 1 + hand  # heads-up: the button posts the small blind
        run.feed(setup("nlhe", {1: 200, 2: 200}, stakes=blinds, button=button, deck="blue"))
        other = 2 if button == 1 else 1
        run.feed(zone(button, 1), zone(other, 2), key("NEW_HAND"))
        run.feed(draw(c) for c in dealt)
        run.feed(key("FOLD", button))
    run.feed(setup("nlhe", {1: 200, 2: 200}, stakes=blinds, button=1, deck="red"))
    assert [e["void"] for e in run.out if e["type"] == "hand_end"] == [False, False]
    assert not run.incidents("DECK-CHANGE")


def test_DECK_CHANGE_a_defective_deck_may_be_changed_at_once() -> None:
    # r22: "... unless a deck is defective or damaged": a duplicate card voided the hand.
    run = Run()
    seats = {1: 200, 2: 200, 3: 200}
    run.feed(setup("nlhe", seats, stakes={"sb": 1, "bb": 2}, button=3, deck="blue"))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["Ah", "7d", "Ks", "Ah"])
    assert run.hand_end()["void"] is True
    run.feed(setup("nlhe", seats, stakes={"sb": 1, "bb": 2}, button=1, deck="red"))
    assert not run.incidents("DECK-CHANGE")


def test_NO_STUB_PEEK_only_the_first_card_after_the_hand_is_the_rabbit_hunt() -> None:
    # 001-RR11 §2 r24 (the card that would have come) and r23 (looking through the stub).
    run = _one_hand(deck=None)
    run.feed(draw("3d"), draw("Tc"))
    assert [i["rule"] for i in run.incidents()] == ["DECK-NO-RABBIT-HUNT", "NO-STUB-PEEK"]


def test_DECK_FOREIGN_BACK_gn_stub_without_substantial_action_goes_to_the_floor() -> None:
    # 004-GN r110 (D09): a foreign back in the stub leaves the action standing only if
    # substantial action has taken place; two folds to the big blind are not substantial
    # (GN: three actions, or two with chips), so the floor decides.
    run = Run()
    seats = {1: 200, 2: 200, 3: 200}
    run.feed(setup("nlhe", seats, profile="GN", stakes={"sb": 1, "bb": 2}, button=3, deck="blue"))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in ["Ah", "7d", "Ks", "Qc", "4d", "9s"])
    run.feed(key("FOLD", 3), key("FOLD", 1))
    run.feed(draw("3d", back="red"))
    (inc,) = run.incidents("DECK-FOREIGN-BACK")
    assert inc["ruling"] == "floor"
    assert [e["void"] for e in run.out if e["type"] == "hand_end"] == [False]


# --- DRAW-LAST-CARD-RESHUFFLE -----------------------------------------------------------------

DECK27 = [
    "2c", "2d", "2h", "3c", "4d", "5c", "3d", "3h", "4c", "5d", "6c", "7d", "4h", "5s", "6d",
    "7h", "8h", "8c", "Kc", "Qc", "Jc", "Tc", "9c", "As", "Kd", "Qd", "Jd", "Td", "9d", "Ac",
]  # fmt: skip
FIRST_DISCARDS = {
    1: ["4h", "Kc", "Kd"],
    2: ["5s", "Qc", "Qd"],
    3: ["6d", "Jc", "Jd"],
    4: ["7h", "Tc", "Td"],
    5: ["8h", "9c", "9d"],
    6: ["8c", "As", "Ac"],
}
FIRST_DRAW = ["7c", "8d", "Ad", "5h", "6h", "9h", "Th", "Jh", "Qh", "Kh", "Ah", "2s", "3s", "4s"]
FIRST_DRAW += ["6s", "7s", "8s", "9s", "Ts"]  # a burn and 18 cards: three left (Js Qs Ks)


def _27td_after_first_draw() -> Run:
    """GN 2-7 triple draw, six players, everyone draws three on the first draw: 3 cards left."""
    seats = dict.fromkeys(range(1, 7), 200)
    run = Run()
    run.feed(setup("27td", seats, profile="GN", stakes={"sb": 1, "bb": 2}, button=6))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw(c) for c in DECK27)
    run.feed(zone(s, 2) for s in (3, 4, 5, 6, 1))
    run.feed(key("CHECK", 2))
    run.feed(zone(s, 0) for s in range(1, 7))
    cards = iter(FIRST_DRAW)
    for s in range(1, 7):
        run.feed(key("DRAW", s, count=3, cards=FIRST_DISCARDS[s]))
        if s == 1:
            run.feed(draw(next(cards)))  # the burn
        run.feed(draw(next(cards)) for _ in range(3))
    run.feed(key("CHECK", s) for s in range(1, 7))
    return run


def test_DRAW_LAST_CARD_RESHUFFLE_the_last_card_is_kept_back_for_the_reshuffle() -> None:
    # 004-GN §X: the last card is used only if it completes all draws for the hand. Seat 6
    # draws two with three cards left on the second of three draws: the burn and one card come
    # off the stub, then the earlier discards and burns are shuffled for the second card.
    run = _27td_after_first_draw()
    run.feed(key("DRAW", s, count=0) for s in range(1, 6))
    run.feed(key("DRAW", 6, count=2, cards=["2c", "3h"]))
    (inc,) = run.incidents("DRAW-LAST-CARD-RESHUFFLE")
    assert inc["seat"] == 6
    start = len(run.lines) + 1
    run.feed(draw("Js"), draw("Qs"))
    run.feed(draw("Ks"))  # the last card: not now
    assert _draws(run, start)[:2] == [("Js", "burn", None), ("Qs", "draw", 6)]
    assert _draws(run, start)[2][1] == "stray"
    run.feed(key("STUB_RESHUFFLE"), draw("Kc"))  # a first-round discard
    assert _draws(run, len(run.lines)) == [("Kc", "draw", 6)]
    assert not run.incidents("DECK-DUPLICATE-CARD")


def test_DRAW_LAST_CARD_RESHUFFLE_last_card_completing_the_final_draw_is_used() -> None:
    # "If the dealer can complete the final draw for the last participant by using the last
    # card in the stub, the dealer will use this card": third draw, only seat 6 draws two.
    run = _27td_after_first_draw()
    run.feed(key("DRAW", s, count=0) for s in range(1, 7))
    run.feed(key("CHECK", s) for s in range(1, 7))
    run.feed(key("DRAW", s, count=0) for s in range(1, 6))
    run.feed(key("DRAW", 6, count=2, cards=["2c", "3h"]))
    start = len(run.lines) + 1
    run.feed(draw("Js"), draw("Qs"), draw("Ks"))
    assert _draws(run, start) == [("Js", "burn", None), ("Qs", "draw", 6), ("Ks", "draw", 6)]
    assert not run.incidents("DRAW-LAST-CARD-RESHUFFLE")


# --- RIT-CARD-SHORTAGE ------------------------------------------------------------------------


def test_RIT_CARD_SHORTAGE_last_card_is_the_last_river_without_a_burn() -> None:
    # 004-GN r209: "only one card left on the dealer's stub going into the river ... that card
    # will be used". Short deck, six players (12 cards) and a boxed card (13 out): three boards
    # from the flop need 24 cards, 23 are left; the last board's river is the last card.
    seats = {1: 50, 2: 100, 3: 50, 4: 100, 5: 100, 6: 100}
    run = Run()
    run.feed(setup("sdhe", seats, profile="GN", stakes={"sb": 1, "bb": 2}, button=6))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw("6c", face_up=True), key("BOXED"))
    run.feed(draw(c) for c in _codes("7c 8c 9c Tc Jc Qc Kc Ac 6d 7d 8d 9d"))
    run.feed(zone(3, 50), key("FOLD", 4), key("FOLD", 5), key("FOLD", 6), zone(1, 50))
    run.feed(key("FOLD", 2), key("RUN_IT", count=3))
    (agreed,) = run.incidents("RIT-CARD-SHORTAGE")
    assert agreed["event"] == len(run.lines)
    run.feed(zone(s, 0) for s in (1, 2, 3))
    rest = _codes("Td Jd Qd Kd Ad 6h 7h 8h 9h Th Jh Qh Kh Ah 6s 7s 8s 9s Ts Js Qs Ks")
    run.feed(draw(c) for c in rest)  # 22 cards: boards 1 and 2, and board 3 up to its turn
    assert len(run.incidents("RIT-CARD-SHORTAGE")) == 2  # one card left: no burn for it
    run.feed(draw("As"), key("TABLED", 3), key("TABLED", 1))
    end = run.hand_end()
    assert end["void"] is False
    assert end["boards"][2] == ["9s", "Ts", "Js", "Ks", "As"]
    assert not run.incidents("DECK-DUPLICATE-CARD")


def test_RIT_CARD_SHORTAGE_a_card_the_short_deck_does_not_hold_leaves_the_stub_as_it_was() -> None:
    # The same hand with a deuce (no card of a short deck, 004-GN r359: DECK-EXTRA-CARD-IN-DECK,
    # mucked as scrap) read between the boards: it never was in the stub, so the stub still
    # holds one card going into the last river, and that card is the river, unburned (004-GN
    # r209). Counting the deuce as a card out of the stub left the station asking for a burn
    # and a river from an empty stub: the hand could not end.
    seats = {1: 50, 2: 100, 3: 50, 4: 100, 5: 100, 6: 100}
    run = Run()
    run.feed(setup("sdhe", seats, profile="GN", stakes={"sb": 1, "bb": 2}, button=6))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw("6c", face_up=True), key("BOXED"))
    run.feed(draw(c) for c in _codes("7c 8c 9c Tc Jc Qc Kc Ac 6d 7d 8d 9d"))
    run.feed(zone(3, 50), key("FOLD", 4), key("FOLD", 5), key("FOLD", 6), zone(1, 50))
    run.feed(key("FOLD", 2), key("RUN_IT", count=3))
    run.feed(zone(s, 0) for s in (1, 2, 3))
    run.feed(draw(c) for c in _codes("Td Jd Qd Kd Ad 6h 7h 8h"))  # board 1
    run.feed(draw("2c"))  # not in this deck
    assert len(run.incidents("DECK-EXTRA-CARD-IN-DECK")) == 1
    rest = _codes("9h Th Jh Qh Kh Ah 6s 7s 8s 9s Ts Js Qs Ks")
    run.feed(draw(c) for c in rest)  # board 2, and board 3 up to its turn
    assert len(run.incidents("RIT-CARD-SHORTAGE")) == 2  # one card left: no burn for it
    run.feed(draw("As"), key("TABLED", 3), key("TABLED", 1))
    end = run.hand_end()
    assert end["void"] is False
    assert end["boards"][2] == ["9s", "Ts", "Js", "Ks", "As"]

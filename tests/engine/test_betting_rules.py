"""Betting rules of catalog §8, each on the catalog's own worked example, end to end through the
table: session events in, the snapshot the dealer sees out."""

from __future__ import annotations

from tests.engine.tablekit import Run, key, to_the_flop, zone

LIMIT = {"sb": 5, "bb": 10, "small_bet": 10, "big_bet": 20}


def _limit_flop(stacks: dict[int, int], profile: str = "RR11") -> Run:
    run = Run()
    run.feed(to_the_flop("flhe", LIMIT, stacks, button=4, profile=profile))
    return run


def test_BET_LIMIT_SHORT_ALLIN_less_than_half_a_bet_does_not_reopen() -> None:
    # 001-RR11 §3 "Betting and Raising" r7, catalog test: $10/$20, flop ($10 round): A bets 10,
    # B calls, C all-in 14 -> A and B may only call 4; D (unacted) may fold, call 14 or
    # complete to 20.
    run = _limit_flop({1: 500, 2: 500, 3: 24, 4: 500})
    run.feed(zone(1, 10), zone(2, 10), zone(3, 14))
    snap = run.snap
    assert snap.to_act == 4
    assert snap.to_call == 14
    assert (snap.min_raise_to, snap.max_raise_to) == (20, 20)
    run.feed(zone(4, 14))
    snap = run.snap
    assert snap.to_act == 1
    assert snap.to_call == 4
    assert snap.min_raise_to is None  # A may only call the extra 4


def test_BET_LIMIT_SHORT_ALLIN_GN_unacted_player_raises_over_the_allin() -> None:
    # 004-GN §VI r128: facing an all-in of less than half a bet he "may fold, call, or raise".
    run = _limit_flop({1: 500, 2: 500, 3: 24, 4: 500}, profile="GN")
    run.feed(zone(1, 10), zone(2, 10), zone(3, 14))
    assert run.snap.to_act == 4
    assert run.snap.min_raise_to == 24


def test_BET_LIMIT_SHORT_ALLIN_half_a_bet_or_more_is_a_full_raise() -> None:
    # 001-RR11 §3 r7: "C all-in 15 instead -> full raise: A may re-raise to 25".
    run = _limit_flop({1: 500, 2: 500, 3: 25, 4: 500})
    run.feed(zone(1, 10), zone(2, 10), zone(3, 15), zone(4, 15))
    snap = run.snap
    assert snap.to_act == 1
    assert snap.to_call == 5
    assert (snap.min_raise_to, snap.max_raise_to) == (25, 25)


def test_BET_NL_SHORT_ALLIN_NO_REOPEN_only_a_player_facing_a_full_raise_may_reraise() -> None:
    # 001-RR11 §14 NL r3-r4, catalog test: NL 1/2: A bets 10, B raises to 30, C all-in 45 ->
    # A (facing 35 more, which includes B's full raise) may re-raise; B may only call or fold.
    run = Run()
    run.feed(to_the_flop("nlhe", {"sb": 1, "bb": 2}, {1: 500, 2: 500, 3: 47}, button=3))
    run.feed(zone(1, 10), zone(2, 30), zone(3, 45))
    snap = run.snap
    assert snap.to_act == 1
    assert snap.to_call == 35
    assert snap.min_raise_to == 65  # 45 + the last full raise of 20
    run.feed(zone(1, 45))
    snap = run.snap
    assert snap.to_act == 2
    assert snap.to_call == 15
    assert snap.min_raise_to is None


def test_BET_NL_SHORT_ALLIN_NO_REOPEN_two_short_allins_together_reopen() -> None:
    # 001-RR11 §14 r4 and 004-GN r172 (D25): several short all-ins that add up to a full raise
    # reopen the betting. A bets 20, B calls, C all-in 30 (+10), D all-in 40 (+10): A and B now
    # face +20 = a full raise.
    run = Run()
    stacks = {1: 500, 2: 500, 3: 32, 4: 42, 5: 500}
    run.feed(to_the_flop("nlhe", {"sb": 1, "bb": 2}, stacks, button=5))
    run.feed(zone(1, 20), zone(2, 20), zone(3, 30), zone(4, 40), zone(5, 40))
    snap = run.snap
    assert snap.to_act == 1
    assert snap.min_raise_to == 60


def test_BET_NL_MIN_RAISE_a_raise_is_at_least_the_previous_bet_or_raise() -> None:
    # 001-RR11 §14 NL r3: "A bets 100, B raises to 200, C must make it at least 300".
    run = Run()
    run.feed(to_the_flop("nlhe", {"sb": 50, "bb": 100}, {1: 5000, 2: 5000, 3: 5000}, button=3))
    run.feed(zone(1, 100), zone(2, 200))
    assert run.snap.to_act == 3
    assert run.snap.min_raise_to == 300


def test_BET_NL_MIN_RAISE_no_completing_a_short_allin_in_big_bet_poker() -> None:
    # 004-GN r171: "bet $100, all-in $140, a raiser must make it at least $240".
    run = Run()
    stacks = {1: 5000, 2: 240, 3: 5000}
    run.feed(to_the_flop("nlhe", {"sb": 50, "bb": 100}, stacks, button=3, profile="GN"))
    run.feed(zone(1, 100), zone(2, 140))
    assert run.snap.to_act == 3
    assert run.snap.min_raise_to == 240


def test_BET_NL_MIN_BET_facing_an_allin_below_the_minimum_bet() -> None:
    # 001-RR11 §14 NL r2: "min $100, all-in $20 -> fold, call $20, or raise to at least $120".
    run = Run()
    stacks = {1: 120, 2: 5000, 3: 5000}
    run.feed(to_the_flop("nlhe", {"sb": 50, "bb": 100}, stacks, button=3))
    run.feed(zone(1, 20))
    snap = run.snap
    assert snap.to_act == 2
    assert snap.to_call == 20
    assert snap.min_raise_to == 120


def test_BET_PL_MAX_call_then_raise_the_pot() -> None:
    # 001-RR11 §14 "Pot-Limit Rules": "pot $100, bet $50 -> call 50 + raise 200 = total $250".
    run = Run()
    run.feed(to_the_flop("plhe", {"sb": 25, "bb": 50}, {1: 5000, 2: 5000}, button=1))
    run.feed(zone(2, 50))
    assert run.snap.to_act == 1
    assert run.snap.max_raise_to == 250


def test_BET_PL_BLIND_ROUNDING_strict_pot_limit_by_default() -> None:
    # 001-RR11 §14 PL r5: strict pot-limit opens to 3.5 big blinds (5/10 -> 35).
    from tests.engine.tablekit import cards, key, setup

    run = Run()
    run.feed(
        setup("plhe", {1: 1000, 2: 1000, 3: 1000}, stakes={"sb": 5, "bb": 10}, button=3),
        zone(1, 5),
        zone(2, 10),
        key("NEW_HAND"),
        cards(6),
    )
    assert run.snap.to_act == 3
    assert (run.snap.min_raise_to, run.snap.max_raise_to) == (20, 35)


def test_BET_PL_BLIND_ROUNDING_small_blind_counted_as_a_big_blind() -> None:
    # 004-GN r186 and 001-RR11 §14 PL r5 "many structures": 5/10 -> open to 40.
    from tests.engine.tablekit import cards, key, setup

    for line0 in (
        setup(
            "plhe", {1: 1000, 2: 1000, 3: 1000}, stakes={"sb": 5, "bb": 10}, button=3, profile="GN"
        ),
        setup(
            "plhe",
            {1: 1000, 2: 1000, 3: 1000},
            stakes={"sb": 5, "bb": 10},
            button=3,
            rules={"pl_sb_counts_as_bb": True},
        ),
    ):
        run = Run()
        run.feed(line0, zone(1, 5), zone(2, 10), key("NEW_HAND"), cards(6))
        assert (run.snap.min_raise_to, run.snap.max_raise_to) == (20, 40)


def test_BET_CAP_LIMIT_bet_and_three_raises() -> None:
    # 001-RR11 §3 r4: a bet and three raises in games of three or more rounds.
    run = _limit_flop({1: 500, 2: 500, 3: 500, 4: 500})
    run.feed(zone(1, 10), zone(2, 20), zone(3, 30), zone(4, 40))
    snap = run.snap
    assert snap.capped
    assert snap.to_act == 1
    assert snap.min_raise_to is None


def test_BET_CAP_HEADS_UP_fold_to_two_before_the_cap_uncaps_RR() -> None:
    # 001-RR11 §3 r5: unlimited raising heads-up when it becomes heads-up before the cap.
    run = Run()
    run.feed(to_the_flop("flhe", LIMIT, {1: 900, 2: 900, 3: 900}, button=3))
    run.feed(zone(1, 10), zone(2, 20), zone(3, 30), key("FOLD", 1))
    run.feed(zone(2, 40), zone(3, 50), zone(2, 60))
    snap = run.snap
    assert not snap.capped
    assert snap.to_act == 3
    assert snap.min_raise_to == 70


def test_BET_CAP_HEADS_UP_GN_only_a_round_that_begins_heads_up() -> None:
    # 004-GN §VI r126: the cap (bet + four raises) still applies.
    run = Run()
    run.feed(to_the_flop("flhe", LIMIT, {1: 900, 2: 900, 3: 900}, button=3, profile="GN"))
    run.feed(zone(1, 10), zone(2, 20), zone(3, 30), key("FOLD", 1))
    run.feed(zone(2, 40), zone(3, 50))
    snap = run.snap
    assert snap.capped
    assert snap.min_raise_to is None


def test_BET_CAP_HEADS_UP_a_capped_round_cannot_be_uncapped() -> None:
    # Catalog test: "3 players, capped, one folds -> still capped (all profiles)".
    for profile in ("RR11", "RRPG", "RR5", "USPA", "GN"):
        run = Run()
        stacks = {1: 900, 2: 900, 3: 900}
        run.feed(to_the_flop("flhe", LIMIT, stacks, button=3, profile=profile))
        raises = [10, 20, 30, 40] if profile != "GN" else [10, 20, 30, 40, 50]
        seats = [1, 2, 3, 1, 2]
        for seat, amount in zip(seats, raises, strict=False):
            run.feed(zone(seat, amount))
        assert run.snap.capped, profile
        folder = run.snap.to_act
        assert folder is not None
        run.feed(key("FOLD", folder))
        assert run.snap.capped, profile
        assert run.snap.min_raise_to is None, profile


def test_BET_FULL_PLUS_HALF_is_a_raise_that_must_be_completed() -> None:
    # 001-RR11 §3 r14: a full bet plus half a bet or more is a raise. Facing a $10 bet, 15 in the
    # zone means a raise to 20.
    run = _limit_flop({1: 500, 2: 500, 3: 500, 4: 500})
    run.feed(zone(1, 10), zone(2, 15))
    incidents = run.incidents("BET-FULL-PLUS-HALF")
    assert [i["ruling"] for i in incidents] == ["correct_bet"]
    assert "20" in incidents[0]["text"]
    assert run.snap.to_call == 20  # seat 3 now faces the raise to 20


def test_BET_UNDERSIZED_CORRECTION_less_than_half_is_a_call_with_change() -> None:
    run = _limit_flop({1: 500, 2: 500, 3: 500, 4: 500})
    run.feed(zone(1, 10), zone(2, 14))
    incidents = run.incidents("BET-UNDERSIZED-CORRECTION")
    assert [i["ruling"] for i in incidents] == ["correct_bet"]
    assert run.snap.to_act == 3
    assert run.snap.to_call == 10


def test_BET_SINGLE_OVERSIZED_CHIP_is_only_a_call() -> None:
    # 001-RR11 §3 r15: "$3-$6: $25 chip facing $6 = call $6".
    run = Run()
    stakes = {"sb": 1, "bb": 3, "small_bet": 3, "big_bet": 6}
    run.feed(to_the_flop("flhe", stakes, {1: 500, 2: 500, 3: 500}, button=3))
    run.feed(zone(1, 3), zone(2, 25, chips=[25]))
    assert [i["rule"] for i in run.incidents()] == ["BET-SINGLE-OVERSIZED-CHIP"]
    assert run.snap.to_act == 3
    assert run.snap.to_call == 3


def test_BET_SINGLE_OVERSIZED_CHIP_with_a_verbal_raise_is_a_raise() -> None:
    run = Run()
    stakes = {"sb": 1, "bb": 3, "small_bet": 3, "big_bet": 6}
    run.feed(to_the_flop("flhe", stakes, {1: 500, 2: 500, 3: 500}, button=3))
    run.feed(zone(1, 3), key("VERBAL", 2, action="raise"), zone(2, 25, chips=[25]))
    assert run.snap.to_call == 6


def test_BUTTON_HEADS_UP_button_posts_small_blind_and_acts_first_preflop() -> None:
    # 001-RR11 §4 r3: heads-up the small blind is on the button; it acts first before the flop
    # and last after it; the other player gets the first card (003-HPT).
    from tests.engine.tablekit import cards, setup

    run = Run()
    out = run.feed(
        setup("nlhe", {1: 100, 2: 100}, stakes={"sb": 1, "bb": 2}, button=2),
        zone(2, 1),
        zone(1, 2),
        key("NEW_HAND"),
    )
    assert any(d["text"] == "DEAL: FIRST CARD TO SEAT 1" for d in out if d["type"] == "prompt")
    run.feed(cards(4))
    assert run.snap.to_act == 2
    run.feed(zone(2, 2), key("CHECK", 1), zone(1, 0), zone(2, 0))
    run.feed(cards(4, skip=[line["card"] for line in run.lines if line["type"] == "draw"]))
    assert run.snap.to_act == 1


def _nl_flop() -> Run:
    run = Run()
    run.feed(to_the_flop("nlhe", {"sb": 50, "bb": 100}, {1: 5000, 2: 5000, 3: 5000}, button=3))
    return run


def test_BET_VERBAL_BINDING_a_declaration_the_chips_agree_with_changes_nothing() -> None:
    # 001-RR11 §3 r9: "A verbal statement in turn denotes your action, is binding". Chips first,
    # then "call" for the same amount: one call, no out-of-turn action, seat 3 to act.
    run = _nl_flop()
    run.feed(zone(1, 100), zone(2, 100), key("VERBAL", 2, action="call"))
    assert run.incidents() == []
    assert run.snap.to_act == 3
    assert run.snap.to_call == 100


def test_BET_VERBAL_BINDING_raise_said_just_after_the_chips_of_a_call_is_a_raise() -> None:
    # 001-RR11 §3 r9 (the statement "takes precedence over a differing physical action") and
    # §14 NL r11 (raised to the minimum, "but no greater"): 100 in, then "raise": a raise to 200.
    run = _nl_flop()
    run.feed(zone(1, 100), zone(2, 100), key("VERBAL", 2, action="raise"))
    assert [i["rule"] for i in run.incidents()] == ["BET-UNDERSIZED-CORRECTION"]
    snap = run.snap
    assert snap.to_act == 3
    assert snap.to_call == 200
    assert {s.seat: s.bet for s in snap.seats}[2] == 200


def test_BET_VERBAL_BINDING_raise_with_an_amount_just_after_other_chips_is_that_raise() -> None:
    # 001-RR11 §14 NL r8: "the bet will be corrected to the verbal statement": 250 in, "raise
    # to 400" said before anyone acted: the raise is to 400.
    run = _nl_flop()
    run.feed(zone(1, 100), zone(2, 250), key("VERBAL", 2, action="raise", amount=400))
    assert [i["rule"] for i in run.incidents()] == ["BET-VERBAL-BINDING"]
    assert run.snap.to_call == 400


def test_BET_UNDERSIZED_CORRECTION_a_short_call_binds_once_the_next_player_acts() -> None:
    # 001-RR11 §3 r13: "A player who bets or calls by releasing chips into the pot is bound by
    # that action and must make the amount of the wager correct"; r16: brought up to size. Seat
    # 2 puts 90 in facing 100 (a counting error; the correction is shown) and seat 3 folds: seat
    # 2 has called 100, the round is over (the fold was in turn, not out of turn).
    run = _nl_flop()
    run.feed(zone(1, 100), zone(2, 90))
    assert [i["rule"] for i in run.incidents()] == ["BET-UNDERSIZED-CORRECTION"]
    run.feed(key("FOLD", 3))
    assert [i["rule"] for i in run.incidents()] == ["BET-UNDERSIZED-CORRECTION"]
    assert run.snap.next_step == "BURN & TURN"
    assert sum(p.amount for p in run.snap.pots) == 300 + 200


def test_BET_NL_GROSS_MISUNDERSTANDING_far_too_few_chips_to_call_go_to_the_floor() -> None:
    # 001-RR11 §14 NL r12: a "call" may be ruled not binding if the player obviously
    # misunderstood the amount; "A possible rule-of-thumb is to disallow any claim of not
    # understanding the amount wagered if the caller has put eighty percent or more of that
    # amount into the pot." 60 of 100 is less: when the next player acts the floor decides.
    run = _nl_flop()
    run.feed(zone(1, 100), zone(2, 60), key("FOLD", 3))
    rulings = [(i["rule"], i["ruling"]) for i in run.incidents()]
    assert ("BET-NL-GROSS-MISUNDERSTANDING", "floor") in rulings
    assert run.snap.floor_call

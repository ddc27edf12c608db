"""Pots and showdown (catalog §10), with expected pots and payouts worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.engine.tablekit import Run, cards, draw, key, setup, zone


def _all_in_preflop(stacks: dict[int, int], holes: dict[int, str], board: str) -> Run:
    """Button = last seat; every seat shoves preflop; burns and board dealt; all tabled."""
    seats = sorted(stacks)
    run = Run()
    run.feed(setup("nlhe", stacks, stakes={"sb": 1, "bb": 2}, button=seats[-1]))
    run.feed(zone(seats[0], 1), zone(seats[1], 2), key("NEW_HAND"))
    order = seats  # button last: dealing starts at the first seat
    cards = {s: [holes[s][:2], holes[s][2:]] for s in seats}
    run.feed([draw(cards[s][k]) for k in range(2) for s in order])
    preflop = seats[2:] + seats[:2]
    run.feed([zone(s, stacks[s]) for s in preflop])
    run.feed([zone(s, 0) for s in seats])
    b = [board[i : i + 2] for i in range(0, len(board), 2)]
    burns = ["2c", "2d", "2h"]
    run.feed(draw(burns[0]), draw(b[0]), draw(b[1]), draw(b[2]))
    run.feed(draw(burns[1]), draw(b[3]), draw(burns[2]), draw(b[4]))
    run.feed([key("TABLED", s) for s in seats])
    return run


def _pots(run: Run) -> list[dict[str, Any]]:
    return list(run.hand_end()["pots"])


def test_POT_SIDE_POTS_three_way_all_in_makes_two_side_pots() -> None:
    # POT-SIDE-POTS: each all-in level of a player still in the hand starts a layer.
    # Stacks 50 / 100 / 200 (seat 3 covers): main 3x50 = 150 for seats 1-3, side 1 2x50 = 100
    # for seats 2-3, and seat 3's unmatched 100 goes back to it.
    # Seat 1 has aces, seat 2 kings, seat 3 queens: seat 1 takes the main pot, seat 2 the side.
    run = _all_in_preflop(
        {1: 50, 2: 100, 3: 200},
        {1: "AhAs", 2: "KhKs", 3: "QhQs"},
        "3c4d7s8d9c",
    )
    assert _pots(run) == [
        {"amount": 150, "eligible": [1, 2, 3], "won": {"1": 150}},
        {"amount": 100, "eligible": [2, 3], "won": {"2": 100}},
    ]
    end = run.hand_end()
    assert end["payouts"] == {"1": 150, "2": 100, "3": 100}
    assert end["stacks"] == {"1": 150, "2": 100, "3": 100}


def test_SHOW_CARDS_SPEAK_the_board_plays_for_everyone() -> None:
    # SHOW-CARDS-SPEAK: hands are read as they are; a royal flush on board ties everyone.
    # All in for 33, 34, 34: the main pot 99 splits three ways, the side pot of 2 two ways.
    run = _all_in_preflop(
        {1: 33, 2: 34, 3: 34},
        {1: "2s3s", 2: "4s5s", 3: "6h7h"},
        "AhKhQhJhTh",
    )
    assert _pots(run) == [
        {"amount": 99, "eligible": [1, 2, 3], "won": {"1": 33, "2": 33, "3": 33}},
        {"amount": 2, "eligible": [2, 3], "won": {"2": 1, "3": 1}},
    ]


def test_CHIP_ODD_BUTTON_GAME_odd_chip_goes_clockwise_from_the_button() -> None:
    # 001-RR11 §3 "Ties" r5(a): "the first hand clockwise from the button gets the odd chip".
    # Button seat 3 antes 1 (dead) and everyone limps: pot 7. Seats 1 and 2 both make the
    # ace-high straight; seat 3 does not. 7 = 4 + 3: seat 1 (first left of the button) gets 4.
    run = Run()
    run.feed(setup("nlhe", {1: 50, 2: 50, 3: 50}, stakes={"sb": 1, "bb": 2}, button=3))
    run.feed(zone(3, 1), zone(3, 0))
    run.feed(zone(1, 1), zone(2, 2), key("NEW_HAND"))
    run.feed(draw("Ts"), draw("Td"), draw("4d"), draw("2c"), draw("3c"), draw("5h"))
    run.feed(zone(3, 2), zone(1, 2), key("CHECK", 2), zone(1, 0), zone(2, 0), zone(3, 0))
    run.feed(draw("6s"), draw("Ah"), draw("Kd"), draw("Qs"))
    run.feed(key("CHECK", 1), key("CHECK", 2), key("CHECK", 3), draw("6c"), draw("Jc"))
    run.feed(key("CHECK", 1), key("CHECK", 2), key("CHECK", 3), draw("6h"), draw("9h"))
    run.feed(key("CHECK", 1), key("CHECK", 2), key("CHECK", 3))
    run.feed(key("TABLED", 1), key("TABLED", 2), key("TABLED", 3))
    assert _pots(run) == [{"amount": 7, "eligible": [1, 2, 3], "won": {"1": 4, "2": 3}}]


def test_CHIP_ODD_RUN_IT_TWICE_extra_chip_to_the_main_board() -> None:
    # 004-GN r211: "The extra chip in a split pot is awarded to the main board." Heads-up,
    # both all in for 100 plus seat 1's dead ante of 1 (pot 201): board 1 goes to kings
    # (trips), board 2 to aces. Board 1's share is 101, board 2's 100.
    run = Run()
    run.feed(setup("nlhe", {1: 101, 2: 100}, stakes={"sb": 1, "bb": 2}, button=2))
    run.feed(zone(1, 1), zone(1, 0))  # seat 1 antes 1 (dead money)
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"))
    run.feed(draw("Ah"), draw("Kh"), draw("Ad"), draw("Kd"))
    run.feed(zone(2, 100), zone(1, 100), zone(1, 0), zone(2, 0), key("RUN_IT", count=2))
    run.feed(draw("2c"), draw("7s"), draw("8s"), draw("9d"), draw("3c"), draw("Qh"))
    run.feed(draw("4c"), draw("Kc"))  # board 1: 7s 8s 9d Qh Kc -> kings
    run.feed(draw("5c"), draw("Tc"), draw("6c"), draw("Jc"), draw("2d"), draw("3d"))
    run.feed(draw("4d"), draw("Th"))  # board 2: Tc 6c Jc 3d Th -> aces
    run.feed(key("TABLED", 1), key("TABLED", 2))
    end = run.hand_end()
    assert end["boards"] == [["7s", "8s", "9d", "Qh", "Kc"], ["Tc", "6c", "Jc", "3d", "Th"]]
    assert end["pots"] == [{"amount": 201, "eligible": [1, 2], "won": {"1": 100, "2": 101}}]


def test_the_screen_after_the_pot_is_pushed_shows_the_stacks_with_the_payouts() -> None:
    # Seat 2 folds his small blind: seat 1 wins 1 and takes his 2 back (101); until the next
    # NEW_HAND the dealer screen must show that, not the 98 he had behind during the hand.
    run = Run()
    run.feed(setup("nlhe", {1: 100, 2: 100}, stakes={"sb": 1, "bb": 2}, button=2))
    run.feed(zone(2, 1), zone(1, 2), key("NEW_HAND"), cards(4), key("FOLD", 2))
    assert run.hand_end()["stacks"] == {"1": 101, "2": 99}
    assert {v.seat: v.stack for v in run.snap.seats} == {1: 101, 2: 99}

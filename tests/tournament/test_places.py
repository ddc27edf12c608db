"""The finishing order and the payouts (`station.central.tournament.places`): players out on
the same hand placed by the chips they started it with (TOURN-ELIMINATION-ORDER), equal chips
tied with the prizes shared, hand-for-hand rounds as one hand across tables, and the TDA
profile's ties across tables."""

from __future__ import annotations

from station.central.tournament.places import Out, Placed, finishing_order, payouts


def out(player: str, table: str, stack: int, group: str, order: int, seat: int = 1) -> Out:
    return Out(player, table, seat, 10, stack, group, order)


def places(found: list[Placed]) -> dict[str, str]:
    return {p.player: p.label() for p in found}


def test_TOURN_ELIMINATION_ORDER_the_bigger_starting_stack_finishes_higher() -> None:
    # 001-RR11 §15 r35: several players broke on the same hand: the one who started it with
    # more chips places higher. Ten entrants: the first out is 10th.
    found = finishing_order(
        10,
        [
            out("A", "T1", 500, "T1:3", 1),
            out("B", "T2", 1200, "T2:7", 2),
            out("C", "T2", 800, "T2:7", 2),
        ],
    )
    assert places(found) == {"A": "10", "C": "9", "B": "8"}


def test_TOURN_ELIMINATION_ORDER_equal_starting_stacks_tie_and_share_the_prizes() -> None:
    # RR11 r35: equal chips at the start of the hand -> equal prize money; the indivisible
    # rest goes to the best hand (the floor's call: shown as odd).
    found = finishing_order(4, [out("A", "T1", 300, "h", 1), out("B", "T1", 300, "h", 1)])
    assert places(found) == {"A": "3-4", "B": "3-4"}
    prizes = payouts(found, [50, 31, 15, 4])
    assert [(p.place, p.player, p.amount, p.odd) for p in prizes] == [
        ("3-4", "A", 9, 1),
        ("3-4", "B", 9, 1),
    ]


def test_TOURN_ELIMINATION_ORDER_a_hand_for_hand_round_is_one_hand_across_tables() -> None:
    # Round 4 of hand-for-hand: X out at T1 with 900 at the start of the hand, Y at T2 with
    # 400: Y is placed below X, whichever table finished its hand first.
    found = finishing_order(
        20, [out("X", "T1", 900, "round:4", 5), out("Y", "T2", 400, "round:4", 5)]
    )
    assert places(found) == {"Y": "20", "X": "19"}


def test_TOURN_ELIMINATION_ORDER_tda_ties_players_out_at_different_tables_in_one_round() -> None:
    # TDA 2024 RP-8: out in the same hand-for-hand hand at different tables -> tied. At one
    # table the starting stacks still rank them: T1's 300 and T2's 900 share 19th-20th, T1's
    # 1000 is 18th.
    found = finishing_order(
        20,
        [
            out("P", "T1", 300, "round:2", 3),
            out("Q", "T1", 1000, "round:2", 3),
            out("R", "T2", 900, "round:2", 3),
        ],
        tie_across_tables=True,
    )
    assert places(found) == {"P": "19-20", "R": "19-20", "Q": "18"}


def test_the_winner_is_first_once_the_field_is_down_to_him() -> None:
    found = finishing_order(3, [out("A", "T1", 10, "a", 1), out("B", "T1", 10, "b", 2)], winner="C")
    assert places(found) == {"A": "3", "B": "2", "C": "1"}
    prizes = payouts(found, [700, 300])
    assert [(p.place, p.player, p.amount) for p in prizes] == [("1", "C", 700), ("2", "B", 300)]

"""The bench's own check of a balancing move (`station.bench.tourney_check`), held to the rule's
words: 001-RR11 §15 r17 (sizes within one at six tables or fewer, two above) and r15 (the player
due the big blind moves, to the earliest seat due the big blind), and of the finishing order:
r35 (players out on the same hand: more chips at its start finish higher, equal chips tie).
Cases built by hand."""

from __future__ import annotations

from typing import Any

from station.bench.tourney_check import check_balance, check_places, check_positions


def _table(
    name: str, players: dict[int, str], big_blind: int | None, seq: int = 5
) -> dict[str, Any]:
    return {
        "table": name,
        "seats": list(range(1, 11)),
        "players": {str(s): p for s, p in players.items()},
        "button": None,
        "big_blind": big_blind,
        "has_button": True,
        "seq": seq,
    }


# T1: ten players, the big blind last at seat 4, so seat 5 is due it next.
# T2: seven players at seats 1-7, the big blind last at seat 2: of the open seats 8, 9, 10
# the earliest due the big blind is 8 (seats 3..7 come first but are taken).
T1 = _table("T1", {s: f"A{s}" for s in range(1, 11)}, big_blind=4)
T2 = _table("T2", {s: f"B{s}" for s in range(1, 8)}, big_blind=2)
DECISION = {"tolerance": 1, "tables": [T1, T2]}
RIGHT = {"player": "A5", "from_station": "T1", "from_seat": 5, "to_station": "T2", "to_seat": 8}


def test_RR11_r15_the_player_due_the_big_blind_to_the_earliest_seat_due_it_passes() -> None:
    assert check_balance(DECISION, RIGHT) == []


def test_RR11_r15_moving_another_player_is_caught() -> None:
    wrong = check_balance(DECISION, {**RIGHT, "player": "A6", "from_seat": 6})
    assert any("the big blind is due to seat 5" in w for w in wrong)


def test_RR11_r15_a_seat_not_the_earliest_due_the_big_blind_is_caught() -> None:
    wrong = check_balance(DECISION, {**RIGHT, "to_seat": 10})
    assert wrong == ["to seat 10, the earliest due the big blind is 8"]


def test_RR11_r17_a_move_when_the_sizes_are_within_one_is_caught() -> None:
    t2 = _table("T2", {s: f"B{s}" for s in range(1, 10)}, big_blind=2)
    wrong = check_balance({"tolerance": 1, "tables": [T1, t2]}, {**RIGHT, "to_seat": 10})
    assert any("no move was due" in w for w in wrong)


def test_RR11_r17_within_two_above_six_tables() -> None:
    # seven tables of 9, 9, 9, 9, 9, 9 and 7: within two, no move due
    tables = [_table(f"T{n}", {s: f"P{n}{s}" for s in range(1, 10)}, 3) for n in range(1, 7)]
    tables.append(_table("T7", {s: f"P7{s}" for s in range(1, 8)}, 3))
    move = {"player": "P14", "from_station": "T1", "from_seat": 4, "to_station": "T7",
            "to_seat": 8}  # fmt: skip
    assert any("within 2" in w for w in check_balance({"tables": tables}, move))


def test_a_move_to_a_table_that_is_not_the_smallest_is_caught() -> None:
    t3 = _table("T3", {s: f"C{s}" for s in range(1, 9)}, big_blind=1)
    wrong = check_balance({"tables": [T1, T2, t3]}, {**RIGHT, "to_station": "T3", "to_seat": 9})
    assert "T3 (8) is not a smallest table" in wrong


def test_the_decisions_big_blinds_are_held_to_the_stations_journals() -> None:
    assert check_positions(DECISION, {"T1": 4, "T2": 2}) == []
    assert check_positions(DECISION, {"T1": 3, "T2": 2}) == ["T1: big blind 4, the journal says 3"]


def _out(player: str, table: str, hand: int, start: int, rnd: int | None = None) -> dict[str, Any]:
    return {"player": player, "table": table, "hand": hand, "round": rnd, "start_stack": start}


# Ten entrants. P1 out alone first (10th); then one hand at T1 puts out P2 (started with 500)
# and P3 (started with 900): P3 finishes higher (8th), P2 9th; then P4 and P5 on one hand at T2,
# both started with 300: they tie for 6th-7th.
OUTS = [
    _out("P1", "T1", 3, 200),
    _out("P2", "T1", 7, 500),
    _out("P3", "T1", 7, 900),
    _out("P4", "T2", 9, 300),
    _out("P5", "T2", 9, 300),
]
PLACED = {"P1": (10, 10), "P2": (9, 9), "P3": (8, 8), "P4": (6, 7), "P5": (6, 7)}


def test_RR11_r35_the_finishing_order_by_the_rule_passes() -> None:
    assert check_places(10, OUTS, PLACED) == []


def test_RR11_r35_fewer_chips_placed_higher_on_the_same_hand_is_caught() -> None:
    swapped = {**PLACED, "P2": (8, 8), "P3": (9, 9)}
    assert check_places(10, OUTS, swapped) == [
        "P3 started hand 7 with 900, P2 with 500: placed (9, 9) and (8, 8)"
    ]


def test_RR11_r35_equal_chips_not_tied_is_caught() -> None:
    untied = {**PLACED, "P4": (6, 6), "P5": (7, 7)}
    problems = check_places(10, OUTS, untied)
    assert "P4 and P5 started with equal chips: placed (6, 6) and (7, 7), not tied" in problems


def test_a_place_outside_the_places_still_open_and_a_player_without_one_are_caught() -> None:
    wrong = {**PLACED, "P1": (9, 9)}  # the first out takes the lowest place, 10th
    del wrong["P5"]
    problems = check_places(10, OUTS, wrong)
    assert "P1 placed (9, 9), the places open were (10, 10) (('hand', 'T1', 3))" in problems
    assert "P5 out at T2 hand 9 has no place" in problems


def test_a_hand_for_hand_round_takes_one_block_of_places_across_tables() -> None:
    outs = [_out("P1", "T1", 4, 100, rnd=2), _out("P2", "T2", 6, 800, rnd=2)]
    # across tables the rulebooks differ (tied, or by chips): both are inside the block 9-10
    assert check_places(10, outs, {"P1": (9, 10), "P2": (9, 10)}) == []
    assert check_places(10, outs, {"P1": (10, 10), "P2": (9, 9)}) == []
    assert check_places(10, outs, {"P1": (10, 10), "P2": (8, 8)}) != []

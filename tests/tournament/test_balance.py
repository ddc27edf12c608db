"""Balancing and breaking tables by the rule (`station.central.tournament.balance`): the sizes
kept within one player at six tables or fewer and two above, the player due the big blind
moved to the earliest seat due the big blind, the preset breaking order, the redraws each
profile asks for. Expected seats are counted from the rulebooks' words, not from the code."""

from __future__ import annotations

from station.central.tournament.balance import Reason, plan
from station.central.tournament.rules import rules_for
from station.central.tournament.seating import TableSeats

NINE = tuple(range(1, 10))


def table(name: str, seated: dict[int, str], *, bb: int | None = None, button: int | None = None,
          seats: tuple[int, ...] = NINE) -> TableSeats:  # fmt: skip
    return TableSeats(name, seats, seated, button=button, big_blind=bb)


def players(prefix: str, seats: list[int]) -> dict[int, str]:
    return {s: f"{prefix}{s}" for s in seats}


def test_TOURN_balancing_sizes_within_one_player_at_six_tables_or_fewer() -> None:
    # 001-RR11 §15 r17: six tables or less, within one. 9, 8, 7: the 9 and the 7 differ by two.
    t1 = table("T1", players("a", list(range(1, 10))), bb=3)
    t2 = table("T2", players("b", list(range(1, 9))), bb=5)
    t3 = table("T3", players("c", [1, 2, 3, 4, 6, 7, 9]), bb=2)
    step = plan([t1, t2, t3], rules_for("RR11"), start_tables=3, seed="s")
    assert step is not None and step.reason is Reason.BALANCE
    (move,) = step.moves
    assert (move.from_table, move.to_table) == ("T1", "T3")
    # r15: the player due the big blind - the big blind was seat 3, so seat 4 posts it next -
    # to the earliest seat due the big blind at T3: its big blind was seat 2; clockwise from
    # there seats 3 and 4 are taken, seat 5 is the first open one.
    assert (move.from_seat, move.player, move.to_seat) == (4, "a4", 5)
    assert step.rule == "001-RR11 §15 r15, r17"


def test_TOURN_balancing_sizes_within_two_players_above_six_tables() -> None:
    # Seven tables: 9, 9, 9, 9, 9, 9, 7 is within two (r17); 9 ... 6 is not.
    tables = [table(f"T{i}", players("p", list(range(1, 10))), bb=3) for i in range(1, 7)]
    short = table("T7", players("q", list(range(1, 8))), bb=1)
    assert plan([*tables, short], rules_for("RR11"), start_tables=7, seed="s") is None
    shorter = table("T7", players("q", list(range(1, 7))), bb=1)
    step = plan([*tables, shorter], rules_for("RR11"), start_tables=7, seed="s")
    assert step is not None and step.reason is Reason.BALANCE
    assert (step.moves[0].from_table, step.moves[0].to_table) == ("T1", "T7")
    # at six tables the same 9 and 7 are one too many apart
    step6 = plan([*tables[:5], short], rules_for("RR11"), start_tables=6, seed="s")
    assert step6 is not None and step6.reason is Reason.BALANCE


def test_TOURN_NEW_PLAYERS_AT_TABLE_mover_wraps_past_the_last_seat_and_skips_empty_ones() -> None:
    # Big blind last at seat 9; seat 1 is empty: the next player clockwise is seat 2.
    src = table("T1", players("a", [2, 3, 4, 5, 6, 7, 8, 9]), bb=9)
    # Destination: its big blind was seat 7; seat 8 is taken, seat 9 and seat 2 are open: the
    # earliest due the big blind is seat 9 (two hands away), not seat 2.
    dst = table("T2", players("b", [1, 3, 4, 7, 8]), bb=7)
    step = plan([src, dst], rules_for("RR11"), start_tables=2, seed="s")
    assert step is not None
    (move,) = step.moves
    assert (move.from_seat, move.to_seat) == (2, 9)


def test_TOURN_NEW_PLAYERS_AT_TABLE_tda_worst_position_is_the_single_big_blind() -> None:
    # TDA 2024 Rule 11A: the player to be big blind next moves to the worst position, a single
    # big blind if available. Open seat 6 sits right after the last big blind (seat 5): it is
    # due the very next big blind; open seat 2 is seven seats further round.
    src = table("T1", players("a", [1, 2, 3, 4, 5, 6, 7, 8, 9]), bb=1)
    dst = table("T2", players("b", [1, 3, 4, 5, 7, 8, 9]), bb=5, button=3)
    step = plan([src, dst], rules_for("TDA"), start_tables=2, seed="s")
    assert step is not None
    assert (step.moves[0].from_seat, step.moves[0].to_seat) == (2, 6)
    assert step.rule == "TDA 2024 Rule 11A, 11C"


def test_TOURN_balancing_the_table_broken_sooner_gives_the_later_one_takes() -> None:
    # Breaking order T1, T2, T3, T4: two tables of 9, two of 7.
    t = [
        table("T1", players("a", list(range(1, 10))), bb=1),
        table("T2", players("b", list(range(1, 10))), bb=1),
        table("T3", players("c", list(range(1, 8))), bb=1),
        table("T4", players("d", list(range(1, 8))), bb=1),
    ]
    step = plan(t, rules_for("RR11"), start_tables=4, seed="s")
    assert step is not None
    assert (step.moves[0].from_table, step.moves[0].to_table) == ("T1", "T4")


def test_TOURN_breaking_tables_in_the_preset_order_into_the_open_seats() -> None:
    # 4 tables of 9 seats, 25 players: the last three tables have 27 seats, so the first table
    # of the breaking order (T1) is broken. RR11 redraws only at three, two and one tables:
    # four tables became three -> that is the redraw at three.
    t1 = table("T1", players("a", [1, 2, 3, 4, 5, 6]))
    rest = [table(f"T{i}", players(f"x{i}", list(range(1, 7))), bb=1) for i in (2, 3, 4)]
    rest[2] = table("T4", players("x4", list(range(1, 8))), bb=1)
    step = plan([t1, *rest], rules_for("RR11"), start_tables=5, seed="seed-1")
    assert step is not None and step.reason is Reason.REDRAW and step.broken == "T1"
    assert step.tables_left == 3
    # every one of the 25 players draws: the three tables get 8, 8 and 9 (RR11 r17)
    where = {p: (t.table, s) for t in [t1, *rest] for s, p in t.players.items()}
    for m in step.moves:
        where[m.player] = (m.to_table, m.to_seat)
    assert len(set(where.values())) == 25
    counts = sorted(sum(1 for tb, _ in where.values() if tb == name) for name in ("T2", "T3", "T4"))
    assert counts == [8, 8, 9]
    # TDA never redraws: the broken table's six players go into the open seats, each to one of
    # the shortest tables: 6 + 6 + 7 + 6 new = 25 -> 8, 8, 9 in some order, never 10.
    tda = plan([t1, *rest], rules_for("TDA"), start_tables=5, seed="seed-1")
    assert tda is not None and tda.reason is Reason.BREAK and tda.broken == "T1"
    assert len(tda.moves) == 6 and {m.from_table for m in tda.moves} == {"T1"}
    sizes = {t.table: t.size for t in rest}
    for m in tda.moves:
        sizes[m.to_table] += 1
    assert sorted(sizes.values()) == [8, 8, 9]
    taken = {(m.to_table, m.to_seat) for m in tda.moves}
    assert len(taken) == 6
    assert all(s not in next(t for t in rest if t.table == tb).players for tb, s in taken)


def test_TOURN_redraws_rr11_at_three_two_and_one_rrpg_at_two_and_one() -> None:
    rr11, rrpg, tda = rules_for("RR11"), rules_for("RRPG"), rules_for("TDA")
    assert [n for n in (4, 3, 2, 1) if rr11.redraws_at(n, 6)] == [3, 2, 1]
    assert [n for n in (4, 3, 2, 1) if rrpg.redraws_at(n, 6)] == [2, 1]
    # RRPG: only in contests using three or more tables
    assert not rrpg.redraws_at(1, 2)
    assert [n for n in (4, 3, 2, 1) if tda.redraws_at(n, 6)] == []
    # RR11 r18 / USPA: the redraw at three is optional with four or five starting tables
    assert not rr11.redraws_at(3, 5, at_three=False)
    assert rr11.redraws_at(3, 6, at_three=False)


def test_TOURN_redraw_to_the_final_table_reseats_everyone_from_the_seed() -> None:
    a = table("T1", players("a", [2, 5, 8]), bb=2)
    b = table("T2", players("b", [1, 4, 6, 9]), bb=4)
    first = plan([a, b], rules_for("RR11"), start_tables=3, seed="final")
    again = plan([a, b], rules_for("RR11"), start_tables=3, seed="final")
    assert first is not None and first.reason is Reason.REDRAW and first.tables_left == 1
    assert first == again  # the recorded seed gives the same seats
    seated = {(m.to_table, m.to_seat) for m in first.moves}
    assert {t for t, _ in seated} == {"T2"} and len(seated) == len(first.moves)
    stayed = 7 - len(first.moves)  # a player who drew his own seat does not move
    assert stayed >= 0
    other = plan([a, b], rules_for("RR11"), start_tables=3, seed="another")
    assert other is not None and other.moves != first.moves


def test_a_balanced_field_and_the_final_table_need_nothing() -> None:
    a = table("T1", players("a", [1, 2, 3, 4, 5, 6, 7, 8]), bb=1)
    b = table("T2", players("b", [1, 2, 3, 4, 5, 6, 7, 8, 9]), bb=1)
    assert plan([a, b], rules_for("RR11"), start_tables=2, seed="s") is None
    assert plan([b], rules_for("RR11"), start_tables=2, seed="s") is None


def test_stud_fills_the_seat_that_opened_last_from_the_same_position() -> None:
    # TDA 2024 Rule 11A: in stud, players move by position; the last seat open at the short
    # table is the seat filled.
    src = TableSeats("T1", NINE, players("a", list(range(1, 10))), has_button=False)
    dst = TableSeats("T2", NINE, players("b", [1, 2, 4, 5, 7, 8, 9]), has_button=False,
                     opened=(6, 3))  # fmt: skip
    step = plan([src, dst], rules_for("TDA"), start_tables=2, seed="s")
    assert step is not None
    assert (step.moves[0].from_seat, step.moves[0].to_seat) == (3, 3)

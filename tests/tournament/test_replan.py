"""Re-planning balancing moves not carried out (`station.central.tournament.replan`): the case
of issue 30's probe - tables of 8, 9, 7 and 8 players, one move (T02 -> T03) balances them, but
the director saw T04 at 9 (its player out not folded in yet) and moved one T04 -> T03. Counts
from 001-RR11 §15 r17 (within one player at six tables or fewer), not from the code."""

from __future__ import annotations

from station.central.tournament.replan import Pending, cancellable, unneeded, why, with_later
from station.central.tournament.rules import rules_for
from station.central.tournament.seating import TableSeats

TEN = tuple(range(1, 11))


def table(name: str, seats: list[int], *, bb: int = 1) -> TableSeats:
    return TableSeats(name, TEN, {s: f"{name}-{s}" for s in seats}, button=None, big_blind=bb)


def sizes(n: int) -> list[int]:
    return list(range(1, n + 1))


def test_TOURN_balancing_a_move_decided_on_a_stale_count_is_no_longer_needed() -> None:
    # As the director counts them now: T04's player out folded in (8) and its mover counted at
    # T03 (seat 8): T01 8, T02 9, T03 8, T04 7. Put back, the tables are 8, 9, 7, 8: the rule's
    # one move is from T02 (the largest) to T03 (the smallest), not T04 -> T03.
    t04 = table("T04", [1, 3, 4, 5, 6, 7, 8])  # seat 2 (the mover's) open again
    t03 = TableSeats("T03", TEN, {**{s: f"T03-{s}" for s in sizes(7)}, 8: "T04-2"}, big_blind=1)
    now = [table("T01", sizes(8)), table("T02", sizes(9)), t03, t04]
    moving = Pending(1, "T04-2", "T04", 2, "T03", 8)
    rules = rules_for("RR11")
    assert unneeded(now, [moving], rules, start_tables=4, seed="s") == [1]


def test_TOURN_balancing_a_move_the_counts_still_ask_for_is_kept() -> None:
    # Nobody out since: 8, 9, 7, 9 as decided; put back, the rule again moves one from the
    # first of the largest tables (T02) to T03 - the pending move's own tables: kept.
    t03 = TableSeats("T03", TEN, {**{s: f"T03-{s}" for s in sizes(7)}, 8: "T02-2"}, big_blind=1)
    t02 = TableSeats("T02", TEN, {s: f"T02-{s}" for s in sizes(9) if s != 2}, big_blind=1)
    now = [table("T01", sizes(8)), t02, t03, table("T04", sizes(9))]
    moving = Pending(1, "T02-2", "T02", 2, "T03", 8)
    assert unneeded(now, [moving], rules_for("RR11"), start_tables=4, seed="s") == []


def test_the_reason_names_the_tables_that_lost_players() -> None:
    assert why({"T04": 1}) == "no longer needed: T04 lost a player"
    assert why({"T04": 2, "T01": 1}) == "no longer needed: T01 lost a player, T04 lost 2 players"
    assert why({}) == "no longer needed: the tables changed since it was decided"


def test_a_players_moves_are_cancelled_together_or_not_at_all() -> None:
    # P moves T3 -> T1 (1), then T1 -> T2 (2) once he is there; Q's move (3) may not be
    # cancelled (another player is to fill his seat).
    first = Pending(1, "P", "T3", 4, "T1", 2)
    then = Pending(2, "P", "T1", 2, "T2", 5)
    q = Pending(3, "Q", "T4", 1, "T2", 6)
    assert cancellable([(first, True), (then, True), (q, False)]) == [first, then]
    # his second move may not be cancelled: nor may the first (he must reach its seat)
    assert cancellable([(first, True), (then, False)]) == []
    # the first cancelled takes the second with it; the second alone goes alone
    assert with_later([1], [first, then]) == [1, 2]
    assert with_later([2], [first, then]) == [2]

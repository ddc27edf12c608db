"""Balancing and breaking tables by the rule: given the tables in play (in the event's breaking
order) as the stations journaled them, what the floor must do next - one player moved to even
the tables, a table broken (its players drawn into the empty seats), or the whole field
redrawn. Pure.

One step at a time: the caller carries a plan out on its picture of the tables (the players
ordered to move counted at their new seats) and asks again, until nothing is left to do.

1. A table is broken when the players left fit the other tables' seats: the first table of
   the breaking order (001-RR11 §15 r14; 002-RRPG §15 r12; 003-RR5 §15 r12; 000-USPA
   §3.3.2.13). When the field is reduced to a number of tables the profile redraws at, every
   player draws a new seat (001-RR11 §15 r18; 002-RRPG §15 r17; 003-RR5 §15 r17; 000-USPA
   §3.3.2.15); otherwise the broken table's players are drawn into the open seats, each to one
   of the shortest tables (TDA 2024 Rule 10).
2. Otherwise the tables are balanced: while the largest and the smallest differ by more than
   the profile allows (one player at six tables or fewer, two above: 001-RR11 §15 r17), the
   player due the big blind at the largest table moves to the earliest seat due the big blind
   at the smallest (001-RR11 §15 r15; 002-RRPG §15 r14; 003-RR5 §15 r14; TDA 2024 Rule 11A);
   in stud, the seat that opened last is filled by the player in that seat's position (TDA
   Rule 11A). Of tables equally large the one broken sooner gives the player (its players move
   anyway), of tables equally small the one broken later takes him (the predetermined
   procedure of TDA Rule 11C).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from station.central.tournament.rules import TourneyRules
from station.central.tournament.seating import TableSeats, draw_into, draw_seats


class Reason(StrEnum):
    BALANCE = "balance"
    BREAK = "break"
    REDRAW = "redraw"


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int
    reason: Reason


@dataclass(frozen=True, slots=True)
class Plan:
    """One step: the moves, why (in words, with the rule), and for a break or a redraw the
    table broken, the number of tables left and the seed the draw used."""

    reason: Reason
    moves: tuple[Move, ...]
    why: str
    rule: str
    broken: str | None = None
    tables_left: int = 0
    seed: str = ""


def plan(
    tables: Sequence[TableSeats],
    rules: TourneyRules,
    *,
    start_tables: int,
    seed: str,
    redraw_at_three: bool = True,
) -> Plan | None:
    """The next step for `tables` (the tables in play, in breaking order), or None. `seed` is
    the seed a break or a redraw draws with (the caller records it)."""
    live = list(tables)
    if len(live) <= 1:
        return None
    players = sum(t.size for t in live)
    first, rest = live[0], live[1:]
    if players <= sum(len(t.seats) for t in rest):
        if rules.redraws_at(len(rest), start_tables, at_three=redraw_at_three):
            return _redraw(live, rest, first.table, rules, seed)
        return _break(first, rest, rules, seed)
    return _balance(live, rules)


def _redraw(
    live: Sequence[TableSeats],
    rest: Sequence[TableSeats],
    broken: str,
    rules: TourneyRules,
    seed: str,
) -> Plan:
    where = {p: (t.table, s) for t in live for s, p in t.players.items()}
    drawn = draw_seats(sorted(where), [(t.table, t.seats) for t in rest], seed)
    moves = tuple(
        Move(p, where[p][0], where[p][1], table, seat, Reason.REDRAW)
        for p, (table, seat) in sorted(drawn.items(), key=lambda kv: (where[kv[0]], kv[0]))
        if where[p] != (table, seat)
    )
    n = len(rest)
    what = "one table" if n == 1 else f"{n} tables"
    return Plan(
        Reason.REDRAW,
        moves,
        f"table {broken} broken: the field is down to {what}, every player draws a new seat",
        _cite(rules, "redraw"),
        broken,
        n,
        seed,
    )


def _break(first: TableSeats, rest: Sequence[TableSeats], rules: TourneyRules, seed: str) -> Plan:
    order = [first.players[s] for s in sorted(first.players)]
    drawn = draw_into(order, rest, seed)
    back = {p: s for s, p in first.players.items()}
    moves = tuple(
        Move(p, first.table, back[p], table, seat, Reason.BREAK)
        for p, (table, seat) in sorted(drawn.items(), key=lambda kv: back[kv[0]])
    )
    return Plan(
        Reason.BREAK,
        moves,
        f"table {first.table} broken (next in the breaking order): its {len(moves)} players"
        " are drawn into the open seats",
        _cite(rules, "break"),
        first.table,
        len(rest),
        seed,
    )


def _balance(live: Sequence[TableSeats], rules: TourneyRules) -> Plan | None:
    tolerance = rules.tolerance(len(live))
    big = max(t.size for t in live)
    small = min(t.size for t in live if t.open_seats) if any(t.open_seats for t in live) else big
    if big - small <= tolerance:
        return None
    # The player due the big blind moves, to the earliest seat due it: a table whose next big
    # blind is not known yet (seated by a draw, no hand dealt since) waits for its first hand
    # rather than have seat 1 taken for it (001-RR11 §15 r15; TDA 2024 Rule 11).
    src = next((t for t in live if t.size == big and t.positions_known), None)  # broken sooner
    dst = next(
        (t for t in reversed(live) if t.size == small and t.open_seats and t.positions_known),
        None,
    )  # broken later
    if src is None or dst is None:
        return None
    if src.has_button:
        from_seat = src.due_big_blind()
        to_seat = dst.earliest_big_blind_seat()
        who = "the player due the big blind"
        where = "the earliest seat due the big blind"
    else:
        to_seat = dst.last_opened_seat()
        from_seat = None if to_seat is None else src.seat_by_position(to_seat)
        who = "the player in that seat's position"
        where = "the seat that opened last"
    if from_seat is None or to_seat is None:
        return None
    move = Move(src.players[from_seat], src.table, from_seat, dst.table, to_seat, Reason.BALANCE)
    within = "one player" if tolerance == 1 else f"{tolerance} players"
    why = (
        f"{src.table} has {big} players, {dst.table} {small} (kept within {within} at"
        f" {len(live)} tables): {who} (seat {from_seat}) to {where} (seat {to_seat})"
    )
    return Plan(Reason.BALANCE, (move,), why, _cite(rules, "balance"), tables_left=len(live))


CITES = {
    "RR11": {
        "balance": "001-RR11 §15 r15, r17",
        "break": "001-RR11 §15 r14",
        "redraw": "001-RR11 §15 r14, r18",
    },
    "RRPG": {
        "balance": "002-RRPG §15 r14, r16",
        "break": "002-RRPG §15 r12",
        "redraw": "002-RRPG §15 r12, r17",
    },
    "RR5": {
        "balance": "003-RR5 §15 r14, r16",
        "break": "003-RR5 §15 r12",
        "redraw": "003-RR5 §15 r12, r17",
    },
    "USPA": {
        "balance": "000-USPA §3.3.2.14 (mover: 001-RR11 §15 r15)",
        "break": "000-USPA §3.3.2.13",
        "redraw": "000-USPA §3.3.2.13, §3.3.2.15",
    },
    "GN": {
        "balance": "001-RR11 §15 r15, r17 (004-GN has no event rule)",
        "break": "001-RR11 §15 r14",
        "redraw": "001-RR11 §15 r18",
    },
    "TDA": {
        "balance": "TDA 2024 Rule 11A, 11C",
        "break": "TDA 2024 Rule 10",
        "redraw": "TDA 2024 Rule 10",
    },
}


def _cite(rules: TourneyRules, what: str) -> str:
    return CITES.get(rules.profile, CITES["RR11"])[what]

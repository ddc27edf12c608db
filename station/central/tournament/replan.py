"""Balancing moves ordered but not carried out that the tables no longer need, once a later fact
(a player out at another table, a refusal) has changed the counts. Pure.

The director decides on the rows it has; a player out at another table inside the ingest's lag
makes its picture stale. At 8, 9, 7 and 8 players one move (T02 -> T03) balances the tables;
seeing T04 at 9 (its player out 0.3 s earlier not folded in yet), the director moves one T04 ->
T03, and once the player out is folded in, T04 is short: a second move, T02 -> T04. Re-planned,
the first move is not needed: it is cancelled and the rule's one move made instead.

How: the moves that may still be cancelled are put back (each player counted at the seat he has
not left), the balancing steps the rule takes from there are planned again, and each pending
move the new plan does not make - from its table to its table - is to be cancelled. Table pairs,
not players or seats: the player due the big blind changes as hands are dealt, and that alone is
no reason to call a move off (the table refuses an order whose player has posted that big blind
since, and the director decides again). When the new plan begins with a break or a redraw, no
pending balancing move is kept (the break moves players anyway).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from station.central.tournament.balance import Plan, Reason, plan
from station.central.tournament.rules import TourneyRules
from station.central.tournament.seating import TableSeats

MAX_STEPS: Final = 1000


@dataclass(frozen=True, slots=True)
class Pending:
    """A balancing move ordered (or waiting to be) whose player has not left his seat."""

    id: int
    player: str
    from_table: str
    from_seat: int
    to_table: str
    to_seat: int


def unneeded(
    tables: Sequence[TableSeats],
    pending: Sequence[Pending],
    rules: TourneyRules,
    *,
    start_tables: int,
    seed: str,
    redraw_at_three: bool = True,
) -> list[int]:
    """The ids of the `pending` moves the rule no longer makes. `tables`: the tables in play
    in breaking order, as the director counts them (each pending move's player at its new
    seat)."""
    by = {t.table: t for t in tables}
    judged = [m for m in pending if m.from_table in by and m.to_table in by]
    for m in sorted(judged, key=lambda m: m.id, reverse=True):  # a later move first
        dst = by[m.to_table]
        if dst.players.get(m.to_seat) == m.player:
            by[m.to_table] = dst.without(m.to_seat)
        by[m.from_table] = by[m.from_table].with_player(m.from_seat, m.player)
    picture = [by[t.table] for t in tables]
    wanted: Counter[tuple[str, str]] = Counter()
    for _ in range(MAX_STEPS):
        step = plan(
            picture, rules, start_tables=start_tables, seed=seed, redraw_at_three=redraw_at_three
        )
        if step is None or step.reason is not Reason.BALANCE:
            break
        wanted.update((m.from_table, m.to_table) for m in step.moves)
        picture = after(picture, step)
    out = []
    for m in sorted(judged, key=lambda m: m.id):
        key = (m.from_table, m.to_table)
        if wanted[key] > 0:
            wanted[key] -= 1
        else:
            out.append(m.id)
    return out


def cancellable(moves: Sequence[tuple[Pending, bool]]) -> list[Pending]:
    """Of the open moves (each with whether it may be cancelled on its own: a balancing move
    not carried out, no other move to fill its seat, no cancel refused), those that may be:
    not one whose player has a later move that may not (that one leaves from this one's
    seat: he must reach it)."""
    ok = {m.id for m, may in moves if may}
    changed = True
    while changed:
        changed = False
        for m, _ in moves:
            if m.id in ok and any(
                o.player == m.player and o.id > m.id and o.id not in ok for o, _ in moves
            ):
                ok.discard(m.id)
                changed = True
    return [m for m, _ in moves if m.id in ok]


def with_later(drop: Sequence[int], pending: Sequence[Pending]) -> list[int]:
    """`drop` and, for each move in it, its player's later moves (they leave from the seat he
    will not reach)."""
    out = set(drop)
    for m in pending:
        if m.id in drop:
            out.update(o.id for o in pending if o.player == m.player and o.id > m.id)
    return sorted(out)


def why(lost: Mapping[str, int]) -> str:
    """The reason a cancelled move is given, from the players out at each table since it was
    decided: `no longer needed: T04 lost a player`."""
    if not lost:
        return "no longer needed: the tables changed since it was decided"
    parts = [
        f"{t} lost {'a player' if n == 1 else f'{n} players'}" for t, n in sorted(lost.items())
    ]
    return "no longer needed: " + ", ".join(parts)


def after(tables: Sequence[TableSeats], step: Plan) -> list[TableSeats]:
    """The tables once `step` is carried out (the players ordered to move at their new seats)."""
    by = {t.table: t for t in tables}
    for m in step.moves:
        src = by.get(m.from_table)
        if src is not None and src.players.get(m.from_seat) == m.player:
            by[m.from_table] = src.without(m.from_seat)
    for m in step.moves:
        by[m.to_table] = by[m.to_table].with_player(m.to_seat, m.player)
    return [by[t.table] for t in tables if t.table != step.broken]

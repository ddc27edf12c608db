"""Tables as a balancing decision sees them, the positions that decide who moves where (the
player due the big blind, the earliest open seat due it), and the seeded draws: the event's
first seat draw, a redraw, a broken table's players drawn into empty seats. Pure (every draw
uses its own `random.Random` seeded with the recorded seed, so the same seed gives the same
seats).

Positions come from what the station journaled (`table.hand_start`: the button and the seat
that posted the big blind, of the hand in play or the last one). Under the dead button the
big blind moves on one player each hand (001-RR11 §15 r30, the profiles' button rules), so the
player due the next big blind is the first seated player clockwise after the last big blind,
and an open seat is due the big blind as many hands away as it is seats clockwise from the
last big blind. Before a table's first hand there is no big blind yet: the count starts from
the button, or from seat 1 when there is none either.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


class DrawError(ValueError):
    """The players do not fit the tables (the message says how many of each)."""


@dataclass(frozen=True, slots=True)
class TableSeats:
    """One table in play, for a decision: its seats, who sits where (players on their way in
    included, players ordered out left out), and its positions."""

    table: str
    seats: tuple[int, ...]  # the table's seat numbers, in clockwise order
    players: Mapping[int, str] = field(default_factory=dict)  # seat -> player
    button: int | None = None
    big_blind: int | None = None  # the seat of the last big blind posted
    has_button: bool = True  # False: a stud game (no button, no blinds)
    opened: tuple[int, ...] = ()  # seats in the order they became empty, the latest last

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def open_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.players)

    def after(self, start: int | None) -> list[int]:
        """Every seat clockwise from the one after `start`, `start` itself last (from seat 1
        when `start` is None or not a seat of this table)."""
        if start is None or start not in self.seats:
            return list(self.seats)
        i = self.seats.index(start) + 1
        return list(self.seats[i:] + self.seats[:i])

    @property
    def positions_known(self) -> bool:
        """Where the big blind goes next is known: a hand was dealt here since the table was
        set up, or its setup named the button (a table seated by a draw has neither until its
        players draw for the button and it deals; stud tables move by seat position)."""
        return not self.has_button or self._reference() is not None

    def _reference(self) -> int | None:
        return self.big_blind if self.big_blind is not None else self.button

    def due_big_blind(self) -> int | None:
        """The seat of the player due the big blind next (None: nobody seated)."""
        return next((s for s in self.after(self._reference()) if s in self.players), None)

    def earliest_big_blind_seat(self) -> int | None:
        """The open seat due the big blind soonest (None: no open seat)."""
        return next((s for s in self.after(self._reference()) if s not in self.players), None)

    def last_opened_seat(self) -> int | None:
        """Stud: the open seat that became empty last (else the first open seat)."""
        open_now = set(self.open_seats)
        latest = [s for s in self.opened if s in open_now]
        if latest:
            return latest[-1]
        return self.open_seats[0] if self.open_seats else None

    def seat_by_position(self, seat: int) -> int | None:
        """Stud: the player in the same seat number as `seat`, else the next one clockwise."""
        if seat in self.players:
            return seat
        return next((s for s in self.after(seat) if s in self.players), None)

    def with_player(self, seat: int, player: str) -> TableSeats:
        players = dict(self.players)
        players[seat] = player
        return _replace_players(self, players)

    def without(self, seat: int) -> TableSeats:
        players = {s: p for s, p in self.players.items() if s != seat}
        opened = (*(s for s in self.opened if s != seat), seat)
        return TableSeats(
            self.table, self.seats, players, self.button, self.big_blind, self.has_button, opened
        )


def _replace_players(t: TableSeats, players: Mapping[int, str]) -> TableSeats:
    return TableSeats(t.table, t.seats, players, t.button, t.big_blind, t.has_button, t.opened)


def even_sizes(players: int, capacities: Sequence[int]) -> list[int]:
    """How many players each table gets so that sizes differ by at most one where the seats
    allow it; the extra players go to the tables listed last (the ones broken last)."""
    total = sum(capacities)
    if players > total:
        raise DrawError(f"{players} players do not fit {len(capacities)} tables of {total} seats")
    sizes = [0] * len(capacities)
    left = players
    while left:
        room = [i for i, c in enumerate(capacities) if sizes[i] < c]
        low = min(sizes[i] for i in room)
        # the last tables first: they are broken last
        for i in reversed(room):
            if left and sizes[i] == low:
                sizes[i] += 1
                left -= 1
    return sizes


def draw_seats(
    players: Sequence[str], tables: Sequence[tuple[str, Sequence[int]]], seed: str
) -> dict[str, tuple[str, int]]:
    """The seat draw: each player's (table, seat). `tables` in the breaking order (the first is
    broken first); sizes as even as the seats allow; which seats of a table are used, and who
    gets which, drawn at random from `seed` (the recorded seed gives the same draw)."""
    if len(set(players)) != len(players):
        raise DrawError("a player is entered twice")
    rng = random.Random(f"draw:{seed}")
    sizes = even_sizes(len(players), [len(seats) for _, seats in tables])
    cards: list[tuple[str, int]] = []
    for (table, seats), size in zip(tables, sizes, strict=True):
        used = sorted(rng.sample(list(seats), size))
        cards += [(table, s) for s in used]
    order = list(players)
    rng.shuffle(order)
    return dict(zip(order, cards, strict=True))


def draw_into(
    players: Sequence[str], tables: Sequence[TableSeats], seed: str
) -> dict[str, tuple[str, int]]:
    """A broken table's players drawn into the open seats of the others (TDA 2024 Rule 10: a
    random table, then a random seat), each to one of the shortest tables so the sizes stay as
    even as they can. Returns each player's (table, seat)."""
    rng = random.Random(f"break:{seed}")
    order = list(players)
    rng.shuffle(order)
    state = {t.table: t for t in tables}
    out: dict[str, tuple[str, int]] = {}
    for player in order:
        room = [t for t in state.values() if t.open_seats]
        if not room:
            raise DrawError(f"no open seat left for {player}")
        low = min(t.size for t in room)
        table = rng.choice(sorted((t for t in room if t.size == low), key=lambda t: t.table))
        seat = rng.choice(table.open_seats)
        state[table.table] = table.with_player(seat, player)
        out[player] = (table.table, seat)
    return out

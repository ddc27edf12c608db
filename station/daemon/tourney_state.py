"""The station's side of a tournament event, folded from its `tournament.*` journal rows: who
sits where (the seat draw and the moves), the moves the centre ordered that the seat sensors have
not confirmed yet, hand-for-hand, and when the event's clock last came. Pure (a fold over rows,
so a restarted station rebuilds it exactly), and the centre's command bodies read into typed
records (`RefusedError` names what is wrong with one).

Hand-for-hand (`tournament.hand_for_hand` {on, round}): while it is on, each hand the table
deals is one round, numbered on from `round`; the table deals round r's hand only once
`tournament.release` {round: r} has come, and holds between hands until then (its
`tournament.holding` row tells the centre it is waiting for round r; `tournament.round_dealt`
says which hand played it). A hand in play when hand-for-hand begins is finished first and
belongs to no round.

A seat draw with chips (`tournament.seats_drawn` with `setup`) changes the roster only when the
table is set up from it (its `input.setup`): a hand in play when it came finishes with the old
seats, and a player out in it is named by the old roster.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from station.journal.codes import Code
from station.journal.rows import LogRow

MAX_SEAT = 10


class RefusedError(ValueError):
    """A command body the station cannot carry out (the reply's detail)."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move the centre ordered: `player` leaves `seat` for `table` seat `to_seat` (out), or
    arrives at `seat` from `table` with `chips` (in); `command` its id, `seq` its row."""

    command: int
    player: str
    seat: int
    table: str
    to_seat: int | None = None
    chips: int | None = None
    seq: int = 0


@dataclass(slots=True)
class DeskState:
    event: str | None = None
    roster: dict[int, str] = field(default_factory=dict)  # seat -> player
    leaving: dict[int, Move] = field(default_factory=dict)
    arriving: dict[int, Move] = field(default_factory=dict)
    h4h: bool = False
    next_round: int = 0  # the round the table's next hand plays (hand-for-hand)
    released: int = 0  # the highest round the centre released
    in_round: int | None = None  # the round of the hand in play
    holding: int = 0  # the round a `tournament.holding` row was last written for
    clock_utc: str | None = None  # when the event's clock last came (the row's time)
    drawn: dict[int, str] | None = None  # a draw with chips: its roster, once the table is set up

    def hold(self) -> bool:
        """Hand-for-hand: the next deal must wait for the centre's release."""
        return self.h4h and self.released < self.next_round

    def seated_drawn(self, seats: Iterable[int]) -> None:
        """The table was set up with chips at `seats`: a draw with chips that waited for it
        seats its players now (those the setup has chips for)."""
        if self.drawn is not None:
            chips = set(seats)
            self.roster = {s: p for s, p in self.drawn.items() if s in chips}
            self.drawn = None
            self.leaving, self.arriving = {}, {}

    def apply(self, row: LogRow) -> None:
        d = row.data()
        match row.code:
            case Code.TOURNAMENT_CLOCK:
                self.clock_utc = row.recorded_utc
                self.event = _opt_text(d.get("event")) or self.event
            case Code.TOURNAMENT_MOVE_ORDERED:
                move = _move(d, row.seq)
                self.leaving[move.seat] = move
            case Code.TOURNAMENT_ARRIVAL_ORDERED:
                move = _move(d, row.seq)
                self.arriving[move.seat] = move
            case Code.TOURNAMENT_MOVED_OUT:
                seat = int(d["seat"])
                self.leaving.pop(seat, None)
                self.roster.pop(seat, None)
            case Code.TOURNAMENT_MOVE_CANCELLED:
                seat = int(d["seat"])
                order = self.leaving.get(seat)
                if order is not None and order.player == str(d["player"]):
                    del self.leaving[seat]  # he stays: the instruction leaves the screen
            case Code.TOURNAMENT_MOVED_IN:
                seat = int(d["seat"])
                self.arriving.pop(seat, None)
                self.roster[seat] = str(d["player"])
            case Code.TOURNAMENT_HAND_FOR_HAND:
                self.h4h = bool(d.get("on"))
                if self.h4h:
                    self.next_round = int(d.get("round", 1))
                    self.released = min(self.released, self.next_round - 1)
                self.in_round = None
            case Code.TOURNAMENT_RELEASED:
                self.released = max(self.released, int(d["round"]))
            case Code.TOURNAMENT_ROUND_DEALT:
                self.in_round = int(d["round"])
            case Code.TOURNAMENT_HOLDING:
                self.holding = self.next_round = int(d["round"])
                self.in_round = None
            case Code.TOURNAMENT_SEATS_DRAWN:
                players = {int(s): str(p) for s, p in dict(d.get("players", {})).items()}
                self.event = _opt_text(d.get("event")) or self.event
                if d.get("setup"):
                    self.drawn = players  # the hand in play is the old seats' own
                else:
                    self.roster = players
                    self.leaving, self.arriving = {}, {}
            case Code.INPUT_SETUP:
                seats = d.get("seats")
                if isinstance(seats, Mapping):
                    self.seated_drawn(int(s) for s, c in seats.items() if c)
            case Code.TOURNAMENT_ELIMINATED:
                for out in d.get("players", []):
                    gone = self.roster.pop(int(out["seat"]), None)
                    order = self.leaving.get(int(out["seat"]))
                    if order is not None and (gone is None or order.player == gone):
                        del self.leaving[int(out["seat"])]  # out: nobody to move from there
                    if self.drawn is not None and gone is not None:
                        self.drawn = {s: p for s, p in self.drawn.items() if p != gone}
            case _:
                pass


def _move(d: Mapping[str, Any], seq: int) -> Move:
    return Move(
        command=int(d.get("command", 0)),
        player=str(d["player"]),
        seat=int(d["seat"]),
        table=str(d.get("to_table") or d.get("from_table") or ""),
        to_seat=d.get("to_seat") if isinstance(d.get("to_seat"), int) else None,
        chips=d.get("chips") if isinstance(d.get("chips"), int) else None,
        seq=seq,
    )


def _opt_text(v: object) -> str | None:
    return v if isinstance(v, str) and v else None


# --- command bodies -----------------------------------------------------------------------------


def text(body: Mapping[str, Any], key: str, *, required: bool = True, limit: int = 64) -> str:
    value = body.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise RefusedError(f"{key}: not a name of 1-{limit} characters")
    return value


def seat(body: Mapping[str, Any], key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SEAT:
        raise RefusedError(f"{key}: not a seat number 1-{MAX_SEAT}")
    return value


def count(body: Mapping[str, Any], key: str, *, low: int = 0) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RefusedError(f"{key}: not a whole number >= {low}")
    return value


def flag(body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key)
    if not isinstance(value, bool):
        raise RefusedError(f"{key}: not true or false")
    return value


def drawn_seats(body: Mapping[str, Any]) -> dict[int, tuple[str, int | None]]:
    """`seats` of a seat draw: {"3": "P017"} or {"3": {"player": "P017", "chips": 20000}};
    `"chips": null`: a player already at this table, who keeps the chips he has."""
    raw = body.get("seats")
    if not isinstance(raw, dict) or not raw:
        raise RefusedError("seats: not an object of seat -> player")
    out: dict[int, tuple[str, int | None]] = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not key.isdecimal() or not 1 <= int(key) <= MAX_SEAT:
            raise RefusedError(f"seats: {key!r} is not a seat number 1-{MAX_SEAT}")
        if isinstance(value, str):
            out[int(key)] = (text({"player": value}, "player"), None)
        elif isinstance(value, dict):
            chips = None if value.get("chips") is None else count(value, "chips")
            out[int(key)] = (text(value, "player"), chips)
        else:
            raise RefusedError(f"seats: seat {key}: a player's name, or {{player, chips}}")
    players = [p for p, _ in out.values()]
    if len(set(players)) != len(players):
        raise RefusedError("seats: a player is drawn twice")
    return out

"""One tournament table as its station's journal tells it, folded row by row: who sits where,
the chips, the button and the last big blind, whether a hand is in play, hand-for-hand (the
round the table holds for, the round its hand plays), the event's clock as the table last took
it; and the facts the event acts on (players out, moves confirmed by the seat sensors, a table
holding or dealing a round). Pure.

The rows are the station's own (`docs/tournaments.md`): `input.setup`, `table.hand_start`,
`decision.hand_end`, and the `tournament.*` rows the station's tournament desk writes. The
fold's state is plain data (`to_json`/`from_json`), stored beside its cursor, so the director
resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from station.engine.games import GAMES, Family

SETUP: Final = "input.setup"
HAND_START: Final = "table.hand_start"
HAND_END: Final = "decision.hand_end"
CLOCK: Final = "tournament.clock"
MOVED_OUT: Final = "tournament.moved_out"
MOVED_IN: Final = "tournament.moved_in"
MOVE_CANCELLED: Final = "tournament.move_cancelled"
HAND_FOR_HAND: Final = "tournament.hand_for_hand"
HOLDING: Final = "tournament.holding"
ROUND_DEALT: Final = "tournament.round_dealt"
SEATS_DRAWN: Final = "tournament.seats_drawn"
ELIMINATED: Final = "tournament.eliminated"
CODES: Final = (
    SETUP,
    HAND_START,
    HAND_END,
    CLOCK,
    MOVED_OUT,
    MOVED_IN,
    MOVE_CANCELLED,
    HAND_FOR_HAND,
    HOLDING,
    ROUND_DEALT,
    SEATS_DRAWN,
    ELIMINATED,
)


@dataclass(frozen=True, slots=True)
class Row:
    """What the fold reads of a stored row."""

    seq: int
    code: str
    hand: int
    recorded_utc: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PlayerOut:
    seat: int
    player: str
    start_stack: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    seq: int
    hand: int
    round: int | None  # the hand-for-hand round the hand played, if any
    players: tuple[PlayerOut, ...]
    recorded_utc: str
    event: str | None = None  # the event the table's desk put them out of (None: not said)


@dataclass(frozen=True, slots=True)
class MovedOut:
    seq: int
    player: str
    seat: int
    chips: int
    command: int  # the move_out command it carried out


@dataclass(frozen=True, slots=True)
class MovedIn:
    seq: int
    player: str
    seat: int
    chips: int
    command: int


@dataclass(frozen=True, slots=True)
class MoveCancelled:
    """A move ordered out of this table called off before its player left his seat."""

    seq: int
    player: str
    seat: int
    command: int  # the move_out command it called off
    why: str


@dataclass(frozen=True, slots=True)
class SeatsDrawn:
    """A redraw's seat draw carried out: the table set up from it (its `input.setup`)."""

    seq: int
    command: int  # the seat_draw command


Fact = Eliminated | MovedOut | MovedIn | MoveCancelled | SeatsDrawn


@dataclass
class TableFold:
    players: dict[int, str] = field(default_factory=dict)  # seat -> player, as journaled
    chips: dict[int, int] = field(default_factory=dict)  # seat -> chips, as last journaled
    button: int | None = None
    big_blind: int | None = None
    hand: int = 0
    in_hand: bool = False
    has_button: bool = True
    h4h: bool = False
    holding: int = 0  # the hand-for-hand round the table last said it holds for
    in_round: int | None = None  # the round of the hand in play
    clock_level: int | None = None
    clock_utc: str = ""
    opened: list[int] = field(default_factory=list)  # seats as they emptied, the latest last
    drawn: int = 0  # a seat draw with chips waiting for the table's setup (its command)
    seated: int = 0  # the last seat draw the table was set up from (its command)
    seq: int = 0

    def apply(self, row: Row) -> Fact | None:
        """Take one row; the fact it carries for the event, if any."""
        self.seq = max(self.seq, row.seq)
        d = row.data
        match row.code:
            case "input.setup":
                seats = d.get("seats", {})
                if isinstance(seats, Mapping):
                    self.chips = {int(s): int(c) for s, c in seats.items() if c is not None}
                game = GAMES.get(str(d.get("game", "")))
                self.has_button = game is None or game.family is not Family.STUD
                button = d.get("button")
                self.button = button if isinstance(button, int) else None
                self.big_blind = None
                self.in_hand = False
                if self.drawn:
                    self.seated, self.drawn = self.drawn, 0
                    return SeatsDrawn(row.seq, self.seated)
            case "table.hand_start":
                self.hand = int(d.get("hand", row.hand))
                self.in_hand = True
                button = d.get("button")
                self.button = button if isinstance(button, int) else self.button
                for s, seat in dict(d.get("seats", {})).items():
                    if isinstance(seat, Mapping) and seat.get("blind") == "BB":
                        self.big_blind = int(s)
            case "decision.hand_end":
                self.in_hand = False
                self.in_round = None
                stacks = d.get("stacks", {})
                if isinstance(stacks, Mapping):
                    self.chips.update({int(s): int(c) for s, c in stacks.items() if c is not None})
            case "tournament.seats_drawn":
                self.players = {int(s): str(p) for s, p in dict(d.get("players", {})).items()}
                self.chips.update({int(s): int(c) for s, c in dict(d.get("chips", {})).items()})
                if d.get("setup"):
                    self.drawn = _cmd(d)
            case "tournament.clock":
                level = d.get("level")
                self.clock_level = level if isinstance(level, int) else self.clock_level
                self.clock_utc = row.recorded_utc
            case "tournament.hand_for_hand":
                self.h4h = bool(d.get("on"))
                if not self.h4h:
                    self.holding, self.in_round = 0, None
            case "tournament.holding":
                self.holding = int(d["round"])
                self.in_round = None
            case "tournament.round_dealt":
                self.in_round = int(d["round"])
            case "tournament.moved_out":
                seat = int(d["seat"])
                self._leave(seat)
                return MovedOut(row.seq, str(d["player"]), seat, int(d.get("chips") or 0), _cmd(d))
            case "tournament.moved_in":
                seat = int(d["seat"])
                self.players[seat] = str(d["player"])
                self.chips[seat] = int(d.get("chips") or 0)
                self.opened = [s for s in self.opened if s != seat]
                return MovedIn(row.seq, str(d["player"]), seat, int(d.get("chips") or 0), _cmd(d))
            case "tournament.move_cancelled":
                why = str(d.get("why") or "")
                return MoveCancelled(row.seq, str(d["player"]), int(d["seat"]), _cmd(d), why)
            case "tournament.eliminated":
                outs = tuple(
                    PlayerOut(int(o["seat"]), str(o.get("player") or ""), int(o["start_stack"]))
                    for o in d.get("players", [])
                )
                for o in outs:
                    self._leave(o.seat)
                rnd = d.get("round")
                event = d.get("event")
                return Eliminated(
                    row.seq,
                    int(d.get("hand", row.hand)),
                    rnd if isinstance(rnd, int) else None,
                    outs,
                    row.recorded_utc,
                    event if isinstance(event, str) and event else None,
                )
            case _:
                pass
        return None

    def _leave(self, seat: int) -> None:
        self.players.pop(seat, None)
        self.chips.pop(seat, None)
        self.opened = [*(s for s in self.opened if s != seat), seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": {str(s): p for s, p in sorted(self.players.items())},
            "chips": {str(s): c for s, c in sorted(self.chips.items())},
            "button": self.button,
            "big_blind": self.big_blind,
            "hand": self.hand,
            "in_hand": self.in_hand,
            "has_button": self.has_button,
            "h4h": self.h4h,
            "holding": self.holding,
            "in_round": self.in_round,
            "clock_level": self.clock_level,
            "clock_utc": self.clock_utc,
            "opened": list(self.opened),
            "drawn": self.drawn,
            "seated": self.seated,
            "seq": self.seq,
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> TableFold:
        return TableFold(
            players={int(s): str(p) for s, p in dict(d.get("players", {})).items()},
            chips={int(s): int(c) for s, c in dict(d.get("chips", {})).items()},
            button=d.get("button"),
            big_blind=d.get("big_blind"),
            hand=int(d.get("hand", 0)),
            in_hand=bool(d.get("in_hand", False)),
            has_button=bool(d.get("has_button", True)),
            h4h=bool(d.get("h4h", False)),
            holding=int(d.get("holding", 0)),
            in_round=d.get("in_round"),
            clock_level=d.get("clock_level"),
            clock_utc=str(d.get("clock_utc", "")),
            opened=[int(s) for s in d.get("opened", [])],
            drawn=int(d.get("drawn", 0)),
            seated=int(d.get("seated", 0)),
            seq=int(d.get("seq", 0)),
        )


def _cmd(d: Mapping[str, Any]) -> int:
    found = d.get("ordered_by", d.get("command", 0))
    return found if isinstance(found, int) else 0

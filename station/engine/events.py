"""Input events: what the table physically produces, as the rules engine receives them. Pure.

These mirror the recorded-session lines of docs/session-format.md one to one. Each event reaches the
engine together with its sequence number (the session line or journal sequence) and its time in
seconds since the session start; the engine never reads a clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from station.engine.cards import Card
from station.engine.levels import Level, Schedule
from station.engine.rake import RakeSchedule


class Key(StrEnum):
    """Dealer-panel keys (catalog section 1, "Proposed dealer-panel keys", and the rules that
    name further keys). The values are the stable strings used in session files and the journal."""

    NEW_HAND = "NEW_HAND"
    FOLD = "FOLD"
    CHECK = "CHECK"
    VERBAL = "VERBAL"
    ALLIN = "ALLIN"
    EXPOSED = "EXPOSED"
    FLASH = "FLASH"
    BOXED = "BOXED"
    MISDEAL = "MISDEAL"
    STUB_RESHUFFLE = "STUB_RESHUFFLE"
    DRAW = "DRAW"
    DISCARD = "DISCARD"
    STRADDLE = "STRADDLE"
    KILL = "KILL"
    TABLED = "TABLED"
    MUCK = "MUCK"
    RUN_IT = "RUN_IT"
    CLOCK = "CLOCK"
    TIME = "TIME"
    FLOOR = "FLOOR"
    CONFIRM = "CONFIRM"
    CANCEL = "CANCEL"
    ELIMINATE = "ELIMINATE"
    BURN_SELECT = "BURN_SELECT"
    CHOP = "CHOP"
    SEAT_CHANGE = "SEAT_CHANGE"
    DECK_CHECK = "DECK_CHECK"  # extension: the next draws, up to CONFIRM, are a deck audit
    CHIP_RACE = "CHIP_RACE"  # extension (touch screen): race off odd chips; amount = new chip
    FORFEIT = "FORFEIT"  # extension (floor, touch screen): a void hand's refund stays in the pot
    SHOWN = "SHOWN"  # extension (floor, touch screen): the seat's player showed cards in the deal
    MOVE_OUT = "MOVE_OUT"  # extension (the station, tournament): the seat's player left the table
    MOVE_IN = "MOVE_IN"  # extension (the station, tournament): a player moved in; amount = chips


# The keys' labels as printed on the dealer panel (PANEL.md): the words a dealer is told to
# press. The values of `Key` are codes for files and the journal, never for the dealer's eyes.
KEY_LABELS: dict[str, str] = {
    **{k.value: k.value.replace("_", " ") for k in Key},
    "CALL": "CALL",
    "RAISE": "RAISE",
}


def key_label(key: str) -> str:
    """The label printed on a key ("STUB_RESHUFFLE" -> "STUB RESHUFFLE")."""
    return KEY_LABELS.get(key, key.replace("_", " "))


class VerbalAction(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    ALLIN = "allin"


@dataclass(frozen=True, slots=True)
class Stakes:
    """Forced-bet and limit sizes, in the table's chip unit. Unused ones stay None."""

    sb: int | None = None
    bb: int | None = None
    ante: int | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    straddle: int | None = None
    bb_ante: int | None = None  # the big-blind ante: the big blind posts it for the table


@dataclass(frozen=True, slots=True)
class RotationGame:
    """One game of a mixed-game rotation: its id, its stakes and (for a game that may be played
    at several) its betting structure."""

    game: str
    stakes: Stakes
    structure: str | None = None


@dataclass(frozen=True, slots=True)
class Rotation:
    """A mixed game (HORSE, 8-game): the games in order, each played for `hands` hands, or for
    one orbit of the button when `hands` is 0 (a stud game: one hand per player)."""

    games: tuple[RotationGame, ...]
    hands: int = 0


@dataclass(frozen=True, slots=True)
class Setup:
    """Seat the table: game, rule profile, stakes, seats -> stacks (None = not tracked)."""

    game: str
    profile: str = "RR11"
    stakes: Stakes = field(default_factory=Stakes)
    seats: Mapping[int, int | None] = field(default_factory=dict)
    button: int | None = None
    deck: str | None = None  # back colour in play; None = the registry's first deck
    rules: Mapping[str, object] = field(default_factory=dict)  # profile switch overrides
    rake: RakeSchedule | None = None  # the house's take; None: nothing is raked
    structure: str | None = None  # another of the game's betting structures (games.Structure)
    kill: str | None = None  # a required-kill game: "full" or "half" (KILL-POTS)
    rotation: Rotation | None = None  # a mixed game: the games in turn (the first is `game`)
    tournament: Schedule | None = None  # the structure and its clock (stakes come from it)


@dataclass(frozen=True, slots=True)
class SeatSensor:
    seat: int
    occupied: bool


@dataclass(frozen=True, slots=True)
class Puck:
    """The dealer button puck now sits at this seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class KeyPress:
    key: Key
    seat: int | None = None
    count: int | None = None
    action: VerbalAction | None = None
    amount: int | None = None
    card: Card | None = None
    to_seat: int | None = None  # SEAT_CHANGE destination
    cards: tuple[Card, ...] = ()  # DRAW: the cards discarded, when known (muck reader or key)


@dataclass(frozen=True, slots=True)
class Draw:
    """One card leaving the shoe. Either `card` (already identified) or `tag` (to be resolved by
    the deck registry) is set; `back` names a back colour when it differs from the deck in play."""

    card: Card | None
    face_up: bool = False
    tag: str | None = None
    back: str | None = None


@dataclass(frozen=True, slots=True)
class Zone:
    """The chip total in a seat's betting zone now (for the current street)."""

    seat: int
    amount: int
    chips: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class RakeZone:
    """The chip total in the rake (drop) zone now: what the dealer has set aside for the house
    (a session's `zone` line with `"zone": "rake"`; the bet-zone board's zone 0)."""

    amount: int
    chips: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ClockSet:
    """The tournament clock set from outside (a session's `clock` line: the event's clock, from
    the centre): it stands now at `level` (1-based place in the structure) with `remaining_s`
    left, running or `paused`; `levels` replaces the structure's levels when the event's
    structure changed; `event` names the event it is for."""

    level: int
    remaining_s: float
    paused: bool = False
    levels: tuple[Level, ...] | None = None
    event: str | None = None


InputEvent = Setup | SeatSensor | Puck | KeyPress | Draw | Zone | RakeZone | ClockSet

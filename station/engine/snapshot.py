"""The table snapshot: everything the display may show, frozen. Pure.

This is the boundary between the core and the screen. It never carries a hole card: face-down
cards appear only as a count until the hand is over (stud up-cards and the board are public).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from station.engine.decisions import Incident


class SeatStatus(StrEnum):
    EMPTY = "empty"  # nobody seated
    OUT = "out"  # seated, not dealt in this hand
    ACTIVE = "active"  # in the hand
    FOLDED = "folded"
    ALLIN = "allin"
    DEAD = "dead"  # hand ruled dead


class Phase(StrEnum):
    IDLE = "idle"  # before setup
    BETWEEN = "between"  # waiting for NEW_HAND (blinds being posted)
    DEALING = "dealing"  # initial deal in progress
    BETTING = "betting"  # a betting round is open
    DRAWING = "drawing"  # draw games: players exchanging cards
    STREET = "street"  # round complete, next cards due
    SHOWDOWN = "showdown"
    ENDED = "ended"  # pot awarded; waiting for the next hand
    MISDEAL = "misdeal"  # waiting for the reshuffle and redeal


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    status: SeatStatus
    stack: int | None  # chips behind, when stacks are tracked
    bet: int  # chips in the betting zone this street
    cards: int  # how many cards the seat holds
    up: tuple[str, ...] = ()  # face-up cards (stud), public
    button: bool = False
    blind: str = ""  # "SB", "BB", "STR", "BI" (bring-in) or ""
    to_act: bool = False


@dataclass(frozen=True, slots=True)
class PotView:
    label: str  # "Main", "Side 1", ...
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StopView:
    """A STOP: the dealer must stop dealing (premature card, procedure violated)."""

    text: str
    seat: int | None  # the seat still to act, when that is the reason


@dataclass(frozen=True, slots=True)
class RecoveryView:
    """A guided recovery: the procedure's steps and which one is due now."""

    rule: str
    steps: tuple[str, ...]
    current: int


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    hand: int
    game: str
    profile: str
    phase: Phase
    street: str  # "preflop", "flop", "3rd", "draw 1", ...
    seats: tuple[SeatView, ...]
    board: tuple[str, ...]
    pots: tuple[PotView, ...]
    to_act: int | None
    to_call: int  # amount the seat to act must add to call
    min_raise_to: int | None  # street total for the smallest legal raise; None = no raise
    max_raise_to: int | None  # street total for the largest legal raise
    next_step: str  # "BURN & TURN", "POST SB s1 1 / BB s2 2", ...
    stop: StopView | None = None
    recovery: RecoveryView | None = None
    incidents: tuple[Incident, ...] = ()  # open incidents of this hand, newest last
    floor_call: bool = False  # CALL FLOOR is held until a floor credential clears it
    capped: bool = False
    button: int | None = None
    # Between hands, for the floor's screen keys: after a void hand, the refund each seat may
    # still forfeit (DECK-DEFECT-FREEROLL), the money forfeited to the next deal, and the new
    # chip of a chip race under way (TOURN-CHIP-RACE).
    refunds: tuple[tuple[int, int], ...] = ()  # (seat, chips), by seat
    carry: int = 0
    chip_race: int | None = None
    # The house's rake of the hand just ended (its DROP prompt, code `drop`; short form "DROP
    # n"), until the next deal or, at a table with a rake zone, until the drop is checked.
    drop: int = 0

    @staticmethod
    def empty() -> TableSnapshot:
        return TableSnapshot(
            hand=0,
            game="",
            profile="",
            phase=Phase.IDLE,
            street="",
            seats=(),
            board=(),
            pots=(),
            to_act=None,
            to_call=0,
            min_raise_to=None,
            max_raise_to=None,
            next_step="SET UP THE TABLE",
        )

"""The table snapshot: everything the display may show, frozen. Pure.

This is the boundary between the core and the screen. It never carries a hole card: face-down
cards appear only as a count until the hand is over (stud up-cards and the board are public).
The screen reads typed fields only: which incidents are still open and what owns them
(`alerts`), the prompt in force with its code (`prompt`), the last hand's result until the next
deal (`result`) and, between hands, who posts what (`next_hand`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from station.engine.decisions import HandEnd, Incident, PromptCode


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
    # Draw games: the cards the seat drew in the draw round under way, or in the last one until
    # there is action after it (DRAW-QUERY: until then the dealer must say how many); None when
    # it has not said, or nothing is to be told.
    drew: int | None = None

    def __repr__(self) -> str:
        # The replay corpus digests the snapshot's repr: `drew` is in it only when there is a
        # draw to tell, so a seat of a game without one reads as it always has.
        told = f", drew={self.drew!r}" if self.drew is not None else ""
        return (
            f"SeatView(seat={self.seat!r}, status={self.status!r}, stack={self.stack!r}, "
            f"bet={self.bet!r}, cards={self.cards!r}, up={self.up!r}, button={self.button!r}, "
            f"blind={self.blind!r}, to_act={self.to_act!r}{told})"
        )


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


class AlertOwner(StrEnum):
    """The engine state an open incident belongs to; it leaves the screen when that resolves
    (`station.engine.alerts`)."""

    RECOVERY = "recovery"  # a guided recovery of the same rule, until its last step is done
    STOP = "stop"  # a STOP standing, until it is lifted
    MISDEAL = "misdeal"  # a misdealt hand, until the redeal
    STREET = "street"  # the street it was raised in, until that street is over
    DEAL = "deal"  # between hands or a hand over (void): until the next deal
    CARD_DUE = "card_due"  # a card the ruling gives a seat ("… GETS THE NEXT CARD"), until dealt


@dataclass(frozen=True, slots=True)
class AlertView:
    incident: Incident
    owner: AlertOwner


@dataclass(frozen=True, slots=True)
class PromptView:
    """The prompt in force: what kind of step (the screen's short forms go by it) and the text."""

    code: PromptCode
    text: str


class PostKind(StrEnum):
    SB = "SB"
    BB = "BB"
    ANTE = "ANTE"


@dataclass(frozen=True, slots=True)
class PostDue:
    """A forced bet the next hand needs, and what the seat has put out for it so far."""

    seat: int
    kind: PostKind
    amount: int
    posted: int


@dataclass(frozen=True, slots=True)
class NextHandView:
    """Between hands: the next hand's line-up as the engine sees it now."""

    button: int | None  # None in stud games
    dealt: tuple[int, ...]  # the seats that would be dealt in now
    posts: tuple[PostDue, ...]  # blinds (and antes) due, by seat
    missed: tuple[tuple[int, int], ...]  # (seat, chips owed) for missed blinds (BLIND-MISSED)
    waiting: tuple[int, ...]  # seated, not dealt in yet: waiting for the big blind


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament table's clock as of the latest event time (`at`, session seconds): the level
    in force (`label` LEVEL n or BREAK, its `stakes`), the time left of it then, paused or
    waiting for the start; the level after it; the level of the hand in play (or of the next
    deal, once a forced bet fixed it) when that is not the clock's (`hand_label`, "" otherwise);
    a break's colour-up still to race (chip, new chip). The screens count the time down from
    `at` with their own clock (`remaining_at`)."""

    event: str | None
    label: str
    stakes: str
    remaining_s: float
    at: float | None
    paused: bool = False
    waiting: bool = False
    is_break: bool = False
    last: bool = False
    next_label: str = ""
    next_stakes: str = ""
    hand_label: str = ""
    colour_up: tuple[int, int] | None = None
    # When the clock's level ends (session time; None: paused, waiting, or the last level) and
    # the level that comes then (its place in the structure, from 1, and its length).
    ends_t: float | None = None
    next_level: int | None = None
    next_duration_s: float = 0.0
    # The stakes of the hand in play (between hands: of the next deal), as (stake, chips) pairs
    # (the journal's hand start carries them: a tournament setup names no stakes of its own).
    hand_stakes: tuple[tuple[str, int], ...] = ()
    deal_label: str = ""  # the level of those stakes: LEVEL n

    def remaining_at(self, t: float | None) -> float:
        """Time left at session time `t` (the screens' clock); never below 0."""
        if t is None or self.at is None or self.paused or self.waiting:
            return self.remaining_s
        return max(0.0, self.remaining_s - (t - self.at))


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
    # The dealer screen's typed inputs (see the module docstring).
    alerts: tuple[AlertView, ...] = ()  # open incidents, oldest first
    prompt: PromptView | None = None
    result: HandEnd | None = None  # the last hand's, until the next deal starts
    next_hand: NextHandView | None = None
    waiting: tuple[int, ...] = ()  # seated, not in the hand: waiting for the big blind
    # A double-board game's second (bottom) board. Left out of the repr, which the replay
    # corpus digests: a snapshot of a one-board game reads as it always has.
    board2: tuple[str, ...] = field(default=(), repr=False)
    tournament: TournamentView | None = None  # a tournament table's clock (TOURN-LEVELS)

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

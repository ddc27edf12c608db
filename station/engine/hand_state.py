"""The parts of one hand's state, one record per concern, each written by the module its docstring
names (`tests/engine/test_ownership.py` holds them to it). Pure data.

`Hand` (station.engine.hand) is made of these parts. They sit below every rule module, so the
rules import the state they read and write, and nothing imports back up: the engine's import
graph has no cycle. A rule that needs another concern's state changed asks its owner (a function
of that module), or returns what happens next to the dispatcher (`station.engine.steps`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from types import MappingProxyType
from typing import NamedTuple

from station.engine.betting import BettingRound, RoundMark
from station.engine.cards import Card
from station.engine.decisions import ActionKind, DealSlot, Incident
from station.engine.events import Key, Stakes
from station.engine.rake import RakeSchedule
from station.engine.recovery import Recovery

# --- set at the deal ----------------------------------------------------------------------------


class Terms(NamedTuple):
    """What the table settled before the first card (`hand_cycle`): the stakes, the forced bets
    that play, the chip unit and the house's terms. Fixed for the hand and its redeal."""

    stakes: Stakes
    straddle: int | None = None  # BLIND-STRADDLE: the seat that straddled (acts last preflop)
    kill_post: tuple[int, int] | None = None  # KILL-POTS: (killer seat, kill amount)
    min_chip: int | None = None  # BET-SMALLEST-CHIP: smallest chip in the forced bets, if seen
    carry: int = 0  # DECK-FORFEITED-MONEY-ENTITLEMENT: forfeited money of the previous deal
    rake: RakeSchedule | None = None  # the house's take (MISC-TIME-COLLECTION / RAKE)
    time_paid: Mapping[int, int] = MappingProxyType({})  # time collected at this deal
    time_owed: int = 0  # GN time-pot: the table's time, to come out of this hand's pot
    start_stacks: Mapping[int, int | None] = MappingProxyType({})  # chips at the deal (antes in)
    last_two: bool = False  # tournament: this hand's two players are the event's last two
    winner_take_all: bool = False  # tournament: the event pays its winner only


# --- the cards ----------------------------------------------------------------------------------


@dataclass(slots=True)
class Slot:
    """One expected draw: its role, the seat it goes to, its street, face up or down."""

    role: DealSlot
    seat: int | None = None
    street: int = 0
    up: bool = False
    k: int = 0  # dealing round of the starting hands (each player's k-th card)
    board: int = 0  # board cards: 0 the (top) board, 1 the second board (double-board games)


@dataclass(slots=True)
class Deal:
    """Where every card went (`deal_sequence`, the slots planned by `deal_plan`)."""

    slots: deque[Slot] = field(default_factory=deque)  # the draws expected next, in order
    cards: dict[int, list[tuple[Card, bool]]] = field(default_factory=dict)  # seat -> (card, up)
    board: list[Card] = field(default_factory=list)
    board2: list[Card] = field(default_factory=list)  # the second (bottom) board, if any
    burns: list[Card] = field(default_factory=list)
    seen: dict[Card, int] = field(default_factory=dict)  # card -> seq of its draw
    tags: dict[str, int] = field(default_factory=dict)  # tag -> seq of its draw
    card_tags: dict[Card, str] = field(default_factory=dict)  # card -> the tag it was read by
    deal_draws: list[int] = field(default_factory=list)  # seq of each starting-hand card
    street_log: list[tuple[Card | None, DealSlot, int]] = field(default_factory=list)
    last_draw_seq: int = 0
    puck: int | None = None  # where the button puck physically sits (None: no puck sensor)


@dataclass(slots=True)
class Showdown:
    """The end of the hand (`actions`, `settlement`): hands shown or mucked, and the boards of a
    run-it-more-than-once (RIT, 004-GN r203-r211)."""

    tabled: set[int] = field(default_factory=set)
    mucked: set[int] = field(default_factory=set)
    runs: int = 1  # the remaining board is dealt this many times
    run_from: int = 0  # first street dealt again for every board
    shared_board: list[Card] = field(default_factory=list)
    boards: list[list[Card]] = field(default_factory=list)  # finished boards of earlier runs


# --- the chips and the betting ------------------------------------------------------------------


@dataclass(slots=True)
class Chips:
    """The chips on the table (`wagers`, `rounds`, `settlement`): what the zones read, what is
    in the middle and whose it is."""

    committed: dict[int, int]  # live chips in the middle per seat (collected streets)
    dead: dict[int, int]  # dead money per seat (antes): in the main pot, never matched
    posts: dict[int, int] = field(default_factory=dict)  # forced bets in front at the deal
    posts_booked: bool = False  # the posts are bets of the first round (it has opened)
    zone: dict[int, int] = field(default_factory=dict)  # physical zone readings
    offset: dict[int, int] = field(default_factory=dict)  # earlier streets' chips still in zones
    chips_due: dict[int, int] = field(default_factory=dict)  # booked but not yet in the zone
    # GN time-flop (`collection`): a seat's time for everyone, from his stack at the end
    time_charged: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Closing:
    """A betting round just closed by a wager (`rounds`): what its close changed, so that a
    verbal declaration the seat makes just after those chips, before any card or action, can
    reopen it (BET-VERBAL-BINDING)."""

    round: BettingRound
    street: int
    bets: dict[int, int]  # each seat's bet as it went into the middle
    pusher: int | None
    last_aggressor: int | None
    chips_due: dict[int, int]
    street_log: list[tuple[Card | None, DealSlot, int]]
    skip_next_burn: bool
    extra_burns: int
    predraw: dict[int, int] | None
    progress: int = 0  # `Alerts.progress` once closed: anything since ends the chance


@dataclass(slots=True)
class Bets:
    """The betting of the hand (`rounds`, `wagers`, `actions`): the round in progress, what each
    seat did in it, and what the misdeal cutoff and the showdown order count."""

    round: BettingRound | None = None
    last_kind: dict[int, ActionKind] = field(default_factory=dict)  # this round, per seat
    allin_pending: set[int] = field(default_factory=set)
    declared_raise: set[int] = field(default_factory=set)
    raise_motion: dict[int, int] = field(default_factory=dict)  # TOURN-STRING-BET: first motion
    info_told: set[tuple[int, int, int]] = field(default_factory=set)  # BET-INFO-RIGHTS prompts
    voluntary_actions: int = 0  # misdeal cutoff: actions after the forced bets
    chip_actions: int = 0
    last_aggressor: int | None = None  # of the last betting round played (SHOW-ORDER)
    # SHOW-ORDER (GN r144): aggressor of a round before a final round without betting
    pusher: int | None = None
    absent: set[int] = field(default_factory=set)  # dealt in but not at the seat (seat sensor)
    closing: Closing | None = None  # the round a wager just closed (BET-VERBAL-BINDING)


# --- draw games ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Refill:
    """DRAW-LAST-CARD-RESHUFFLE: cards of one seat's draw that come after the reshuffle."""

    seat: int
    count: int
    burn: bool  # the round's burn did not fit before the reshuffle either
    shuffled: bool = False


@dataclass(slots=True)
class Draws:
    """The draw of draw games (`draw_round`): requests, discards, the cards still owed."""

    requests: dict[int, int] = field(default_factory=dict)  # draw round: seat -> count
    pending: list[int] = field(default_factory=list)  # seats still to receive draw cards
    burned: bool = False
    owed: list[int] = field(default_factory=list)  # replacements due after the round
    rest: list[tuple[int, int]] = field(default_factory=list)  # DRAW-MAX-CONSECUTIVE
    last_seat: int | None = None  # the seat given the cards queued last
    opener: int | None = None  # draw high: who opened the pot (DRAW-OPENER)
    opener_cards: tuple[Card, ...] = ()  # his five cards when he opened (JACKS-OR-BETTER)
    discards: dict[int, list[Card]] = field(default_factory=dict)
    discards_known: dict[int, bool] = field(default_factory=dict)
    round_discards: list[Card] = field(default_factory=list)  # discards of this draw round
    refill: Refill | None = None  # DRAW-LAST-CARD-RESHUFFLE: cards due after a reshuffle


# --- discards without a draw --------------------------------------------------------------------


@dataclass(slots=True)
class Discarding:
    """Cards discarded with none dealt in their place (`discard_round`): Pineapple's one before
    the flop (Crazy Pineapple: before the turn), Super Stud's two before fourth street."""

    due: set[int] = field(default_factory=set)  # seats still to discard before the next card
    cards: dict[int, tuple[Card, ...]] = field(default_factory=dict)  # seat -> named discards
    unknown: dict[int, int] = field(default_factory=dict)  # seat -> discards not named


# --- stud ---------------------------------------------------------------------------------------


class ShortageStage(IntEnum):
    """STUD-CARD-SHORTAGE: where the dealer is in dealing the short street."""

    FIRST = 0  # RR: deal every card but the last one
    PAUSE = 1  # RR: the last card, the burns and the eliminated cards are scrambled
    REST = 2  # the remaining cards (or the common card), from the scrambled stub
    DONE = 3


@dataclass(slots=True)
class Shortage:
    street: int
    first: list[int]  # seats served before the scramble (RR: all but the last card)
    rest: list[int]  # seats served after it
    burn_first: bool
    burn_rest: bool
    common: bool  # a common card in the centre instead of the last cards
    stage: ShortageStage


@dataclass(slots=True)
class StudState:
    """Stud bookkeeping of one hand (`stud`; the exposures by `deal_errors`)."""

    ghosts: set[int] = field(default_factory=set)  # folded with no wager: still dealt to
    starters: dict[int, int] = field(default_factory=dict)  # street -> the seat that began it
    low_card: int | None = None  # the seat with the low card (razz: high) on third street
    bring_in_seat: int | None = None  # the seat that opens third street
    opener_option: bool = False  # the opener may fold, bring in or complete (not forced)
    wrong_bring_in: tuple[int, int, int] | None = None  # (seat, total, seq) taken for low
    shortage: Shortage | None = None
    exposed_downcards: set[Card] = field(default_factory=set)  # third card dealt down
    seventh_exposed: int | None = None  # the seat whose seventh card came face up


# --- irregularities -----------------------------------------------------------------------------


@dataclass(slots=True)
class FaceUp:
    """A face-up draw into a face-down slot, waiting for the dealer's BOXED or EXPOSED."""

    slot: Slot
    card: Card | None
    seq: int


@dataclass(slots=True)
class Faults:
    """Errors in dealing the starting hands (`deal_errors`): face-up, boxed, exposed and extra
    cards, and irregular cards (a joker, a card the deck does not hold) dealt on past."""

    faceup: FaceUp | None = None  # a face-up draw awaiting BOXED or EXPOSED
    boxed: list[tuple[Card | None, int]] = field(default_factory=list)
    exposed: list[tuple[int, Card | None, int]] = field(default_factory=list)
    extra: list[tuple[Card | None, int]] = field(default_factory=list)
    exposed_burn: bool = False
    burn_up: tuple[Card | None, int] | None = None  # a burn that came out face up (BOXED?)
    # DECK-JOKER-NOT-IN-USE: irregular cards scrapped during the starting deal, as (card, its
    # draw, starting cards dealt before it); and a seat found holding one (it is replaced
    # before he acts, or his hand is dead when he acts).
    scraps: list[tuple[Card, int, int]] = field(default_factory=list)
    holder: tuple[int, Card] | None = None


@dataclass(slots=True)
class Repair:
    """Cards out of order between the rounds (`irregular`, `burn_errors`): premature cards, burn
    errors, and the guided recovery the dealer follows."""

    recovery: Recovery | None = None
    awaiting_reshuffle: bool = False  # the next street waits for STUB_RESHUFFLE
    premature: list[tuple[Card | None, int]] = field(default_factory=list)
    premature_street: int = -1
    skip_next_burn: bool = False
    extra_burns: int = 0  # BURN-ERROR-ANY-STREET: burns owed before the next street's cards
    burn_select: bool = False  # GN four-card flop: waiting for BURN_SELECT
    extra_streets: set[int] = field(default_factory=set)

    def extra_street_seen(self, street: int) -> bool:
        """Only the first card too many of a street is a burn error; more are premature."""
        seen = street in self.extra_streets
        self.extra_streets.add(street)
        return seen


@dataclass(slots=True)
class Pending:
    """An action taken out of turn, held until the seat's turn comes (BET-OUT-OF-TURN)."""

    key: Key | None  # FOLD or CHECK, or None for chips
    total: int
    seq: int
    max_bet: int  # the wager to match when the action was taken
    calls: int  # calls booked in the round when it was taken


@dataclass(slots=True)
class LastWager:
    """The last wager booked, kept while nobody has acted after it: a verbal declaration the
    seat makes just after his chips takes precedence over them (BET-VERBAL-BINDING)."""

    mark: RoundMark
    round: BettingRound
    street: int
    kind: ActionKind | None  # the seat's action kind in this round before the wager
    calls: int
    voluntary: int
    chip_actions: int
    due: int | None
    allin: bool
    declared: bool

    @property
    def seat(self) -> int:
        return self.mark.seat


@dataclass(slots=True)
class Conduct:
    """How the players act (`irregular`, `wagers`, `actions`): actions out of turn, checks and
    calls counted, declarations, short calls, the clock."""

    pending: dict[int, Pending] = field(default_factory=dict)
    calls: int = 0
    checks: set[tuple[int, int]] = field(default_factory=set)  # (street, seat) of every check
    verbal_calls: set[int] = field(default_factory=set)  # said "call" this round
    short_calls: dict[int, tuple[int, int]] = field(default_factory=dict)  # (owed call, put)
    last_wager: LastWager | None = None  # while nobody has acted after it
    predraw: dict[int, int] | None = None  # chips committed before the (first) draw
    time_called: set[int] = field(default_factory=set)  # BET-RIGHT-TO-ACT: TIME keyed this round
    clock: tuple[int, float] | None = None  # MISC-CLOCK: (seat, time by which he must act)
    now: float | None = None  # the time carried by the event being handled, if any


@dataclass(slots=True)
class Alerts:
    """What the station shows the dealer and the floor (`hand`): the incidents, the STOP, the
    last prompt, and what a hand that can always end counts (`Hand.went_past`): cards placed
    and actions booked are progress; a STOP with none since the last one means the dealer went
    on past it. `out_of_step`: the station can no longer follow the hand and has called the
    floor, whose CONFIRM closes it. `incidents` keeps the newest `KEPT_INCIDENTS` of the hand
    (the journal holds them all) and `rules` every rule raised, so a hand that stays open for
    hours (a stuck key) costs the same per input as a short one."""

    incidents: list[Incident] = field(default_factory=list)  # the newest, oldest first
    rules: set[str] = field(default_factory=set)  # every rule raised in the hand
    stop_text: str | None = None
    stop_seat: int | None = None
    last_prompt: str = ""
    floor_call: bool = False
    misdeal: bool = False
    after_hand_draws: int = 0  # cards off the shoe once the hand was over
    progress: int = 0
    stop_progress: int | None = None
    out_of_step: bool = False
    last_said: tuple[str, str, int] | None = None  # (rule, text, progress) of the last one

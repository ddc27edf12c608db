"""The table's state between and around the hands, in parts, one per concern, each written by the
module its docstring names. Pure data (and the table's incident record).

`Table` (station.engine.table) is this state plus its dispatcher (`feed`); the rule modules of the
table (`lineup`, `forced_bets`, `dealer_button`, `hand_cycle`, `housekeeping`, `chip_race`,
`collection`, `drop`) take a `TableState` and import nothing that imports them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from station.engine.alerts import AlertBook
from station.engine.cards import Card, DeckRegistry
from station.engine.decisions import Decision, Incident, Ruling
from station.engine.events import Setup
from station.engine.games import GameSpec
from station.engine.hand import Hand
from station.engine.levels import ClockState, Level, Schedule
from station.engine.profiles import Profile
from station.engine.rake import TimeCollection
from station.engine.rule_ids import Rule
from station.engine.rulebook import citation


@dataclass(slots=True)
class Lineup:
    """Who is dealt in next (`lineup`, `hand_cycle`, `dealer_button`): waiting players, missed
    blinds, the last hand's positions, the draw for the button, the posting prompt."""

    newcomers: set[int] = field(default_factory=set)  # seated since the setup, not yet dealt in
    missed: dict[int, set[str]] = field(default_factory=dict)  # BLIND-MISSED: {"sb", "bb"}
    seat_wait: dict[int, int] = field(default_factory=dict)  # BLIND-SEAT-CHANGE: hands to wait
    last_blinds: tuple[int | None, int] | None = None  # (small, big) of the last hand
    big_blinds: dict[int, int] = field(default_factory=dict)  # seat -> last hand it was the BB
    last_button: int | None = None
    last_players: int = 0
    posts_prompt: str = ""
    button_draw: list[tuple[int, Card]] = field(default_factory=list)  # BUTTON-INITIAL-DRAW


@dataclass(slots=True)
class Posting:
    """The zones between hands and the forced bets they make (`Table`, `forced_bets`,
    `hand_cycle`): a zone amount posted before NEW_HAND that is taken in again before NEW_HAND
    is an ante (dead money); one still in front at NEW_HAND is a blind, straddle or other live
    post (docs/session-format.md conventions)."""

    zone: dict[int, int] = field(default_factory=dict)
    offset: dict[int, int] = field(default_factory=dict)  # chips of a finished hand still there
    posted: dict[int, int] = field(default_factory=dict)  # forced bets posted for the next hand
    antes: dict[int, int] = field(default_factory=dict)  # forced bets already taken in (dead)
    post_chips: dict[int, tuple[int, ...]] = field(default_factory=dict)  # their denominations
    min_chip: int | None = None  # BET-SMALLEST-CHIP, CHIP-ODD-UNIT (when reported)
    straddle_keys: set[int] = field(default_factory=set)  # STRADDLE pressed for the next hand
    kill_keys: set[int] = field(default_factory=set)  # KILL pressed for the next hand
    carried: bool = False  # the next deal redeals a void one: its blinds stayed in front


@dataclass(slots=True)
class Deck:
    """The deck in play (`housekeeping`): its back, how long it has been in play, whether it
    was found defective, and a deck check under way (DECK-CHANGE, DECK-MISSING-CARDS)."""

    back: str
    hands: int = 0  # DECK-CHANGE: hands dealt with the deck in play
    round: int = 0  # players dealt in the last hand: a full round with this deck
    defective: bool = False  # the deck in play was found defective (may be changed)
    check: list[Card] | None = None  # DECK_CHECK: cards scanned so far


@dataclass(slots=True)
class Timers:
    """What the events' times decide (`housekeeping`): absences (MISC-ABSENCE) and the GN time
    flop (MISC-TIME-COLLECTION)."""

    away_since: dict[int, float] = field(default_factory=dict)  # seat -> event time he left
    away_flagged: set[int] = field(default_factory=set)
    time_flop_due: bool = False  # the next flop names who pays time
    time_flop_next: float | None = None  # event time from which the next one is due


@dataclass(slots=True)
class Forfeit:
    """DECK-FORFEITED-MONEY-ENTITLEMENT (`hand_cycle`): money forfeited to the next deal, the
    seats dealt in on the deal it comes from (only they may receive a hand while it is there),
    and what each seat forfeited of the last (void) hand's refund."""

    carry: int = 0
    entitled: frozenset[int] | None = None
    forfeited: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Race:
    """TOURN-CHIP-RACE in progress (`chip_race`): the new chip's value, each seat's odd chips,
    the cards so far."""

    new_chip: int
    odd: dict[int, list[int]] = field(default_factory=dict)  # seat -> odd chip values
    cards: dict[int, list[Card]] = field(default_factory=dict)

    def add_chips(self, seat: int, chips: Sequence[int]) -> None:
        self.odd[seat] = [c for c in chips if 0 < c < self.new_chip]

    def order(self) -> list[int]:
        """Seats dealt race cards, in dealing order (seat 1 first), one card per odd chip."""
        return [s for s in sorted(self.odd) if self.odd[s]]

    def next_seat(self) -> int | None:
        """The seat the next race card goes to, or None when every card is out."""
        for seat in self.order():
            if len(self.cards.get(seat, [])) < len(self.odd[seat]):
                return seat
        return None

    def deal(self, card: Card) -> int | None:
        seat = self.next_seat()
        if seat is not None:
            self.cards.setdefault(seat, []).append(card)
        return seat


@dataclass(slots=True)
class House:
    """The table's time collection (`collection`, MISC-TIME-COLLECTION)."""

    time: TimeCollection | None = None  # the schedule's time collection, if any
    due: bool = False  # a collection is due at the next deal
    next_at: float | None = None  # event time from which the next one is due
    owed: int = 0  # time-pot: the table's time still to come out of a pot
    flop_pending: bool = False  # time-flop: the next flop names the seat that pays
    now: float | None = None  # time of the latest event that carried one


@dataclass(slots=True)
class DropLedger:
    """The rake zone (`drop`): what the dealer set aside for the house, and what it is due."""

    sensor: bool = False  # a rake-zone reading has been seen: this table has a rake zone
    reading: int = 0  # the zone's total now
    placed: int = 0  # chips put into the zone since the last check
    events: list[int] = field(default_factory=list)  # the readings since the last check
    due: int | None = None  # what the house is due from the hand just ended (None: no check)
    due_hand: int = 0
    due_rake: int = 0
    due_time: int = 0
    due_event: int = 0  # its hand_end's event


@dataclass(slots=True)
class KillBook:
    """A required-kill game's kill button (`kill_pots`): the winner of the last pot (a leg up),
    and the seat that must kill the next pot."""

    holder: int | None = None
    due: int | None = None


@dataclass(slots=True)
class Mix:
    """A mixed-game rotation in progress (`rotation`): the game being played (its index in the
    setup's rotation), the hands played of its round, and how many make the round."""

    index: int = 0
    played: int = 0
    round: int = 0


@dataclass(slots=True)
class Tourney:
    """A tournament table's structure and clock (`tournament`, TOURN-LEVELS): the levels, the
    clock as last set, the latest event time; the level whose stakes the table holds for the
    next deal (`applied`), whether a forced bet for that deal is in (`locked`: its level is
    fixed), the level of the hand in progress, the level the table was last told about, and a
    break's colour-up still to be raced (chip, new chip)."""

    schedule: Schedule
    levels: tuple[Level, ...]
    clock: ClockState
    game: str  # the setup's game: the game of every level that names none
    now: float | None = None
    applied: int = -1
    locked: bool = False
    hand_level: int | None = None
    told: int = -1
    colour_up: tuple[int, int] | None = None
    raced: set[int] = field(default_factory=set)  # breaks whose colour-up was raced


@dataclass(slots=True)
class TableState:
    """A poker table: setup, seats, stacks, button, the hand in progress, and the parts above."""

    registry: DeckRegistry
    deck: Deck
    setup: Setup | None = None
    spec: GameSpec | None = None
    profile: Profile | None = None
    hand_no: int = 0
    hand: Hand | None = None
    stacks: dict[int, int | None] = field(default_factory=dict)
    occupied: set[int] = field(default_factory=set)
    button: int | None = None  # button for the next (or current) hand
    puck: int | None = None
    floor_call: bool = False
    lineup: Lineup = field(default_factory=Lineup)
    posting: Posting = field(default_factory=Posting)
    timers: Timers = field(default_factory=Timers)
    forfeit: Forfeit = field(default_factory=Forfeit)
    race: Race | None = None  # TOURN-CHIP-RACE in progress
    house: House = field(default_factory=House)  # time collection due
    drop: DropLedger = field(default_factory=DropLedger)  # the rake zone's drops
    mix: Mix | None = None  # a mixed-game rotation (`rotation`)
    kills: KillBook = field(default_factory=KillBook)  # a required-kill game (`kill_pots`)
    tourney: Tourney | None = None  # a tournament's structure and clock (TOURN-LEVELS)
    # What the dealer screen still shows and what owns it (`alerts`, noted by `Table._drain`).
    screen: AlertBook = field(default_factory=AlertBook)
    out: list[Decision] = field(default_factory=list)

    def incident(
        self,
        seq: int,
        rule: Rule,
        text: str,
        ruling: Ruling = Ruling.WARNING,
        *,
        seat: int | None = None,
        hand: int | None = None,
        events: tuple[int, ...] = (),
    ) -> Incident:
        """An incident of the table (not of a hand's flow); the caller puts it in `out`."""
        source = self.profile.citation_source if self.profile is not None else "001-RR11"
        return Incident(
            hand=self.hand_no if hand is None else hand,
            rule=rule.value,
            ruling=ruling,
            text=text,
            event=seq,
            citation=citation(rule, source),
            events=events or (seq,),
            seat=seat,
            seats=(seat,) if seat is not None else (),
        )

    def hand_number(self) -> int:
        """`snapshot().hand` without building the snapshot."""
        if self.setup is None:
            return 0
        return self.hand.number if self.hand is not None else self.hand_no

"""The table: the rules engine's one entry point, and the dispatcher of its input events. Pure.

`Table.feed(event, seq=..., at=...)` takes one input event and returns the decisions it causes;
`Table.snapshot()` gives the frozen view the display shows. Same events in, same decisions out:
the journal's crash recovery and `station replay` both rely on that.

`Table` is the table's state (`TableState`, in parts owned by concern) and `feed`, which matches
each event to the module of its concept: during a hand, the hand's dispatcher
(`station.engine.dispatch`); between hands, `forced_bets` (the zones: antes and live posts),
`lineup` (who is seated and dealt in, button and blinds, seat changes), `dealer_button` (the draw
for the button), `hand_cycle` (starting, redealing and closing hands, a forfeited refund),
`housekeeping` (deck check and change, absence, the time flop), `chip_race`, `collection` (time)
and `drop` (the rake zone). Every event type, and every key, has its case: a new one is a type
error until it is handled.
"""

from __future__ import annotations

from typing import assert_never

from station.engine import (
    chip_race,
    collection,
    dealer_button,
    dispatch,
    drop,
    forced_bets,
    hand_cycle,
    housekeeping,
    lineup,
    rotation,
    tournament,
)
from station.engine.cards import Card, DeckRegistry, default_registry
from station.engine.decisions import DealSlot, Decision, DrawRole, Ruling
from station.engine.events import (
    ClockSet,
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Zone,
    key_label,
)
from station.engine.profiles import Profile, profile
from station.engine.rule_ids import Rule
from station.engine.snapshot import TableSnapshot
from station.engine.table_state import Deck, KillBook, TableState
from station.engine.view import table_snapshot


def setup_profile(event: Setup) -> Profile:
    """The profile a setup plays: its rules with the setup's switches. A tournament structure
    makes the table a tournament table, with a dead button (001-RR11 §15 r30, 000-USPA
    §3.3.2.23), unless the setup says otherwise."""
    rules = event.rules
    if event.tournament is not None:
        rules = {"tournament": True, "button_method": "dead", **event.rules}
    return profile(event.profile).with_overrides(rules)


class Table(TableState):
    """A poker table: its state, and `feed` for each input event."""

    __slots__ = ()

    def __init__(self, registry: DeckRegistry | None = None) -> None:
        registry = registry if registry is not None else default_registry()
        back = registry.decks[0].back if registry.decks else "blue"
        super().__init__(registry=registry, deck=Deck(back))

    # --- input --------------------------------------------------------------------------------

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        hand = self.hand
        if hand is not None and hand.result is None:
            dispatch.tick(hand, at, seq)
        if at is not None:
            housekeeping.timers(self, at, seq)
            collection.tick(self, at)
            tournament.tick(self, at, seq)
        match event:
            case Zone():
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    self.posting.zone[event.seat] = event.amount
                    dispatch.zone(hand, event.seat, event.amount, event.chips, seq)
                else:
                    forced_bets.zone_between(self, event, seq)
            case Draw():
                self._draw(event, seq)
            case KeyPress():
                self._key(event, seq)
            case SeatSensor():
                lineup.seat_sensor(self, event, at, seq)
            case Puck():
                self.puck = event.seat
                if hand is not None:
                    hand.deal.puck = event.seat
            case Setup():
                self._setup(event, seq, at)
            case RakeZone():
                drop.reading(self, event.amount, seq)
            case ClockSet():
                tournament.clock_set(self, event, seq)
            case _:
                assert_never(event)
        return self._drain()

    def finish(self, *, seq: int) -> list[Decision]:
        """End of input (end of a session file): settle what can be settled."""
        if self.hand is not None:
            dispatch.finish(self.hand, seq)
            hand_cycle.absorb(self)
        drop.settle(self, seq)
        return self._drain()

    def _drain(self) -> list[Decision]:
        if self.hand is not None and self.hand.out:
            hand_cycle.absorb(self)
        out, self.out = self.out, []
        self.screen.note(self.hand, out)
        return out

    # --- between hands ------------------------------------------------------------------------

    def _setup(self, event: Setup, seq: int, at: float | None) -> None:
        hand_cycle.close_unfinished(self, seq)
        drop.settle(self, seq)
        self.setup = event
        self.spec = rotation.spec_of(event.game, event.structure)
        self.profile = setup_profile(event)
        self.stacks = dict(event.seats)
        self.occupied = set(event.seats)
        self.button = event.button
        self.lineup.newcomers = set()
        self.lineup.missed = {}
        self.lineup.last_blinds = None
        self.lineup.big_blinds = {}
        self.lineup.last_players = 0
        self.hand = None
        self.posting.posted, self.posting.antes = {}, {}
        self.posting.straddle_keys, self.posting.kill_keys = set(), set()
        self.lineup.seat_wait = {}
        self.posting.post_chips, self.posting.min_chip = {}, None
        self.lineup.button_draw = []
        self.deck.check = None  # a new setup ends an unfinished deck check
        self.race = None
        self.timers.away_since, self.timers.away_flagged = {}, set()
        self.timers.time_flop_due = self.profile.time_flop
        self.timers.time_flop_next = None
        self.posting.offset = dict(self.posting.zone)
        entitled = self.forfeit.entitled
        if entitled is not None and len(entitled & set(event.seats)) < 2:
            self.forfeit.entitled = None  # re-seated: the forfeited money plays for whoever is in
        if event.deck is not None:
            housekeeping.deck_change(self, event.deck, seq)
        collection.setup(self)
        rotation.start(self)
        if event.kill is None or self.kills.holder not in event.seats:
            self.kills = KillBook()  # r1: neutral in a new game
        tournament.setup(self, at, seq)
        lineup.prompt_posts(self, seq)

    # --- cards and keys -----------------------------------------------------------------------

    def _draw(self, event: Draw, seq: int) -> None:
        card: Card | None = event.card
        back = event.back
        if card is None and event.tag is not None:
            info = self.registry.lookup(event.tag)
            if info is None:
                self.out.append(
                    self.incident(
                        seq,
                        Rule.STATION_UNKNOWN_TAG,
                        f"UNKNOWN CARD TAG {event.tag}: SHOW THE CARD TO THE FLOOR",
                        ruling=Ruling.FLOOR,
                    )
                )
            else:
                card = info.card
                back = back if back is not None else info.back
        back_ok = back is None or back == self.deck.back
        hand = self.hand
        if self.deck.check is not None and (hand is None or hand.result is not None):
            housekeeping.deck_check_card(self, card, seq)
            return
        if self.race is not None and (hand is None or hand.result is not None):
            chip_race.card(self, card, seq)
            return
        if (
            hand is None
            and card is not None
            and event.face_up
            and dealer_button.draw_for_button(self, card, seq)
        ):
            return
        if hand is None:
            code = card.code if card is not None else "??"
            self.out.append(DrawRole(self.hand_no, seq, code, DealSlot.STRAY))
            self.out.append(
                self.incident(
                    seq, Rule.STATION_UNEXPECTED_KEY, "NO HAND IN PROGRESS: PRESS NEW HAND"
                )
            )
            return
        board_before = len(hand.deal.board)
        dispatch.draw(hand, card, event.tag, event.face_up, back_ok, seq)
        if self.timers.time_flop_due and board_before < 3 and len(hand.deal.board) > board_before:
            housekeeping.time_flop(self, hand.deal.board[board_before:3], seq)

    def _key(self, event: KeyPress, seq: int) -> None:
        hand = self.hand
        if event.key is Key.NEW_HAND:
            hand_cycle.new_hand(self, seq)
        elif event.key in (Key.MOVE_OUT, Key.MOVE_IN):
            tournament.move(self, event, seq)
        elif hand is not None and hand.result is None:
            dispatch.key(hand, event, seq)
        else:
            self._key_between(event, seq)

    def _key_between(self, event: KeyPress, seq: int) -> None:
        """A key with no hand in progress (or after the pot was pushed)."""
        match event.key:
            case Key.TABLED | Key.MUCK if self.hand is not None:
                pass  # showing or mucking after the pot is pushed changes nothing
            case Key.STRADDLE if event.seat is not None:
                self.posting.straddle_keys.add(event.seat)
            case Key.KILL if event.seat is not None:
                self.posting.kill_keys.add(event.seat)
            case Key.SEAT_CHANGE:
                lineup.seat_change(self, event, seq)
            case Key.DECK_CHECK:
                housekeeping.start_deck_check(self, seq)
            case Key.CHIP_RACE:
                chip_race.start(self, event.amount, seq)
                tournament.race_started(self, event.amount)
            case Key.FORFEIT:
                hand_cycle.forfeit(self, event, seq)
            case Key.CONFIRM if self.deck.check is not None:
                housekeeping.deck_checked(self, seq)
            case Key.FLOOR:
                self.floor_call = True
                self.out.append(
                    self.incident(seq, Rule.STATION_FLOOR_CALL, "CALL FLOOR", Ruling.FLOOR)
                )
            case (
                Key.NEW_HAND
                | Key.FOLD
                | Key.CHECK
                | Key.VERBAL
                | Key.ALLIN
                | Key.EXPOSED
                | Key.FLASH
                | Key.BOXED
                | Key.MISDEAL
                | Key.STUB_RESHUFFLE
                | Key.DRAW
                | Key.DISCARD
                | Key.STRADDLE
                | Key.KILL
                | Key.TABLED
                | Key.MUCK
                | Key.RUN_IT
                | Key.CLOCK
                | Key.TIME
                | Key.CONFIRM
                | Key.CANCEL
                | Key.ELIMINATE
                | Key.BURN_SELECT
                | Key.CHOP
                | Key.MOVE_OUT
                | Key.MOVE_IN
                | Key.SHOWN
            ):
                self.out.append(
                    self.incident(
                        seq,
                        Rule.STATION_UNEXPECTED_KEY,
                        f"{key_label(event.key.value)}: NO HAND IN PROGRESS",
                    )
                )
            case _:
                assert_never(event.key)

    # --- output -------------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        return table_snapshot(self)

"""The table: the rules engine's one entry point. Pure.

`Table.feed(event, seq=..., at=...)` takes one input event and returns the decisions it causes;
`Table.snapshot()` gives the frozen view the display shows. Same events in, same decisions out:
the journal's crash recovery and `station replay` both rely on that.

Between hands the table collects forced bets: a zone amount posted before NEW_HAND that is taken
in again before NEW_HAND is an ante (dead money); one still in front at NEW_HAND is a blind,
straddle or other live post (PRODUCT.md §4 conventions).

`Table` holds the table's state and dispatches the events; the rules between hands live in
modules of one concept each: `lineup` (who is dealt in, button and blinds, seat changes),
`forced_bets` (which posts play: kills, straddles, missed blinds), `dealer_button` (the draw for
the button, a button not moved), `hand_cycle` (starting, redealing and closing hands) and
`housekeeping` (deck check and change, absence, the time flop). The hand itself is `Hand`.
"""

from __future__ import annotations

from station.engine import (
    chip_race,
    collection,
    dealer_button,
    dispatch,
    drop,
    hand_cycle,
    housekeeping,
    lineup,
)
from station.engine.cards import Card, DeckRegistry, default_registry
from station.engine.decisions import Decision, DrawRole, Incident, Role, Ruling
from station.engine.events import (
    Draw,
    InputEvent,
    Key,
    KeyPress,
    Puck,
    RakeZone,
    SeatSensor,
    Setup,
    Zone,
)
from station.engine.games import GameSpec, game_spec
from station.engine.hand import Hand
from station.engine.profiles import Profile, profile
from station.engine.rulebook import citation
from station.engine.snapshot import TableSnapshot
from station.engine.view import table_snapshot


class Table:
    """A poker table: setup, seats, stacks, button, and the hand in progress."""

    def __init__(self, registry: DeckRegistry | None = None) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.setup: Setup | None = None
        self.spec: GameSpec | None = None
        self.profile: Profile | None = None
        self.hand_no = 0
        self.hand: Hand | None = None
        self.stacks: dict[int, int | None] = {}
        self.occupied: set[int] = set()
        self.button: int | None = None  # button for the next (or current) hand
        self.puck: int | None = None
        self.zone: dict[int, int] = {}
        self.offset: dict[int, int] = {}  # chips of a finished hand still in the zones
        self.posted: dict[int, int] = {}  # forced bets posted for the next hand
        self.antes: dict[int, int] = {}  # forced bets already taken in (dead money)
        self.back: str = self.registry.decks[0].back if self.registry.decks else "blue"
        self.deck_hands = 0  # DECK-CHANGE: hands dealt with the deck in play
        self.deck_round = 0  # players dealt in the last hand: a full round with this deck
        self.deck_defective = False  # the deck in play was found defective (may be changed)
        self.floor_call = False
        self.newcomers: set[int] = set()  # seated since the setup, not yet dealt in
        self.missed: dict[int, set[str]] = {}  # BLIND-MISSED: seat -> {"sb", "bb"} passed by
        self.last_blinds: tuple[int | None, int] | None = None  # (small, big) of the last hand
        self.last_button: int | None = None
        self.posts_prompt = ""
        self.last_players = 0
        self.straddle_keys: set[int] = set()  # STRADDLE pressed for the next hand
        self.kill_keys: set[int] = set()  # KILL pressed for the next hand
        self.seat_wait: dict[int, int] = {}  # BLIND-SEAT-CHANGE: seat -> hands still to wait
        self.post_chips: dict[int, tuple[int, ...]] = {}  # denominations of the forced bets
        self.button_draw: list[tuple[int, Card]] = []  # BUTTON-INITIAL-DRAW: (seat, card)
        self.away_since: dict[int, float] = {}  # MISC-ABSENCE: seat -> event time he left
        self.time_flop_due = False  # MISC-TIME-COLLECTION: the next flop names who pays time
        self.deck_check: list[Card] | None = None  # DECK_CHECK: cards scanned so far
        self.race: chip_race.Race | None = None  # TOURN-CHIP-RACE in progress
        self.time_flop_next: float | None = None  # event time from which the next one is due
        self.away_flagged: set[int] = set()
        self.min_chip: int | None = None  # BET-SMALLEST-CHIP, CHIP-ODD-UNIT (when reported)
        # DECK-FORFEITED-MONEY-ENTITLEMENT: money forfeited to the next deal, and the seats
        # dealt in on the deal it comes from (only they may receive a hand while it is there).
        self.carry = 0
        self.carry_entitled: frozenset[int] | None = None
        self.forfeited: dict[int, int] = {}  # of the last (void) hand's refunds, per seat
        self.house = collection.House()  # MISC-TIME-COLLECTION: time collection due
        self.drop = drop.DropLedger()  # the rake zone: what was set aside for the house
        self.out: list[Decision] = []

    # --- input --------------------------------------------------------------------------------

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        hand = self.hand
        if hand is not None and hand.result is None:
            dispatch.tick(hand, at, seq)
        if at is not None:
            housekeeping.timers(self, at, seq)
            collection.tick(self, at)
        match event:
            case Zone():
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    self.zone[event.seat] = event.amount
                    dispatch.zone(hand, event.seat, event.amount, event.chips, seq)
                else:
                    self._zone_between(event, seq)
            case Draw():
                self._draw(event, seq)
            case KeyPress():
                self._key(event, seq)
            case SeatSensor():
                before = set(self.occupied)
                if event.occupied:
                    self.occupied.add(event.seat)
                    if event.seat not in before and event.seat not in self.stacks:
                        self.newcomers.add(event.seat)
                    self.away_since.pop(event.seat, None)
                    self.away_flagged.discard(event.seat)
                else:
                    self.occupied.discard(event.seat)
                    self.newcomers.discard(event.seat)
                    if self.stacks.get(event.seat, None) == 0:
                        del self.stacks[event.seat]  # out of chips and gone: the seat is free
                    elif at is not None and event.seat in self.stacks:
                        self.away_since.setdefault(event.seat, at)
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    dispatch.seat_sensor(hand, event.seat, event.occupied, seq)
                if self.occupied != before and (hand is None or hand.result is not None):
                    lineup.prompt_posts(self, seq)  # who posts what changes with who is seated
                    if event.occupied and self.missed.get(event.seat):
                        lineup.prompt_missed(self, event.seat, seq)
            case Puck():
                self.puck = event.seat
                if hand is not None:
                    hand.deal.puck = event.seat
            case Setup():
                self._setup(event, seq)
            case RakeZone():
                drop.reading(self, event.amount, seq)
        return self._drain()

    def finish(self, *, seq: int) -> list[Decision]:
        """End of input (end of a session file): settle what can be settled."""
        if self.hand is not None:
            dispatch.finish(self.hand, seq)
            self.absorb()
        drop.settle(self, seq)
        return self._drain()

    def _drain(self) -> list[Decision]:
        if self.hand is not None and self.hand.out:
            self.absorb()
        out, self.out = self.out, []
        return out

    def absorb(self) -> None:
        """Take the hand's decisions; when it has just ended, settle the table."""
        hand = self.hand
        if hand is None:
            return
        decisions = hand.drain()
        self.out.extend(decisions)
        if hand.result is not None and any(d is hand.result for d in decisions):
            hand_cycle.hand_ended(self, hand)
        if hand.alerts.floor_call:
            self.floor_call = True

    # --- between hands ------------------------------------------------------------------------

    def _setup(self, event: Setup, seq: int) -> None:
        hand_cycle.close_unfinished(self, seq)
        drop.settle(self, seq)
        self.setup = event
        self.spec = game_spec(event.game)
        self.profile = profile(event.profile).with_overrides(event.rules)
        self.stacks = dict(event.seats)
        self.occupied = set(event.seats)
        self.button = event.button
        self.newcomers = set()
        self.missed = {}
        self.last_blinds = None
        self.last_players = 0
        self.hand = None
        self.posted, self.antes = {}, {}
        self.straddle_keys, self.kill_keys, self.seat_wait = set(), set(), {}
        self.post_chips, self.min_chip = {}, None
        self.button_draw = []
        self.deck_check = None  # a new setup ends an unfinished deck check
        self.race = None
        self.away_since, self.away_flagged = {}, set()
        self.time_flop_due = self.profile.time_flop
        self.time_flop_next = None
        self.offset = dict(self.zone)
        if self.carry_entitled is not None and len(self.carry_entitled & set(event.seats)) < 2:
            self.carry_entitled = None  # re-seated: the forfeited money plays for whoever is in
        if event.deck is not None:
            housekeeping.deck_change(self, event.deck, seq)
        collection.setup(self)
        lineup.prompt_posts(self, seq)

    def _zone_between(self, event: Zone, seq: int) -> None:
        seat, reading = event.seat, event.amount
        if self.race is not None:
            self.zone[seat] = reading
            self.offset[seat] = reading  # race chips are not a post
            chip_race.zone(self, seat, event.chips, seq)
            return
        if seat not in self.occupied and reading > 0:
            self.out.append(self.incident(seq, "STATION-EMPTY-SEAT", f"CHIPS AT EMPTY SEAT {seat}"))
        self.zone[seat] = reading
        if event.chips and reading > 0:
            self.post_chips[seat] = event.chips
        base = self.offset.get(seat, 0)
        posted = self.posted.get(seat, 0)
        if reading >= base + posted:
            self.posted[seat] = reading - base
            return
        drop = base + posted - reading
        taken = min(drop, posted)  # chips posted for this hand and taken in: an ante
        if taken:
            self.antes[seat] = self.antes.get(seat, 0) + taken
            self.posted[seat] = posted - taken
        self.offset[seat] = base - (drop - taken)

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
                        "STATION-UNKNOWN-TAG",
                        f"UNKNOWN CARD TAG {event.tag}: SHOW THE CARD TO THE FLOOR",
                        ruling=Ruling.FLOOR,
                    )
                )
            else:
                card = info.card
                back = back if back is not None else info.back
        back_ok = back is None or back == self.back
        hand = self.hand
        if self.deck_check is not None and (hand is None or hand.result is not None):
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
            self.out.append(DrawRole(self.hand_no, seq, code, Role.STRAY))
            self.out.append(
                self.incident(seq, "STATION-UNEXPECTED-KEY", "NO HAND IN PROGRESS: PRESS NEW HAND")
            )
            return
        board_before = len(hand.deal.board)
        dispatch.draw(hand, card, event.tag, event.face_up, back_ok, seq)
        if self.time_flop_due and board_before < 3 and len(hand.deal.board) > board_before:
            housekeeping.time_flop(self, hand.deal.board[board_before:3], seq)

    def _key(self, event: KeyPress, seq: int) -> None:
        if event.key is Key.NEW_HAND:
            hand_cycle.new_hand(self, seq)
            return
        hand = self.hand
        if hand is not None and hand.result is not None and event.key in (Key.TABLED, Key.MUCK):
            return  # showing or mucking after the pot is pushed changes nothing
        if hand is None or hand.result is not None:
            if event.key in (Key.STRADDLE, Key.KILL) and event.seat is not None:
                keys = self.straddle_keys if event.key is Key.STRADDLE else self.kill_keys
                keys.add(event.seat)
                return
            if event.key is Key.SEAT_CHANGE:
                lineup.seat_change(self, event, seq)
                return
            if event.key is Key.DECK_CHECK:
                housekeeping.start_deck_check(self, seq)
                return
            if event.key is Key.CHIP_RACE:
                chip_race.start(self, event.amount, seq)
                return
            if event.key is Key.FORFEIT:
                hand_cycle.forfeit(self, event, seq)
                return
            if event.key is Key.CONFIRM and self.deck_check is not None:
                housekeeping.deck_checked(self, seq)
                return
            if event.key is Key.FLOOR:
                self.floor_call = True
                self.out.append(
                    self.incident(seq, "STATION-FLOOR-CALL", "CALL FLOOR", Ruling.FLOOR)
                )
                return
            self.out.append(
                self.incident(
                    seq, "STATION-UNEXPECTED-KEY", f"{event.key.value}: NO HAND IN PROGRESS"
                )
            )
            return
        dispatch.key(hand, event, seq)

    def incident(
        self,
        seq: int,
        rule: str,
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
            rule=rule,
            ruling=ruling,
            text=text,
            event=seq,
            citation=citation(rule, source),
            events=events or (seq,),
            seat=seat,
            seats=(seat,) if seat is not None else (),
        )

    # --- output -------------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        return table_snapshot(self)

    def hand_number(self) -> int:
        """`snapshot().hand` without building the snapshot."""
        if self.setup is None:
            return 0
        return self.hand.number if self.hand is not None else self.hand_no

"""The table: the rules engine's one entry point. Pure.

`Table.feed(event, seq=..., at=...)` takes one input event and returns the decisions it causes;
`Table.snapshot()` gives the frozen view the display shows. Same events in, same decisions out:
the journal's crash recovery and `station replay` both rely on that.

Between hands the table collects forced bets: a zone amount posted before NEW_HAND that is taken
in again before NEW_HAND is an ante (dead money); one still in front at NEW_HAND is a blind,
straddle or other live post (PRODUCT.md §4 conventions).
"""

from __future__ import annotations

from station.engine.cards import Card, DeckRegistry, default_registry
from station.engine.decisions import Decision, DrawRole, Incident, Prompt, PromptCode, Role, Ruling
from station.engine.events import Draw, InputEvent, Key, KeyPress, Puck, SeatSensor, Setup, Zone
from station.engine.games import Family, GameSpec, game_spec
from station.engine.hand import Hand
from station.engine.positions import (
    TABLE_SEATS,
    button_layout,
    clockwise_after,
    dead_button_next,
    next_seat,
)
from station.engine.profiles import ButtonMethod, Profile, profile
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
        self.floor_call = False
        self.newcomers: set[int] = set()  # seated since the setup, not yet dealt in
        self.missed: dict[int, set[str]] = {}  # BLIND-MISSED: seat -> {"sb", "bb"} passed by
        self.last_blinds: tuple[int | None, int] | None = None  # (small, big) of the last hand
        self.posts_prompt = ""
        self.last_players = 0
        self.out: list[Decision] = []

    # --- input --------------------------------------------------------------------------------

    def feed(self, event: InputEvent, *, seq: int, at: float | None = None) -> list[Decision]:
        hand = self.hand
        match event:
            case Zone():
                if hand is not None and hand.result is None and event.seat in hand.seats:
                    self.zone[event.seat] = event.amount
                    hand.on_zone(event.seat, event.amount, event.chips, seq)
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
                else:
                    self.occupied.discard(event.seat)
                    self.newcomers.discard(event.seat)
                if self.occupied != before and (hand is None or hand.result is not None):
                    self._prompt_posts(seq)  # who posts what changes with who is seated
                    if event.occupied and self.missed.get(event.seat):
                        self._prompt_missed(event.seat, seq)
            case Puck():
                self.puck = event.seat
                if hand is not None:
                    hand.puck = event.seat
            case Setup():
                self._setup(event, seq)
        return self._drain()

    def finish(self, *, seq: int) -> list[Decision]:
        """End of input (end of a session file): settle what can be settled."""
        if self.hand is not None:
            self.hand.finish(seq)
            self._absorb()
        return self._drain()

    def _drain(self) -> list[Decision]:
        if self.hand is not None and self.hand.out:
            self._absorb()
        out, self.out = self.out, []
        return out

    def _absorb(self) -> None:
        """Take the hand's decisions; when it has just ended, settle the table."""
        hand = self.hand
        if hand is None:
            return
        decisions = hand.drain()
        self.out.extend(decisions)
        if hand.result is not None and any(d is hand.result for d in decisions):
            self._hand_ended(hand)
        if hand.state.floor_call:
            self.floor_call = True

    # --- between hands ------------------------------------------------------------------------

    def _setup(self, event: Setup, seq: int) -> None:
        self._close_unfinished(seq)
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
        self.offset = dict(self.zone)
        if event.deck is not None:
            self.back = event.deck
        self._prompt_posts(seq)

    def _zone_between(self, event: Zone, seq: int) -> None:
        seat, reading = event.seat, event.amount
        if seat not in self.occupied and reading > 0:
            self.out.append(
                self._incident(seq, "STATION-EMPTY-SEAT", f"CHIPS AT EMPTY SEAT {seat}")
            )
        self.zone[seat] = reading
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

    def _new_hand(self, seq: int) -> None:
        if self.setup is None or self.spec is None or self.profile is None:
            self.out.append(self._incident(seq, "STATION-UNEXPECTED-KEY", "SET UP THE TABLE FIRST"))
            return
        if self.hand is not None and self.hand.phase.value == "misdeal":
            self._redeal(seq)
            return
        self._close_unfinished(seq)
        dealt = self._dealt_in()
        if len(dealt) < 2:
            self.out.append(self._incident(seq, "STATION-UNEXPECTED-KEY", "FEWER THAN TWO PLAYERS"))
            return
        self.hand_no += 1
        button, blinds = self._positions(dealt)
        self._note_missed_blinds(dealt, button, blinds)
        posts, dead = self._split_missed_posts(dealt)
        self.hand = Hand.start(
            number=self.hand_no,
            spec=self.spec,
            profile=self.profile,
            stakes=self.setup.stakes,
            dealt=dealt,
            stacks={s: self.stacks.get(s) for s in dealt},
            button=button,
            posts=posts,
            antes=dead,
            zone=self.zone,
            seq=seq,
            puck=self.puck,
            blinds=blinds,
        )
        self.posted, self.antes = {}, {}
        self._absorb()

    def _dealt_in(self, *, commit: bool = True) -> list[int]:
        """Seats dealt in: entitled players, plus a waiting player whom the big blind reaches
        (BLIND-NEW-PLAYER, BLIND-MISSED: "wait for the big blind"). `commit` records that a
        waiting player came in; without it this only looks ahead (for the posting prompt)."""
        dealt = sorted(s for s in self.occupied if self._entitled(s, commit=commit))
        if self.spec is None or self.spec.family is Family.STUD or len(dealt) < 2:
            return dealt
        waiting = sorted(
            s for s in self.occupied if s not in dealt and self.stacks.get(s, None) != 0
        )
        for seat in waiting:
            trial = sorted({*dealt, seat})
            button, blinds = self._positions(trial)
            if button is not None and button_layout(trial, button, blinds).big_blind == seat:
                if commit:
                    self.newcomers.discard(seat)
                    self.missed.pop(seat, None)
                dealt = trial
        return dealt

    def _note_missed_blinds(
        self, dealt: list[int], button: int | None, blinds: tuple[int | None, int] | None
    ) -> None:
        """BLIND-MISSED: an away player (chips on the table, seat empty) whom a blind passes
        owes it when he comes back."""
        last = self.last_blinds
        if last is None or button is None:
            return
        layout = button_layout(dealt, button, blinds)
        away = [s for s, st in self.stacks.items() if st != 0 and s not in self.occupied]
        for name, before, now in (
            ("sb", last[0], layout.small_blind),
            ("bb", last[1], layout.big_blind),
        ):
            if before is None or now is None:
                continue
            passed = clockwise_after(range(1, TABLE_SEATS + 1), before)
            passed = passed[: passed.index(now)] if now in passed else []
            for seat in away:
                if seat in passed:
                    self.missed.setdefault(seat, set()).add(name)

    def _split_missed_posts(self, dealt: list[int]) -> tuple[dict[int, int], dict[int, int]]:
        """(live posts, dead money) at the deal. A player making up missed blinds posts them
        all: the big blind is live, the rest is dead (BLIND-MISSED; GN: only the big blind is
        live, D51, which is the same split here)."""
        assert self.setup is not None
        bb = self.setup.stakes.bb or 0
        posts = {s: a for s, a in self.posted.items() if a > 0}
        dead = {s: a for s, a in self.antes.items() if a > 0}
        for seat in dealt:
            if self.missed.pop(seat, None) and posts.get(seat, 0) > bb:
                dead[seat] = dead.get(seat, 0) + posts[seat] - bb
                posts[seat] = bb
        return posts, dead

    def _prompt_missed(self, seat: int, seq: int) -> None:
        assert self.setup is not None
        st = self.setup.stakes
        owed = (st.bb or 0) + (st.sb or 0 if "sb" in self.missed[seat] else 0)
        self.out.append(
            Prompt(
                self.hand_no + 1,
                f"SEAT {seat} MISSED THE BLINDS: POST {owed} ({st.bb} LIVE) OR WAIT FOR THE BIG "
                "BLIND",
                seq,
                PromptCode.POST,
            )
        )

    def _entitled(self, seat: int, *, commit: bool = True) -> bool:
        """Dealt in this hand? A seated player with chips; a new player only once he has posted
        a big blind (BLIND-NEW-PLAYER: "post an amount equal to the big blind and be dealt in
        immediately", or wait for the big blind)."""
        if self.stacks.get(seat, None) == 0:
            return False
        if seat not in self.newcomers and not self.missed.get(seat):
            return True
        assert self.setup is not None
        due = self.setup.stakes.bb or self.setup.stakes.ante or 0
        if self.posted.get(seat, 0) + self.antes.get(seat, 0) >= due:
            if commit:
                self.newcomers.discard(seat)
            return True
        return False

    def _positions(self, dealt: list[int]) -> tuple[int | None, tuple[int | None, int] | None]:
        """(button, fixed blinds) for the next hand of a button game (BUTTON-METHOD)."""
        assert self.spec is not None
        assert self.profile is not None
        if self.spec.family is Family.STUD:
            return None, None
        last = self.last_blinds
        if last is not None and len(dealt) == 2 and self.last_players >= 3 and last[1] in dealt:
            # BUTTON-HEADS-UP (001-RR11 §4 r3): going heads-up, the player who had the big
            # blind most recently gets the button.
            return last[1], None
        if last is not None and self.profile.button_method is ButtonMethod.DEAD and len(dealt) > 2:
            return dead_button_next(dealt, last[0], last[1])
        return (self.button if self.button is not None else dealt[-1]), None

    def _redeal(self, seq: int) -> None:
        """MISDEAL-PROCEDURE (product default): the same hand is redealt; forced bets stay,
        voluntary chips go back."""
        old = self.hand
        assert old is not None
        assert self.spec is not None
        assert self.profile is not None
        assert self.setup is not None
        posts = dict(old.posts)
        antes = {s: c for s, c in old.dead.items() if c > 0}
        self.hand = Hand.start(
            number=old.number,
            spec=self.spec,
            profile=self.profile,
            stakes=self.setup.stakes,
            dealt=sorted(old.dealt),
            stacks={s: self.stacks.get(s) for s in old.dealt},
            button=old.button,
            posts=posts,
            antes=antes,
            zone=self.zone,
            seq=seq,
            puck=self.puck,
        )
        self._absorb()

    def _close_unfinished(self, seq: int) -> None:
        hand = self.hand
        if hand is None or hand.result is not None:
            return
        hand.finish(seq)
        if hand.result is None:
            hand.incident(
                seq,
                "STATION-HAND-ABANDONED",
                Ruling.FLOOR,
                f"HAND {hand.number} WAS NOT FINISHED: EVERY WAGER RETURNED, FLOOR TO CONFIRM",
            )
            hand.void(seq)
        self._absorb()

    def _hand_ended(self, hand: Hand) -> None:
        assert hand.result is not None
        for s, st in hand.result.stacks.items():
            self.stacks[s] = st
        self.offset = {s: self.zone.get(s, 0) for s in set(self.zone) | set(hand.seats)}
        self.posted, self.antes = {}, {}
        if self.spec is not None and self.spec.family is not Family.STUD and hand.button:
            # The button moves to the next player who will be dealt in: it passes players who
            # wait for the big blind (BLIND-NEW-PLAYER, BLIND-MISSED).
            movers = [
                s
                for s in self.occupied
                if self.stacks.get(s, None) != 0
                and s not in self.newcomers
                and not self.missed.get(s)
            ]
            self.button = next_seat(movers, hand.button)
            if hand.layout is not None and hand.layout.big_blind is not None:
                self.last_blinds = (hand.layout.small_blind, hand.layout.big_blind)
            self.last_players = len(hand.dealt)
        self._prompt_posts(hand.result.event)

    def _prompt_posts(self, seq: int) -> None:
        spec, setup = self.spec, self.setup
        if spec is None or setup is None or spec.family is Family.STUD:
            return
        movers = self._dealt_in(commit=False)
        if len(movers) < 2 or self.button is None:
            return
        button, blinds = self._positions(movers)
        assert button is not None
        layout = button_layout(movers, button, blinds)
        st = setup.stakes
        parts = [f"BUTTON SEAT {layout.button}"]
        if st.sb and layout.small_blind is not None:
            parts.append(f"SB SEAT {layout.small_blind} {st.sb}")
        if st.bb and layout.big_blind is not None:
            parts.append(f"BB SEAT {layout.big_blind} {st.bb}")
        self.posts_prompt = " / ".join(parts)
        self.out.append(Prompt(self.hand_no + 1, self.posts_prompt, seq, PromptCode.POST))

    # --- cards and keys -----------------------------------------------------------------------

    def _draw(self, event: Draw, seq: int) -> None:
        card: Card | None = event.card
        back = event.back
        if card is None and event.tag is not None:
            info = self.registry.lookup(event.tag)
            if info is None:
                self.out.append(
                    self._incident(
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
        if hand is None:
            code = card.code if card is not None else "??"
            self.out.append(DrawRole(self.hand_no, seq, code, Role.STRAY))
            self.out.append(
                self._incident(seq, "STATION-UNEXPECTED-KEY", "NO HAND IN PROGRESS: PRESS NEW HAND")
            )
            return
        hand.on_draw(card, event.tag, event.face_up, back_ok, seq)

    def _key(self, event: KeyPress, seq: int) -> None:
        if event.key is Key.NEW_HAND:
            self._new_hand(seq)
            return
        hand = self.hand
        if hand is not None and hand.result is not None and event.key in (Key.TABLED, Key.MUCK):
            return  # showing or mucking after the pot is pushed changes nothing
        if hand is None or hand.result is not None:
            if event.key is Key.FLOOR:
                self.floor_call = True
                self.out.append(
                    self._incident(seq, "STATION-FLOOR-CALL", "CALL FLOOR", Ruling.FLOOR)
                )
                return
            self.out.append(
                self._incident(
                    seq, "STATION-UNEXPECTED-KEY", f"{event.key.value}: NO HAND IN PROGRESS"
                )
            )
            return
        hand.key(event, seq)

    def _incident(
        self, seq: int, rule: str, text: str, ruling: Ruling = Ruling.WARNING
    ) -> Incident:
        source = self.profile.citation_source if self.profile is not None else "001-RR11"
        return Incident(
            hand=self.hand_no,
            rule=rule,
            ruling=ruling,
            text=text,
            event=seq,
            citation=citation(rule, source),
            events=(seq,),
        )

    # --- output -------------------------------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        return table_snapshot(self)
